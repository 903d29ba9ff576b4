-- Accounts for people: registered names, passwords, devices and the
-- identities an operator's own identity provider vouches for.
--
-- `name_key` is the registered name's comparison key (NFKC, case-folded,
-- computed by the service): unique, so two people cannot register names
-- that differ only in case or in compatibility forms. Guests and bots have
-- none; their display names need not be unique.
ALTER TABLE accounts ADD COLUMN name_key TEXT;
CREATE UNIQUE INDEX accounts_name_key ON accounts (name_key) WHERE name_key IS NOT NULL;

-- An argon2id PHC string; never the password.
ALTER TABLE accounts ADD COLUMN password_hash TEXT;

-- Devices that sign in as an account (AuthenticateDevice, LinkDevice): the
-- sha256 hex of the device id, never the id itself, which works like a
-- bearer secret.
CREATE TABLE devices (
    device_hash TEXT PRIMARY KEY,
    account_id  BIGINT NOT NULL REFERENCES accounts (id),
    created_at  TIMESTAMPTZ NOT NULL
);
CREATE INDEX devices_by_account ON devices (account_id);

-- A JWT's subject at its issuer, and the account it signs in as.
CREATE TABLE external_identities (
    issuer      TEXT NOT NULL,
    subject     TEXT NOT NULL,
    account_id  BIGINT NOT NULL REFERENCES accounts (id),
    created_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (issuer, subject)
);
CREATE INDEX external_identities_by_account ON external_identities (account_id);
