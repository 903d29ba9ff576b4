-- The quotas count an account's recent games and tickets: by creator and
-- time, so the count reads one range however many games there are.
CREATE INDEX games_by_creator ON games (created_by, created_at);
CREATE INDEX tickets_by_account ON tickets (account_id, created_at);
