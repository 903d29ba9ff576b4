//! Protobuf messages and enums as OpenAPI (JSON Schema) schemas, following
//! the protobuf JSON mapping: lowerCamelCase property names, enums as their
//! value names, scalars and well-known types as [`super::scalar`] writes
//! them. Each schema is as strict as the server:
//!
//! - an unknown property is refused (`additionalProperties: false`);
//! - of a oneof, at most one member may be given;
//! - a string holds what its `(skitgubbe.v1.format)` says (a UUID, a
//!   decimal id);
//! - in a request, a field is `required` only where the service refuses the
//!   request without it (the `(skitgubbe.v1.required)` option; a string so
//!   marked must not be empty, a count not 0), and `null` is accepted where
//!   the field has presence (a message, an `optional` field), since the
//!   parser reads it as absent. Not for a oneof member: its `null` is no
//!   member, which the service refuses wherever it needs one (an action's
//!   kind, a clock);
//! - a request's field is bounded as the service bounds it (a password's
//!   length, a game's players: `(skitgubbe.v1.min_chars)` and the like);
//! - in a response, every field without presence is always written, so it
//!   is `required`; nothing is ever `null`. A string is written even when
//!   empty, so a formatted one (an id) may also be `""`: a self-owned
//!   account's `ownerAccountId`, say.

use std::collections::BTreeMap;

use prost_reflect::{DescriptorPool, EnumDescriptor, FieldDescriptor, Kind, MessageDescriptor};
use serde_json::{Map, Value, json};

use super::{
    names::{Form, Names},
    options::FieldOptions,
    scalar::{formatted_string, scalar, well_known},
};
use crate::descriptors::Comments;

/// Collects the component schemas reachable from the messages asked for.
#[derive(Debug)]
pub(super) struct Schemas<'a> {
    comments: &'a Comments,
    options: FieldOptions,
    names: Names,
    components: BTreeMap<String, Value>,
}

impl<'a> Schemas<'a> {
    pub(super) fn new(comments: &'a Comments, pool: &DescriptorPool, names: Names) -> Self {
        Self {
            comments,
            options: FieldOptions::new(pool),
            names,
            components: BTreeMap::new(),
        }
    }

    /// The components, or the names two types both wanted.
    pub(super) fn into_components(self) -> Result<Map<String, Value>, String> {
        self.names.into_clashes()?;
        Ok(self.components.into_iter().collect())
    }

    /// A `$ref` to the message's component in `form`, adding it (and what
    /// it uses).
    pub(super) fn message_ref(&mut self, message: &MessageDescriptor, form: Form) -> Value {
        self.component(message, form, &[])
    }

    /// A `$ref` to a route's request message as a body: the fields named in
    /// `in_path` (proto names) come from the path, so the body need not
    /// repeat them.
    pub(super) fn request_ref(&mut self, message: &MessageDescriptor, in_path: &[&str]) -> Value {
        self.component(message, Form::Request, in_path)
    }

    /// Whether the component `reference` points to requires any property.
    pub(super) fn requires_any(&self, reference: &Value) -> bool {
        reference["$ref"]
            .as_str()
            .and_then(|r| r.strip_prefix("#/components/schemas/"))
            .and_then(|name| self.components.get(name))
            .and_then(|schema| schema.get("required"))
            .is_some()
    }

    /// Whether a request must set `field`.
    pub(super) fn is_required(&self, field: &FieldDescriptor) -> bool {
        self.options.required(field)
    }

    /// The schema of one field's JSON value in `form`.
    pub(super) fn field_schema(&mut self, field: &FieldDescriptor, form: Form) -> Value {
        self.field_schema_with(field, form, form == Form::Request)
    }

    /// The schema of a path or query parameter's value, which cannot be
    /// `null`.
    pub(super) fn parameter_schema(&mut self, field: &FieldDescriptor) -> Value {
        self.field_schema_with(field, Form::Request, false)
    }

