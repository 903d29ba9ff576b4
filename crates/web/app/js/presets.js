// The presets a game can be created with and their numbers of players
// (docs/rules.md, section 3). The service validates them again; this list
// only fills the page's choices.

import { h } from "./dom.js";

export const PRESETS = {
  skitgubbe: { name: "Skitgubbe", min: 2, max: 8, usual: 3 },
  "skitgubbe-sequences": { name: "Skitgubbe with sequences", min: 2, max: 8, usual: 3 },
  allplay: { name: "All play (Swedish)", min: 2, max: 6, usual: 3 },
  mas: { name: "Mas", min: 2, max: 4, usual: 3 },
  melniki: { name: "Melniki", min: 2, max: 4, usual: 3 },
  mattis: { name: "Mattis", min: 2, max: 8, usual: 3 },
  "mattis-norsk": { name: "Mattis (Norwegian)", min: 2, max: 6, usual: 3 },
  koira: { name: "Koira", min: 3, max: 8, usual: 3 },
  myllymatti: { name: "Myllymatti", min: 2, max: 8, usual: 3 },
  atlanta: { name: "Atlanta", min: 3, max: 3, usual: 3 },
  "two-player": { name: "Two-player Skitgubbe", min: 2, max: 2, usual: 2 },
};

export function presetSelect(id) {
  return h("select", { id, name: id }, Object.entries(PRESETS).map(([key, p]) => h("option", { value: key }, p.name)));
}

// The player counts of the preset chosen in `preset`, kept in step.
export function playersSelect(id, preset) {
  const select = h("select", { id, name: id });
  const refill = () => {
    const p = PRESETS[preset.value];
    const keep = Number(select.value) || p.usual;
    select.replaceChildren(...Array.from({ length: p.max - p.min + 1 }, (_, i) => p.min + i).map((n) => h("option", { value: n, selected: n === Math.min(Math.max(keep, p.min), p.max) }, `${n}`)));
  };
  preset.addEventListener("change", refill);
  refill();
  return select;
}
