-- The game service's tables; the same shape as migrations/postgres, in SQLite
-- types: JSON and timestamps as TEXT, booleans as INTEGER. STRICT tables so
-- a wrongly typed value is an error rather than silently stored.

CREATE TABLE accounts (
    id          INTEGER PRIMARY KEY,
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('player', 'guest', 'bot', 'operator')),
    -- sha256 hex of the bearer token; the token itself is never stored.
    token_hash  TEXT NOT NULL UNIQUE,
    created_at  TEXT NOT NULL
) STRICT;

CREATE TABLE games (
    id           TEXT PRIMARY KEY,
    ruleset      TEXT NOT NULL,
    ruleset_key  TEXT NOT NULL,
    players      INTEGER NOT NULL CHECK (players > 0),
    created_by   INTEGER NOT NULL REFERENCES accounts (id),
    seed         TEXT NOT NULL,
    commitment   TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('open', 'active', 'over')),
    rated        INTEGER NOT NULL CHECK (rated IN (0, 1)),
    created_at   TEXT NOT NULL,
    finished_at  TEXT
) STRICT;

CREATE INDEX games_open ON games (created_at) WHERE status = 'open';

CREATE TABLE seats (
    game_id     TEXT NOT NULL REFERENCES games (id),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    account_id  INTEGER REFERENCES accounts (id),
    PRIMARY KEY (game_id, seat)
) STRICT;

CREATE INDEX seats_by_account ON seats (account_id, game_id);

CREATE TABLE events (
    game_id     TEXT NOT NULL REFERENCES games (id),
    seq         INTEGER NOT NULL CHECK (seq >= 0),
    kind        TEXT NOT NULL,
    payload     TEXT NOT NULL,
    move_id     TEXT,
    created_at  TEXT NOT NULL,
    PRIMARY KEY (game_id, seq),
    UNIQUE (game_id, move_id)
) STRICT;
