//! The presets of SPEC section 4, exactly as 8.2 resolves them.

use super::options::*;

/// A named variant: a player range and the options it sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Preset {
    Skitgubbe,
    SkitgubbeSequences,
    Allplay,
    Mas,
    Melniki,
    Mattis,
    MattisNorsk,
    Koira,
    Myllymatti,
    Atlanta,
    TwoPlayer,
}

impl Preset {
    pub const ALL: [Preset; 11] = [
        Preset::Skitgubbe,
        Preset::SkitgubbeSequences,
        Preset::Allplay,
        Preset::Mas,
        Preset::Melniki,
        Preset::Mattis,
        Preset::MattisNorsk,
        Preset::Koira,
        Preset::Myllymatti,
        Preset::Atlanta,
        Preset::TwoPlayer,
    ];

    pub const fn name(self) -> &'static str {
        match self {
            Preset::Skitgubbe => "skitgubbe",
            Preset::SkitgubbeSequences => "skitgubbe-sequences",
            Preset::Allplay => "allplay",
            Preset::Mas => "mas",
            Preset::Melniki => "melniki",
            Preset::Mattis => "mattis",
            Preset::MattisNorsk => "mattis-norsk",
            Preset::Koira => "koira",
            Preset::Myllymatti => "myllymatti",
            Preset::Atlanta => "atlanta",
            Preset::TwoPlayer => "two-player",
        }
    }

    pub fn from_name(name: &str) -> Option<Preset> {
        Preset::ALL.into_iter().find(|p| p.name() == name)
    }

    /// The player counts this preset allows, whatever the overrides.
    pub const fn players(self) -> (u8, u8) {
        match self {
            Preset::Skitgubbe
            | Preset::SkitgubbeSequences
            | Preset::Mattis
            | Preset::Myllymatti => (2, 8),
            Preset::Allplay | Preset::MattisNorsk => (2, 6),
            Preset::Mas | Preset::Melniki => (2, 4),
            Preset::Koira => (3, 8),
            Preset::Atlanta => (3, 3),
            Preset::TwoPlayer => (2, 2),
        }
    }

    /// The usual table, which a player who accepts any size is seated at:
    /// three. pagat calls the base game "best for three players"
    /// (docs/rules.md 2 and 3.1) and `allplay` "best for 3 or 4" (3.3);
    /// the other presets' sources name no best number, and three is in
    /// each one's range but `two-player`'s, whose table is two.
    pub const fn usual_players(self) -> u8 {
        let (lo, hi) = self.players();
        if 3 < lo {
            lo
        } else if 3 > hi {
            hi
        } else {
            3
        }
    }

    /// The preset's options before overrides.
    pub const fn options(self) -> Options {
        let d = Options::DEFAULT;
        let low_2_to_5 = LowCards {
            threshold: Threshold::Count(5),
            ranks: LowCards::DEFAULT_RANKS,
            extra_trump_ranks: 0,
            extra_cards: crate::CardSet::EMPTY,
        };
        match self {
            Preset::Skitgubbe | Preset::Myllymatti => d,
            Preset::SkitgubbeSequences => Options {
                plays: Plays::Sequences,
                pickup: Pickup::TopJoined,
                ..d
            },
            Preset::Allplay => Options {
                mode: Phase1Mode::All,
                multi: 3,
                sluff: Sluff::Once,
                low_cards: Some(low_2_to_5),
                plays: Plays::Sequences,
                pickup: Pickup::TopJoined,
                ..d
            },
            Preset::Mas => Options {
                mode: Phase1Mode::TurnedTrump,
                rob: true,
                bank: true,
                chance: false,
                ..d
            },
            Preset::Melniki => Options {
                mode: Phase1Mode::TurnedTrump,
                must_follow: true,
                chance: false,
                ..d
            },
            Preset::Mattis => Options {
                mode: Phase1Mode::All,
                empty_hand: EmptyHand::Blue,
                plays: Plays::Sequences,
                pickup: Pickup::Bottom,
                ..d
            },
            Preset::MattisNorsk => Options {
                skip_empty: true,
                empty_hand: EmptyHand::Blue,
                pickup: Pickup::Bottom,
                ..d
            },
            Preset::Koira => Options {
                mode: Phase1Mode::All,
                skip_empty: true,
                tie_runout: TieRunout::Split,
                plays: Plays::Sequences,
                pickup: Pickup::Bottom,
                ..d
            },
            Preset::Atlanta => Options {
                mode: Phase1Mode::All,
                compulsory_ties: true,
                sluff: Sluff::LosingRanks,
                low_cards: Some(LowCards {
                    threshold: Threshold::Count(6),
                    extra_trump_ranks: 1 << 4,
                    ..low_2_to_5
                }),
                plays: Plays::Sequences,
                pickup: Pickup::BottomJoined,
                ..d
            },
            Preset::TwoPlayer => Options { reserve: 12, ..d },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Ruleset;

    #[test]
    fn the_usual_table_is_three_where_the_preset_allows_it() {
        assert_eq!(Preset::Skitgubbe.usual_players(), 3);
        assert_eq!(Preset::Atlanta.usual_players(), 3);
        assert_eq!(Preset::TwoPlayer.usual_players(), 2);
        for preset in Preset::ALL {
            let usual = Ruleset::preset(preset).usual_players();
            assert_eq!(usual, preset.usual_players(), "{}", preset.name());
            assert!(
                Ruleset::preset(preset).check_players(usual).is_ok(),
                "{}",
                preset.name()
            );
        }
    }

    #[test]
    fn options_that_rule_the_usual_table_out_give_the_nearest_allowed() {
        let rules = Ruleset::from_json(&serde_json::json!({
            "preset": "skitgubbe",
            "options": {"between.reserve": 12}
        }))
        .expect("a reserve is an option of skitgubbe");

        assert_eq!(rules.usual_players(), 2);
    }
}
