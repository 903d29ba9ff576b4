// Tournaments, from the league service (docs/leagues.md), as any app
// reaches it: the list with registration, and one tournament's page with
// the caller's next table and the standings, kept live by following the
// tournament's events over SSE (a dropped stream resumes from the last
// event's number, so no update is missed or shown twice).

import { get, post, leaguesUrl, session, ApiError } from "./api.js";
import { describe } from "./errors.js";
import { follow } from "./stream.js";
import { h, fill, notify, screen } from "./dom.js";

const FORMATS = {
  TOURNAMENT_FORMAT_SWISS: "Swiss",
  TOURNAMENT_FORMAT_ROUND_ROBIN: "Round robin",
  TOURNAMENT_FORMAT_ARENA: "Arena",
  TOURNAMENT_FORMAT_LADDER: "Bot ladder",
};

const STATES = {
  TOURNAMENT_STATE_REGISTERING: "Registering",
  TOURNAMENT_STATE_RUNNING: "Running",
  TOURNAMENT_STATE_PAUSED: "Paused",
  TOURNAMENT_STATE_FINISHED: "Finished",
  TOURNAMENT_STATE_TERMINATED: "Ended early",
};

async function base() {
  const url = await leaguesUrl();
  if (!url) throw new ApiError({ code: "UNIMPLEMENTED", reason: "no_leagues" });
  return url;
}

function summary(t) {
  const length = t.rounds ? `${t.rounds} rounds` : t.durationMinutes ? `${t.durationMinutes} min` : "continuous";
  return `${FORMATS[t.format] || "Tournament"} · tables of ${t.seats} · ${length} · ${t.entrants} entered${t.rated ? " · rated" : ""}`;
}

// Enters the signed-in person; answers whether it worked (a refusal is
// shown in words).
async function enter(t, code) {
  try {
    await post(`/v1/tournaments/${t.tournamentId}/enter`, { entryCode: code || "" }, { base: await base() });
    notify(`You are entered in ${t.name}.`, "info");
    return true;
  } catch (error) {
    notify(describe(error));
    return false;
  }
}

// Leaves a tournament that has not started; answers whether it worked.
async function leave(t) {
  try {
    await post(`/v1/tournaments/${t.tournamentId}/leave`, {}, { base: await base() });
    notify(`You left ${t.name}.`, "info");
    return true;
  } catch (error) {
    notify(describe(error));
    return false;
  }
}

// What the person can do about a tournament still registering: enter it,
// or, entered, leave it.
function registration(t, entered, after) {
  if (t.state !== "TOURNAMENT_STATE_REGISTERING") return entered ? h("span", { class: "entered" }, "Entered") : null;
  if (entered) {
    return h(
      "span",
      { class: "entry" },
      h("span", { class: "entered" }, "Entered"),
      " ",
      h("button", { type: "button", class: "leave", onclick: async () => (await leave(t)) && after() }, `Leave ${t.name}`),
    );
  }
  return h("button", { type: "button", class: "enter", onclick: async () => (await enter(t, codeFor(t))) && after() }, `Enter ${t.name}`);
}

// The ids of the tournaments the signed-in person entered and has not
// left. Their tournament history lists the ones they left too, so for a
// tournament not over yet their own entry tells.
async function enteredIds(url) {
  const me = session.get();
  if (!me) return new Set();
  const { tournaments } = await get("/v1/tournaments", { entered: true }, { base: url });
  const over = ["TOURNAMENT_STATE_FINISHED", "TOURNAMENT_STATE_TERMINATED"];
  const kept = await Promise.all(
    (tournaments || []).map(async (t) => {
      if (over.includes(t.state)) return t.tournamentId;
      const { entries } = await get(`/v1/tournaments/${t.tournamentId}/entries`, {}, { base: url });
      return (entries || []).some((e) => e.accountId === me.accountId && !e.withdrawn) ? t.tournamentId : null;
    }),
  );
  return new Set(kept.filter(Boolean));
}

// A tournament's game, remembered so the game's end links back to it.
export function tournamentOf(gameId) {
  return sessionStorage.getItem(`skitgubbe.tournament-of.${gameId}`);
}

export function showTournaments() {
  const list = h("div", { id: "tournaments", "aria-live": "polite" }, h("p", {}, "Loading…"));
  screen("Tournaments", list);
  (async () => {
    try {
      const url = await base();
      const [{ tournaments }, mine] = await Promise.all([get("/v1/tournaments", {}, { base: url }), enteredIds(url)]);
      fill(
        list,
        (tournaments || []).length
          ? h(
              "ul",
              { class: "tournaments" },
              tournaments.map((t) =>
                h(
                  "li",
                  { "data-id": t.tournamentId },
                  h("a", { href: `#/tournament/${t.tournamentId}` }, t.name),
                  h("span", { class: "state" }, ` ${STATES[t.state] || ""}`),
                  h("p", { class: "meta" }, summary(t)),
                  registration(t, mine.has(t.tournamentId), showTournaments),
                ),
              ),
            )
          : h("p", {}, "No tournaments yet."),
      );
    } catch (error) {
      fill(list, h("p", { class: "error" }, describe(error)));
    }
  })();
}

