//! `/openapi.json`: an OpenAPI 3 document for every REST route of a server,
//! derived from its route table and the protobuf descriptors (with the `.proto` comments
//! as descriptions), so it cannot drift from the `.proto` files.

mod names;
mod options;
mod scalar;
mod schema;

use prost_reflect::{DescriptorPool, MessageDescriptor, MethodDescriptor};
use serde_json::{Map, Value, json};

use crate::{
    descriptors::Comments,
    query,
    routes::{RouteSpec, Shape},
};
use names::{Form, Names};
use schema::Schemas;

/// The error body's component, written by hand (see [`error_schema`]).
const ERROR: &str = "Error";

/// The document of `routes` (e.g. [`crate::routes::ROUTES`]) titled
/// `title`, or what in the descriptors does not match the route table.
pub fn document(pool: &DescriptorPool, routes: &[RouteSpec], title: &str) -> Result<Value, String> {
    let methods = routes
        .iter()
        .map(|route| find_method(pool, route))
        .collect::<Result<Vec<_>, _>>()?;
    let home = methods
        .first()
        .map(|m| m.parent_service().package_name().to_owned())
        .unwrap_or_default();
    let inputs: Vec<MessageDescriptor> = methods.iter().map(MethodDescriptor::input).collect();
    let outputs: Vec<MessageDescriptor> = methods.iter().map(MethodDescriptor::output).collect();
    let mut names = Names::new(&home, &inputs, &outputs);
    names.reserve(ERROR);

    let comments = Comments::new(pool);
    let mut schemas = Schemas::new(&comments, pool, names);
    let mut paths = Map::new();
    for (route, method) in routes.iter().zip(&methods) {
        let operation = operation(route, method, &comments, &mut schemas);
        let item = paths
            .entry(route.path.to_owned())
            .or_insert_with(|| Value::Object(Map::new()));
        if let Value::Object(item) = item {
            item.insert(route.method.to_lowercase(), operation);
        }
    }
    let mut components = schemas.into_components()?;
    components.insert(ERROR.into(), error_schema());
    Ok(json!({
        "openapi": "3.0.3",
        "info": {
            "title": title,
            "version": "v1",
            "description": "REST/JSON face of the skitgubbe.v1 gRPC API. Bodies and responses \
                follow the protobuf JSON mapping: lowerCamelCase names, enums as strings, \
                64-bit integers as strings. A response has every field that has no presence, \
                even at its default (`0`, `false`, `\"\"`, `[]`); a field with presence (a \
                message, an `optional` field, a oneof member) is left out while unset. Whole \
                numbers are written without a fraction (`2`, not `2.0`). On input, the \
                mapping's other spellings are accepted as well: proto field names \
                (`move_id`), enum numbers, 64-bit integers as JSON numbers.",
        },
        "paths": paths,
        "components": {
            "schemas": components,
            "securitySchemes": {"bearerAuth": {"type": "http", "scheme": "bearer"}},
        },
        "security": [{"bearerAuth": []}],
    }))
}

fn find_method(pool: &DescriptorPool, route: &RouteSpec) -> Result<MethodDescriptor, String> {
    let service = pool
        .get_service_by_name(route.service)
        .ok_or_else(|| format!("service {} not in the descriptors", route.service))?;
    service
        .methods()
        .find(|m| m.name() == route.rpc)
        .ok_or_else(|| format!("rpc {}.{} not in the descriptors", route.service, route.rpc))
}

fn operation(
    route: &RouteSpec,
    method: &MethodDescriptor,
    comments: &Comments,
    schemas: &mut Schemas<'_>,
) -> Value {
    let input = method.input();
    let in_path: Vec<&str> = route.path_params().collect();
    let mut parameters = path_parameters(route, &input, schemas);
    let mut operation = Map::new();
    operation.insert("operationId".into(), json!(route.rpc));
    operation.insert("tags".into(), json!([method.parent_service().name()]));
    let file = method.parent_service().parent_file();
    if let Some(text) = comments.get(file.name(), method.path()) {
        let summary = text.lines().next().unwrap_or_default();
        operation.insert("summary".into(), json!(summary));
        operation.insert("description".into(), json!(text));
    }
    match route.shape {
        Shape::Body => {
            let body = schemas.request_ref(&input, &in_path);
            // An empty body is the empty message, which a message with
            // required fields is not.
            let required = schemas.requires_any(&body);
            operation.insert(
                "requestBody".into(),
                json!({
                    "description": "Path parameters replace the body's fields of the same name; \
                        an empty body is the empty message.",
                    "required": required,
                    "content": {"application/json": {"schema": body}},
                }),
            );
        }
        Shape::Query | Shape::EventStream | Shape::Ndjson => {
            parameters.extend(query_parameters(route, &input, schemas));
        }
    }
    if !parameters.is_empty() {
        operation.insert("parameters".into(), Value::Array(parameters));
    }
    let output = schemas.message_ref(&method.output(), Form::Response);
    let success = match route.shape {
        Shape::EventStream => json!({
            "description": "Server-Sent Events: one `data:` line per message, as JSON (a \
                View's `id:` is its version); a failure ends the stream with `event: error` \
                and an Error.",
            "content": {"text/event-stream": {"schema": event_schema(&output)}},
        }),
        Shape::Ndjson => json!({
            "description": "NDJSON: one message per line, as JSON; a failure after the \
                first line ends the answer with one line `{\"error\": Error}`.",
            "content": {"application/x-ndjson": {"schema": output}},
        }),
        Shape::Body | Shape::Query => {
            json!({"description": "OK", "content": {"application/json": {"schema": output}}})
        }
    };
    operation.insert(
        "responses".into(),
        json!({
            "200": success,
            "default": {
                "description": "The gRPC status, mapped to an HTTP status",
                "content": {"application/json": {"schema": {"$ref": format!("#/components/schemas/{ERROR}")}}},
            },
        }),
    );
    if !route.authenticated {
        operation.insert("security".into(), json!([]));
    }
    Value::Object(operation)
}

