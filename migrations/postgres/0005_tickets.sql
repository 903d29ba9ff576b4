-- The matchmaker's tables. A ticket is one account waiting for a table; a
-- match is a table the matchmaker has planned. A ticket is claimed by
-- setting its match_id while it is queued and unclaimed (a conditional
-- UPDATE), so two matchmakers never seat one ticket twice. The match id is
-- the CreateGame request id, so finishing a planned match after a crash
-- finds the game created before the crash instead of creating another.

CREATE TABLE matches (
    id          TEXT PRIMARY KEY,
    -- The Rules message (protobuf JSON) the game is created with.
    rules       JSONB NOT NULL,
    rated       BOOLEAN NOT NULL,
    -- Account ids in seat order: the tickets' owners and the bots.
    seats       JSONB NOT NULL,
    state       TEXT NOT NULL CHECK (state IN ('planned', 'created', 'abandoned')),
    game_id     TEXT,
    planned_at  TIMESTAMPTZ NOT NULL,
    updated_at  TIMESTAMPTZ NOT NULL
);

CREATE INDEX matches_planned ON matches (planned_at) WHERE state = 'planned';

CREATE TABLE tickets (
    id             TEXT PRIMARY KEY,
    -- The game service's account; no foreign key: its accounts may live in
    -- another database.
    account_id     BIGINT NOT NULL,
    guest          BOOLEAN NOT NULL,
    -- The Rules message as enqueued (protobuf JSON).
    rules          JSONB NOT NULL,
    ruleset_key    TEXT NOT NULL,
    -- Acceptable player counts, ascending (a JSON array).
    player_counts  JSONB NOT NULL,
    allow_bots     BOOLEAN NOT NULL,
    rating         DOUBLE PRECISION NOT NULL,
    state          TEXT NOT NULL CHECK (state IN ('queued', 'matched', 'cancelled')),
    -- Set when a match claims the ticket (still queued until the game exists).
    match_id       TEXT REFERENCES matches (id),
    game_id        TEXT,
    seat           INTEGER CHECK (seat >= 0),
    created_at     TIMESTAMPTZ NOT NULL,
    updated_at     TIMESTAMPTZ NOT NULL
);

-- An account holds at most one queued ticket.
CREATE UNIQUE INDEX tickets_one_queued ON tickets (account_id) WHERE state = 'queued';
CREATE INDEX tickets_waiting ON tickets (created_at) WHERE state = 'queued' AND match_id IS NULL;
CREATE INDEX tickets_by_match ON tickets (match_id);
