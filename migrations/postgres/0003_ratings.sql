-- Ratings: one row per account and ruleset key (the Weng-Lin mu and sigma),
-- and one row per rated game and account recording the change. The primary
-- key of `rating_changes` is what makes applying a game twice impossible.

CREATE TABLE ratings (
    account_id   BIGINT NOT NULL REFERENCES accounts (id),
    ruleset_key  TEXT NOT NULL,
    mu           DOUBLE PRECISION NOT NULL,
    sigma        DOUBLE PRECISION NOT NULL CHECK (sigma > 0),
    games        INTEGER NOT NULL CHECK (games >= 0),
    updated_at   TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (account_id, ruleset_key)
);

-- Leaderboards: one key, by conservative rating.
CREATE INDEX ratings_by_key ON ratings (ruleset_key, (mu - 3 * sigma) DESC);

CREATE TABLE rating_changes (
    game_id       TEXT NOT NULL REFERENCES games (id),
    account_id    BIGINT NOT NULL REFERENCES accounts (id),
    ruleset_key   TEXT NOT NULL,
    place         INTEGER NOT NULL CHECK (place > 0),
    mu_before     DOUBLE PRECISION NOT NULL,
    sigma_before  DOUBLE PRECISION NOT NULL,
    mu_after      DOUBLE PRECISION NOT NULL,
    sigma_after   DOUBLE PRECISION NOT NULL,
    created_at    TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (game_id, account_id)
);

-- An account's history, newest first.
CREATE INDEX rating_changes_by_account ON rating_changes (account_id, created_at DESC);
