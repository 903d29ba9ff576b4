-- As migrations/postgres/0012_admin: account status, voided games and the
-- APPEND-ONLY audit log of operator actions (no statement in the store
-- updates or deletes its rows; the triggers refuse both).
ALTER TABLE accounts ADD COLUMN status TEXT NOT NULL DEFAULT 'active'
    CHECK (status IN ('active', 'disabled', 'banned'));
ALTER TABLE accounts ADD COLUMN status_reason TEXT NOT NULL DEFAULT '';

ALTER TABLE games ADD COLUMN voided_at TEXT;

CREATE TABLE audit_log (
    id              INTEGER PRIMARY KEY,
    at              TEXT NOT NULL,
    operator_id     INTEGER NOT NULL REFERENCES accounts (id),
    action          TEXT NOT NULL,
    target_account  INTEGER REFERENCES accounts (id),
    target_game     TEXT,
    reason          TEXT NOT NULL,
    details         TEXT NOT NULL
) STRICT;

CREATE INDEX audit_log_by_operator ON audit_log (operator_id, id);
CREATE INDEX audit_log_by_action ON audit_log (action, id);
CREATE INDEX audit_log_by_account ON audit_log (target_account, id)
    WHERE target_account IS NOT NULL;
CREATE INDEX audit_log_by_game ON audit_log (target_game, id)
    WHERE target_game IS NOT NULL;

CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;
CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log
BEGIN
    SELECT RAISE(ABORT, 'audit_log is append-only');
END;
