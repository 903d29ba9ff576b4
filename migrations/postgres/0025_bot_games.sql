-- Bot-against-bot games as the per-owner daily cap counts them: a row for
-- each game whose seats are all bots and each owner of a bot seated in it
-- (house bots count for nobody), written in the transaction that seats
-- the game's last bot, so the count and the start are one step.
CREATE TABLE bot_games (
    owner_id    BIGINT NOT NULL,
    game_id     TEXT NOT NULL,
    started_at  TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (owner_id, game_id)
);
-- The cap counts an owner's games of the last day: one range.
CREATE INDEX bot_games_by_owner ON bot_games (owner_id, started_at);
