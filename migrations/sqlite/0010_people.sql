-- As migrations/postgres/0011: registered names (a unique comparison key,
-- NFKC and case-folded by the service), argon2id password hashes, devices
-- by the sha256 of their id, and identities from an operator's identity
-- provider (a JWT's issuer and subject).
ALTER TABLE accounts ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX accounts_name_key ON accounts (name_key) WHERE name_key IS NOT NULL;

ALTER TABLE accounts ADD COLUMN password_hash TEXT;

CREATE TABLE devices (
    device_hash TEXT PRIMARY KEY,
    account_id  INTEGER NOT NULL REFERENCES accounts (id),
    created_at  TEXT NOT NULL
) STRICT;
CREATE INDEX devices_by_account ON devices (account_id);

CREATE TABLE external_identities (
    issuer      TEXT NOT NULL,
    subject     TEXT NOT NULL,
    account_id  INTEGER NOT NULL REFERENCES accounts (id),
    created_at  TEXT NOT NULL,
    PRIMARY KEY (issuer, subject)
) STRICT;
CREATE INDEX external_identities_by_account ON external_identities (account_id);
