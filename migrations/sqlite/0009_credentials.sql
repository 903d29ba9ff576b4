-- As migrations/postgres/0010: one row per bearer secret (its sha256 hex),
-- the existing account tokens copied in, and the revocation feed.
CREATE TABLE credentials (
    id             INTEGER PRIMARY KEY,
    account_id     INTEGER NOT NULL REFERENCES accounts (id),
    kind           TEXT NOT NULL CHECK (kind IN ('access', 'refresh', 'api_key', 'operator')),
    token_hash     TEXT NOT NULL UNIQUE,
    session_id     TEXT,
    scopes         TEXT NOT NULL DEFAULT '',
    label          TEXT,
    created_at     TEXT NOT NULL,
    expires_at     TEXT,
    revoked_at     TEXT,
    revoked_reason TEXT
) STRICT;

CREATE INDEX credentials_account ON credentials (account_id, kind);
CREATE INDEX credentials_session ON credentials (session_id) WHERE session_id IS NOT NULL;

INSERT INTO credentials (account_id, kind, token_hash, scopes, label, created_at)
SELECT id,
       CASE kind WHEN 'operator' THEN 'operator' WHEN 'bot' THEN 'api_key' ELSE 'access' END,
       token_hash,
       CASE kind WHEN 'bot' THEN 'play read' ELSE '' END,
       CASE kind WHEN 'bot' THEN 'first key' ELSE NULL END,
       created_at
FROM accounts;

CREATE TABLE revocations (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    token_hash  TEXT,
    account_id  INTEGER,
    at_ms       INTEGER NOT NULL,
    CHECK (token_hash IS NOT NULL OR account_id IS NOT NULL)
) STRICT;

CREATE INDEX revocations_at ON revocations (at_ms);

ALTER TABLE accounts ADD COLUMN sealed_refresh TEXT;
