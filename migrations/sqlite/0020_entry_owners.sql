-- As migrations/postgres/0021: an entrant's owner group (NULL: its own).
ALTER TABLE tournament_entries ADD COLUMN owner_id INTEGER;
