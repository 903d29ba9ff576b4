-- Seasons: rated games of a ruleset key within a season's period count
-- toward a rating track of the period's own, updated in the same
-- transaction as the lifetime rating. `period_start` names the period
-- (the season's start, or an occurrence of its recurrence).

CREATE TABLE seasons (
    id           TEXT PRIMARY KEY,
    name         TEXT NOT NULL,
    ruleset_key  TEXT NOT NULL,
    starts_at    TEXT NOT NULL,
    ends_at      TEXT,
    recurrence   TEXT NOT NULL,
    time_zone    TEXT NOT NULL,
    created_by   INTEGER NOT NULL,
    request_id   TEXT,
    created_at   TEXT NOT NULL
) STRICT;

CREATE UNIQUE INDEX seasons_by_request ON seasons (created_by, request_id)
    WHERE request_id IS NOT NULL;
CREATE INDEX seasons_by_key ON seasons (ruleset_key, starts_at);

CREATE TABLE season_ratings (
    season_id     TEXT NOT NULL REFERENCES seasons (id),
    period_start  TEXT NOT NULL,
    account_id    INTEGER NOT NULL,
    mu            REAL NOT NULL,
    sigma         REAL NOT NULL,
    games         INTEGER NOT NULL,
    updated_at    TEXT NOT NULL,
    PRIMARY KEY (season_id, period_start, account_id)
) STRICT;

CREATE TABLE season_rating_changes (
    season_id     TEXT NOT NULL REFERENCES seasons (id),
    period_start  TEXT NOT NULL,
    game_id       TEXT NOT NULL,
    account_id    INTEGER NOT NULL,
    mu_before     REAL NOT NULL,
    sigma_before  REAL NOT NULL,
    mu_after      REAL NOT NULL,
    sigma_after   REAL NOT NULL,
    created_at    TEXT NOT NULL,
    PRIMARY KEY (season_id, game_id, account_id)
) STRICT;
