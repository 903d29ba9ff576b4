// The page's screens, chosen by the address's fragment so each has a link
// a person can share or bookmark:
//   #/                   sign in, or the lobby
//   #/game/ID/SEAT       playing a seat        #/join/ID   an invitation
//   #/watch/ID           watching              #/replay/ID a finished game
//   #/leaderboard        standings, all time or by season
//   #/tournaments        tournaments           #/tournament/ID one of them

import { get, post, session } from "./api.js";
import { describe } from "./errors.js";
import { h, fill, notify, screen } from "./dom.js";
import { showLobby } from "./lobby.js";
import { showTable, mySeat } from "./table.js";
import { showReplay } from "./replay.js";
import { showLeaderboard } from "./leaderboard.js";
import { showTournaments, showTournament } from "./tournaments.js";

let dispose = null;

async function route() {
  dispose?.();
  dispose = null;
  const [, page, id, seat] = location.hash.split("/");
  const me = session.get();
  if (!me && page && page !== "leaderboard") {
    sessionStorage.setItem("skitgubbe.after", location.hash);
    location.hash = "#/";
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
  else {
    const after = me && sessionStorage.getItem("skitgubbe.after");
    if (after) {
      sessionStorage.removeItem("skitgubbe.after");
      location.hash = after;
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
  fill(document.getElementById("who"), me ? `${me.name}${me.kind === "guest" ? " (guest)" : ""}` : "");
  document.getElementById("sign-out").hidden = !me;
}

document.getElementById("sign-out").addEventListener("click", async () => {
  try {
    if (session.get()?.refreshToken) await post("/v1/accounts/logout", {});
  } catch {
    // Signed out here either way.
  }
  session.clear();
  notify(null);
  location.hash = "#/";
  route();
});
window.addEventListener("skit-session", header);
window.addEventListener("hashchange", () => route().catch((e) => notify(describe(e))));
header();
// A session the server no longer knows (expired, revoked, or its data
// folder started afresh) is forgotten, and the person signs in again.
if (session.get()) {
  get("/v1/accounts/me").catch((error) => {
    if (error.code !== "UNAUTHENTICATED") return;
    session.clear();
    notify(describe(error), "info");
    location.hash = "#/";
    route();
  });
}
route().catch((e) => notify(describe(e)));
