// A finished game move by move: GetHistory's full log (every event, the
// shuffles with their card order, and the revealed seed), stepped through
// with buttons or the arrow keys, and its fairness check (fairness.js).

import { get } from "./api.js";
import { describe } from "./errors.js";
import { h, fill, screen } from "./dom.js";
import { cardClass, cardName, face, facesOf } from "./cards.js";
import { eventLine } from "./narrate.js";
import { verify } from "./fairness.js";

// The board at `step`: each seat with its latest move so far and its
// cards, the seat that made this step's move marked.
function drawBoard(el, view, events, step) {
  const latest = new Map();
  for (const e of events.slice(0, step)) if (e.seat !== undefined && e.seat !== null) latest.set(e.seat, e);
  const acting = events[step - 1]?.seat;
  fill(
    el,
    (view.seats || []).map((s) => {
      const e = latest.get(s.seat);
      const line = e ? eventLine({ ...view, viewerSeat: undefined }, { ...e, privateCards: [] }) : "No move yet.";
      return h(
        "li",
        { class: `seat${acting === s.seat ? " acting" : ""}`, "data-seat": s.seat, "aria-current": acting === s.seat ? "step" : null },
        h("span", { class: "name" }, s.name || `Seat ${s.seat + 1}`, s.isBot ? h("span", { class: "badge" }, "bot") : null),
        h("span", { class: "cards" }, (e?.cards || []).slice(0, 8).map((c) => h("span", { class: `${cardClass(c)} small`, role: "img", "aria-label": cardName(c) }, face(c)))),
        h("span", { class: "sizes" }, line),
      );
    }),
  );
}

export async function showReplay(gameId) {
  const main = screen("Replay");
  const body = h("div", { class: "replay" }, h("p", {}, "Loading the game…"));
  main.append(body);
  let history, view;
  try {
    [history, view] = await Promise.all([get(`/v1/games/${gameId}/history`), get(`/v1/games/${gameId}/view`, { spectator: true })]);
  } catch (error) {
    fill(body, h("p", { class: "error" }, describe(error)));
    return;
  }
  if (!history.complete) {
    fill(body, h("p", {}, "This game is still running: its full log and seed are revealed when it is over. ", h("a", { href: `#/watch/${gameId}` }, "Watch it live")));
    return;
  }
  const events = history.events || [];
  const lines = events.map((e) => eventLine(view, e) ?? (e.kind === "EVENT_KIND_SHUFFLE" ? `Shuffled: ${e.cards.length > 8 ? `${e.cards.length} cards` : facesOf(e.cards)}.` : e.kind));
  let step = 0;
  const board = h("ol", { class: "seats replay-board", id: "replay-board", "aria-label": "Each player's latest move" });
  const list = h("ol", { class: "events", id: "events", "aria-label": "Every move", tabindex: "0" }, lines.map((line, i) => h("li", { "data-step": i + 1 }, line)));
  const now = h("p", { class: "now", id: "replay-now", "aria-live": "polite" });
  const slider = h("input", { type: "range", min: 0, max: events.length, value: 0, id: "replay-slider", "aria-label": "Move" });
  const go = (n) => {
    step = Math.max(0, Math.min(events.length, n));
    slider.value = step;
    fill(now, step === 0 ? `Before the first move (${events.length} events in all).` : `Move ${step} of ${events.length}: ${lines[step - 1]}`);
    for (const item of list.children) {
      const at = Number(item.dataset.step);
      item.classList.toggle("future", at > step);
      if (at === step) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
    }
    list.children[step - 1]?.scrollIntoView({ block: "nearest" });
    drawBoard(board, view, events, step);
  };
  slider.addEventListener("input", () => go(Number(slider.value)));
  // Plain words and the arrows of every font: the buttons' names are
  // their text.
  const button = (text, to, id) => h("button", { type: "button", id, onclick: () => go(to()) }, text);
  const controls = h(
    "div",
    { class: "controls", role: "group", "aria-label": "Step through the game" },
    button("« First", () => 0, "replay-first"),
    button("‹ Previous", () => step - 1, "replay-prev"),
    button("Next ›", () => step + 1, "replay-next"),
    button("Last »", () => events.length, "replay-last"),
    slider,
  );
  controls.addEventListener("keydown", (event) => {
    if (event.key === "ArrowRight" && event.target !== slider) go(step + 1);
    if (event.key === "ArrowLeft" && event.target !== slider) go(step - 1);
  });
  const check = h("section", { class: "fairness", id: "fairness", "aria-label": "Fairness check", "aria-live": "polite" }, h("h2", {}, "Fair shuffles"), h("p", {}, "Checking the seed…"));
  const seats = h("p", {}, "Players: ", (view.seats || []).map((s) => `${s.name || `Seat ${s.seat + 1}`}${s.isBot ? " (bot)" : ""}`).join(", "));
  fill(body, seats, controls, now, board, list, check);
  go(0);
  const result = await verify(history);
  fill(
    check,
    h("h2", {}, "Fair shuffles"),
    h("p", { class: result.ok ? "ok" : result.ok === false ? "error" : "", id: "fairness-verdict" }, result.ok ? "Verified: the shuffles were fixed before the game began." : result.ok === false ? "Mismatch: these shuffles are not what the committed seed gives." : "Not checked here."),
    h("ul", {}, result.lines.map((l) => h("li", { class: "mono" }, l))),
    h("p", {}, "Seed: ", h("code", {}, history.seed || "—"), h("br"), "Commitment: ", h("code", {}, history.shuffleCommitment)),
  );
}
