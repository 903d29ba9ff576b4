-- Who runs a bot account: a person's account. An owner's accounts (the
-- owner and its bots) never share a matchmade or tournament table, and a
-- rated game between two of them changes no rating. NULL: the account is
-- its own owner.
ALTER TABLE accounts ADD COLUMN owner_id BIGINT REFERENCES accounts (id);
