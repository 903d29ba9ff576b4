-- A ladder's validation tables: a new bot's first games, played against
-- the service's house bots only. They are left out of the ladder's
-- standings and pairing history.
ALTER TABLE tournament_tables ADD COLUMN validation INTEGER NOT NULL DEFAULT 0
    CHECK (validation IN (0, 1));
