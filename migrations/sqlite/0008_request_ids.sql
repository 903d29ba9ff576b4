-- As migrations/postgres/0009: idempotent CreateGuest and Enqueue. A guest
-- account keeps a key derived from its request and its token sealed under
-- that request; a ticket keeps its owner's request id, unique per owner.
ALTER TABLE accounts ADD COLUMN request_key TEXT;
ALTER TABLE accounts ADD COLUMN sealed_token TEXT;

CREATE UNIQUE INDEX accounts_request_key ON accounts (request_key)
    WHERE request_key IS NOT NULL;

ALTER TABLE tickets ADD COLUMN request_id TEXT;

CREATE UNIQUE INDEX tickets_request_id ON tickets (account_id, request_id)
    WHERE request_id IS NOT NULL;
