-- Every inserted event checked its game through the foreign key: a row
-- lock (FOR KEY SHARE) on the game per event, the largest part of
-- Postgres' work per move. The store already proves the game exists: an
-- append is written only after the game's previous event (the guard of
-- its INSERT, or the checks of the careful path), and event 0 is inserted
-- with its game in one transaction. Games are never deleted.
ALTER TABLE events DROP CONSTRAINT events_game_id_fkey;