function codeFor(t) {
  return t.entryCodeRequired ? window.prompt(`The entry code for ${t.name}`) || "" : "";
}

function standingsTable(standings, me) {
  const rows = standings?.rows || [];
  if (!rows.length) return h("p", {}, "No table has finished yet.");
  return h(
    "table",
    { id: "standings-table", "data-sequence": standings.sequence },
    h("caption", {}, standings.ended ? "Final standings" : "Standings so far"),
    h("thead", {}, h("tr", {}, ["Rank", "Player", "Points", "Tables", "Firsts"].map((c) => h("th", { scope: "col" }, c)))),
    h(
      "tbody",
      {},
      rows.map((r) =>
        h(
          "tr",
          { class: r.accountId === me ? "me" : null, "data-account": r.accountId },
          h("td", {}, r.rank),
          h("td", {}, r.accountId === me ? "You" : r.name || `Player ${r.accountId}`),
          h("td", {}, r.score),
          h("td", {}, r.tables),
          h("td", {}, r.firsts),
        ),
      ),
    ),
  );
}

// One tournament: what it is, entering, your next table, live standings.
export function showTournament(id) {
  const me = session.get()?.accountId;
  const about = h("p", { class: "meta" }, "Loading…");
  const actions = h("div", { class: "actions" });
  const mine = h("div", { id: "my-table", "aria-live": "polite" });
  const table = h("div", { id: "standings", "aria-live": "polite" });
  const status = h("p", { class: "status", id: "tournament-status" });
  const main = screen("Tournament", about, actions, h("h2", {}, "Your table"), mine, h("h2", {}, "Standings"), table, status);
  let stream = null;
  let url;

  const refreshMine = async () => {
    const { tables } = await get(`/v1/tournaments/${id}/tables`, { mineOnly: true }, { base: url });
    for (const t of tables || []) if (t.gameId) sessionStorage.setItem(`skitgubbe.tournament-of.${t.gameId}`, id);
    const next = (tables || []).at(-1);
    if (!next) return fill(mine, h("p", {}, "You have no table in this tournament."));
    const playing = next.state === "TABLE_STATE_PLAYING" && next.gameId;
    fill(
      mine,
      h("p", {}, `Round ${next.round}, table ${next.table}: `, next.state.replace("TABLE_STATE_", "").toLowerCase()),
      playing ? h("a", { href: `#/game/${next.gameId}`, id: "my-game" }, "Go to your table") : next.gameId ? h("a", { href: `#/replay/${next.gameId}` }, "Replay your last game") : null,
    );
  };

  const describeTournament = async (t) => {
    main.querySelector("h1").textContent = t.name;
    fill(about, `${STATES[t.state] || ""} · ${summary(t)}`, t.reason ? ` · ${t.reason}` : "");
    const entered = (await enteredIds(url)).has(id);
    if (t.state !== "TOURNAMENT_STATE_REGISTERING") return fill(actions, entered ? h("span", { class: "entered" }, "Entered") : null);
    fill(
      actions,
      entered
        ? [h("span", { class: "entered" }, "Entered"), " ", h("button", { type: "button", id: "leave", onclick: async () => (await leave(t)) && load() }, "Leave")]
        : h("button", { type: "button", id: "enter", onclick: async () => (await enter(t, codeFor(t))) && load() }, "Enter"),
    );
  };

  const load = async () => {
    const t = await get(`/v1/tournaments/${id}`, {}, { base: url });
    await describeTournament(t);
    fill(table, standingsTable(await get(`/v1/tournaments/${id}/standings`, {}, { base: url }), me));
    await refreshMine();
    return t;
  };

  (async () => {
    try {
      url = await base();
      await load();
      stream = follow(`${url}/v1/tournaments/${id}/watch`, {
        onMessage: async (event) => {
          if (event.kind === "TOURNAMENT_EVENT_KIND_STANDINGS_CHANGED") fill(table, standingsTable(event.standings, me));
          if (event.kind === "TOURNAMENT_EVENT_KIND_STATE_CHANGED") describeTournament(await get(`/v1/tournaments/${id}`, {}, { base: url }));
          if (["TOURNAMENT_EVENT_KIND_ROUND_SEATED", "TOURNAMENT_EVENT_KIND_TABLE_STARTED", "TOURNAMENT_EVENT_KIND_TABLE_FINISHED"].includes(event.kind)) await refreshMine();
        },
        onStatus: (s) => fill(status, s === "live" ? "Live" : s === "finished" ? "The tournament has ended." : s === "reconnecting" ? "Reconnecting…" : ""),
        onError: (error) => notify(describe(error)),
        // The final standings are the last event an ended tournament sends.
        done: (event) => event.kind === "TOURNAMENT_EVENT_KIND_STANDINGS_CHANGED" && event.standings?.ended,
      });
    } catch (error) {
      fill(about, h("span", { class: "error" }, describe(error)));
    }
  })();
  return () => stream?.close();
}
