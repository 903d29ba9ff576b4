// Drawing one view: the status line, the seats (hand and pile sizes,
// clocks, whose turn, places), the table (phase-one trick or phase-two
// lays), the hand and the choices. Pure rendering from the view and the
// picked cards; table.js decides when.

import { h, fill, seconds } from "./dom.js";
import { cardClass, cardName, face, SUIT_NAMES, SUIT_SIGNS } from "./cards.js";
import { cardsOf, kindOf, movesWith, moveLabel, pick, plainMoves, playableCards } from "./moves.js";
import { who } from "./narrate.js";

const PHASES = { PHASE_ONE: "Phase one: collecting", PHASE_TWO: "Phase two: shedding", PHASE_OVER: "Game over" };

export function ordinal(n) {
  const s = n % 100 >= 11 && n % 100 <= 13 ? "th" : { 1: "st", 2: "nd", 3: "rd" }[n % 10] || "th";
  return `${n}${s}`;
}

function cardEl(card, extra = {}) {
  return h("span", { class: cardClass(card), role: "img", "aria-label": cardName(card), ...extra }, face(card));
}

export function drawStatus(el, view) {
  const trump = view.trump ? `${SUIT_SIGNS[view.trump]} ${SUIT_NAMES[view.trump]}` : "not yet known";
  const turn = view.phase === "PHASE_OVER" ? "" : (view.toAct || []).map((s) => who(view, s)).join(", ");
  fill(
    el,
    h("span", { class: "phase" }, PHASES[view.phase] || view.phase),
    h("span", {}, `Trumps: ${trump}`),
    view.trumpCard ? h("span", {}, "Turned up: ", cardEl(view.trumpCard)) : null,
    h("span", {}, `Stock: ${view.stockSize ?? 0}`),
    view.reserveSize ? h("span", {}, `Reserve: ${view.reserveSize}`) : null,
    h("span", { class: "turn", id: "turn" }, turn ? `To play: ${turn}` : ""),
  );
}

export function drawSeats(el, view) {
  const toAct = new Set(view.toAct || []);
  fill(
    el,
    (view.seats || []).map((seat) => {
      const clock = seat.deadline ? h("span", { class: "clock", "data-deadline": seat.deadline }, seconds(Date.parse(seat.deadline) - Date.now())) : null;
      const place = seat.finishingPosition ? h("span", { class: "place" }, ordinal(seat.finishingPosition)) : null;
      return h(
        "li",
        { class: `seat${toAct.has(seat.seat) ? " acting" : ""}${seat.out ? " out" : ""}`, "data-seat": seat.seat, "aria-current": toAct.has(seat.seat) ? "true" : null },
        h("span", { class: "name" }, h("span", { class: "label" }, seat.name ? who(view, seat.seat) : "Open seat"), seat.isBot ? h("span", { class: "badge" }, "bot") : null),
        h("span", { class: "sizes" }, `Hand ${seat.handSize ?? 0} · Pile ${seat.pileSize ?? 0}`),
        h("span", { class: "extra" }, place, clock, seat.rating ? h("span", { class: "rating" }, `★ ${seat.rating.conservative.toFixed(1)}`) : null),
      );
    }),
  );
}

export function drawFelt(el, view) {
  if (view.phase === "PHASE_ONE") {
    const cards = view.tableCards || [];
    fill(
      el,
      h("h2", { class: "felt-title" }, cards.length ? "The trick" : "The table is empty"),
      h("ul", { class: "trick" }, cards.map((c) => h("li", {}, cardEl(c.card, c.isSluff ? { class: `${cardClass(c.card)} sluff` } : {}), h("span", { class: "by" }, who(view, c.seat), c.isSluff ? " (sluff)" : "")))),
    );
  } else if (view.phase === "PHASE_TWO") {
    const lays = view.tableLays || [];
    const size = view.trickSize ? ` (a trick of ${view.trickSize})` : "";
    fill(
      el,
      h("h2", { class: "felt-title" }, lays.length ? `On the table${size}` : `The table is empty; ${view.leader === view.viewerSeat ? "you lead" : `${who(view, view.leader ?? 0)} leads`}`),
      h("ul", { class: "trick" }, lays.map((l) => h("li", {}, l.cards.map((c) => cardEl(c)), h("span", { class: "by" }, who(view, l.seat))))),
    );
  } else fill(el, h("h2", { class: "felt-title" }, "The game is over"));
}

// The hand as buttons: a card is enabled when some legal move holds it.
export function drawHand(el, view, picked, { pending, onPick }) {
  const playable = pending ? new Set() : playableCards(view);
  fill(
    el,
    h("h2", { class: "sr-only" }, "Your hand"),
    (view.hand || []).map((card) =>
      h(
        "button",
        {
          type: "button",
          class: cardClass(card),
          "data-card": card,
          "aria-label": cardName(card),
          "aria-pressed": picked.has(card) ? "true" : "false",
          disabled: !playable.has(card),
          onclick: () => onPick(pick(view, picked, card)),
        },
        face(card),
      ),
    ),
  );
}

// The choices: the card moves holding the picked cards, then the moves
// without cards, each with what it does in words (no hover on a phone);
// nothing else is offered. The hint wraps; the row of buttons scrolls.
export function drawChoices(el, view, picked, { pending, onMove }) {
  const options = pending ? [] : movesWith(view, picked);
  const plain = pending ? [] : plainMoves(view);
  const cards = playableCards(view).size > 0;
  const hint = pending
    ? "Sending your move…"
    : picked.size
      ? "Choose how to play the picked cards, or pick more."
      : (view.legalActions || []).length
        ? `Your turn: ${cards ? "pick a card" : "choose"}${cards && plain.length ? " or a move" : ""}.`
        : view.phase === "PHASE_OVER"
          ? ""
          : "Waiting for the others.";
  fill(
    el,
    h("p", { class: "hint", id: "hint" }, hint),
    h(
      "div",
      { class: "moves" },
      options.slice(0, 12).map((action) => {
        // Named by its content: the verb, then each card's name.
        const label = moveLabel(action);
        return h("button", { type: "button", class: "move primary", "data-move": label.text, onclick: () => onMove(action) }, label.verb, " ", cardsOf(action).map((c, i) => [i ? " " : "", cardEl(c, { class: "inline-card" })]));
      }),
      plain.map(([action, text, description]) => h("button", { type: "button", class: "move", "data-move": text, "aria-describedby": `explain-${kindOf(action)}`, onclick: () => onMove(action) }, text)),
    ),
    h("ul", { class: "explain", id: "explain" }, plain.map(([action, text, description]) => h("li", { id: `explain-${kindOf(action)}` }, h("strong", {}, text), `: ${description}.`))),
  );
}

export function tickClocks(root) {
  for (const clock of root.querySelectorAll(".clock[data-deadline]")) {
    clock.textContent = seconds(Date.parse(clock.dataset.deadline) - Date.now());
  }
}
