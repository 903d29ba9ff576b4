//! The JSON form of rulesets: option names and values of SPEC 8.2.

use serde_json::{Map, Value, json};

use super::{Preset, RulesError, Ruleset, options::*};
use crate::{Card, CardSet, Rank};

impl Ruleset {
    /// Parses and validates the JSON form (a name or `{preset, options}`).
    pub fn from_json(value: &Value) -> Result<Ruleset, RulesError> {
        parse(value)
    }

    /// The JSON form with every option resolved.
    pub fn to_json(&self) -> Value {
        render(self)
    }
}

fn parse(value: &Value) -> Result<Ruleset, RulesError> {
    let (name, overrides) = match value {
        Value::String(name) => (name.as_str(), None),
        Value::Object(object) => {
            let name = match object.get("preset") {
                Some(Value::String(name)) => name.as_str(),
                Some(_) => return Err(RulesError::new("preset", "must be a preset name string")),
                None => return Err(RulesError::new("preset", "a rules object needs a preset")),
            };
            if let Some(key) = object.keys().find(|k| *k != "preset" && *k != "options") {
                return Err(RulesError::new(key, "unknown field of a rules object"));
            }
            match object.get("options") {
                None => (name, None),
                Some(Value::Object(options)) => (name, Some(options)),
                Some(_) => return Err(RulesError::new("options", "must be an object")),
            }
        }
        _ => {
            return Err(RulesError::new(
                "rules",
                "a preset name or {preset, options}",
            ));
        }
    };
    let preset = Preset::from_name(name)
        .ok_or_else(|| RulesError::new("preset", format!("unknown preset {name:?}")))?;
    let mut options = preset.options();
    for (key, value) in overrides.into_iter().flatten() {
        set_option(&mut options, key, value)?;
    }
    if options.mode == Phase1Mode::TurnedTrump {
        options.chance = false; // never offered with a turned-up trump (8.2)
    }
    validate(&options)?;
    Ok(Ruleset { preset, options })
}

fn set_option(o: &mut Options, key: &str, v: &Value) -> Result<(), RulesError> {
    let err = |msg: &str| RulesError::new(key, format!("{msg}, not {v}"));
    let boolean = || v.as_bool().ok_or_else(|| err("must be true or false"));
    let string = || v.as_str().ok_or_else(|| err("must be a string"));
    macro_rules! choice {
        ($($name:literal => $val:expr),+ $(,)?) => {{
            let s = string()?;
            match s {
                $($name => $val,)+
                _ => return Err(err(concat!("must be one of", $(" ", $name),+))),
            }
        }};
    }
    let whole = whole_number(v);
    let int = |lo: u64, hi: u64| {
        whole
            .filter(|n| (lo..=hi).contains(n))
            .ok_or_else(|| err(&format!("must be a whole number from {lo} to {hi}")))
    };
    match key {
        "phase1.mode" => {
            o.mode = choice!("pairs" => Phase1Mode::Pairs, "all" => Phase1Mode::All,
                "turned_trump" => Phase1Mode::TurnedTrump)
        }
        "phase1.skip_empty" => o.skip_empty = boolean()?,
        "phase1.multi" => o.multi = int(1, 3)? as u8,
        "phase1.ties" => o.ties = choice!("replay" => Ties::Replay, "take_back" => Ties::TakeBack),
        "phase1.tied_beats_unique" => o.tied_beats_unique = boolean()?,
        "phase1.compulsory_ties" => o.compulsory_ties = boolean()?,
        "phase1.sluff" => {
            o.sluff = choice!("none" => Sluff::None, "once" => Sluff::Once,
                "own_rank" => Sluff::OwnRank, "unlimited" => Sluff::Unlimited,
                "losing_ranks" => Sluff::LosingRanks)
        }
        "phase1.end" => {
            o.end = choice!("no_card" => Phase1End::NoCard, "stock_empty" => Phase1End::StockEmpty)
        }
        "phase1.unfinished_trick" => {
            o.unfinished_trick =
                choice!("return" => UnfinishedTrick::Return, "deal" => UnfinishedTrick::Deal)
        }
        "phase1.tie_runout" => {
            o.tie_runout = choice!("return" => TieRunout::Return, "split" => TieRunout::Split)
        }
        "phase1.chance" => o.chance = boolean()?,
        "phase1.rob" => o.rob = boolean()?,
        "phase1.bank" => o.bank = boolean()?,
        "phase1.must_follow" => o.must_follow = boolean()?,
        "between.empty_hand" => {
            o.empty_hand = choice!("safe" => EmptyHand::Safe, "blue" => EmptyHand::Blue,
                "loses" => EmptyHand::Loses, "low_cards" => EmptyHand::LowCards)
        }
        "between.low_cards" => o.low_cards = low_cards(v)?,
        "between.reserve" => o.reserve = int(0, 45)? as u8,
        "phase2.plays" => {
            o.plays = choice!("singles" => Plays::Singles, "sequences" => Plays::Sequences,
                "sequences_from_two" => Plays::SequencesFromTwo,
                "by_trump_colour" => Plays::ByTrumpColour)
        }
        "phase2.min" => o.min = int(2, 13)? as u8,
        "phase2.pickup" => {
            o.pickup = choice!("top" => Pickup::Top, "top_joined" => Pickup::TopJoined,
                "bottom" => Pickup::Bottom, "bottom_joined" => Pickup::BottomJoined,
                "bottom_card" => Pickup::BottomCard)
        }
        "phase2.forced_pickup" => o.forced_pickup = boolean()?,
        "phase2.complete_suit" => o.complete_suit = boolean()?,
        "phase2.trump_ends_trick" => o.trump_ends_trick = boolean()?,
        "phase2.must_beat" => o.must_beat = boolean()?,
        "phase2.anti_trump" => {
            o.anti_trump = choice!("none" => AntiTrump::None, "same_colour" => AntiTrump::SameColour,
                "electric_clubs" => AntiTrump::ElectricClubs)
        }
        // Any positive whole number (SPEC 8.2); beyond u64 a number arrives
        // as a double and saturates, which no game can tell apart.
        "phase2.action_limit" => {
            o.action_limit = whole
                .filter(|&n| n >= 1)
                .ok_or_else(|| err("must be a positive whole number"))?;
        }
        _ => return Err(RulesError::new(key, "unknown option")),
    }
    Ok(())
}