fn path_parameters(
    route: &RouteSpec,
    input: &MessageDescriptor,
    schemas: &mut Schemas<'_>,
) -> Vec<Value> {
    route
        .path_params()
        .map(|name| {
            let schema = input
                .get_field_by_name(name)
                .map(|field| schemas.parameter_schema(&field))
                .unwrap_or_else(|| json!({"type": "string"}));
            json!({"name": name, "in": "path", "required": true, "schema": schema})
        })
        .collect()
}

/// Every field not in the path but maps: scalars, enums and the
/// well-known types written as a string (a timestamp, say;
/// [`crate::query::PLAIN_TEXT`]) as plain values, other messages as JSON
/// text.
fn query_parameters(
    route: &RouteSpec,
    input: &MessageDescriptor,
    schemas: &mut Schemas<'_>,
) -> Vec<Value> {
    input
        .fields()
        .filter(|field| !route.path_params().any(|p| p == field.name()))
        .filter(|field| !field.is_map())
        .map(|field| {
            let schema = schemas.parameter_schema(&field);
            let required = schemas.is_required(&field);
            let name = field.json_name();
            match field.kind() {
                kind @ prost_reflect::Kind::Message(_)
                    if !field.is_list() && !query::is_plain_text(&kind) =>
                {
                    json!({
                        "name": name, "in": "query", "required": required,
                        "content": {"application/json": {"schema": schema}},
                    })
                }
                _ => json!({"name": name, "in": "query", "required": required, "schema": schema}),
            }
        })
        .collect()
}

fn error_schema() -> Value {
    json!({
        "type": "object",
        "required": ["code", "reason", "message", "fieldViolations", "metadata", "details"],
        "properties": {
            "code": {
                "type": "string",
                "description": "The gRPC status code name, e.g. FAILED_PRECONDITION.",
                "enum": [
                    "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED",
                    "NOT_FOUND", "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED",
                    "FAILED_PRECONDITION", "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED",
                    "INTERNAL", "UNAVAILABLE", "DATA_LOSS", "UNAUTHENTICATED",
                ],
            },
            "reason": {
                "type": "string",
                "description": "The stable machine-readable reason (google.rpc.ErrorInfo.reason): \
                    the rule broken (does_not_beat, ...), stale_version, move_id_reused, \
                    invalid_argument, malformed_json (with the field at fault), \
                    unsupported_media_type (a body not sent as application/json; HTTP 415), \
                    no_such_route, ...; else the code in lower case.",
            },
            "message": {"type": "string", "description": "For people; not stable."},
            "fieldViolations": {
                "type": "array",
                "description": "The request fields at fault (google.rpc.BadRequest).",
                "items": {
                    "type": "object",
                    "required": ["field", "description"],
                    "properties": {
                        "field": {"type": "string", "description": "e.g. action.play, rules.preset"},
                        "description": {"type": "string"},
                    },
                },
            },
            "metadata": {
                "type": "object",
                "description": "Facts to act on (google.rpc.ErrorInfo.metadata), e.g. \
                    current_version and expected_version on a stale write.",
                "additionalProperties": {"type": "string"},
            },
            "retryDelay": {
                "type": "string",
                "description": "How long to wait before retrying (google.rpc.RetryInfo), \
                    e.g. \"1s\"; only on errors worth retrying (such as 503 while the \
                    database is down), which also carry a Retry-After header.",
            },
            "details": {
                "type": "array",
                "description": "google.rpc error details, each with an @type.",
                "items": {"type": "object", "additionalProperties": true},
            },
        },
    })
}

/// One Server-Sent Event of a stream of `output` messages: its `data` is
/// the message as JSON (an Error under `event: error`), as OpenAPI 3.2
/// describes event streams (`contentMediaType` and `contentSchema`, which
/// tools such as schemathesis read in a 3.0 document too).
fn event_schema(output: &Value) -> Value {
    json!({
        "type": "object",
        "required": ["data"],
        "properties": {
            "id": {"type": "string", "description": "A View's version."},
            "event": {
                "type": "string",
                "description": "Absent (a message) or `error` (the stream's last event).",
            },
            "data": {
                "type": "string",
                "description": "The message as JSON; under `event: error`, an Error.",
                "contentMediaType": "application/json",
                "contentSchema": {
                    "anyOf": [output, {"$ref": format!("#/components/schemas/{ERROR}")}],
                },
            },
        },
    })
}
