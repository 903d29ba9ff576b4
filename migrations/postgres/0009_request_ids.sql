-- Idempotent CreateGuest and Enqueue: the client's request id is stored
-- with what the request created, so a resend after a lost answer finds it.
--
-- A guest account keeps a key derived from its request (never the request
-- id itself) and its token sealed under that request: a resend can open
-- the token again, the database alone cannot.
ALTER TABLE accounts ADD COLUMN request_key TEXT;
ALTER TABLE accounts ADD COLUMN sealed_token TEXT;

CREATE UNIQUE INDEX accounts_request_key ON accounts (request_key)
    WHERE request_key IS NOT NULL;

-- A ticket keeps its owner's request id, unique per owner, whatever became
-- of the ticket (matched or cancelled), so a resend never queues twice.
ALTER TABLE tickets ADD COLUMN request_id TEXT;

CREATE UNIQUE INDEX tickets_request_id ON tickets (account_id, request_id)
    WHERE request_id IS NOT NULL;
