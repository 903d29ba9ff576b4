// What happened, in words: each event ("Bo played 9♣", "You picked up
// 7♥ and drew K♠"), and who won each trick, read from two consecutive
// views (the views carry no "trick won" event): in phase one the seat
// whose pile grew won; in phase two the seat whose lay filled the trick.
// Cards an event put in the viewer's hand that were seen on the table
// before are their pile (or a trick taken back), taken up at the end of
// phase one; drawn cards come from the stock, which nobody has seen.

import { facesOf } from "./cards.js";

export function who(view, seat) {
  if (seat === view.viewerSeat) return "You";
  const info = view.seats?.[seat];
  return info?.name ? `${info.name}` : `Seat ${seat + 1}`;
}

const VERBS = {
  EVENT_KIND_PLAY: "played",
  EVENT_KIND_CHANCE: "took a chance:",
  EVENT_KIND_PICKUP: "picked up",
  EVENT_KIND_SLUFF: "sluffed",
  EVENT_KIND_PASS: "passed",
  EVENT_KIND_CLAIM: "claimed the trick",
  EVENT_KIND_ROB: "robbed",
  EVENT_KIND_BANK: "banked",
  EVENT_KIND_RESIGN: "resigned",
  EVENT_KIND_TIMEOUT: "ran out of time",
  EVENT_KIND_FORFEIT: "ran out of time and forfeited: the clock plays on for them",
};

// Kinds of event whose cards go to the table, and from there to a pile.
const TABLED = new Set(["EVENT_KIND_PLAY", "EVENT_KIND_CHANCE", "EVENT_KIND_SLUFF", "EVENT_KIND_BANK"]);

// The cards seen on the table so far, fed every event of a game in order
// (`seen.remember(event)`), whether or not it is told.
export function tableMemory() {
  const cards = new Set();
  return {
    has: (card) => cards.has(card),
    remember(event) {
      if (TABLED.has(event.kind)) for (const card of event.cards || []) cards.add(card);
    },
  };
}

// One event as a sentence, or null (a shuffle that dealt the viewer
// nothing). `seen`: the cards on the table before this event (see
// tableMemory); of the cards the event put in the viewer's hand, those
// are the pile taken up, the others drawn.
export function eventLine(view, event, seen = tableMemory()) {
  const got = event.privateCards || [];
  if (event.kind === "EVENT_KIND_SHUFFLE") return got.length ? `You were dealt ${facesOf(got)}.` : null;
  if (event.kind === "EVENT_KIND_VOID") return "An operator voided the game: it has no result.";
  const seat = event.seat ?? null;
  const name = seat === null ? "" : who(view, seat);
  let line = `${name} ${VERBS[event.kind] || event.kind}`;
  if ((event.cards || []).length) line += ` ${facesOf(event.cards)}`;
  const pile = got.filter((c) => seen.has(c));
  const drew = got.filter((c) => !seen.has(c));
  if (drew.length) line += seat === view.viewerSeat ? ` and drew ${facesOf(drew)}` : `; you drew ${facesOf(drew)}`;
  if (pile.length) line += `; you took your pile into your hand: ${facesOf(pile)}`;
  if (event.byClock) line += " (the clock ran out)";
  return `${line}.`;
}

// Lines for the change from `before` (null: first look) to `now`, telling
// the events after version `since`: {text, event} for an event, {text} for
// what follows. `seen` remembers the cards on the table across views:
// every event of `now.history` passes through it, told or not.
export function narrate(before, now, since, seen = tableMemory()) {
  const events = (now.history || []).filter((e) => Number(e.version) > since);
  const lines = [];
  for (const event of now.history || []) {
    const text = Number(event.version) > since ? eventLine(now, event, seen) : null;
    if (text) lines.push({ text, event });
    seen.remember(event);
  }
  const say = (text) => lines.push({ text });
  if (!before) return lines;
  if (before.phase === "PHASE_ONE" && now.phase === "PHASE_ONE" && tied(now) && !tied(before)) {
    const names = (now.toAct || []).map((s) => who(now, s));
    say(`A tie: the tied players (${names.join(" and ")}) play again to settle the trick.`);
  }
  if (before.phase === "PHASE_ONE" && now.phase === "PHASE_ONE") {
    for (const seat of now.seats) {
      const earlier = before.seats[seat.seat];
      const banked = events.filter((e) => e.seat === seat.seat && e.kind === "EVENT_KIND_BANK").reduce((n, e) => n + e.cards.length, 0);
      const won = (seat.pileSize || 0) - (earlier?.pileSize || 0) - banked;
      if (won > 0) say(`${who(now, seat.seat)} won the trick: ${won} cards to ${seat.seat === now.viewerSeat ? "your" : "their"} pile.`);
    }
  }
  if (before.phase === "PHASE_TWO" && now.phase === "PHASE_TWO") {
    const size = before.trickSize ?? null;
    const plays = events.filter((e) => e.kind === "EVENT_KIND_PLAY");
    const lays = (before.tableLays || []).length;
    if (size !== null && plays.length === 1 && events.length === 1 && lays + 1 === size && (now.tableLays || []).length === 0) {
      say(`${who(now, plays[0].seat)} won the trick; its cards are out of play.`);
    }
  }
  if (before.phase === "PHASE_ONE" && now.phase === "PHASE_TWO") say("Phase one is over: everyone takes their pile into their hand.");
  if (!before.trump && now.trump) say(`Trumps are ${suitWord(now.trump)}.`);
  return lines;
}

// Phase one: the seats to act all have a card in the trick already, so
// they play again (a tie).
function tied(view) {
  const played = new Set((view.tableCards || []).filter((c) => !c.isSluff).map((c) => c.seat ?? 0));
  const toAct = view.toAct || [];
  return toAct.length > 0 && toAct.every((s) => played.has(s));
}

function suitWord(suit) {
  return { C: "clubs ♣", D: "diamonds ♦", H: "hearts ♥", S: "spades ♠" }[suit] || suit;
}
