// How to play, in short, for each preset: the base game (docs/rules.md
// section 2) and what each preset changes (section 3.0). The full rules
// are docs/how-to-play.md and docs/rules.md; this screen is the part a
// person needs at the table.

import { h, screen } from "./dom.js";
import { PRESETS, presetSelect } from "./presets.js";

const BASE = [
  ["The aim", "Do not be the last player holding cards: that player is the skitgubbe and loses. Everyone else goes out in turn, and the order they go out in is their place."],
  ["Phase one: collecting", "Players play to tricks. The higher rank wins the trick and puts its cards in their pile; suits do not matter yet. After playing from your hand you draw from the stock. Instead of playing from your hand you may chance: turn up the top card of the stock and play it, a gamble that may win the trick without spending a card you hold. If the cards tie (the same rank), the tied players play again until one is higher, and the winner takes every card on the table."],
  ["Between the phases", "When the stock is used up, the last card of the stock is turned: its suit is trumps. Everyone takes their pile into their hand. A player with no cards at all is safe and out."],
  ["Phase two: shedding", "Get rid of your cards. When the table holds a card you must beat it (a higher card of its suit, or any trump on a non-trump) or pick up. A trick is complete when it holds as many cards as there were players in it; it is set aside and whoever completed it leads. A player whose hand is empty is out."],
  ["A game that does not end", "Every game has an action limit (2000 actions in phase two). When it is reached the game ends drawn, with no loser; the table warns you as it nears."],
];

const DIFFERENCES = {
  skitgubbe: "The base game above: two-card tricks in phase one, single cards in phase two, and a pick-up takes the top card.",
  "skitgubbe-sequences": "As the base game, but in phase two you may play a run of cards of one suit, and a pick-up takes the top run.",
  allplay: "Everyone plays to each trick in phase one, one to three cards of a rank; ties replay; you may sluff (throw a card to a trick) once. Players left with under five cards after phase one are dealt low cards. Phase two allows runs.",
  mas: "The trump is turned up at the deal. In phase one you beat the card led or pick it up; the two of trumps may rob the turned-up card, and three trumps may be banked. There is no chance. Actions of both phases count toward the action limit.",
  melniki: "The trump is turned up at the deal, and in phase one you must follow suit. There is no chance. Actions of both phases count toward the action limit.",
  mattis: "Everyone plays one card to each trick in phase one; ties replay and there is no sluff. A player with no cards after phase one stays in (Blue Mattis). Phase two allows runs, and a pick-up takes the bottom lay.",
  "mattis-norsk": "Two-card tricks in phase one, skipping players with empty hands. Blue Mattis: a player with no cards stays in. A pick-up in phase two takes the bottom card.",
  koira: "Everyone plays one card to each trick in phase one; ties replay, players with empty hands are skipped, and a tie that cannot finish is split. Phase two allows runs, and a pick-up takes the bottom lay.",
  myllymatti: "Played as the base game.",
  atlanta: "Three players. Everyone plays one card to each trick; ties are compulsory and losing ranks may be sluffed. Players under six cards get low cards and the six of trumps. Phase two allows runs; a pick-up takes the bottom run.",
  "two-player": "As the base game for two, with twelve cards set aside as a reserve: after each completed trick in phase two, draw from it.",
};

export function showHelp(preset) {
  const chosen = PRESETS[preset] ? preset : "skitgubbe";
  const select = presetSelect("help-preset");
  select.value = chosen;
  select.addEventListener("change", () => (location.hash = `#/help/${select.value}`));
  screen(
    `How to play ${PRESETS[chosen].name}`,
    h("label", { class: "field" }, h("span", {}, "Game"), select),
    h("section", { class: "panel", id: "help-preset-rules", "aria-labelledby": "help-differs" }, h("h2", { id: "help-differs" }, `What ${PRESETS[chosen].name} changes`), h("p", {}, DIFFERENCES[chosen]), h("p", {}, `${PRESETS[chosen].min === PRESETS[chosen].max ? PRESETS[chosen].min : `${PRESETS[chosen].min} to ${PRESETS[chosen].max}`} players.`)),
    BASE.map(([title, text]) => h("section", { class: "help" }, h("h2", {}, title), h("p", {}, text))),
    h("p", {}, h("a", { href: "#/" }, "Play a game")),
  );
}
