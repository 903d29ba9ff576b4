//! The language of the terminal client's lines: `--lang`, else the locale
//! (`LC_ALL`, `LC_MESSAGES`, `LANG`), else English; set once at start.
//! The lines are the `skit-*` messages of the shared catalogues
//! (`skit_i18n`, docs/languages.md).

use std::sync::OnceLock;

use skit_i18n::Language;

static LANGUAGE: OnceLock<Language> = OnceLock::new();

/// `--lang`'s value: one of the four languages, or a clear refusal.
pub fn parse(tag: &str) -> Result<Language, String> {
    Language::parse(tag).ok_or_else(|| format!("{tag:?} is not one of en, sv, fi, nb"))
}

/// Sets the language for the rest of the run (the first call wins).
pub fn set(language: Language) {
    let _ = LANGUAGE.set(language);
}

/// Line `id` in the run's language (English until [`set`]).
pub fn tr(id: &str, args: &[(&str, &str)]) -> String {
    tr_in(LANGUAGE.get().copied().unwrap_or_default(), id, args)
}

/// Line `id` in `language`, with `args` filled in.
pub fn tr_in(language: Language, id: &str, args: &[(&str, &str)]) -> String {
    skit_i18n::text_or_english(language, id, args)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn english_lines_are_the_ones_people_knew_and_others_differ() {
        let en = |id, args: &[(&str, &str)]| tr_in(Language::En, id, args);
        assert_eq!(
            en("skit-seated", &[("game", "g1"), ("seat", "2")]),
            "Game g1, you are seat 2. Type a move's number, q to leave."
        );
        assert_eq!(en("skit-left", &[]), "You left the table.");
        assert_eq!(
            en("skit-game-over-loser", &[("name", "Ada")]),
            "Game over: Ada is the skitgubbe."
        );
        assert_eq!(
            en("skit-game-over-drawn", &[]),
            "Game over: drawn by the action limit."
        );
        assert_eq!(
            tr_in(Language::Sv, "skit-game-over-loser", &[("name", "Ada")]),
            "Spelet är slut: Ada är skitgubbe."
        );
        assert_eq!(
            tr_in(Language::Fi, "skit-you", &[("move", "7C")]),
            "Sinä: 7C"
        );
    }

    #[test]
    fn the_flag_takes_one_of_four() {
        assert_eq!(parse("sv-SE"), Ok(Language::Sv));
        assert!(parse("de").is_err_and(|why| why.contains("en, sv, fi, nb")));
    }
}
