-- As migrations/postgres/0008: the bot accounts the operator marks as the
-- service's own (AccountService.SetHouseBot), the only ones the matchmaker
-- seats to fill a table.
ALTER TABLE accounts ADD COLUMN house_bot INTEGER NOT NULL DEFAULT 0 CHECK (house_bot IN (0, 1));
CREATE INDEX accounts_house_bots ON accounts (id) WHERE house_bot;
