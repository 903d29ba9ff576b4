-- An entrant's name as the game service knew it at registration, for
-- standings pages that cannot look accounts up.
ALTER TABLE tournament_entries ADD COLUMN name TEXT NOT NULL DEFAULT '';
