-- Credentials with a lifecycle: one row per bearer secret (its sha256 hex,
-- never the secret), so an account may hold several at once (sessions on
-- several devices, bot API keys), each expiring or revoked on its own.
-- `accounts.token_hash` no longer finds anyone: the tokens it holds are
-- copied here below, so clients keep the tokens they have.
CREATE TABLE credentials (
    id            BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    account_id    BIGINT NOT NULL REFERENCES accounts (id),
    kind          TEXT NOT NULL CHECK (kind IN ('access', 'refresh', 'api_key', 'operator')),
    -- The unique index is also the lookup index for authentication.
    token_hash    TEXT NOT NULL UNIQUE,
    -- The refresh-token family an access or refresh token belongs to.
    session_id    TEXT,
    -- Space-separated (`play read`); for API keys.
    scopes        TEXT NOT NULL DEFAULT '',
    label         TEXT,
    created_at    TIMESTAMPTZ NOT NULL,
    -- NULL: never.
    expires_at    TIMESTAMPTZ,
    revoked_at    TIMESTAMPTZ,
    -- Why: `rotated` (a refresh token used once), `logout`, `revoked`,
    -- `refresh_token_reused`, `operator_rotated`, ...
    revoked_reason TEXT
);

CREATE INDEX credentials_account ON credentials (account_id, kind);
CREATE INDEX credentials_session ON credentials (session_id) WHERE session_id IS NOT NULL;

-- Existing tokens: the operator's stays the operator's; a bot's becomes an
-- API key that may play and read; a person's an access token of no session
-- that never expires (as it never did).
INSERT INTO credentials (account_id, kind, token_hash, scopes, label, created_at)
SELECT id,
       CASE kind WHEN 'operator' THEN 'operator' WHEN 'bot' THEN 'api_key' ELSE 'access' END,
       token_hash,
       CASE kind WHEN 'bot' THEN 'play read' ELSE '' END,
       CASE kind WHEN 'bot' THEN 'first key' ELSE NULL END,
       created_at
FROM accounts;

-- The revocation feed: append-only, one row per revoked (or changed)
-- credential hash or per account whose credentials all changed, written in
-- the revoking transaction. Every instance reads it every few hundred
-- milliseconds and drops what it cached. `at_ms` (Unix milliseconds) lets a
-- reader look back over rows whose ids committed out of order.
CREATE TABLE revocations (
    id          BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    token_hash  TEXT,
    account_id  BIGINT,
    at_ms       BIGINT NOT NULL,
    CHECK (token_hash IS NOT NULL OR account_id IS NOT NULL)
);

CREATE INDEX revocations_at ON revocations (at_ms);

-- A guest created for a request keeps its first refresh token sealed as
-- well, so a resend gets the first answer whole.
ALTER TABLE accounts ADD COLUMN sealed_refresh TEXT;
