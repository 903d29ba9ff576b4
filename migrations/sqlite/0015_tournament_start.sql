-- When a tournament started: an arena's duration counts from it.
ALTER TABLE tournaments ADD COLUMN started_at TEXT;
