-- Registered names under a second rule (docs/accounts.md, "Names"): full
-- Unicode case folding in `name_key`, and a UTS #39 confusable skeleton in
-- `name_skeleton`, unique too, so that no name poses as another with
-- look-alike letters. `name_rule` is the rule a row's keys were computed
-- under; the game service recomputes rows of an older rule when it starts
-- (services/game/src/rekey.rs), as only it knows how.
ALTER TABLE accounts ADD COLUMN name_skeleton TEXT;
ALTER TABLE accounts ADD COLUMN name_rule BIGINT NOT NULL DEFAULT 1;
CREATE UNIQUE INDEX accounts_name_skeleton ON accounts (name_skeleton)
    WHERE name_skeleton IS NOT NULL;
CREATE INDEX accounts_name_rule ON accounts (name_rule) WHERE name_key IS NOT NULL;
