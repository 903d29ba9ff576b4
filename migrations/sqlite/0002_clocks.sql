-- Turn clocks: as migrations/postgres/0002_clocks.sql. The deadline is unix
-- milliseconds (INTEGER) so that it compares correctly in both databases.

CREATE TABLE clocks (
    game_id   TEXT PRIMARY KEY REFERENCES games (id),
    deadline  INTEGER NOT NULL,
    version   INTEGER NOT NULL
) STRICT;

CREATE INDEX clocks_by_deadline ON clocks (deadline);
