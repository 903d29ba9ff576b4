// The action limit (docs/rules.md section 2.6): after this many counted
// actions a game ends drawn, with no loser. Counted are the seats' actions
// of phase two, or of both phases where the trump is turned up at the deal
// (mas, melniki). The views carry no count, so the page counts the events
// it sees, and keeps the count per game across a reload. A page that
// first sees a game past phase one finds where phase one ended in the
// history: the event that put the player's pile (cards seen on the table)
// into their hand. Where it cannot tell (a spectator, a player who had no
// pile) it counts the phase-one actions too, so it warns early rather
// than late.

import { tableMemory } from "./narrate.js";

const SEAT_KINDS = new Set(["EVENT_KIND_PLAY", "EVENT_KIND_CHANCE", "EVENT_KIND_PICKUP", "EVENT_KIND_SLUFF", "EVENT_KIND_PASS", "EVENT_KIND_CLAIM", "EVENT_KIND_ROB", "EVENT_KIND_BANK"]);

export function actionLimit(view) {
  return Number(view.rules?.options?.["phase2.action_limit"] ?? 2000);
}

// Counts the actions of `gameId` as views arrive.
export function limitCounter(gameId) {
  const key = `skitgubbe.counted.${gameId}`;
  let saved = null;
  try {
    saved = JSON.parse(sessionStorage.getItem(key));
  } catch {
    saved = null;
  }
  let counted = Number(saved?.counted ?? 0);
  let through = Number(saved?.version ?? -1);
  return {
    // The change from `before` (null: first look) to `now` with `events`.
    see(before, now, events) {
      const everyPhase = now.rules?.options?.["phase1.mode"] === "turned_trump";
      const inPhaseTwo = (before ?? now).phase !== "PHASE_ONE";
      const from = !before && !everyPhase && inPhaseTwo ? phaseOneEnd(events) : -1;
      for (const e of events) {
        if (Number(e.version) <= Math.max(through, from) || !SEAT_KINDS.has(e.kind)) continue;
        if (everyPhase || inPhaseTwo) counted += 1;
      }
      through = Math.max(through, Number(now.version));
      try {
        sessionStorage.setItem(key, JSON.stringify({ counted, version: through }));
      } catch {
        // The count on screen stands; a reload counts from the start.
      }
    },
    // Words for a game near its limit, else null.
    warning(view) {
      const limit = actionLimit(view);
      const left = Math.max(0, limit - counted);
      if (view.phase === "PHASE_OVER" || left > Math.max(20, limit / 10)) return null;
      return `Nearing the action limit: after about ${left} more ${left === 1 ? "action" : "actions"} the game ends drawn, with no loser.`;
    },
  };
}

// The version of the event that took the viewer's pile up, ending phase
// one; -1 if no event in `history` did.
function phaseOneEnd(history) {
  const seen = tableMemory();
  let end = -1;
  for (const e of history) {
    if (e.kind !== "EVENT_KIND_SHUFFLE" && (e.privateCards || []).some((c) => seen.has(c))) end = Number(e.version);
    seen.remember(e);
  }
  return end;
}
