-- The league service's tournaments. `spec` is what the operator asked for
-- (opaque to the store); `revision` counts every change (entries included)
-- and guards concurrent writers; `sequence` is the number of the latest
-- event in tournament_events, written in the same transaction as the
-- change it reports.

CREATE TABLE tournaments (
    id           TEXT PRIMARY KEY,
    spec         JSONB NOT NULL,
    state        TEXT NOT NULL
                 CHECK (state IN ('registering', 'running', 'paused', 'finished', 'terminated')),
    round        INTEGER NOT NULL CHECK (round >= 0),
    reason       TEXT NOT NULL,
    revision     BIGINT NOT NULL,
    sequence     BIGINT NOT NULL,
    starts_at    TIMESTAMPTZ,
    constraints  JSONB NOT NULL,
    created_by   BIGINT NOT NULL,
    request_id   TEXT,
    created_at   TIMESTAMPTZ NOT NULL,
    updated_at   TIMESTAMPTZ NOT NULL
);

CREATE UNIQUE INDEX tournaments_by_request ON tournaments (created_by, request_id)
    WHERE request_id IS NOT NULL;
CREATE INDEX tournaments_live ON tournaments (created_at)
    WHERE state IN ('registering', 'running', 'paused');

CREATE TABLE tournament_entries (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id),
    account_id     BIGINT NOT NULL,
    rating         DOUBLE PRECISION NOT NULL,
    withdrawn      BOOLEAN NOT NULL,
    registered_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tournament_id, account_id)
);

CREATE TABLE tournament_tables (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id),
    round          INTEGER NOT NULL CHECK (round >= 1),
    table_no       INTEGER NOT NULL CHECK (table_no >= 1),
    seats          JSONB NOT NULL,
    state          TEXT NOT NULL CHECK (state IN ('seated', 'playing', 'over', 'void')),
    game_id        TEXT,
    places         JSONB,
    loser          INTEGER,
    PRIMARY KEY (tournament_id, round, table_no)
);

CREATE TABLE tournament_events (
    tournament_id  TEXT NOT NULL REFERENCES tournaments (id),
    sequence       BIGINT NOT NULL CHECK (sequence >= 1),
    body           JSONB NOT NULL,
    at             TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (tournament_id, sequence)
);
