-- Divisions: optional tiers within a season (docs/ratings.md,
-- "Divisions"). A season with `division_tiers` set places its players in
-- tiers and cohorts for each period; a period's places are written once,
-- when the period turns, from the previous period's results.

ALTER TABLE seasons ADD COLUMN division_tiers INTEGER;
ALTER TABLE seasons ADD COLUMN cohort_size INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seasons ADD COLUMN promote_percent INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seasons ADD COLUMN relegate_percent INTEGER NOT NULL DEFAULT 0;
ALTER TABLE seasons ADD COLUMN min_games INTEGER NOT NULL DEFAULT 0;

-- One row per period whose places are written: the turn happened once.
CREATE TABLE division_periods (
    season_id     TEXT NOT NULL REFERENCES seasons (id),
    period_start  TIMESTAMPTZ NOT NULL,
    turned_at     TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (season_id, period_start)
);

-- A player's place in one period: tier 1 is the top, cohort 1 the
-- strongest of its tier. `arrival` says how the player got there.
CREATE TABLE division_places (
    season_id     TEXT NOT NULL REFERENCES seasons (id),
    period_start  TIMESTAMPTZ NOT NULL,
    account_id    BIGINT NOT NULL,
    tier          INTEGER NOT NULL,
    cohort        INTEGER NOT NULL,
    arrival       TEXT NOT NULL,
    stepping_down BOOLEAN NOT NULL DEFAULT FALSE,
    placed_at     TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (season_id, period_start, account_id)
);

CREATE INDEX division_places_by_cohort
    ON division_places (season_id, period_start, tier, cohort);
