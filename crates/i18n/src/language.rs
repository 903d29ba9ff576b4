//! The four languages and how one is chosen from what a client sends: a
//! BCP 47 tag (`sv`, `sv-SE`), an `Accept-Language` list with weights, or
//! a POSIX locale (`LANG=sv_SE.UTF-8`).

use std::fmt;

/// A language the service and its clients speak.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, PartialOrd, Ord)]
pub enum Language {
    /// English, the default and the language of every machine-readable name.
    #[default]
    En,
    /// Swedish.
    Sv,
    /// Finnish.
    Fi,
    /// Norwegian Bokmål.
    Nb,
}

impl Language {
    /// Every language, English first.
    pub const ALL: [Language; 4] = [Language::En, Language::Sv, Language::Fi, Language::Nb];

    /// The tag as stored and sent: `en`, `sv`, `fi`, `nb`.
    pub fn tag(self) -> &'static str {
        match self {
            Language::En => "en",
            Language::Sv => "sv",
            Language::Fi => "fi",
            Language::Nb => "nb",
        }
    }

    /// The language's name in itself, for a picker.
    pub fn native_name(self) -> &'static str {
        match self {
            Language::En => "English",
            Language::Sv => "Svenska",
            Language::Fi => "Suomi",
            Language::Nb => "Norsk bokmål",
        }
    }

    /// The language of a BCP 47 tag or POSIX locale, by its primary
    /// subtag, case-insensitively: `sv-SE`, `sv_FI.UTF-8` and `SV` are
    /// Swedish. Norwegian without a written standard (`no`) is Bokmål.
    /// `None` for any other language.
    pub fn parse(tag: &str) -> Option<Language> {
        let primary = tag
            .trim()
            .split(['-', '_', '.', '@'])
            .next()
            .unwrap_or_default()
            .to_ascii_lowercase();
        match primary.as_str() {
            "en" => Some(Language::En),
            "sv" => Some(Language::Sv),
            "fi" => Some(Language::Fi),
            "nb" | "no" => Some(Language::Nb),
            _ => None,
        }
    }

    /// The most wanted language of an `Accept-Language` value that is one
    /// of the four (`fr;q=0.9, sv;q=0.8` is Swedish); `None` when it names
    /// none of them. Ties keep the order the client gave.
    pub fn negotiate(accept_language: &str) -> Option<Language> {
        let mut best: Option<(f32, Language)> = None;
        for item in accept_language.split(',') {
            let mut parts = item.split(';');
            let tag = parts.next().unwrap_or_default();
            let weight = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            let Some(language) = Language::parse(tag) else {
                continue;
            };
            if weight > 0.0 && best.is_none_or(|(w, _)| weight > w) {
                best = Some((weight, language));
            }
        }
        best.map(|(_, language)| language)
    }

    /// The terminal's language from the environment as POSIX orders it:
    /// `LC_ALL`, then `LC_MESSAGES`, then `LANG`; the first that is set and
    /// not empty decides (`C` and unknown languages are English).
    pub fn from_env() -> Language {
        Self::from_locale_vars(|name| std::env::var(name).ok())
    }

    /// [`Language::from_env`] over any source of variables.
    pub fn from_locale_vars(var: impl Fn(&str) -> Option<String>) -> Language {
        ["LC_ALL", "LC_MESSAGES", "LANG"]
            .into_iter()
            .filter_map(|name| var(name).filter(|v| !v.is_empty()))
            .next()
            .and_then(|locale| Language::parse(&locale))
            .unwrap_or_default()
    }
}

impl fmt::Display for Language {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.tag())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_and_locales_name_their_language() {
        assert_eq!(Language::parse("sv-SE"), Some(Language::Sv));
        assert_eq!(Language::parse("fi_FI.UTF-8"), Some(Language::Fi));
        assert_eq!(Language::parse("NO"), Some(Language::Nb));
        assert_eq!(Language::parse("nb"), Some(Language::Nb));
        assert_eq!(Language::parse("de"), None);
        assert_eq!(Language::parse(""), None);
    }

    #[test]
    fn accept_language_picks_the_heaviest_known_language() {
        assert_eq!(Language::negotiate("sv"), Some(Language::Sv));
        assert_eq!(
            Language::negotiate("fr;q=0.9, fi;q=0.5, sv;q=0.8"),
            Some(Language::Sv)
        );
        assert_eq!(
            Language::negotiate("nb-NO,nb;q=0.9,en;q=0.8"),
            Some(Language::Nb)
        );
        assert_eq!(Language::negotiate("sv;q=0, en"), Some(Language::En));
        assert_eq!(Language::negotiate("de, fr"), None);
        assert_eq!(Language::negotiate(""), None);
    }

    #[test]
    fn the_environment_follows_posix_order() {
        let vars = |all: Option<&str>, lang: Option<&str>| {
            let all = all.map(str::to_owned);
            let lang = lang.map(str::to_owned);
            Language::from_locale_vars(move |name| match name {
                "LC_ALL" => all.clone(),
                "LANG" => lang.clone(),
                _ => None,
            })
        };
        assert_eq!(vars(None, Some("sv_SE.UTF-8")), Language::Sv);
        assert_eq!(vars(Some("fi_FI.UTF-8"), Some("sv_SE.UTF-8")), Language::Fi);
        assert_eq!(vars(Some(""), Some("nb_NO.UTF-8")), Language::Nb);
        assert_eq!(vars(Some("C"), Some("sv_SE.UTF-8")), Language::En);
        assert_eq!(vars(None, None), Language::En);
    }
}
