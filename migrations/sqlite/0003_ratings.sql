-- Ratings, as in migrations/postgres/0003_ratings.sql, in SQLite types.

CREATE TABLE ratings (
    account_id   INTEGER NOT NULL REFERENCES accounts (id),
    ruleset_key  TEXT NOT NULL,
    mu           REAL NOT NULL,
    sigma        REAL NOT NULL CHECK (sigma > 0),
    games        INTEGER NOT NULL CHECK (games >= 0),
    updated_at   TEXT NOT NULL,
    PRIMARY KEY (account_id, ruleset_key)
) STRICT;

CREATE INDEX ratings_by_key ON ratings (ruleset_key, (mu - 3 * sigma) DESC);

CREATE TABLE rating_changes (
    game_id       TEXT NOT NULL REFERENCES games (id),
    account_id    INTEGER NOT NULL REFERENCES accounts (id),
    ruleset_key   TEXT NOT NULL,
    place         INTEGER NOT NULL CHECK (place > 0),
    mu_before     REAL NOT NULL,
    sigma_before  REAL NOT NULL,
    mu_after      REAL NOT NULL,
    sigma_after   REAL NOT NULL,
    created_at    TEXT NOT NULL,
    PRIMARY KEY (game_id, account_id)
) STRICT;

CREATE INDEX rating_changes_by_account ON rating_changes (account_id, created_at DESC);
