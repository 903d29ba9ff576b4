// The standings of one ruleset: GetLeaderboard (all time), or one of the
// ruleset's seasons' current period (GetSeasonStandings; docs/ratings.md),
// sorted by the conservative rating (mu - 3 sigma); for a season with
// divisions, the signed-in player's cohort too (GetDivision), each player
// with the zone they stand in.

import { get, session } from "./api.js";
import { describe } from "./errors.js";
import { h, fill, go, screen } from "./dom.js";
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

const ZONES = {
  DIVISION_ZONE_PROMOTION: "Promotion",
  DIVISION_ZONE_STAY: "Stays",
  DIVISION_ZONE_RELEGATION: "Relegation",
  DIVISION_ZONE_OUT: "Leaves (inactive)",
};

function cohort(d, tiers) {
  return h(
    "table",
    {},
    h("caption", {}, `Your division: tier ${d.tier} of ${tiers}, cohort ${d.cohort}`),
    h("thead", {}, h("tr", {}, h("th", { scope: "col" }, "Rank"), h("th", { scope: "col" }, "Player"), h("th", { scope: "col" }, "Rating"), h("th", { scope: "col" }, "Games"), h("th", { scope: "col" }, "At the turn"))),
    h(
      "tbody",
      {},
      (d.rows || []).map((r) =>
        h(
          "tr",
          { "data-zone": r.zone || "" },
          h("td", {}, r.rank),
          h("td", {}, r.name, r.isBot ? " (bot)" : ""),
          h("td", {}, (r.conservative || 0).toFixed(1)),
          h("td", {}, r.games || 0),
          h("td", {}, ZONES[r.zone] || "", r.steppingDown ? " (stepping down)" : ""),
        ),
      ),
    ),
  );
}

// The caller's cohort of a season with divisions, or why there is none.
async function division(s) {
  try {
    return cohort(await get(`/v1/seasons/${s.seasonId}/division`), s.divisions.tiers);
  } catch (error) {
    if (error.code === "NOT_FOUND") return h("p", {}, "You have no place in this season's divisions yet: a rated game of the season enters you in the bottom tier.");
    return h("p", { class: "error" }, describe(error));
  }
}

// The service shows standings to any signed-in caller, guests included,
// and to nobody else; signed out, the way on is offered instead.
function signInFirst() {
  screen(
    "Leaderboard",
    h("p", {}, "The standings are shown to everyone signed in, guests included: a guest needs no password."),
    h(
      "p",
      {},
      h(
        "button",
        {
          type: "button",
          class: "primary",
          id: "board-sign-in",
          onclick: () => {
            sessionStorage.setItem("skitgubbe.after", "#/leaderboard");
            go("#/");
          },
        },
        "Sign in or play as a guest to see them",
      ),
    ),
  );
}

export function showLeaderboard() {
  if (!session.get()) return signInFirst();
  const preset = presetSelect("board-preset");
  const season = h("select", { id: "board-season" }, h("option", { value: "" }, "All time"));
  const table = h("div", { id: "leaderboard", "aria-live": "polite" });
  const mine = h("div", { id: "division", "aria-live": "polite" });
  let seasons = [];
  const name = () => preset.selectedOptions[0].textContent;
  const loadSeasons = async () => {
    // A plain preset's ruleset key is its name (docs/ratings.md).
    const listed = await get("/v1/seasons", { rulesetKey: preset.value }).catch(() => ({ seasons: [] }));
    seasons = (listed.seasons || []).filter((s) => s.current);
    fill(season, h("option", { value: "" }, "All time"), seasons.map((s) => h("option", { value: s.seasonId }, `Season: ${s.name}`)));
  };
  const load = async () => {
    fill(table, h("p", {}, "Loading…"));
    fill(mine);
    try {
      if (season.value) {
        const { rows, period } = await get(`/v1/seasons/${season.value}/standings`, { limit: 50 });
        const lines = (rows || []).map((r) => ({ rank: r.rank, name: r.name, bot: r.isBot, rating: r.conservative, games: r.games, provisional: r.provisional }));
        const since = period?.startsAt ? ` since ${new Date(period.startsAt).toLocaleDateString()}` : "";
        fill(table, ranking(`Season standings for ${name()}${since}`, lines, "No rated games in this season yet."));
        const chosen = seasons.find((s) => s.seasonId === season.value);
        if (chosen?.divisions) fill(mine, await division(chosen));
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
  screen("Leaderboard", h("label", { class: "field" }, h("span", {}, "Game"), preset), h("label", { class: "field" }, h("span", {}, "Standings"), season), table, mine);
  loadSeasons().then(load);
}
