// The viewer's choices, from the view's legalActions only (the service
// lists exactly what it accepts): which cards may be picked, which card
// moves contain a picked set, and the moves without cards.

import { byRank, facesOf, cardsName } from "./cards.js";

const CARD_KINDS = ["play", "sluff"];
const PLAIN = {
  chance: ["Chance", "instead of playing from your hand, turn up the top card of the stock and play it: a gamble that may beat the trick"],
  pickup: ["Pick up", "take cards from the table into your hand by the pick-up rule, when you cannot or will not beat"],
  pass: ["Pass", "decline to sluff"],
  claim: ["Claim the trick", "take the decided trick"],
  rob: ["Rob", "exchange the two of trumps for the turned-up card"],
  bank: ["Bank three trumps", "lay aside three trumps and draw three"],
};

export function kindOf(action) {
  return Object.keys(action)[0];
}

export function cardsOf(action) {
  const kind = kindOf(action);
  return CARD_KINDS.includes(kind) ? action[kind].cards || [] : null;
}

// Cards that appear in some legal card move.
export function playableCards(view) {
  const cards = new Set();
  for (const action of view.legalActions || []) for (const card of cardsOf(action) || []) cards.add(card);
  return cards;
}

// The card moves holding every picked card, fewest cards first.
export function movesWith(view, picked) {
  if (picked.size === 0) return [];
  return (view.legalActions || [])
    .filter((action) => {
      const cards = cardsOf(action);
      return cards && [...picked].every((c) => cards.includes(c));
    })
    .sort((a, b) => {
      const [x, y] = [cardsOf(a), cardsOf(b)];
      return kindOf(a).localeCompare(kindOf(b)) || x.length - y.length || byRank(x[0], y[0]);
    });
}

// The picked set after clicking `card`: toggled, or started afresh when no
// legal move holds the set with it.
export function pick(view, picked, card) {
  const next = new Set(picked);
  if (next.has(card)) next.delete(card);
  else next.add(card);
  if (next.size > 0 && movesWith(view, next).length === 0) return new Set([card]);
  return next;
}

// The legal moves without cards, as [action, label, description].
export function plainMoves(view) {
  return (view.legalActions || [])
    .filter((action) => !cardsOf(action))
    .map((action) => [action, ...(PLAIN[kindOf(action)] || [kindOf(action), kindOf(action)])]);
}

// A card move's button text and spoken name: "Play 7♥ 7♦".
export function moveLabel(action) {
  const verb = kindOf(action) === "sluff" ? "Sluff" : "Play";
  const cards = cardsOf(action);
  return { verb, text: `${verb} ${facesOf(cards)}`, name: `${verb} ${cardsName(cards)}` };
}
