-- Turn clocks: per running timed game, the earliest moment a seat's clock
-- may run out: an index for the service's timeout task. The truth is the
-- log (the time control in event 0, the event times); a row may be earlier
-- than the real deadline, never later, and the task re-derives the exact
-- deadline from the log before acting on it.

CREATE TABLE clocks (
    game_id   TEXT PRIMARY KEY REFERENCES games (id),
    -- Unix time in milliseconds.
    deadline  BIGINT NOT NULL,
    -- The game's version the deadline was derived from; an older version
    -- never overwrites a newer one.
    version   BIGINT NOT NULL
);

CREATE INDEX clocks_by_deadline ON clocks (deadline);
