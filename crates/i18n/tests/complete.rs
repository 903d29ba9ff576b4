//! Every catalogue says everything: the same message ids in all four
//! languages, each one parsing, formatting without an error and not empty.

use std::collections::BTreeSet;

use skit_i18n::{Language, ids, problems, source};

/// Every `$variable` any catalogue uses, each set to a number.
fn all_variables() -> Vec<(String, String)> {
    let mut names = BTreeSet::new();
    for language in Language::ALL {
        for piece in source(language).split('$').skip(1) {
            let name: String = piece
                .chars()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == '_' || *c == '-')
                .collect();
            names.insert(name);
        }
    }
    names.into_iter().map(|n| (n, "2".to_owned())).collect()
}

#[test]
fn every_message_has_all_four_translations() {
    let english: Vec<String> = ids(Language::En);
    assert!(english.len() > 50, "{english:?}");
    let unique: BTreeSet<&String> = english.iter().collect();
    assert_eq!(unique.len(), english.len(), "an id is repeated in en");
    for language in Language::ALL {
        let theirs: BTreeSet<String> = ids(language).into_iter().collect();
        let ours: BTreeSet<String> = english.iter().cloned().collect();
        let missing: Vec<_> = ours.difference(&theirs).collect();
        let extra: Vec<_> = theirs.difference(&ours).collect();
        assert!(missing.is_empty(), "{language} lacks {missing:?}");
        assert!(extra.is_empty(), "{language} has ids en lacks: {extra:?}");
    }
}

#[test]
fn every_message_formats_and_none_is_empty() {
    let variables = all_variables();
    let args: Vec<(&str, &str)> = variables
        .iter()
        .map(|(n, v)| (n.as_str(), v.as_str()))
        .collect();
    for language in Language::ALL {
        let found = problems(language, &args);
        assert!(found.is_empty(), "{found:#?}");
    }
}

#[test]
fn translations_differ_from_english() {
    // A copied English line is an untranslated one (a few words, such as
    // "JSON", may be the same; whole messages never are).
    for language in [Language::Sv, Language::Fi, Language::Nb] {
        for id in ids(Language::En) {
            let en = skit_i18n::text(Language::En, &id, &[("field", "x")]);
            let other = skit_i18n::text(language, &id, &[("field", "x")]);
            assert_ne!(en, other, "{language}: {id} is the English text");
        }
    }
}
