// What every error the API can return means to a person. The error core
// answers `{code, reason, message, fieldViolations, metadata}`: `reason`
// is a stable code (a rule's code for a refused move), `code` the gRPC
// status. Known reasons get their own sentence; any other falls back to
// its status's sentence, with the server's message, which names the rule
// and the cards for a refused move.

const REASONS = {
  // Accounts and credentials (docs/accounts.md)
  name_taken: "That name is taken. Pick another one.",
  wrong_password: "The name or the password is wrong.",
  not_a_guest: "This account is already a full account.",
  not_a_person: "Only people can do that, not bots.",
  token_expired: "Your session expired. Sign in again.",
  token_revoked: "You were signed out (the session was revoked). Sign in again.",
  refresh_token_reused: "This session was ended elsewhere. Sign in again.",
  account_disabled: "This account is disabled. Contact the operator.",
  missing_scope: "Your credential does not allow this.",
  device_taken: "This device is linked to another account.",
  // Games (docs/bot-guide.md)
  stale_version: "The table changed before your move arrived. Look again and choose.",
  move_id_reused: "That move was already sent as a different move.",
  request_id_reused: "That request was already sent with different settings.",
  seat_requires_consent: "You can seat only yourself; others join with the invitation.",
  no_open_seat: "This table is full.",
  game_over: "The game is over.",
  not_your_turn: "It is not your turn.",
  awaiting_shuffle: "Wait: the cards are being shuffled.",
  // Limits (docs/limits.md)
  rate_limited: "Too many requests. Wait a moment and try again.",
  quota_exceeded: "You reached a limit on games or tickets. Finish a game first, or try later.",
  too_many_streams: "Too many open live views. Close another tab and try again.",
  // The gateway
  body_too_large: "The request is too large.",
  malformed_json: "The request was not understood (malformed JSON).",
  unsupported_media_type: "The request was not understood (wrong content type).",
  no_such_route: "This server does not offer that call. Is it an older version?",
  network: "The server cannot be reached. Check the connection.",
  no_matchmaker: "This server has no matchmaker configured: create a table and invite people instead.",
  no_leagues: "This server has no league service configured, so there are no tournaments here.",
  // Tournaments (docs/leagues.md): the condition a registration did not meet
  registration_condition: null,
};

const CODES = {
  INVALID_ARGUMENT: "That was not accepted",
  FAILED_PRECONDITION: "Not allowed now",
  UNAUTHENTICATED: "You are not signed in. Sign in or play as a guest.",
  PERMISSION_DENIED: "You may not do that",
  NOT_FOUND: "Not found: the game or ticket does not exist",
  ALREADY_EXISTS: "That already exists",
  ABORTED: "Something changed meanwhile; try again",
  RESOURCE_EXHAUSTED: "A limit was reached; try again later",
  UNAVAILABLE: "The service is briefly unavailable; try again in a moment",
  DEADLINE_EXCEEDED: "The server took too long to answer; try again",
  OUT_OF_RANGE: "A value is out of range",
  UNIMPLEMENTED: "The server does not offer this",
  INTERNAL: "The server failed. Try again; if it keeps failing, tell the operator",
  UNKNOWN: "Something went wrong",
};

// A refused move names its rule: "does_not_beat: 5C does not beat 9C".
function ruleText(error) {
  const message = error.message || "";
  const cut = message.indexOf(": ");
  const said = cut >= 0 && message.slice(0, cut) === error.reason ? message.slice(cut + 2) : message;
  const words = error.reason ? error.reason.replaceAll("_", " ") : "";
  return said ? `Not allowed (${words}): ${said}` : `Not allowed: ${words}`;
}

const CONDITIONS = {
  registering: "Registration for this tournament is closed.",
  allow_bots: "This tournament does not take bots.",
  account_kind: "Your kind of account cannot enter this tournament (guests cannot play rated tournaments; ladders are for bots).",
  invited: "This tournament is by invitation only.",
  entry_code: "That entry code is not right.",
  max_entrants: "This tournament is full.",
  min_rated_games: "You have not played enough rated games under these rules for this tournament.",
  min_rating: "Your rating is below this tournament's minimum.",
  max_rating: "Your recent peak rating is above this tournament's maximum.",
  no_shows: "You lost tournament tables on time recently, so you cannot register for a while.",
};

// One sentence for a person, never empty.
export function describe(error) {
  if (!error || typeof error !== "object") return "Something went wrong.";
  const known = error.reason === "registration_condition" ? CONDITIONS[error.metadata?.condition] || ruleText(error) : REASONS[error.reason];
  let text;
  if (known) text = known;
  else if (error.code === "FAILED_PRECONDITION" && error.reason && error.reason !== "failed_precondition") text = ruleText(error);
  else {
    const base = CODES[error.code] || CODES.UNKNOWN;
    const fields = (error.fieldViolations || []).map((v) => `${v.field}: ${v.description}`).join("; ");
    const detail = fields || error.message;
    text = detail && error.code !== "INTERNAL" ? `${base}: ${detail}` : `${base}.`;
  }
  const delay = parseFloat(error.retryDelay);
  if (delay > 0) text += ` (try again in ${Math.ceil(delay)} s)`;
  return text;
}
