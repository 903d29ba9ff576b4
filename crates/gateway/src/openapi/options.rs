//! The API's own field options (`proto/skitgubbe/v1/annotations.proto`) as
//! the document reads them: what a request must set, and what a string
//! holds.

use prost_reflect::{DescriptorPool, ExtensionDescriptor, FieldDescriptor};

/// The options' descriptors, found once per document.
#[derive(Debug)]
pub(super) struct FieldOptions {
    required: Option<ExtensionDescriptor>,
    format: Option<ExtensionDescriptor>,
    bounds: [(Bound, Option<ExtensionDescriptor>); 4],
}

/// A bound the service puts on a field's value, as the document writes it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Bound {
    MinLength,
    MaxLength,
    Minimum,
    Maximum,
}

impl Bound {
    /// The JSON Schema keyword.
    pub(super) fn keyword(self) -> &'static str {
        match self {
            Bound::MinLength => "minLength",
            Bound::MaxLength => "maxLength",
            Bound::Minimum => "minimum",
            Bound::Maximum => "maximum",
        }
    }
}

impl FieldOptions {
    /// A pool without the options (another API's) reads as none set.
    pub(super) fn new(pool: &DescriptorPool) -> Self {
        Self {
            required: pool.get_extension_by_name("skitgubbe.v1.required"),
            format: pool.get_extension_by_name("skitgubbe.v1.format"),
            bounds: [
                (Bound::MinLength, "min_chars"),
                (Bound::MaxLength, "max_chars"),
                (Bound::Minimum, "min_value"),
                (Bound::Maximum, "max_value"),
            ]
            .map(|(bound, name)| {
                let option = pool.get_extension_by_name(&format!("skitgubbe.v1.{name}"));
                (bound, option)
            }),
        }
    }

    /// Whether a request must set `field` (`(skitgubbe.v1.required)`).
    pub(super) fn required(&self, field: &FieldDescriptor) -> bool {
        self.required
            .as_ref()
            .is_some_and(|option| field.options().get_extension(option).as_bool() == Some(true))
    }

    /// What the string `field` holds (`(skitgubbe.v1.format)`), if said.
    pub(super) fn format(&self, field: &FieldDescriptor) -> Option<String> {
        let option = self.format.as_ref()?;
        let options = field.options();
        let value = options.get_extension(option);
        value
            .as_str()
            .filter(|format| !format.is_empty())
            .map(str::to_owned)
    }

    /// The bounds set on `field` (`(skitgubbe.v1.min_chars)` and the like),
    /// each with its value.
    pub(super) fn bounds(&self, field: &FieldDescriptor) -> Vec<(Bound, u32)> {
        let options = field.options();
        self.bounds
            .iter()
            .filter_map(|(bound, option)| {
                let value = options.get_extension(option.as_ref()?).as_u32()?;
                (value > 0).then_some((*bound, value))
            })
            .collect()
    }
}
