# English. The service's error messages in English are the ones each error
# is made with (clients match some exactly); these entries are the
# reference the other catalogues translate and are not sent instead of them.

## Error classes: the message of any error whose reason has no entry below.

error-cancelled = The request was cancelled.
error-unknown = Something went wrong.
error-invalid-argument = The field { $field } is not valid.
error-invalid-request = The request is not valid.
error-deadline-exceeded = The request took too long.
error-not-found = Not found.
error-already-exists = That already exists.
error-permission-denied = You may not do that.
error-resource-exhausted = Too many requests; wait a while and try again.
error-failed-precondition = That is not possible now.
error-aborted = The request clashed with another; try again.
error-out-of-range = A value is out of range.
error-unimplemented = That is not supported.
error-internal = Internal error.
error-unavailable = The service is unavailable; try again shortly.
error-data-loss = Data was lost.
error-unauthenticated = You are not signed in, or your session has ended.

## Errors of the service, by reason.

error-stale-version = The game has moved on (it is at version { $current_version }, not { $expected_version }).
error-version-ahead = The game is at version { $current_version }, not yet at { $min_version }.
error-move-id-reused = That move id was already used for another move.
error-request-id-reused = That request id was already used for another request.
error-missing-scope = This needs a credential with the "{ $scope }" scope.
error-rate-limited = Too many { $class } requests; try again in { $retry_after_ms } ms.
error-quota-exceeded = You have reached the limit of { $limit } ({ $quota }).
error-bot-games-exceeded = These bots have started { $limit } games against bots in the last 24 hours, the most allowed.
error-overloaded = The service is busy; try again in { $retry_after_ms } ms.
error-no-such-route = There is no such address.
error-body-too-large = The request is too large.
error-unsupported-media-type = The request must be JSON.
error-method-not-allowed = That method is not allowed here.
error-timeout = The request took too long.
error-malformed-json = The request is not valid JSON.
error-account-disabled = This account is disabled.
error-device-taken = That device is already in use.
error-name-taken = That name is taken.
error-no-password = This account has no password.
error-no-world-found = No possible deal fits what has been seen.
error-not-a-guest = Only a guest account can do that.
error-not-a-person = Only a person can do that, not a bot.
error-operator-only-field = Only an operator may set { $field }.
error-rated-requires-account = A rated game needs a signed-in account.
error-registration-condition = You do not meet the conditions to register.
error-seat-requires-consent = That seat needs the player's consent.
error-spectator-sees-no-hand = A spectator sees no hand.
error-token-expired = Your session has expired; sign in again.
error-token-revoked = Your session has ended; sign in again.
error-too-many-streams = Too many open streams.
error-wrong-password = Wrong name or password.
error-no-open-seat = There is no free seat at this table.
error-refresh-token-reused = This session was used elsewhere and has been ended; sign in again.
error-seat-forfeited = Your seat forfeited on time; the clock plays it until the game ends.

## The rules' refusals of a move.

error-game-over = The game is over.
error-awaiting-shuffle = The cards are being shuffled; wait.
error-no-shuffle-awaited = No shuffle is awaited.
error-wrong-shuffle = That shuffle does not order the awaited cards.
error-no-such-seat = There is no such seat at this table.
error-not-your-turn = It is not your turn.
error-card-not-held = You do not hold that card.
error-one-card-only = In these rules you play one card at a time.
error-not-one-rank = Cards played together must be of one rank.
error-not-a-sequence = A lay must be one card or a run in one suit.
error-run-must-start-with-two = A run must begin with the two of its suit.
error-does-not-beat = That card does not beat the top card.
error-chance-needs-two-cards = Chance needs at least two cards in the stock.
error-chance-not-allowed = Chance is not played in these rules.
error-chance-in-phase-two = Chance is only played in the first phase.
error-pickup-empty-table = There is nothing on the table to pick up.
error-pickup-in-phase-one = You may pick up only in the second phase.
error-must-pick-up = You must pick up.
error-must-beat = You can beat the card, so you may not pick up.
error-empty-hand-must-pick-up = With an empty hand you may only pick up.
error-kind-not-in-ruleset = These rules have no such move.
error-not-now = That move is not possible now.
error-not-sluffable = That card cannot be discarded now.
error-must-follow = You hold the suit led and must follow it.
error-must-tie = You hold a card of the highest rank played and must tie.

## How a game ended.

end-played-out = Played to the end
end-action-limit = A draw: the move limit was reached
end-resigned = Someone resigned
end-timeout = Someone ran out of time
end-void = The game was voided
end-forfeit = Someone forfeited

## The terminal client (skit).

skit-seated = Game { $game }, you are seat { $seat }. Type a move's number, q to leave.
skit-left = You left the table.
skit-you = You: { $move }
skit-table-changed = The table changed before your move; look again.
skit-refused = Refused: { $why }
skit-game-over-loser = Game over: { $name } is the skitgubbe.
skit-game-over-drawn = Game over: drawn by the action limit.
