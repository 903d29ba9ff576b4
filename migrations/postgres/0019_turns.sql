-- The turn index: ListGames with my_turn_only reads the seats whose holder
-- may act now as one index range, whatever the number of games the account
-- sits in, instead of looking at each of its games.
--
-- Each event carries who may act once the append that wrote it is applied
-- (`to_act`, bit n for seat n; NULL: not recorded), and a trigger copies
-- the last one of each statement onto its game's seats in the same
-- statement, so the index can never disagree with a committed log. A seat's
-- `to_act` is TRUE or FALSE as the last append said, or NULL where no
-- append has said (games stored before this index, or appended without
-- it): the service then looks at the game itself.
ALTER TABLE events ADD COLUMN to_act BIGINT;
ALTER TABLE seats ADD COLUMN to_act BOOLEAN;

CREATE INDEX seats_to_act ON seats (account_id, game_created_at DESC, game_id)
    WHERE to_act IS NOT FALSE AND NOT over;

-- Once per statement (a group commit's round writes hundreds of games'
-- events in one INSERT), then one UPDATE per game through the seats' key:
-- a plan that cannot turn into a scan of every seat, whatever the
-- statistics when it was made (crates/store/src/postgres/plans.rs), and
-- games locked in one order by every statement.
CREATE FUNCTION seats_follow_turns() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
    last RECORD;
BEGIN
    FOR last IN SELECT DISTINCT ON (game_id) game_id, to_act FROM added
                ORDER BY game_id, seq DESC LOOP
        UPDATE seats SET to_act = ((last.to_act >> seat) & 1) = 1
        WHERE game_id = last.game_id
          AND to_act IS DISTINCT FROM (((last.to_act >> seat) & 1) = 1);
    END LOOP;
    RETURN NULL;
END
$$;

CREATE TRIGGER events_follow_turns AFTER INSERT ON events
    REFERENCING NEW TABLE AS added
    FOR EACH STATEMENT EXECUTE FUNCTION seats_follow_turns();
