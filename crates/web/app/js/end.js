// The end of a game: why it ended, every seat's place, and the viewer's
// rating change (rated games are rated just after the end, so the change
// is read again until it is there).

import { get } from "./api.js";
import { h, fill } from "./dom.js";
import { ordinal } from "./board.js";
import { who } from "./narrate.js";
import { tournamentOf } from "./tournaments.js";

const REASONS = {
  END_REASON_PLAYED_OUT: (v) => `${who(v, v.result.loser)} ${v.result.loser === v.viewerSeat ? "are" : "is"} the skitgubbe: left holding cards.`,
  END_REASON_ACTION_LIMIT: () => "Drawn: the action limit was reached, so there is no loser.",
  END_REASON_RESIGNED: (v) => `${who(v, v.result.loser)} resigned.`,
  END_REASON_TIMEOUT: (v) => `${who(v, v.result.loser)} ran out of time.`,
  END_REASON_VOID: () => "An operator voided this game: it has no result.",
  END_REASON_FORFEIT: (v) => `${who(v, v.result.loser)} ran out of time and forfeited; the others played on for their places.`,
};

// The viewer's own outcome: first out only in a game that had a loser; a
// draw (the action limit) and a voided game have none.
function heading(result, places, mine) {
  if (result.reason === "END_REASON_ACTION_LIMIT" || result.drawnByLimit) return "A draw: nobody lost";
  if (result.reason === "END_REASON_VOID") return "The game was voided";
  if (mine === null) return "The game is over";
  if (result.loser === mine) return "You are the skitgubbe";
  if (places.find((p) => p.seat === mine)?.place === 1) return "You are out first: well played!";
  return "The game is over: you are not the skitgubbe";
}

export function drawEnd(el, view, gameId) {
  const result = view.result || {};
  const places = (result.places || []).map((place, seat) => ({ place, seat })).sort((a, b) => a.place - b.place);
  const mine = view.viewerSeat ?? null;
  const rating = h("p", { class: "rating-change", id: "rating-change", "aria-live": "polite" }, view.rated ? "Your rating change is being worked out…" : "Unrated game: ratings do not change.");
  fill(
    el,
    h("h2", { tabindex: "-1", id: "end-title" }, heading(result, places, mine)),
    h("p", {}, (REASONS[result.reason] || (() => ""))(view)),
    h("ol", { class: "places", "aria-label": "Places" }, places.map(({ place, seat }) => h("li", { "data-seat": seat }, h("strong", {}, ordinal(place)), " ", who(view, seat)))),
    mine === null ? null : rating,
    h(
      "p",
      { class: "links" },
      h("a", { href: `#/replay/${gameId}` }, "Replay this game and check its shuffles"),
      " · ",
      tournamentOf(gameId) ? [h("a", { href: `#/tournament/${tournamentOf(gameId)}`, id: "back-to-tournament" }, "Back to the tournament"), " · "] : null,
      h("a", { href: "#/" }, "Play again"),
    ),
  );
  el.hidden = false;
  if (mine !== null && view.rated) showRatingChange(rating, gameId);
}

async function showRatingChange(el, gameId) {
  for (let attempt = 0; attempt < 20 && el.isConnected; attempt++) {
    try {
      const { changes } = await get("/v1/ratings/history", { limit: 20 });
      const change = (changes || []).find((c) => c.gameId === gameId);
      if (change) {
        const [before, after] = [change.before.conservative, change.after.conservative];
        const delta = after - before;
        fill(el, `Your rating: ${before.toFixed(1)} → ${after.toFixed(1)} (${delta >= 0 ? "+" : ""}${delta.toFixed(1)}).`);
        return;
      }
    } catch {
      // Read again below; the game's result stands either way.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  if (el.isConnected) fill(el, "Your rating change is not ready yet; see the leaderboard later.");
}