const LOW: &str = "between.low_cards";

/// A whole number, also when written `2000.0`: protobuf's `Struct` keeps
/// every number as a double, so rulesets that crossed the API arrive so.
fn whole_number(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|f| f.fract() == 0.0 && *f >= 0.0)
            .map(|f| f as u64)
    })
}

fn low_cards(v: &Value) -> Result<Option<LowCards>, RulesError> {
    let object = match v {
        Value::String(s) if s == "none" => return Ok(None),
        Value::Object(object) => object,
        _ => {
            return Err(RulesError::new(
                LOW,
                format!("must be \"none\" or an object, not {v}"),
            ));
        }
    };
    if let Some(key) = object
        .keys()
        .find(|k| !["threshold", "ranks", "extra"].contains(&k.as_str()))
    {
        return Err(RulesError::new(LOW, format!("unknown field {key:?}")));
    }
    let threshold = match object.get("threshold") {
        None => return Err(RulesError::new(LOW, "needs a threshold")),
        Some(Value::String(s)) if s == "trump_rank" => Threshold::TrumpRank,
        Some(t) => match whole_number(t) {
            Some(n) => Threshold::Count(n),
            None => {
                return Err(RulesError::new(
                    LOW,
                    format!("threshold must be a number of cards or \"trump_rank\", not {t}"),
                ));
            }
        },
    };
    let mut low = LowCards {
        threshold,
        ranks: LowCards::DEFAULT_RANKS,
        extra_trump_ranks: 0,
        extra_cards: CardSet::EMPTY,
    };
    if let Some(ranks) = object.get("ranks") {
        low.ranks = 0;
        for item in list(ranks, "ranks")? {
            low.ranks |= 1 << (rank(item)?.value() - 2);
        }
    }
    if let Some(extra) = object.get("extra") {
        for item in list(extra, "extra")? {
            match item.as_str().and_then(|s| s.parse::<Card>().ok()) {
                Some(card) => low.extra_cards.insert(card),
                None => low.extra_trump_ranks |= 1 << (rank(item)?.value() - 2),
            }
        }
    }
    Ok(Some(low))
}

fn list<'a>(v: &'a Value, field: &str) -> Result<&'a Vec<Value>, RulesError> {
    v.as_array()
        .ok_or_else(|| RulesError::new(LOW, format!("{field} must be a list, not {v}")))
}

fn rank(v: &Value) -> Result<Rank, RulesError> {
    let parsed = match v {
        Value::Number(_) => whole_number(v)
            .and_then(|n| u8::try_from(n).ok())
            .and_then(Rank::new),
        Value::String(s) if s.len() == 1 => s.chars().next().and_then(Rank::from_letter),
        Value::String(s) => s.parse::<u8>().ok().and_then(Rank::new),
        _ => None,
    };
    parsed.ok_or_else(|| RulesError::new(LOW, format!("not a rank: {v} (\"2\"..\"A\" or 2..14)")))
}

/// SPEC 8.2's refused combinations, each named by the option at fault.
fn validate(o: &Options) -> Result<(), RulesError> {
    let d = Options::DEFAULT;
    if o.mode != Phase1Mode::All {
        let not_all = [
            ("phase1.multi", o.multi != 1),
            ("phase1.ties", o.ties != d.ties),
            ("phase1.tied_beats_unique", o.tied_beats_unique),
            ("phase1.compulsory_ties", o.compulsory_ties),
        ];
        if let Some((name, _)) = not_all.iter().find(|(_, bad)| *bad) {
            return Err(RulesError::new(name, "only with phase1.mode \"all\""));
        }
    }
    if o.mode == Phase1Mode::TurnedTrump {
        let not_turned = [
            ("phase1.skip_empty", o.skip_empty != d.skip_empty),
            ("phase1.sluff", o.sluff != d.sluff),
            ("phase1.end", o.end != d.end),
            (
                "phase1.unfinished_trick",
                o.unfinished_trick != d.unfinished_trick,
            ),
            ("phase1.tie_runout", o.tie_runout != d.tie_runout),
            ("between.reserve", o.reserve != d.reserve),
        ];
        if let Some((name, _)) = not_turned.iter().find(|(_, bad)| *bad) {
            return Err(RulesError::new(
                name,
                "not with phase1.mode \"turned_trump\"",
            ));
        }
    } else {
        let only_turned = [
            ("phase1.rob", o.rob),
            ("phase1.bank", o.bank),
            ("phase1.must_follow", o.must_follow),
        ];
        if let Some((name, _)) = only_turned.iter().find(|(_, bad)| *bad) {
            return Err(RulesError::new(
                name,
                "only with phase1.mode \"turned_trump\"",
            ));
        }
    }
    Ok(())
}

