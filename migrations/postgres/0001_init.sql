-- The game service's tables. Games are append-only event logs in `events`;
-- `games` and `seats` hold what the lobby needs without replaying a log.

CREATE TABLE accounts (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    name        TEXT NOT NULL,
    kind        TEXT NOT NULL CHECK (kind IN ('player', 'guest', 'bot', 'operator')),
    -- sha256 hex of the bearer token; the token itself is never stored.
    -- The unique index is also the lookup index for authentication.
    token_hash  TEXT NOT NULL UNIQUE,
    created_at  TIMESTAMPTZ NOT NULL
);

CREATE TABLE games (
    id           TEXT PRIMARY KEY,
    ruleset      JSONB NOT NULL,
    ruleset_key  TEXT NOT NULL,
    players      INTEGER NOT NULL CHECK (players > 0),
    created_by   BIGINT NOT NULL REFERENCES accounts (id),
    -- Secret until the game is over; `commitment` (sha256 hex) is public.
    seed         TEXT NOT NULL,
    commitment   TEXT NOT NULL,
    status       TEXT NOT NULL CHECK (status IN ('open', 'active', 'over')),
    rated        BOOLEAN NOT NULL,
    created_at   TIMESTAMPTZ NOT NULL,
    finished_at  TIMESTAMPTZ
);

-- The lobby lists open games, oldest first.
CREATE INDEX games_open ON games (created_at) WHERE status = 'open';

CREATE TABLE seats (
    game_id     TEXT NOT NULL REFERENCES games (id),
    seat        INTEGER NOT NULL CHECK (seat >= 0),
    -- NULL while the seat is open.
    account_id  BIGINT REFERENCES accounts (id),
    PRIMARY KEY (game_id, seat)
);

CREATE INDEX seats_by_account ON seats (account_id, game_id);

CREATE TABLE events (
    game_id     TEXT NOT NULL REFERENCES games (id),
    seq         BIGINT NOT NULL CHECK (seq >= 0),
    kind        TEXT NOT NULL,
    payload     JSONB NOT NULL,
    -- The client's idempotency key for the move that produced this event.
    move_id     TEXT,
    created_at  TIMESTAMPTZ NOT NULL,
    -- Optimistic concurrency: two writers at the same seq cannot both commit.
    CONSTRAINT events_pkey PRIMARY KEY (game_id, seq),
    CONSTRAINT events_move_id_key UNIQUE (game_id, move_id)
);
