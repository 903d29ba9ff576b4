-- As migrations/postgres/0019: the turn index. Each event carries who may
-- act once its append is applied (`to_act`, bit n for seat n; NULL: not
-- recorded), and a trigger copies it onto its game's seats in the same
-- statement. A seat's `to_act` is 1 or 0 as the last event said, or NULL
-- where none has said (the service then looks at the game itself).
ALTER TABLE events ADD COLUMN to_act INTEGER;
ALTER TABLE seats ADD COLUMN to_act INTEGER;

CREATE INDEX seats_to_act ON seats (account_id, game_created_at DESC, game_id)
    WHERE to_act IS NOT FALSE AND NOT over;

CREATE TRIGGER events_follow_turns AFTER INSERT ON events
BEGIN
    UPDATE seats SET to_act = ((NEW.to_act >> seat) & 1) = 1
    WHERE game_id = NEW.game_id
      AND to_act IS NOT (((NEW.to_act >> seat) & 1) = 1);
END;
