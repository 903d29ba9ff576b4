// The public API over fetch, as any app calls it: REST/JSON with the
// bearer token, errors as ApiError (the error core's stable `reason`),
// the session kept in localStorage, an expired access token refreshed
// once with the refresh token (docs/accounts.md), and `/config.json`,
// which says where the matchmaker and the league service are.

import { language } from "./i18n.js";

const KEY = "skitgubbe.session";

export class ApiError extends Error {
  constructor(body, status = 0) {
    super(body.message || body.reason || body.code || "error");
    this.status = status;
    this.code = body.code || "UNKNOWN";
    this.reason = body.reason || "";
    this.fieldViolations = body.fieldViolations || [];
    this.metadata = body.metadata || {};
    this.retryDelay = body.retryDelay;
  }
}

export const networkError = () => new ApiError({ code: "UNAVAILABLE", reason: "network", message: "the server cannot be reached" });

// The signed-in account: {token, refreshToken?, accountId, name, kind}.
export const session = {
  get() {
    try {
      return JSON.parse(localStorage.getItem(KEY)) || null;
    } catch {
      return null;
    }
  },
  set(value) {
    localStorage.setItem(KEY, JSON.stringify(value));
    window.dispatchEvent(new Event("skit-session"));
  },
  clear() {
    localStorage.removeItem(KEY);
    window.dispatchEvent(new Event("skit-session"));
  },
};

let config;
// Where the matchmaker is; null when this server names none.
export async function matchmakerUrl() {
  if (config === undefined) {
    try {
      config = await (await fetch("/config.json")).json();
    } catch {
      config = {};
    }
  }
  return config.matchmakerUrl || null;
}

// Where the league service is; null when this server names none.
export async function leaguesUrl() {
  await matchmakerUrl();
  return config.leaguesUrl || null;
}

// The error body of a failed answer, whatever the answer holds.
export async function errorOf(response) {
  let body = {};
  try {
    body = await response.json();
  } catch {
    body = { code: response.status >= 500 ? "UNAVAILABLE" : "UNKNOWN", message: `HTTP ${response.status}` };
  }
  return new ApiError(body, response.status);
}

export function authHeaders(extra = {}) {
  const token = session.get()?.token;
  return token ? { ...extra, authorization: `Bearer ${token}` } : extra;
}

// Exchanges the refresh token for a new session; false if there is none
// or it is refused (the person signs in again).
let refreshing = null;
export async function refresh() {
  const current = session.get();
  if (!current?.refreshToken) return false;
  refreshing ??= (async () => {
    const response = await fetch("/v1/accounts/refresh", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ refreshToken: current.refreshToken }),
    });
    if (!response.ok) return false;
    const fresh = await response.json();
    session.set({ ...current, token: fresh.accessToken, refreshToken: fresh.refreshToken });
    return true;
  })().finally(() => (refreshing = null));
  return refreshing;
}

// One call: `GET` with `query` (an object) or `POST` with `body`; answers
// the parsed JSON or throws ApiError. `base` is another service's URL (the
// matchmaker's); without it the call goes to this page's origin.
export async function call(method, path, { body, query, base = "", auth = true, signal } = {}) {
  const url = new URL(base + path, location.href);
  for (const [key, value] of Object.entries(query || {})) {
    if (value !== undefined && value !== null) url.searchParams.set(key, typeof value === "object" ? JSON.stringify(value) : String(value));
  }
  const send = () =>
    fetch(url, {
      method,
      signal,
      // The page's language, so errors come in it (a choice made on the
      // account wins on the server).
      headers: { ...(auth ? authHeaders() : {}), ...(body ? { "content-type": "application/json" } : {}), "accept-language": language() },
      body: body ? JSON.stringify(body) : undefined,
    });
  let response;
  try {
    response = await send();
    if (response.status === 401 && auth && (await refreshable(response.clone())) && (await refresh())) response = await send();
  } catch (error) {
    if (error.name === "AbortError") throw error;
    throw networkError();
  }
  if (!response.ok) throw await errorOf(response);
  return response.json();
}

async function refreshable(response) {
  const error = await errorOf(response);
  return error.reason === "token_expired";
}

export const get = (path, query, options = {}) => call("GET", path, { ...options, query });
export const post = (path, body = {}, options = {}) => call("POST", path, { ...options, body });

// A fresh id for requestId and moveId, so a resent request is applied once.
export function freshId(prefix) {
  return `${prefix}-${crypto.getRandomValues(new Uint32Array(2)).join("")}`;
}
