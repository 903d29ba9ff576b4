-- The matchmaker's tables; the same shape as migrations/postgres, in SQLite
-- types. A ticket is claimed by setting its match_id while it is queued and
-- unclaimed; the match id is the CreateGame request id.

CREATE TABLE matches (
    id          TEXT PRIMARY KEY,
    rules       TEXT NOT NULL,
    rated       INTEGER NOT NULL CHECK (rated IN (0, 1)),
    seats       TEXT NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('planned', 'created', 'abandoned')),
    game_id     TEXT,
    planned_at  TEXT NOT NULL,
    updated_at  TEXT NOT NULL
) STRICT;

CREATE INDEX matches_planned ON matches (planned_at) WHERE state = 'planned';

CREATE TABLE tickets (
    id             TEXT PRIMARY KEY,
    account_id     INTEGER NOT NULL,
    guest          INTEGER NOT NULL CHECK (guest IN (0, 1)),
    rules          TEXT NOT NULL,
    ruleset_key    TEXT NOT NULL,
    player_counts  TEXT NOT NULL,
    allow_bots     INTEGER NOT NULL CHECK (allow_bots IN (0, 1)),
    rating         REAL NOT NULL,
    state          TEXT NOT NULL CHECK (state IN ('queued', 'matched', 'cancelled')),
    match_id       TEXT REFERENCES matches (id),
    game_id        TEXT,
    seat           INTEGER CHECK (seat >= 0),
    created_at     TEXT NOT NULL,
    updated_at     TEXT NOT NULL
) STRICT;

CREATE UNIQUE INDEX tickets_one_queued ON tickets (account_id) WHERE state = 'queued';
CREATE INDEX tickets_waiting ON tickets (created_at) WHERE state = 'queued' AND match_id IS NULL;
CREATE INDEX tickets_by_match ON tickets (match_id);
