// The log of what happened at a table: a region the keyboard can scroll
// (it takes focus) and a screen reader follows (role=log), kept per game
// and seat in sessionStorage, so that the lines only two consecutive views
// can tell ("… won the trick") are still there after a reload.

import { h } from "./dom.js";

const SHOWN = 5000;
const KEPT = 500;

function item({ text, data }) {
  return h("li", data || {}, text);
}

// The log of `gameId` as `seat` (null: a spectator) sees it.
export function gameLog(gameId, seat) {
  const key = `skitgubbe.log.${gameId}.${seat ?? "spectator"}`;
  let saved = null;
  try {
    saved = JSON.parse(sessionStorage.getItem(key));
  } catch {
    saved = null;
  }
  const list = h("ol", {}, (saved?.lines || []).map(item));
  const el = h("div", { class: "log", id: "log", role: "log", tabindex: "0", "aria-label": "What happened" }, list);
  let kept = saved?.lines || [];
  return {
    el,
    // Events up to this version are in the log already.
    since: Number(saved?.version ?? -1),
    // Appends lines ({text, data}) told up to `version`.
    add(lines, version) {
      list.append(...lines.map(item));
      while (list.children.length > SHOWN) list.firstElementChild.remove();
      el.scrollTop = el.scrollHeight;
      kept = kept.concat(lines).slice(-KEPT);
      try {
        sessionStorage.setItem(key, JSON.stringify({ version: Number(version), lines: kept }));
      } catch {
        // Full storage: the log on screen is complete; a reload shows less.
      }
    },
  };
}
