// The standings of one ruleset: GetLeaderboard, sorted by the
// conservative rating (mu - 3 sigma; docs/ratings.md).

import { get } from "./api.js";
import { describe } from "./errors.js";
import { h, fill, screen } from "./dom.js";
import { presetSelect } from "./presets.js";

export function showLeaderboard() {
  const preset = presetSelect("board-preset");
  const table = h("div", { id: "leaderboard", "aria-live": "polite" });
  const load = async () => {
    fill(table, h("p", {}, "Loading…"));
    try {
      const { entries } = await get("/v1/leaderboard", { rules: { preset: preset.value }, limit: 50 });
      fill(
        table,
        (entries || []).length
          ? h(
              "table",
              {},
              h("caption", { class: "sr-only" }, `Leaderboard for ${preset.selectedOptions[0].textContent}`),
              h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Rank"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Rating"), h("th", { scope: "col" }, "Games"))),
              h("tbody", {}, entries.map((e) => h("tr", {}, h("td", {}, e.rank), h("td", {}, e.name, e.isBot ? " (bot)" : ""), h("td", {}, e.rating.conservative.toFixed(1)), h("td", {}, e.rating.games)))),
            )
          : h("p", {}, "No rated games under these rules yet."),
      );
    } catch (error) {
      fill(table, h("p", { class: "error" }, describe(error)));
    }
  };
  preset.addEventListener("change", load);
  screen("Leaderboard", h("label", { class: "field" }, h("span", {}, "Game"), preset), table);
  load();
}
