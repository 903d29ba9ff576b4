-- As migrations/postgres/0007: each seat row carries its game's creation
-- time and whether the game is over, so ListGames reads an account's
-- running games, or its newest games, as one index range instead of every
-- seat the account ever held. (SQLite cannot add a NOT NULL column without
-- a default; the store always writes game_created_at.)
ALTER TABLE seats ADD COLUMN game_created_at TEXT;
ALTER TABLE seats ADD COLUMN over INTEGER NOT NULL DEFAULT 0 CHECK (over IN (0, 1));
UPDATE seats SET
    game_created_at = (SELECT g.created_at FROM games g WHERE g.id = seats.game_id),
    over = (SELECT g.status = 'over' FROM games g WHERE g.id = seats.game_id);
CREATE INDEX seats_newest ON seats (account_id, game_created_at DESC, game_id);
CREATE INDEX seats_running ON seats (account_id, game_created_at DESC, game_id) WHERE NOT over;
-- Both new indexes lead with the account, so the old one is not needed.
DROP INDEX seats_by_account;
