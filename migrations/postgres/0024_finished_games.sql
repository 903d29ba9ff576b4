-- ExportGames pages through finished games in the order they were marked
-- over, then by id: one range of this index per page.
CREATE INDEX games_finished ON games (finished_at, id) WHERE status = 'over';
