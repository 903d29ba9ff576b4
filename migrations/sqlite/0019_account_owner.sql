-- As migrations/postgres/0020: who runs a bot account (NULL: itself).
ALTER TABLE accounts ADD COLUMN owner_id INTEGER REFERENCES accounts (id);
