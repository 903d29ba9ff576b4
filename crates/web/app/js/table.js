// A game live: a player's seat or a spectator. WatchGame over SSE sends a
// view per new version (its history: the events since the previous view);
// the page narrates the change, draws the view, and sends a picked move
// with the version it was chosen at. A dropped stream resumes from the
// last version (stream.js).

import { get, post, freshId } from "./api.js";
import { describe } from "./errors.js";
import { h, screen, notify } from "./dom.js";
import { follow, retryable, RETRY_MS } from "./stream.js";
import { drawChoices, drawFelt, drawHand, drawSeats, drawStatus, tickClocks } from "./board.js";
import { drawEnd } from "./end.js";
import { narrate, tableMemory } from "./narrate.js";
import { gameLog } from "./log.js";
import { limitCounter } from "./limit.js";

export async function showTable(gameId, seat) {
  const spectator = seat === null;
  const log = gameLog(gameId, seat);
  const limit = limitCounter(gameId);
  const seen = tableMemory();
  const el = {
    conn: h("span", { class: "conn", id: "conn", "data-state": "connecting", role: "status" }, "Connecting…"),
    status: h("div", { class: "status", id: "status" }),
    warning: h("p", { class: "limit-warning", id: "limit-warning", role: "status" }),
    seats: h("ol", { class: "seats", id: "seats", "aria-label": "Seats" }),
    felt: h("section", { class: "felt", id: "felt", "aria-label": "Table" }),
    hand: h("section", { class: "hand", id: "hand", "aria-label": "Your hand", tabindex: "-1" }),
    choices: h("div", { class: "choices", id: "choices", "aria-label": "Your choices", role: "group" }),
    end: h("section", { class: "end", id: "end", "aria-label": "Result", hidden: true }),
    share: h("p", { class: "share" }),
  };
  const howTo = h("a", { href: "#/help", target: "_blank", id: "how-to-play" }, "How to play");
  const resign = h("button", { type: "button", class: "danger", id: "resign", onclick: () => confirmResign() }, "Resign");
  screen(
    spectator ? "Watching a game" : "Your game",
    // The choices come before the hand, as they are drawn: Tab reaches
    // the Play button first.
    (el.game = h("div", { class: "game" }, h("div", { class: "topline" }, el.status, el.conn, el.warning), el.seats, el.felt, el.end, spectator ? null : el.choices, spectator ? null : el.hand, log.el)),
    h("div", { class: "footer" }, el.share, howTo, spectator ? null : resign),
  );
  const origin = `${location.origin}${location.pathname}`;
  el.share.append("Watch link: ", h("a", { href: `#/watch/${gameId}` }, `${origin}#/watch/${gameId}`));

  let view = null;
  let picked = new Set();
  let pendingAt = null;
  let ended = false;
  let left = false;
  let moved = false;

  const draw = () => {
    const focused = document.activeElement?.dataset?.card || document.activeElement?.dataset?.move;
    drawStatus(el.status, view);
    const warning = limit.warning(view);
    if (el.warning.textContent !== (warning || "")) el.warning.textContent = warning || "";
    drawSeats(el.seats, view);
    drawFelt(el.felt, view);
    if (!spectator) {
      const pending = pendingAt !== null;
      drawHand(el.hand, view, picked, { pending, onPick: (next) => ((picked = next), draw()) });
      drawChoices(el.choices, view, picked, { pending, onMove: submit });
      resign.disabled = view.phase === "PHASE_OVER";
      const open = (view.seats || []).some((s) => !s.accountId);
      if (open && !el.share.querySelector(".invite")) el.share.prepend(h("span", { class: "invite" }, "Invite: ", h("a", { href: `#/join/${gameId}` }, `${origin}#/join/${gameId}`), " · "));
      if (!open) el.share.querySelector(".invite")?.remove();
    }
    // Keyboard focus stays on the same card or move; else, after a move,
    // it goes to the hand (the first card that can be played, or the hand
    // itself while none can), never back to the page's start.
    if (spectator) return;
    const active = document.activeElement;
    const same = focused && el.game.querySelector(`[data-card="${focused}"]:not(:disabled),[data-move="${focused}"]`);
    if (same) same.focus();
    else if (focused || active === el.hand || (moved && (!active || active === document.body))) {
      const next = el.hand.querySelector("button:not(:disabled)") || (view.legalActions?.length ? el.choices.querySelector("button") : null);
      (next || el.hand).focus({ preventScroll: true });
    }
  };

  const onView = (next) => {
    const lines = narrate(view, next, log.since, seen).map(({ text, event }) => ({
      text,
      // The event's identity rides along, so tests and tools can compare logs.
      data: event ? { "data-version": event.version, "data-kind": event.kind, "data-seat": event.seat, "data-cards": (event.cards || []).join(" ") } : null,
    }));
    log.add(lines, next.version);
    limit.see(view, next, next.history || []);
    if (pendingAt !== null && Number(next.version) > pendingAt) pendingAt = null;
    if (view && Number(next.version) !== Number(view.version)) picked = new Set();
    view = next;
    howTo.href = `#/help/${view.rules?.preset || "skitgubbe"}`;
    draw();
    if (view.phase === "PHASE_OVER" && !ended) {
      ended = true;
      drawEnd(el.end, view, gameId);
      el.end.querySelector("h2")?.focus();
    }
  };

  const query = spectator ? "spectator=true" : `seat=${seat}`;
  const stream = follow(`/v1/games/${gameId}/watch?${query}`, {
    onMessage: onView,
    done: (v) => v.phase === "PHASE_OVER",
    onStatus: (state) => {
      el.conn.dataset.state = state;
      el.conn.textContent = { connecting: "Connecting…", live: "Live", reconnecting: "Connection lost: reconnecting…", finished: "Finished" }[state];
    },
    onError: (error) => {
      el.conn.dataset.state = "failed";
      el.conn.textContent = "Not connected";
      notify(describe(error));
    },
  });
  const clocks = setInterval(() => tickClocks(el.seats), 250);

  // Sends a move; through an outage it is kept and sent again until the
  // server answers. The move id comes from the version it was chosen at,
  // so a resend of a move that did arrive is applied once
  // (docs/bot-guide.md).
  async function submit(action) {
    const at = Number(view.version);
    pendingAt = at;
    moved = true;
    draw();
    const body = { seat, moveId: `web-${seat}-${view.version}`, expectedVersion: view.version, action };
    for (let attempt = 0; !left; attempt++) {
      try {
        await post(`/v1/games/${gameId}/moves`, body);
        notify(null);
        return;
      } catch (error) {
        // Something else moved the game on meanwhile: the stream shows it.
        if (Number(view.version) > at || left) return;
        if (!retryable(error)) {
          if (pendingAt === at) pendingAt = null;
          notify(describe(error));
          draw();
          return;
        }
        notify(`${describe(error)} Your move is kept and sent again when the server answers.`);
        await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(attempt, RETRY_MS.length - 1)]));
      }
    }
  }

  function confirmResign() {
    const dialog = h(
      "dialog",
      { class: "confirm", "aria-labelledby": "resign-title" },
      h("h2", { id: "resign-title" }, "Resign this game?"),
      h("p", {}, "You become the skitgubbe and the game ends at once."),
      h(
        "p",
        { class: "buttons" },
        h("button", { type: "button", autofocus: true, onclick: () => dialog.close("no") }, "Keep playing"),
        h("button", { type: "button", class: "danger", id: "resign-yes", onclick: () => dialog.close("yes") }, "Resign"),
      ),
    );
    dialog.addEventListener("close", async () => {
      dialog.remove();
      if (dialog.returnValue !== "yes") return;
      try {
        await post(`/v1/games/${gameId}/resign`, { seat, moveId: freshId("resign") });
      } catch (error) {
        notify(describe(error));
      }
    });
    document.body.append(dialog);
    dialog.showModal();
  }

  return () => {
    left = true;
    stream.close();
    clearInterval(clocks);
  };
}

// The caller's seat in a game, from their list of games; null if none.
export async function mySeat(gameId, accountId) {
  const { games } = await get("/v1/games", { includeOver: true });
  const game = (games || []).find((g) => g.gameId === gameId);
  const seat = game?.seats?.find((s) => s.accountId === accountId);
  return seat ? seat.seat : null;
}
