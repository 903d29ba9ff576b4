-- House bots: the bot accounts the operator runs for the service itself.
-- The matchmaker fills tables only with these, never with a third party's
-- bot account. Set by the operator (AccountService.SetHouseBot); no
-- account is one until marked.
ALTER TABLE accounts ADD COLUMN house_bot BOOLEAN NOT NULL DEFAULT FALSE;
CREATE INDEX accounts_house_bots ON accounts (id) WHERE house_bot;
