//! The rating model: Weng-Lin (OpenSkill, Bradley-Terry) from the
//! `skillratings` crate, every seat a team of one ranked by its place.
//! Pure: numbers in, numbers out; storing them is the store's business.

use skillratings::MultiTeamOutcome;
use skillratings::weng_lin::{WengLinConfig, WengLinRating, weng_lin_multi_team};
use skit_store::Skill;

/// Where every account starts: mu 25, sigma 25/3.
pub const START: Skill = Skill {
    mu: 25.0,
    sigma: 25.0 / 3.0,
};

/// The new skills of players with skills `before` who finished at
/// `places` (1 = first; equal places are ties), in the same order.
pub fn update(before: &[Skill], places: &[u32]) -> Vec<Skill> {
    let teams: Vec<[WengLinRating; 1]> = before
        .iter()
        .map(|s| {
            [WengLinRating {
                rating: s.mu,
                uncertainty: s.sigma,
            }]
        })
        .collect();
    let ranked: Vec<(&[WengLinRating], MultiTeamOutcome)> = teams
        .iter()
        .zip(places)
        .map(|(team, &place)| (&team[..], MultiTeamOutcome::new(place as usize)))
        .collect();
    weng_lin_multi_team(&ranked, &WengLinConfig::new())
        .iter()
        .zip(before)
        .map(|(team, old)| {
            team.first().map_or(*old, |r| Skill {
                mu: r.rating,
                sigma: r.uncertainty,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_winner_rises_and_the_loser_falls() {
        let after = update(&[START, START, START], &[1, 2, 3]);
        assert!(after[0].mu > START.mu, "{after:?}");
        assert!(after[2].mu < START.mu, "{after:?}");
        assert!(after[0].mu > after[1].mu && after[1].mu > after[2].mu);
        assert!(after.iter().all(|s| s.sigma < START.sigma), "{after:?}");
    }

    #[test]
    fn a_tie_between_equals_moves_nobody() {
        let after = update(&[START, START], &[1, 1]);
        for s in &after {
            assert!((s.mu - START.mu).abs() < 1e-9, "{after:?}");
            assert!(s.sigma < START.sigma);
        }
    }

    #[test]
    fn tied_players_move_alike() {
        // Two safe seats share first place above a loser.
        let after = update(&[START, START, START], &[1, 1, 3]);
        assert!((after[0].mu - after[1].mu).abs() < 1e-9, "{after:?}");
        assert!(after[0].mu > START.mu && after[2].mu < START.mu);
    }

    #[test]
    fn a_draw_by_the_limit_pulls_ratings_together() {
        let strong = Skill {
            mu: 35.0,
            sigma: 3.0,
        };
        let weak = Skill {
            mu: 15.0,
            sigma: 3.0,
        };
        // Everyone still in shares first place.
        let after = update(&[strong, weak], &[1, 1]);
        assert!(after[0].mu < strong.mu, "{after:?}");
        assert!(after[1].mu > weak.mu, "{after:?}");
    }

    #[test]
    fn an_upset_moves_more_than_the_expected_result() {
        let strong = Skill {
            mu: 35.0,
            sigma: 3.0,
        };
        let weak = Skill {
            mu: 15.0,
            sigma: 3.0,
        };
        let expected = update(&[strong, weak], &[1, 2]);
        let upset = update(&[strong, weak], &[2, 1]);
        assert!(strong.mu - upset[0].mu > expected[0].mu - strong.mu);
    }
}
