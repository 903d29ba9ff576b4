// The first screen: sign up, log in or play as a guest; then choose a
// preset and the number of players, and either queue with the matchmaker
// (bots fill the table after a short wait) or create a table and invite
// people with a link; the person's games; watching a game by its link.

import { get, post, session, matchmakerUrl, freshId } from "./api.js";
import { describe } from "./errors.js";
import { h, fill, go, screen, notify, seconds } from "./dom.js";
import { follow, retryable } from "./stream.js";
import { PRESETS, presetSelect, playersSelect } from "./presets.js";

export function showLobby() {
  const me = session.get();
  if (!me) return showSignIn();
  const main = screen("Play Skitgubbe");
  const disposers = [];
  main.append(playPanel(disposers), gamesPanel(), watchPanel());
  return () => disposers.forEach((d) => d());
}

function field(label, input) {
  return h("label", { class: "field" }, h("span", {}, label), input);
}

// Runs `action` for a form, with its button busy and any refusal shown.
function submitting(form, action) {
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const buttons = form.querySelectorAll("button");
    buttons.forEach((b) => (b.disabled = true));
    try {
      await action(event.submitter?.value);
      notify(null);
    } catch (error) {
      notify(describe(error));
    } finally {
      buttons.forEach((b) => (b.disabled = false));
    }
  });
  return form;
}

// Keeps the new session and goes on to the screen the person came for (a
// shared watch, join or game link; main.js keeps it), else the lobby.
function signedIn(answer, kind) {
  const token = answer.token || answer.session?.accessToken;
  session.set({ token, refreshToken: answer.session?.refreshToken, accountId: answer.accountId, name: answer.name, kind });
  const after = sessionStorage.getItem("skitgubbe.after");
  sessionStorage.removeItem("skitgubbe.after");
  go(after || "#/");
}

function showSignIn() {
  const name = h("input", { name: "name", autocomplete: "username", required: true, maxlength: 64 });
  const password = h("input", { name: "password", type: "password", autocomplete: "current-password" });
  const guestName = h("input", { name: "guest-name", autocomplete: "nickname", maxlength: 64, placeholder: "optional" });
  const account = submitting(
    h(
      "form",
      { class: "panel", "aria-labelledby": "account-title" },
      h("h2", { id: "account-title" }, "Your account"),
      field("Name", name),
      field("Password", password),
      h("p", { class: "buttons" }, h("button", { type: "submit", value: "login", class: "primary", id: "login" }, "Log in"), h("button", { type: "submit", value: "register", id: "register" }, "Sign up")),
    ),
    async (which) => {
      const body = { name: name.value.trim(), password: password.value };
      const answer = await post(which === "register" ? "/v1/accounts/register" : "/v1/accounts/login", body, { auth: false });
      signedIn(answer, "player");
    },
  );
  const guest = submitting(
    h(
      "form",
      { class: "panel", "aria-labelledby": "guest-title" },
      h("h2", { id: "guest-title" }, "Or play as a guest"),
      h("p", {}, "Guests play unrated games; sign up later to keep a rating."),
      field("Name", guestName),
      h("p", { class: "buttons" }, h("button", { type: "submit", class: "primary", id: "guest" }, "Play as a guest")),
    ),
    async () => {
      const body = { requestId: freshId("guest") };
      if (guestName.value.trim()) body.name = guestName.value.trim();
      signedIn(await post("/v1/accounts/guest", body, { auth: false }), "guest");
    },
  );
  const followed = sessionStorage.getItem("skitgubbe.after") ? h("p", { id: "after-sign-in" }, "Sign in or play as a guest to open the link you followed.") : null;
  screen("Welcome to Skitgubbe", h("p", { class: "lead" }, "The Swedish card game and its Nordic relatives, against people and bots."), followed, h("div", { class: "panels" }, account, guest));
}

function playPanel(disposers) {
  const preset = presetSelect("play-preset");
  const players = playersSelect("play-players", preset);
  const clock = h("select", { id: "play-clock" }, h("option", { value: "60" }, "60 s a move"), h("option", { value: "30" }, "30 s a move"), h("option", { value: "0" }, "No clock"));
  const rated = h("input", { type: "checkbox", id: "play-rated", disabled: session.get()?.kind === "guest" });
  const waiting = h("div", { class: "waiting", id: "waiting", "aria-live": "polite" });
  const form = submitting(
    h(
      "form",
      { class: "panel", "aria-labelledby": "play-title" },
      h("h2", { id: "play-title" }, "New game"),
      field("Game", preset),
      field("Players", players),
      h("p", { class: "buttons" }, h("button", { type: "submit", value: "queue", class: "primary", id: "queue" }, "Find a table"), h("button", { type: "submit", value: "create", id: "create" }, "Create a table and invite")),
      h("details", {}, h("summary", {}, "Table settings (for a table you create)"), field("Clock", clock), h("label", { class: "check" }, rated, " Rated (full accounts only)")),
      waiting,
    ),
    async (which) => {
      const rules = { preset: preset.value };
      const count = Number(players.value);
      if (which === "create") {
        const body = { rules, players: count, rated: rated.checked, requestId: freshId("table") };
        if (clock.value !== "0") body.timeControl = { perMove: `${clock.value}s`, onTimeout: "ON_TIMEOUT_BOT_MOVE" };
        const game = await post("/v1/games", body);
        location.hash = `#/game/${game.gameId}/0`;
        return;
      }
      await queue(waiting, rules, count, disposers);
    },
  );
  return form;
}

