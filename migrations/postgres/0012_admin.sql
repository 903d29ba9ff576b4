-- Operator administration (docs/admin.md).
--
-- An account's status: `active`, or `disabled` / `banned` by an operator
-- (with the operator's reason). Every credential of an account that is
-- not active is refused.
ALTER TABLE accounts ADD COLUMN status TEXT NOT NULL DEFAULT 'active'
    CHECK (status IN ('active', 'disabled', 'banned'));
ALTER TABLE accounts ADD COLUMN status_reason TEXT NOT NULL DEFAULT '';

-- A game an operator voided: it ended without a result and is unrated.
ALTER TABLE games ADD COLUMN voided_at TIMESTAMPTZ;

-- The audit log: one row per operator action, written in the transaction
-- of the action it records where the store can (so no action is left
-- unaudited). APPEND-ONLY: the store has no statement that updates or
-- deletes a row, no API offers one, and the triggers below refuse both,
-- should anything else try.
CREATE TABLE audit_log (
    id              BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    at              TIMESTAMPTZ NOT NULL,
    operator_id     BIGINT NOT NULL REFERENCES accounts (id),
    -- e.g. `set_account_status`, `void_game`, `create_account`.
    action          TEXT NOT NULL,
    -- What the action was done to: an account, a game, or neither.
    target_account  BIGINT REFERENCES accounts (id),
    target_game     TEXT,
    reason          TEXT NOT NULL,
    -- What else the action recorded (the new status, the old one, ...).
    details         JSONB NOT NULL
);

-- Newest first, by operator, by action, by target.
CREATE INDEX audit_log_by_operator ON audit_log (operator_id, id);
CREATE INDEX audit_log_by_action ON audit_log (action, id);
CREATE INDEX audit_log_by_account ON audit_log (target_account, id)
    WHERE target_account IS NOT NULL;
CREATE INDEX audit_log_by_game ON audit_log (target_game, id)
    WHERE target_game IS NOT NULL;

CREATE FUNCTION audit_log_append_only() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION 'audit_log is append-only';
END;
$$ LANGUAGE plpgsql;

CREATE TRIGGER audit_log_no_update BEFORE UPDATE OR DELETE ON audit_log
    FOR EACH ROW EXECUTE FUNCTION audit_log_append_only();
CREATE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
    FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only();
