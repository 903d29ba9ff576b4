// Cards as the API writes them ("TS": rank then suit) and as people read
// them: a short face ("10♠") and a spoken name ("10 of spades").

const RANKS = "23456789TJQKA";
const SUITS = "CDHS";
const RANK_NAMES = {
  2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
  9: "nine", T: "ten", J: "jack", Q: "queen", K: "king", A: "ace",
};
export const SUIT_NAMES = { C: "clubs", D: "diamonds", H: "hearts", S: "spades" };
export const SUIT_SIGNS = { C: "♣", D: "♦", H: "♥", S: "♠" };

export function rankOf(card) {
  return card[0];
}

export function suitOf(card) {
  return card[1];
}

export function face(card) {
  const rank = rankOf(card) === "T" ? "10" : rankOf(card);
  return `${rank}${SUIT_SIGNS[suitOf(card)] ?? "?"}`;
}

// The name starts with the rank as the card shows it, so that the visible
// text is part of the name (a person using speech input says what they
// see): "7 of hearts", "K (king) of spades".
export function cardName(card) {
  const rank = rankOf(card) === "T" ? "10" : rankOf(card);
  const word = "JQKA".includes(rank) ? ` (${RANK_NAMES[rank]})` : "";
  return `${RANK_NAMES[rankOf(card)] ? rank : card}${word} of ${SUIT_NAMES[suitOf(card)] ?? "?"}`;
}

export function cardsName(cards) {
  return cards.map(cardName).join(", ");
}

export function facesOf(cards) {
  return cards.map(face).join(" ");
}

// Ascending by rank, then suit: the order the API sorts hands in.
export function byRank(a, b) {
  return RANKS.indexOf(rankOf(a)) - RANKS.indexOf(rankOf(b)) || SUITS.indexOf(suitOf(a)) - SUITS.indexOf(suitOf(b));
}

// Every card of the pack in canonical order: clubs two to ace, then
// diamonds, hearts, spades (docs/fairness.md, the deal).
export function canonicalDeck() {
  return [...SUITS].flatMap((s) => [...RANKS].map((r) => r + s));
}

// A card as an element: its face for the eye, its name for a screen
// reader; `red` for hearts and diamonds.
export function cardClass(card) {
  return `card ${"DH".includes(suitOf(card)) ? "red" : "black"}`;
}
