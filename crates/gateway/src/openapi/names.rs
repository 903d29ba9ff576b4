//! Component names that read well in generated clients: `View`,
//! `TimeControlBank`, `RulesInput`, rather than the descriptors' full names
//! (`skitgubbe.v1.TimeControl.Bank`), which generators turn into
//! `SkitgubbeV1TimeControlBank` or refuse.
//!
//! - A type of the documented API's own package is named by its path in the
//!   package, nested names joined: `TimeControl.Bank` is `TimeControlBank`.
//! - A type of any other package keeps its package, in PascalCase
//!   (`google.rpc.Status` is `GoogleRpcStatus`), so it cannot take one of
//!   the API's names.
//! - A message that appears both in requests and in responses has two
//!   schemas (a request may leave fields out; a response has them all):
//!   the response's is the plain name, the request's ends in `Input`.
//!
//! Two types that would still share a name make the document an error
//! naming both, rather than one silently replacing the other.

use std::collections::{BTreeMap, HashSet};

use prost_reflect::{Kind, MessageDescriptor};

/// Which side of a call a message schema describes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub(super) enum Form {
    /// As the server accepts it: fields may be left out or null.
    Request,
    /// As the server writes it: every field without presence is there.
    Response,
}

/// Hands out component names and remembers who holds each.
#[derive(Debug)]
pub(super) struct Names {
    home: String,
    /// Messages reachable from both a request and a response.
    both: HashSet<String>,
    /// Name to the type (full name and, for messages, form) holding it.
    holders: BTreeMap<String, String>,
    clashes: Vec<String>,
}

impl Names {
    /// Names for a document whose API lives in package `home`, with
    /// `requests` and `responses` the messages its routes take and return.
    pub(super) fn new(
        home: &str,
        requests: &[MessageDescriptor],
        responses: &[MessageDescriptor],
    ) -> Self {
        let inputs = reachable(requests);
        let outputs = reachable(responses);
        Self {
            home: home.to_owned(),
            both: inputs.intersection(&outputs).cloned().collect(),
            holders: BTreeMap::new(),
            clashes: Vec::new(),
        }
    }

    /// Reserves a name the document defines by hand (e.g. `Error`).
    pub(super) fn reserve(&mut self, name: &str) {
        self.claim(name, format!("the document's own {name}"));
    }

    /// The component name of a message in `form`.
    pub(super) fn message(&mut self, message: &MessageDescriptor, form: Form) -> String {
        let mut name = self.base(message.full_name(), message.package_name());
        let holder = if self.both.contains(message.full_name()) {
            if form == Form::Request {
                name.push_str("Input");
            }
            format!("{} ({form:?})", message.full_name())
        } else {
            message.full_name().to_owned()
        };
        self.claim(&name, holder);
        name
    }

    /// The component name of an enum (the same in both forms).
    pub(super) fn enumeration(&mut self, full_name: &str, package: &str) -> String {
        let name = self.base(full_name, package);
        self.claim(&name, full_name.to_owned());
        name
    }

    /// The names two types wanted at once, if any.
    pub(super) fn into_clashes(self) -> Result<(), String> {
        if self.clashes.is_empty() {
            Ok(())
        } else {
            Err(format!(
                "OpenAPI component names clash: {}",
                self.clashes.join("; ")
            ))
        }
    }

    fn claim(&mut self, name: &str, holder: String) {
        match self.holders.get(name) {
            Some(held) if *held != holder => self
                .clashes
                .push(format!("{name} for both {held} and {holder}")),
            Some(_) => {}
            None => {
                self.holders.insert(name.to_owned(), holder);
            }
        }
    }

    fn base(&self, full_name: &str, package: &str) -> String {
        let path = full_name
            .strip_prefix(package)
            .map_or(full_name, |rest| rest.trim_start_matches('.'));
        let mut name = String::new();
        if package != self.home {
            package
                .split('.')
                .for_each(|part| push_pascal(&mut name, part));
        }
        path.split('.')
            .for_each(|part| push_pascal(&mut name, part));
        name
    }
}

/// `part` with its first letter upper-cased and `_` dropped between words:
/// `v1` is `V1`, `field_mask` is `FieldMask`, `TimeControl` stays.
fn push_pascal(name: &mut String, part: &str) {
    for word in part.split('_').filter(|w| !w.is_empty()) {
        let mut chars = word.chars();
        if let Some(first) = chars.next() {
            name.extend(first.to_uppercase());
            name.push_str(chars.as_str());
        }
    }
}

/// The full names of `roots` and every message their fields hold.
fn reachable(roots: &[MessageDescriptor]) -> HashSet<String> {
    let mut seen = HashSet::new();
    let mut stack: Vec<MessageDescriptor> = roots.to_vec();
    while let Some(message) = stack.pop() {
        if !seen.insert(message.full_name().to_owned()) {
            continue;
        }
        for field in message.fields() {
            if let Kind::Message(inner) = field.kind() {
                stack.push(inner);
            }
        }
    }
    seen
}

#[cfg(test)]
mod tests {
    use super::*;

    fn names() -> Names {
        Names::new("skitgubbe.v1", &[], &[])
    }

    #[test]
    fn the_home_package_is_left_out_and_nested_names_join() {
        let names = names();
        assert_eq!(names.base("skitgubbe.v1.View", "skitgubbe.v1"), "View");
        assert_eq!(
            names.base("skitgubbe.v1.TimeControl.Bank", "skitgubbe.v1"),
            "TimeControlBank"
        );
    }

    #[test]
    fn other_packages_are_kept_in_pascal_case() {
        let names = names();
        assert_eq!(
            names.base("google.rpc.Status", "google.rpc"),
            "GoogleRpcStatus"
        );
        assert_eq!(
            names.base("google.protobuf.field_mask.Thing", "google.protobuf"),
            "GoogleProtobufFieldMaskThing"
        );
    }

    #[test]
    fn two_types_on_one_name_are_an_error() {
        let mut names = names();
        names.reserve("Error");
        assert_eq!(
            names.enumeration("skitgubbe.v1.Phase", "skitgubbe.v1"),
            "Phase"
        );
        // The same type asking again is no clash.
        names.enumeration("skitgubbe.v1.Phase", "skitgubbe.v1");
        assert!(names.holders.len() == 2 && names.clashes.is_empty());
        names.enumeration("skitgubbe.v1.Error", "skitgubbe.v1");
        let problem = names.into_clashes().expect_err("a clash");
        assert!(problem.contains("Error for both"), "{problem}");
    }
}
