-- Idempotent CreateGame: the client's request id, unique per creator, so a
-- repeated request finds the game created the first time.
ALTER TABLE games ADD COLUMN request_id TEXT;

CREATE UNIQUE INDEX games_request_id ON games (created_by, request_id)
    WHERE request_id IS NOT NULL;
