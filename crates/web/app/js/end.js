// The end of a game: why it ended, every seat's place, and the viewer's
// rating change (rated games are rated just after the end, so the change
// is read again until it is there).

import { get } from "./api.js";
import { h, fill } from "./dom.js";
import { ordinal } from "./board.js";
import { who } from "./narrate.js";
import { tournamentOf } from "./tournaments.js";
import { t } from "./i18n.js";

const loser = (v) => ({ who: who(v, v.result.loser) });
const REASONS = {
  END_REASON_PLAYED_OUT: (v) => t(v.result.loser === v.viewerSeat ? "end.reason.playedOut.you" : "end.reason.playedOut", loser(v)),
  END_REASON_ACTION_LIMIT: () => t("end.reason.actionLimit"),
  END_REASON_RESIGNED: (v) => t("end.reason.resigned", loser(v)),
  END_REASON_TIMEOUT: (v) => t("end.reason.timeout", loser(v)),
  END_REASON_VOID: () => t("end.reason.void"),
  END_REASON_FORFEIT: (v) => t("end.reason.forfeit", loser(v)),
};

// The viewer's own outcome: first out only in a game that had a loser; a
// draw (the action limit) and a voided game have none.
function heading(result, places, mine) {
  if (result.reason === "END_REASON_ACTION_LIMIT" || result.drawnByLimit) return t("end.heading.draw");
  if (result.reason === "END_REASON_VOID") return t("end.heading.void");
  if (mine === null) return t("end.heading.over");
  if (result.loser === mine) return t("end.heading.loser");
  if (places.find((p) => p.seat === mine)?.place === 1) return t("end.heading.first");
  return t("end.heading.notLoser");
}

export function drawEnd(el, view, gameId) {
  const result = view.result || {};
  const places = (result.places || []).map((place, seat) => ({ place, seat })).sort((a, b) => a.place - b.place);
  const mine = view.viewerSeat ?? null;
  const rating = h("p", { class: "rating-change", id: "rating-change", "aria-live": "polite" }, view.rated ? t("end.rating.pending") : t("end.rating.unrated"));
  fill(
    el,
    h("h2", { tabindex: "-1", id: "end-title" }, heading(result, places, mine)),
    h("p", {}, (REASONS[result.reason] || (() => ""))(view)),
    h("ol", { class: "places", "aria-label": t("end.places") }, places.map(({ place, seat }) => h("li", { "data-seat": seat }, h("strong", {}, ordinal(place)), " ", who(view, seat)))),
    mine === null ? null : rating,
    h(
      "p",
      { class: "links" },
      h("a", { href: `#/replay/${gameId}` }, t("end.replay")),
      " · ",
      tournamentOf(gameId) ? [h("a", { href: `#/tournament/${tournamentOf(gameId)}`, id: "back-to-tournament" }, t("end.backToTournament")), " · "] : null,
      h("a", { href: "#/" }, t("end.playAgain")),
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
        fill(el, t("end.rating.change", { before: before.toFixed(1), after: after.toFixed(1), delta: `${delta >= 0 ? "+" : ""}${delta.toFixed(1)}` }));
        return;
      }
    } catch {
      // Read again below; the game's result stands either way.
    }
    await new Promise((r) => setTimeout(r, 500));
  }
  if (el.isConnected) fill(el, t("end.rating.late"));
}