    fn field_schema_with(&mut self, field: &FieldDescriptor, form: Form, null: bool) -> Value {
        let mut schema = if field.is_map() {
            let value = match field.kind() {
                Kind::Message(entry) => entry.map_entry_value_field(),
                _ => field.clone(),
            };
            json!({"type": "object", "additionalProperties": self.single(&value, form)})
        } else if field.is_list() {
            json!({"type": "array", "items": self.single(field, form)})
        } else {
            self.single(field, form)
        };
        let single = !field.is_list() && !field.is_map();
        if form == Form::Request && single {
            for (bound, value) in self.options.bounds(field) {
                if let Value::Object(object) = &mut schema {
                    object.insert(bound.keyword().into(), json!(value));
                }
            }
        }
        if form == Form::Request {
            if self.is_required(field) {
                if single {
                    not_empty(&mut schema, &field.kind());
                }
            } else if null && field.supports_presence() && !in_real_oneof(field) {
                schema = nullable(schema, &field.kind());
            }
        }
        let file = field.parent_message().parent_file();
        if let Some(text) = self.comments.get(file.name(), field.path()) {
            with_description(&mut schema, text);
        }
        schema
    }

    fn component(&mut self, message: &MessageDescriptor, form: Form, in_path: &[&str]) -> Value {
        if let Some(special) = well_known(message.full_name()) {
            return special;
        }
        let name = self.names.message(message, form);
        if !self.components.contains_key(&name) {
            // Placeholder first: messages may refer to themselves.
            self.components.insert(name.clone(), Value::Null);
            let schema = self.message_schema(message, form, in_path);
            self.components.insert(name.clone(), schema);
        }
        component_ref(&name)
    }

    fn single(&mut self, field: &FieldDescriptor, form: Form) -> Value {
        match field.kind() {
            Kind::Message(message) => self.message_ref(&message, form),
            Kind::Enum(enumeration) => self.enum_ref(&enumeration),
            Kind::String => match self.options.format(field) {
                // An answer writes an unset string too: `""`.
                Some(format) if form == Form::Response && !field.is_list() => {
                    json!({"anyOf": [formatted_string(&format), {"type": "string", "maxLength": 0}]})
                }
                Some(format) => formatted_string(&format),
                None => scalar(&Kind::String),
            },
            kind => scalar(&kind),
        }
    }

    fn enum_ref(&mut self, enumeration: &EnumDescriptor) -> Value {
        if enumeration.full_name() == "google.protobuf.NullValue" {
            return json!({"nullable": true});
        }
        let name = self
            .names
            .enumeration(enumeration.full_name(), enumeration.package_name());
        if !self.components.contains_key(&name) {
            let values: Vec<String> = enumeration.values().map(|v| v.name().to_owned()).collect();
            let mut schema = json!({"type": "string", "enum": values});
            let file = enumeration.parent_file();
            if let Some(text) = self.comments.get(file.name(), enumeration.path()) {
                with_description(&mut schema, text);
            }
            self.components.insert(name.clone(), schema);
        }
        component_ref(&name)
    }

    fn message_schema(
        &mut self,
        message: &MessageDescriptor,
        form: Form,
        in_path: &[&str],
    ) -> Value {
        let mut properties = Map::new();
        let mut required = Vec::new();
        for field in message.fields() {
            let schema = self.field_schema(&field, form);
            let name = field.json_name().to_owned();
            let needed = match form {
                Form::Request => self.is_required(&field) && !in_path.contains(&field.name()),
                Form::Response => !field.supports_presence(),
            };
            if needed {
                required.push(Value::String(name.clone()));
            }
            properties.insert(name, schema);
        }
        let mut schema = Map::new();
        schema.insert("type".into(), json!("object"));
        schema.insert("properties".into(), Value::Object(properties));
        if !required.is_empty() {
            schema.insert("required".into(), Value::Array(required));
        }
        schema.insert("additionalProperties".into(), json!(false));
        at_most_one_per_oneof(message, &mut schema);
        let mut schema = Value::Object(schema);

        let mut description = self
            .comments
            .get(message.parent_file().name(), message.path())
            .map(str::to_owned)
            .unwrap_or_default();
        for oneof in message.oneofs().filter(|o| !o.is_synthetic()) {
            let members: Vec<String> = oneof.fields().map(|f| f.json_name().to_owned()).collect();
            if !description.is_empty() {
                description.push_str("\n\n");
            }
            description.push_str(&format!(
                "Oneof `{}`: at most one of {}.",
                oneof.name(),
                members.join(", ")
            ));
        }
        if !description.is_empty() {
            with_description(&mut schema, &description);
        }
        schema
    }
}

