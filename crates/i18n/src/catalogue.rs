//! The Fluent catalogues, one per language (`locales/<tag>.ftl`), built
//! into the binary and parsed once.
//!
//! Message ids name what they say: `error-<reason>` (the error's reason
//! with `-` for `_`), `end-<reason>` for how a game ended, and
//! `skit-<line>` for the terminal client's lines.

use std::sync::LazyLock;

use fluent_bundle::concurrent::FluentBundle;
use fluent_bundle::{FluentArgs, FluentResource, FluentValue};

use crate::Language;

/// The catalogue's source text for `language`.
pub fn source(language: Language) -> &'static str {
    match language {
        Language::En => include_str!("../locales/en.ftl"),
        Language::Sv => include_str!("../locales/sv.ftl"),
        Language::Fi => include_str!("../locales/fi.ftl"),
        Language::Nb => include_str!("../locales/nb.ftl"),
    }
}

static BUNDLES: LazyLock<Vec<FluentBundle<FluentResource>>> =
    LazyLock::new(|| Language::ALL.iter().map(|l| bundle(*l)).collect());

fn bundle(language: Language) -> FluentBundle<FluentResource> {
    // A catalogue that does not parse fails this crate's tests; at run
    // time its good entries still load.
    let resource = FluentResource::try_new(source(language).to_owned()).unwrap_or_else(|(r, _)| r);
    let id = language
        .tag()
        .parse()
        .unwrap_or_else(|_| unic_langid::LanguageIdentifier::default());
    let mut bundle = FluentBundle::new_concurrent(vec![id]);
    // No bidi isolation marks around arguments: every language here is
    // written left to right, and terminals print the marks.
    bundle.set_use_isolating(false);
    let _ = bundle.add_resource(resource);
    bundle
}

/// Message `id` in `language` with `args` filled in (a value that reads as
/// a number is one, for plurals); `None` if the catalogue has no such
/// message.
pub fn text(language: Language, id: &str, args: &[(&str, &str)]) -> Option<String> {
    let bundle = &BUNDLES[Language::ALL.iter().position(|l| *l == language)?];
    let pattern = bundle.get_message(id)?.value()?;
    let fluent_args = fluent_args(args);
    let mut errors = Vec::new();
    let text = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
    Some(text.into_owned())
}

/// As [`text`], in English where `language` lacks the message, and `id`
/// itself where English lacks it too.
pub fn text_or_english(language: Language, id: &str, args: &[(&str, &str)]) -> String {
    text(language, id, args)
        .or_else(|| text(Language::En, id, args))
        .unwrap_or_else(|| id.to_owned())
}

/// Every message id of `language`'s catalogue, in file order.
pub fn ids(language: Language) -> Vec<String> {
    source(language)
        .lines()
        .filter(|line| line.starts_with(|c: char| c.is_ascii_alphabetic()))
        .filter_map(|line| line.split_once('=').map(|(id, _)| id.trim().to_owned()))
        .collect()
}

/// Whether `language`'s catalogue parses without an error and formats
/// every message with `args` without an error: the problems, if any.
pub fn problems(language: Language, args: &[(&str, &str)]) -> Vec<String> {
    let mut problems = Vec::new();
    if let Err((_, errors)) = FluentResource::try_new(source(language).to_owned()) {
        problems.push(format!("{language}: does not parse: {errors:?}"));
    }
    let bundle = &BUNDLES[Language::ALL
        .iter()
        .position(|l| *l == language)
        .unwrap_or(0)];
    let fluent_args = fluent_args(args);
    for id in ids(language) {
        let Some(pattern) = bundle.get_message(&id).and_then(|m| m.value()) else {
            problems.push(format!("{language}: {id} has no value"));
            continue;
        };
        let mut errors = Vec::new();
        let text = bundle.format_pattern(pattern, Some(&fluent_args), &mut errors);
        if !errors.is_empty() {
            problems.push(format!("{language}: {id}: {errors:?}"));
        }
        if text.trim().is_empty() {
            problems.push(format!("{language}: {id} is empty"));
        }
    }
    problems
}

/// `args` for Fluent; a value that reads as a number is one.
fn fluent_args<'a>(args: &[(&'a str, &'a str)]) -> FluentArgs<'a> {
    let mut fluent_args = FluentArgs::new();
    for &(name, value) in args {
        fluent_args.set(name, FluentValue::try_number(value));
    }
    fluent_args
}