const QUEUE_RETRY_S = [1, 2, 4, 8, 15];

// Sends the ticket; while the matchmaker cannot be reached, again after a
// growing wait (the same requestId, so it is queued once), until it
// answers or the person cancels. The ticket, or null if cancelled.
async function sendTicket(waiting, body, base, disposers) {
  let cancelled = false;
  disposers.push(() => (cancelled = true));
  for (let attempt = 0; ; attempt++) {
    try {
      return await post("/v1/tickets", body, { base });
    } catch (error) {
      if (!retryable(error) || cancelled) throw error;
      const wait = QUEUE_RETRY_S[Math.min(attempt, QUEUE_RETRY_S.length - 1)];
      const stop = h("button", { type: "button", id: "cancel-ticket", onclick: () => (cancelled = true) }, "Cancel");
      fill(waiting, h("p", { id: "queue-retry" }, `The matchmaker cannot be reached (${describe(error)}). Trying again in ${wait} s… `, stop));
      for (let s = 0; s < wait * 10 && !cancelled; s++) await new Promise((r) => setTimeout(r, 100));
      if (cancelled) {
        fill(waiting, "Not queued.");
        return null;
      }
      fill(waiting, h("p", {}, "Trying the matchmaker again…"));
    }
  }
}

// Queues a ticket and follows it until matched; then opens the game.
async function queue(waiting, rules, count, disposers) {
  const base = await matchmakerUrl();
  if (!base) throw { code: "FAILED_PRECONDITION", reason: "no_matchmaker" };
  const ticket = await sendTicket(waiting, { rules, playerCounts: [count], allowBots: true, requestId: freshId("ticket") }, base, disposers);
  if (!ticket) return;
  const since = Date.now();
  const timer = h("span", { class: "clock" }, "0:00");
  const cancel = h("button", { type: "button", id: "cancel-ticket" }, "Cancel");
  fill(waiting, h("p", {}, "Looking for a table… ", timer, " ", cancel));
  const tick = setInterval(() => (timer.textContent = seconds(Date.now() - since)), 500);
  const stream = follow(`${base}/v1/tickets/${ticket.ticketId}/watch`, {
    done: (t) => t.state !== "TICKET_STATE_QUEUED",
    onMessage: (t) => {
      if (t.state === "TICKET_STATE_MATCHED") location.hash = `#/game/${t.gameId}/${t.seat ?? 0}`;
      if (t.state === "TICKET_STATE_CANCELLED") fill(waiting, "Not queued any more.");
    },
    onError: (error) => notify(describe(error)),
  });
  const stop = () => {
    clearInterval(tick);
    stream.close();
  };
  cancel.addEventListener("click", async () => {
    try {
      await post(`/v1/tickets/${ticket.ticketId}/cancel`, {}, { base });
      stop();
      fill(waiting, "Not queued any more.");
    } catch (error) {
      notify(describe(error));
    }
  });
  disposers.push(stop);
}

function gamesPanel() {
  const list = h("ul", { class: "games", id: "my-games" }, h("li", {}, "Loading…"));
  const panel = h("section", { class: "panel", "aria-labelledby": "games-title" }, h("h2", { id: "games-title" }, "Your games"), list);
  get("/v1/games", { includeOver: true })
    .then(({ games }) => {
      const me = session.get()?.accountId;
      fill(
        list,
        (games || []).length
          ? games.slice(0, 20).map((g) => {
              const seat = g.seats.find((s) => s.accountId === me)?.seat ?? 0;
              const over = g.phase === "PHASE_OVER";
              const state = g.void ? "voided" : over ? "over" : g.myTurn ? "your turn" : g.phase === "PHASE_TWO" ? "phase two" : "phase one";
              // Newest first; the game's own short id, its state and the
              // seat tell two games of the same rules apart.
              const label = `${PRESETS[g.preset]?.name || g.preset}, ${g.players} players${g.rated ? ", rated" : ""} — ${state}, your seat ${seat + 1}`;
              return h(
                "li",
                { class: g.myTurn ? "your-turn" : over ? "over" : null },
                h("span", { class: "mono game-id" }, `#${g.gameId.slice(0, 8)}`),
                " ",
                label,
                " ",
                over ? h("a", { href: `#/replay/${g.gameId}`, "aria-label": `Replay game ${g.gameId.slice(0, 8)}` }, "Replay") : h("a", { href: `#/game/${g.gameId}/${seat}`, "aria-label": `Continue game ${g.gameId.slice(0, 8)}` }, "Continue"),
              );
            })
          : h("li", {}, "None yet."),
      );
    })
    .catch((error) => fill(list, h("li", {}, describe(error))));
  return panel;
}

function watchPanel() {
  const id = h("input", { id: "watch-id", required: true, placeholder: "a game's id or link" });
  return h(
    "form",
    {
      class: "panel",
      "aria-labelledby": "watch-title",
      onsubmit: (event) => {
        event.preventDefault();
        const game = id.value.trim().match(/[0-9a-f-]{36}/i)?.[0];
        if (game) location.hash = `#/watch/${game}`;
        else notify("That is not a game's id: paste the watch link a player shared.");
      },
    },
    h("h2", { id: "watch-title" }, "Watch a game"),
    field("Game", id),
    h("p", { class: "buttons" }, h("button", { type: "submit" }, "Watch")),
  );
}
