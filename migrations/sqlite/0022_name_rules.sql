-- As migrations/postgres/0023_name_rules.sql: a registered name's
-- confusable skeleton (unique) and the rule its keys were computed under.
ALTER TABLE accounts ADD COLUMN name_skeleton TEXT;
ALTER TABLE accounts ADD COLUMN name_rule INTEGER NOT NULL DEFAULT 1;
CREATE UNIQUE INDEX accounts_name_skeleton ON accounts (name_skeleton)
    WHERE name_skeleton IS NOT NULL;
CREATE INDEX accounts_name_rule ON accounts (name_rule) WHERE name_key IS NOT NULL;
