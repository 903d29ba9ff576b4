// The page's screens, chosen by the address's fragment so each has a link
// a person can share or bookmark:
//   #/                   sign in, or the lobby
//   #/game/ID/SEAT       playing a seat        #/join/ID   an invitation
//   #/watch/ID           watching              #/replay/ID a finished game
//   #/leaderboard        standings, all time or by season
//   #/tournaments        tournaments           #/tournament/ID one of them
//   #/help/PRESET        how to play

import { get, post, session } from "./api.js";
import { describe } from "./errors.js";
import { h, fill, go, notify, screen, screenChanged } from "./dom.js";
import { showLobby } from "./lobby.js";
import { showTable, mySeat } from "./table.js";
import { showReplay } from "./replay.js";
import { showLeaderboard } from "./leaderboard.js";
import { showTournaments, showTournament } from "./tournaments.js";
import { showHelp } from "./help.js";
import { LANGUAGES, adopt, choose, language, start, t } from "./i18n.js";

let dispose = null;
const AFTER = "skitgubbe.after";

async function route() {
  dispose?.();
  dispose = null;
  const [, page, id, seat] = location.hash.split("/");
  const me = session.get();
  if (!me && page && page !== "leaderboard" && page !== "help") {
    // Signing in continues here (lobby.js).
    sessionStorage.setItem(AFTER, location.hash);
    go("#/");
    return;
  }
  let result;
  if (page === "game") result = await showTable(id, seat === undefined ? await mySeat(id, me.accountId) : Number(seat));
  else if (page === "join") result = await join(id);
  else if (page === "watch") result = await showTable(id, null);
  else if (page === "replay") result = await showReplay(id);
  else if (page === "leaderboard") result = showLeaderboard();
  else if (page === "tournaments") result = showTournaments();
  else if (page === "tournament") result = showTournament(id);
  else if (page === "help") result = showHelp(id);
  else {
    const after = me && sessionStorage.getItem(AFTER);
    if (after) {
      sessionStorage.removeItem(AFTER);
      go(after);
      return;
    }
    result = showLobby();
  }
  if (typeof result === "function") dispose = result;
}

async function join(gameId) {
  screen("Joining the table…");
  try {
    const { seat } = await post(`/v1/games/${gameId}/join`, {});
    location.replace(`#/game/${gameId}/${seat}`);
  } catch (error) {
    const seat = error.reason === "no_open_seat" ? await mySeat(gameId, session.get().accountId).catch(() => null) : null;
    if (seat !== null) location.replace(`#/game/${gameId}/${seat}`);
    else screen("Could not join", h("p", {}, describe(error)), h("p", {}, h("a", { href: `#/watch/${gameId}` }, "Watch the game instead")));
  }
}

function header() {
  const me = session.get();
  fill(document.getElementById("who"), me ? `${me.name}${me.kind === "guest" ? ` (${t("session.guest")})` : ""}` : "");
  document.getElementById("sign-out").hidden = !me;
}

document.getElementById("sign-out").addEventListener("click", async () => {
  try {
    if (session.get()?.refreshToken) await post("/v1/accounts/logout", {});
  } catch {
    // Signed out here either way.
  }
  session.clear();
  sessionStorage.removeItem(AFTER);
  go("#/");
});
const picker = document.getElementById("language");
for (const [tag, name] of Object.entries(LANGUAGES)) picker.append(h("option", { value: tag }, name));
picker.value = language();
picker.addEventListener("change", () =>
  choose(picker.value, session.get() ? (tag) => post("/v1/accounts/me/language", { language: tag }) : null)
    .then(header));
window.addEventListener("skit-session", header);
window.addEventListener("hashchange", () => {
  screenChanged();
  route().catch((e) => notify(describe(e)));
});
header();
// A session the server no longer knows (expired, revoked, or its data
// folder started afresh) is forgotten, and the person signs in again.
await start().catch(() => {});
header();
if (session.get()) {
  get("/v1/accounts/me").then((me) => adopt(me.language).then(() => {
    picker.value = language();
    header();
  })).catch((error) => {
    if (error.code !== "UNAUTHENTICATED") return;
    session.clear();
    notify(describe(error), "info", { survives: true });
    go("#/");
  });
}
route().catch((e) => notify(describe(e)));
// Installable, and an offline page when the server cannot be reached
// (sw.js).
navigator.serviceWorker?.register("/sw.js").catch(() => {});
