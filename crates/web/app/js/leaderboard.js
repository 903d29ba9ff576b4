// The standings of one ruleset: GetLeaderboard (all time), or one of the
// ruleset's seasons' current period (GetSeasonStandings; docs/ratings.md),
// sorted by the conservative rating (mu - 3 sigma).

import { get } from "./api.js";
import { describe } from "./errors.js";
import { h, fill, screen } from "./dom.js";
import { presetSelect } from "./presets.js";

function ranking(caption, rows, note) {
  if (!rows.length) return h("p", {}, note);
  return h(
    "table",
    {},
    h("caption", { class: "sr-only" }, caption),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Rank"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Rating"), h("th", { scope: "col" }, "Games"))),
    h(
      "tbody",
      {},
      rows.map((r) => h("tr", {}, h("td", {}, r.rank), h("td", {}, r.name, r.bot ? " (bot)" : ""), h("td", {}, r.rating.toFixed(1), r.provisional ? " (provisional)" : ""), h("td", {}, r.games))),
    ),
  );
}

export function showLeaderboard() {
  const preset = presetSelect("board-preset");
  const season = h("select", { id: "board-season" }, h("option", { value: "" }, "All time"));
  const table = h("div", { id: "leaderboard", "aria-live": "polite" });
  const name = () => preset.selectedOptions[0].textContent;
  const loadSeasons = async () => {
    // A plain preset's ruleset key is its name (docs/ratings.md).
    const { seasons } = await get("/v1/seasons", { rulesetKey: preset.value }).catch(() => ({ seasons: [] }));
    fill(season, h("option", { value: "" }, "All time"), (seasons || []).filter((s) => s.current).map((s) => h("option", { value: s.seasonId }, `Season: ${s.name}`)));
  };
  const load = async () => {
    fill(table, h("p", {}, "Loading…"));
    try {
      if (season.value) {
        const { rows, period } = await get(`/v1/seasons/${season.value}/standings`, { limit: 50 });
        const lines = (rows || []).map((r) => ({ rank: r.rank, name: r.name, bot: r.isBot, rating: r.conservative, games: r.games, provisional: r.provisional }));
        const since = period?.startsAt ? ` since ${new Date(period.startsAt).toLocaleDateString()}` : "";
        fill(table, ranking(`Season standings for ${name()}${since}`, lines, "No rated games in this season yet."));
        return;
      }
      const { entries } = await get("/v1/leaderboard", { rules: { preset: preset.value }, limit: 50 });
      const lines = (entries || []).map((e) => ({ rank: e.rank, name: e.name, bot: e.isBot, rating: e.rating.conservative, games: e.rating.games }));
      fill(table, ranking(`Leaderboard for ${name()}`, lines, "No rated games under these rules yet."));
    } catch (error) {
      fill(table, h("p", { class: "error" }, describe(error)));
    }
  };
  preset.addEventListener("change", async () => {
    await loadSeasons();
    load();
  });
  season.addEventListener("change", load);
  screen("Leaderboard", h("label", { class: "field" }, h("span", {}, "Game"), preset), h("label", { class: "field" }, h("span", {}, "Standings"), season), table);
  loadSeasons().then(load);
}
