// Server-Sent Events read with fetch, because EventSource cannot send the
// bearer header. Each `data:` line is one JSON message; the last `id`
// (a game's version) is remembered and sent back as `Last-Event-ID` when
// the connection drops, so the stream resumes where it stopped, without a
// reload. An `event: error` carries the usual error body.

import { ApiError, authHeaders, errorOf, networkError, refresh } from "./api.js";

export const RETRY_MS = [250, 500, 1000, 2000];

// Errors worth waiting out: an outage or a limit, not a refusal.
export function retryable(error) {
  return ["UNAVAILABLE", "RESOURCE_EXHAUSTED", "DEADLINE_EXCEEDED", "INTERNAL", "UNKNOWN"].includes(error.code);
}

// Follows `url` until `done(message)` says the stream has nothing more
// (the game is over, the ticket matched) or close() is called.
// onMessage(message), onStatus("connecting" | "live" | "reconnecting" |
// "finished"),
// onError(ApiError) for a refusal that retrying cannot cure.
export function follow(url, { onMessage, onStatus = () => {}, onError = () => {}, done = () => false, lastId = null }) {
  const control = new AbortController();
  let closed = false;
  let failures = 0;

  async function connect() {
    const headers = authHeaders({ accept: "text/event-stream" });
    if (lastId !== null) headers["last-event-id"] = lastId;
    const response = await fetch(url, { headers, signal: control.signal });
    if (!response.ok) {
      const error = await errorOf(response);
      if (error.reason === "token_expired" && (await refresh())) return "again";
      throw error;
    }
    onStatus("live");
    failures = 0;
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = "";
    for (;;) {
      const { value, done: ended } = await reader.read();
      if (ended) return "ended";
      buffer += value.replaceAll("\r\n", "\n");
      let cut;
      while ((cut = buffer.indexOf("\n\n")) >= 0) {
        const block = buffer.slice(0, cut);
        buffer = buffer.slice(cut + 2);
        const event = parse(block);
        if (event.data === null) continue;
        if (event.event === "error") throw new ApiError(JSON.parse(event.data));
        if (event.id !== null) lastId = event.id;
        const message = JSON.parse(event.data);
        onMessage(message);
        if (done(message)) return "finished";
      }
    }
  }

  (async () => {
    onStatus("connecting");
    while (!closed) {
      let error = null;
      try {
        const outcome = await connect();
        if (outcome === "finished") return onStatus("finished");
      } catch (caught) {
        if (closed || caught.name === "AbortError") return;
        error = caught instanceof ApiError ? caught : networkError();
        if (!retryable(error)) {
          onError(error);
          return;
        }
      }
      if (closed) return;
      // The server ended the stream or the connection dropped: resume.
      onStatus("reconnecting", error);
      await new Promise((r) => setTimeout(r, RETRY_MS[Math.min(failures, RETRY_MS.length - 1)]));
      failures += 1;
    }
  })();

  return {
    close() {
      closed = true;
      control.abort();
    },
  };
}

// One event block: its `event`, `id` and the `data` lines joined.
function parse(block) {
  const event = { event: "message", id: null, data: null };
  for (const line of block.split("\n")) {
    if (!line || line.startsWith(":")) continue;
    const colon = line.indexOf(":");
    const field = colon < 0 ? line : line.slice(0, colon);
    const value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
    if (field === "data") event.data = event.data === null ? value : `${event.data}\n${value}`;
    else if (field === "id") event.id = value;
    else if (field === "event") event.event = value;
  }
  return event;
}
