//! Protobuf messages and enums as OpenAPI (JSON Schema) schemas, following
//! the protobuf JSON mapping: lowerCamelCase property names, enums as their
//! value names, 64-bit integers as strings, well-known types in their
//! special JSON forms.

use std::collections::BTreeMap;

use prost_reflect::{EnumDescriptor, FieldDescriptor, Kind, MessageDescriptor};
use serde_json::{Map, Value, json};

use crate::descriptors::Comments;

/// Collects the component schemas reachable from the messages asked for.
#[derive(Debug)]
pub(super) struct Schemas<'a> {
    comments: &'a Comments,
    components: BTreeMap<String, Value>,
}

impl<'a> Schemas<'a> {
    pub(super) fn new(comments: &'a Comments) -> Self {
        Self {
            comments,
            components: BTreeMap::new(),
        }
    }

    pub(super) fn into_components(self) -> Map<String, Value> {
        self.components.into_iter().collect()
    }

    /// A `$ref` to the message's component, adding it (and what it uses).
    pub(super) fn message_ref(&mut self, message: &MessageDescriptor) -> Value {
        if let Some(special) = well_known(message.full_name()) {
            return special;
        }
        let name = message.full_name().to_owned();
        if !self.components.contains_key(&name) {
            // Placeholder first: messages may refer to themselves.
            self.components.insert(name.clone(), Value::Null);
            let schema = self.message_schema(message);
            self.components.insert(name.clone(), schema);
        }
        component_ref(&name)
    }

    /// The schema of one field's JSON value.
    pub(super) fn field_schema(&mut self, field: &FieldDescriptor) -> Value {
        let mut schema = if field.is_map() {
            let value = match field.kind() {
                Kind::Message(entry) => entry.map_entry_value_field(),
                _ => field.clone(),
            };
            json!({"type": "object", "additionalProperties": self.single(&value)})
        } else if field.is_list() {
            json!({"type": "array", "items": self.single(field)})
        } else {
            self.single(field)
        };
        let file = field.parent_message().parent_file();
        if let Some(text) = self.comments.get(file.name(), field.path()) {
            with_description(&mut schema, text);
        }
        schema
    }

    fn single(&mut self, field: &FieldDescriptor) -> Value {
        match field.kind() {
            Kind::Message(message) => self.message_ref(&message),
            Kind::Enum(enumeration) => self.enum_ref(&enumeration),
            kind => scalar(&kind),
        }
    }

    fn enum_ref(&mut self, enumeration: &EnumDescriptor) -> Value {
        let name = enumeration.full_name().to_owned();
        if enumeration.full_name() == "google.protobuf.NullValue" {
            return json!({"nullable": true});
        }
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

    fn message_schema(&mut self, message: &MessageDescriptor) -> Value {
        let mut properties = Map::new();
        for field in message.fields() {
            let schema = self.field_schema(&field);
            properties.insert(field.json_name().to_owned(), schema);
        }
        let mut schema = json!({"type": "object", "properties": properties});
        let mut description = self
            .comments
            .get(message.parent_file().name(), message.path())
            .map(str::to_owned)
            .unwrap_or_default();
        // Real oneofs (not proto3 `optional`): at most one member is set.
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

fn scalar(kind: &Kind) -> Value {
    match kind {
        Kind::Double => json!({"type": "number", "format": "double"}),
        Kind::Float => json!({"type": "number", "format": "float"}),
        Kind::Int32 | Kind::Sint32 | Kind::Sfixed32 => {
            json!({"type": "integer", "format": "int32"})
        }
        Kind::Uint32 | Kind::Fixed32 => {
            json!({"type": "integer", "format": "int64", "minimum": 0, "maximum": u32::MAX})
        }
        Kind::Int64 | Kind::Sint64 | Kind::Sfixed64 => json!({"type": "string", "format": "int64"}),
        Kind::Uint64 | Kind::Fixed64 => json!({"type": "string", "format": "uint64"}),
        Kind::Bool => json!({"type": "boolean"}),
        Kind::String => json!({"type": "string"}),
        Kind::Bytes => json!({"type": "string", "format": "byte"}),
        Kind::Message(_) | Kind::Enum(_) => json!({}),
    }
}

/// The well-known types' special JSON forms, inlined.
fn well_known(full_name: &str) -> Option<Value> {
    Some(match full_name {
        "google.protobuf.Struct" => json!({"type": "object", "additionalProperties": true}),
        "google.protobuf.Value" => json!({"description": "Any JSON value."}),
        "google.protobuf.ListValue" => json!({"type": "array", "items": {}}),
        "google.protobuf.Timestamp" => json!({"type": "string", "format": "date-time"}),
        "google.protobuf.Duration" => {
            json!({"type": "string", "pattern": "^-?[0-9]+(\\.[0-9]+)?s$", "example": "1.5s"})
        }
        "google.protobuf.Empty" => json!({"type": "object"}),
        "google.protobuf.FieldMask" => json!({"type": "string"}),
        "google.protobuf.Any" => {
            json!({"type": "object", "properties": {"@type": {"type": "string"}}, "additionalProperties": true})
        }
        "google.protobuf.BoolValue" => json!({"type": "boolean"}),
        "google.protobuf.StringValue" => json!({"type": "string"}),
        "google.protobuf.BytesValue" => json!({"type": "string", "format": "byte"}),
        "google.protobuf.Int32Value" | "google.protobuf.UInt32Value" => json!({"type": "integer"}),
        "google.protobuf.Int64Value" | "google.protobuf.UInt64Value" => json!({"type": "string"}),
        "google.protobuf.FloatValue" | "google.protobuf.DoubleValue" => json!({"type": "number"}),
        _ => return None,
    })
}