fn in_real_oneof(field: &FieldDescriptor) -> bool {
    field.containing_oneof().is_some_and(|o| !o.is_synthetic())
}

/// The parser refuses two members of one oneof: a message that is one
/// oneof takes at most one property, otherwise no two members together.
fn at_most_one_per_oneof(message: &MessageDescriptor, schema: &mut Map<String, Value>) {
    let groups: Vec<Vec<String>> = message
        .oneofs()
        .filter(|o| !o.is_synthetic())
        .map(|o| o.fields().map(|f| f.json_name().to_owned()).collect())
        .filter(|members: &Vec<String>| members.len() > 1)
        .collect();
    if let [only] = groups.as_slice()
        && only.len() == message.fields().len()
    {
        schema.insert("maxProperties".into(), json!(1));
        return;
    }
    let pairs: Vec<Value> = groups
        .iter()
        .flat_map(|members| {
            members.iter().enumerate().flat_map(move |(i, first)| {
                members[i + 1..]
                    .iter()
                    .map(move |second| json!({"required": [first, second]}))
            })
        })
        .collect();
    match pairs.len() {
        0 => {}
        1 => {
            schema.insert("not".into(), pairs[0].clone());
        }
        _ => {
            schema.insert("not".into(), json!({ "anyOf": pairs }));
        }
    }
}

/// A required field at its default value is refused: a string must not be
/// empty, an unsigned count not 0.
fn not_empty(schema: &mut Value, kind: &Kind) {
    let Value::Object(object) = schema else {
        return;
    };
    // A bound already set (a password's 8 characters) is at least 1.
    let keyword = match kind {
        Kind::String => "minLength",
        Kind::Uint32 | Kind::Fixed32 => "minimum",
        _ => return,
    };
    let least = object
        .get(keyword)
        .and_then(Value::as_u64)
        .unwrap_or(0)
        .max(1);
    object.insert(keyword.into(), json!(least));
}

/// `schema` that also accepts `null`. OpenAPI 3.0 reads `nullable` only
/// beside a `type`, so a `$ref` is wrapped with its type.
fn nullable(schema: Value, kind: &Kind) -> Value {
    match schema {
        Value::Object(object) if object.contains_key("$ref") => {
            let kind = if matches!(kind, Kind::Enum(_)) {
                "string"
            } else {
                "object"
            };
            json!({"type": kind, "nullable": true, "allOf": [Value::Object(object)]})
        }
        Value::Object(mut object) if object.contains_key("type") => {
            object.insert("nullable".into(), json!(true));
            Value::Object(object)
        }
        // Any JSON value (google.protobuf.Value), null included.
        other => other,
    }
}

fn component_ref(name: &str) -> Value {
    json!({"$ref": format!("#/components/schemas/{name}")})
}

fn with_description(schema: &mut Value, text: &str) {
    if let Value::Object(object) = schema {
        if object.contains_key("$ref") {
            // OpenAPI 3.0 ignores siblings of $ref; allOf keeps the text.
            let reference = std::mem::take(object);
            object.insert("allOf".into(), Value::Array(vec![Value::Object(reference)]));
        }
        object.insert("description".into(), Value::String(text.to_owned()));
    }
}