fn render(r: &Ruleset) -> Value {
    let o = &r.options;
    let mut m = Map::new();
    let mut put = |k: &str, v: Value| {
        m.insert(k.to_owned(), v);
    };
    put(
        "phase1.mode",
        json!(match o.mode {
            Phase1Mode::Pairs => "pairs",
            Phase1Mode::All => "all",
            Phase1Mode::TurnedTrump => "turned_trump",
        }),
    );
    put("phase1.skip_empty", json!(o.skip_empty));
    put("phase1.multi", json!(o.multi));
    put(
        "phase1.ties",
        json!(match o.ties {
            Ties::Replay => "replay",
            Ties::TakeBack => "take_back",
        }),
    );
    put("phase1.tied_beats_unique", json!(o.tied_beats_unique));
    put("phase1.compulsory_ties", json!(o.compulsory_ties));
    put(
        "phase1.sluff",
        json!(match o.sluff {
            Sluff::None => "none",
            Sluff::Once => "once",
            Sluff::OwnRank => "own_rank",
            Sluff::Unlimited => "unlimited",
            Sluff::LosingRanks => "losing_ranks",
        }),
    );
    put(
        "phase1.end",
        json!(match o.end {
            Phase1End::NoCard => "no_card",
            Phase1End::StockEmpty => "stock_empty",
        }),
    );
    put(
        "phase1.unfinished_trick",
        json!(match o.unfinished_trick {
            UnfinishedTrick::Return => "return",
            UnfinishedTrick::Deal => "deal",
        }),
    );
    put(
        "phase1.tie_runout",
        json!(match o.tie_runout {
            TieRunout::Return => "return",
            TieRunout::Split => "split",
        }),
    );
    put("phase1.chance", json!(o.chance));
    put("phase1.rob", json!(o.rob));
    put("phase1.bank", json!(o.bank));
    put("phase1.must_follow", json!(o.must_follow));
    put(
        "between.empty_hand",
        json!(match o.empty_hand {
            EmptyHand::Safe => "safe",
            EmptyHand::Blue => "blue",
            EmptyHand::Loses => "loses",
            EmptyHand::LowCards => "low_cards",
        }),
    );
    put(
        "between.low_cards",
        match &o.low_cards {
            None => json!("none"),
            Some(low) => {
                let ranks = |mask: u16| -> Vec<String> {
                    Rank::all()
                        .filter(|r| mask >> (r.value() - 2) & 1 == 1)
                        .map(|r| r.to_string())
                        .collect()
                };
                let mut extra = ranks(low.extra_trump_ranks);
                extra.extend(low.extra_cards.ascending().map(|c| c.to_string()));
                let threshold = match low.threshold {
                    Threshold::Count(n) => json!(n),
                    Threshold::TrumpRank => json!("trump_rank"),
                };
                json!({"threshold": threshold, "ranks": ranks(low.ranks), "extra": extra})
            }
        },
    );
    put("between.reserve", json!(o.reserve));
    put(
        "phase2.plays",
        json!(match o.plays {
            Plays::Singles => "singles",
            Plays::Sequences => "sequences",
            Plays::SequencesFromTwo => "sequences_from_two",
            Plays::ByTrumpColour => "by_trump_colour",
        }),
    );
    put("phase2.min", json!(o.min));
    put(
        "phase2.pickup",
        json!(match o.pickup {
            Pickup::Top => "top",
            Pickup::TopJoined => "top_joined",
            Pickup::Bottom => "bottom",
            Pickup::BottomJoined => "bottom_joined",
            Pickup::BottomCard => "bottom_card",
        }),
    );
    put("phase2.forced_pickup", json!(o.forced_pickup));
    put("phase2.complete_suit", json!(o.complete_suit));
    put("phase2.trump_ends_trick", json!(o.trump_ends_trick));
    put("phase2.must_beat", json!(o.must_beat));
    put(
        "phase2.anti_trump",
        json!(match o.anti_trump {
            AntiTrump::None => "none",
            AntiTrump::SameColour => "same_colour",
            AntiTrump::ElectricClubs => "electric_clubs",
        }),
    );
    put("phase2.action_limit", json!(o.action_limit));
    json!({"preset": r.preset.name(), "options": Value::Object(m)})
}
