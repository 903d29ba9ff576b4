// A game live: a player's seat or a spectator. WatchGame over SSE sends a
// view per new version (its history: the events since the previous view);
// the page narrates the change, draws the view, and sends a picked move
// with the version it was chosen at. A dropped stream resumes from the
// last version (stream.js).

import { get, post, freshId } from "./api.js";
import { describe } from "./errors.js";
import { h, screen, notify } from "./dom.js";
import { follow } from "./stream.js";
import { drawChoices, drawFelt, drawHand, drawSeats, drawStatus, tickClocks } from "./board.js";
import { drawEnd } from "./end.js";
import { narrate } from "./narrate.js";

const LOG_LINES = 5000;

export async function showTable(gameId, seat) {
  const spectator = seat === null;
  const el = {
    conn: h("span", { class: "conn", id: "conn", "data-state": "connecting", role: "status" }, "Connecting…"),
    status: h("div", { class: "status", id: "status" }),
    seats: h("ol", { class: "seats", id: "seats", "aria-label": "Seats" }),
    felt: h("section", { class: "felt", id: "felt", "aria-label": "Table" }),
    log: h("ol", { class: "log", id: "log", role: "log", "aria-label": "What happened" }),
    hand: h("section", { class: "hand", id: "hand", "aria-label": "Your hand" }),
    choices: h("div", { class: "choices", id: "choices", "aria-label": "Your choices", role: "group" }),
    end: h("section", { class: "end", id: "end", "aria-label": "Result", hidden: true }),
    share: h("p", { class: "share" }),
  };
  const resign = h("button", { type: "button", class: "danger", id: "resign", onclick: () => confirmResign() }, "Resign");
  screen(
    spectator ? "Watching a game" : "Your game",
    h("div", { class: "game" }, h("div", { class: "topline" }, el.status, el.conn), el.seats, el.felt, el.end, spectator ? null : el.hand, spectator ? null : el.choices, el.log),
    h("div", { class: "footer" }, el.share, spectator ? null : resign),
  );
  const origin = `${location.origin}${location.pathname}`;
  el.share.append("Watch link: ", h("a", { href: `#/watch/${gameId}` }, `${origin}#/watch/${gameId}`));

  let view = null;
  let picked = new Set();
  let pendingAt = null;
  let ended = false;

  const draw = () => {
    const focused = document.activeElement?.dataset?.card || document.activeElement?.dataset?.move;
    drawStatus(el.status, view);
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
    // Keyboard focus stays on the same card or move, or the nearest one
    // still offered, instead of falling back to the page's start.
    if (focused) {
      const game = el.hand.parentElement;
      const same = game.querySelector(`[data-card="${focused}"]:not(:disabled),[data-move="${focused}"]`);
      (same || game.querySelector("#choices button, #hand button:not(:disabled)") || el.hand.querySelector("button"))?.focus();
    }
  };

  const onView = (next) => {
    const lines = narrate(view, next, next.history || []);
    for (const { text, event } of lines) {
      // The event's identity rides along, so tests and tools can compare logs.
      const data = event ? { "data-version": event.version, "data-kind": event.kind, "data-seat": event.seat, "data-cards": (event.cards || []).join(" ") } : {};
      el.log.append(h("li", data, text));
    }
    while (el.log.children.length > LOG_LINES) el.log.firstElementChild.remove();
    el.log.scrollTop = el.log.scrollHeight;
    if (pendingAt !== null && Number(next.version) > pendingAt) pendingAt = null;
    if (view && Number(next.version) !== Number(view.version)) picked = new Set();
    view = next;
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

  async function submit(action) {
    const at = Number(view.version);
    pendingAt = at;
    draw();
    try {
      await post(`/v1/games/${gameId}/moves`, { seat, moveId: `web-${seat}-${view.version}`, expectedVersion: view.version, action });
      notify(null);
    } catch (error) {
      if (pendingAt === at) pendingAt = null;
      notify(describe(error));
      draw();
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
