-- Who lost a tournament table on time (a no-show or an abandon) and when
-- the table finished: repeated no-shows are barred from registering for
-- an escalating time.
ALTER TABLE tournament_tables ADD COLUMN no_show INTEGER;
ALTER TABLE tournament_tables ADD COLUMN finished_at TEXT;
CREATE INDEX tournament_tables_no_shows ON tournament_tables (no_show, finished_at)
    WHERE no_show IS NOT NULL;
