-- The league service's tournaments; the same shape as migrations/postgres,
-- in SQLite types.

CREATE TABLE tournaments (
    id           TEXT PRIMARY KEY,
    spec         TEXT NOT NULL,
    state        TEXT NOT NULL
                 CHECK (state IN ('registering', 'running', 'paused', 'finished', 'terminated')),
    round        INTEGER NOT NULL CHECK (round >= 0),
    reason       TEXT NOT NULL,
    revision     INTEGER NOT NULL,
    sequence     INTEGER NOT NULL,
    starts_at    TEXT,
    constraints  TEXT NOT NULL,
    created_by   INTEGER NOT NULL,
    request_id   TEXT,
    created_at   TEXT NOT NULL,
    updated_at   TEXT NOT NULL
) STRICT;

CREATE UNIQUE INDEX tournaments_by_request ON tournaments (created_by, request_id)
    WHERE request_id IS NOT NULL;
CREATE INDEX tournaments_live ON tournaments (created_at)
    WHERE state IN ('registering', 'running', 'paused');

CREATE TABLE tournament_entries (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id),
    account_id     INTEGER NOT NULL,
    rating         REAL NOT NULL,
    withdrawn      INTEGER NOT NULL CHECK (withdrawn IN (0, 1)),
    registered_at  TEXT NOT NULL,
    PRIMARY KEY (tournament_id, account_id)
) STRICT;

CREATE TABLE tournament_tables (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id),
    round          INTEGER NOT NULL CHECK (round >= 1),
    table_no       INTEGER NOT NULL CHECK (table_no >= 1),
    seats          TEXT NOT NULL,
    state          TEXT NOT NULL CHECK (state IN ('seated', 'playing', 'over', 'void')),
    game_id        TEXT,
    places         TEXT,
    loser          INTEGER,
    PRIMARY KEY (tournament_id, round, table_no)
) STRICT;

CREATE TABLE tournament_events (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id),
    sequence       INTEGER NOT NULL CHECK (sequence >= 1),
    body           TEXT NOT NULL,
    at             TEXT NOT NULL,
    PRIMARY KEY (tournament_id, sequence)
) STRICT;
