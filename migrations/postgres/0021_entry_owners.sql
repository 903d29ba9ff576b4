-- An entrant's owner group at registration (docs/accounts.md, "Who runs a
-- bot"): two entrants of one owner never share a table. NULL: its own.
ALTER TABLE tournament_entries ADD COLUMN owner_id BIGINT;
