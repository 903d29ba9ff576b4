//! The API's own field options (`proto/skitgubbe/v1/annotations.proto`) as
//! the document reads them: what a request must set, and what a string
//! holds.

use prost_reflect::{DescriptorPool, ExtensionDescriptor, FieldDescriptor};

/// The options' descriptors, found once per document.
#[derive(Debug)]
pub(super) struct FieldOptions {
    required: Option<ExtensionDescriptor>,
    format: Option<ExtensionDescriptor>,
}

impl FieldOptions {
    /// A pool without the options (another API's) reads as none set.
    pub(super) fn new(pool: &DescriptorPool) -> Self {
        Self {
            required: pool.get_extension_by_name("skitgubbe.v1.required"),
            format: pool.get_extension_by_name("skitgubbe.v1.format"),
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
}
