-- ListGames reads an account's games through its seats, and read every
-- seat the account ever held to find the few games still running. Each
-- seat row now carries its game's creation time and whether the game is
-- over, so an account's running games and its newest games are each one
-- index range (kept up to date by the store: seats are inserted with
-- their game, and marked over in the transaction that finishes it).
ALTER TABLE seats ADD COLUMN game_created_at TIMESTAMPTZ;
ALTER TABLE seats ADD COLUMN over BOOLEAN NOT NULL DEFAULT FALSE;
UPDATE seats s SET game_created_at = g.created_at, over = (g.status = 'over')
    FROM games g WHERE g.id = s.game_id;
ALTER TABLE seats ALTER COLUMN game_created_at SET NOT NULL;
CREATE INDEX seats_newest ON seats (account_id, game_created_at DESC, game_id);
CREATE INDEX seats_running ON seats (account_id, game_created_at DESC, game_id) WHERE NOT over;
-- Both new indexes lead with the account, so the old one is not needed.
DROP INDEX seats_by_account;
