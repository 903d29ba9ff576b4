// The service worker: it keeps the app shell (the page, its script, styles
// and icons) and an offline page in the browser's cache, so the app can be
// installed and opened without a connection. Every request still goes to
// the network first, so a page never runs stale scripts after an upgrade;
// the cache answers only when the network cannot: a page with the offline
// page, a file with its last copy. The API and /config.json are never
// cached or answered here.

const CACHE = "skitgubbe-shell-v2";
const SHELL = [
  "/",
  "/offline.html",
  "/manifest.webmanifest",
  "/style.css",
  "/icon.svg",
  "/icons/icon-192.png",
  "/icons/icon-512.png",
  "/icons/maskable-192.png",
  "/icons/maskable-512.png",
  "/js/api.js",
  "/js/board.js",
  "/js/cards.js",
  "/js/dom.js",
  "/js/end.js",
  "/js/errors.js",
  "/js/fairness.js",
  "/js/help.js",
  "/js/leaderboard.js",
  "/js/limit.js",
  "/js/lobby.js",
  "/js/log.js",
  "/js/main.js",
  "/js/moves.js",
  "/js/narrate.js",
  "/js/presets.js",
  "/js/replay.js",
  "/js/stream.js",
  "/js/table.js",
  "/js/tournaments.js",
  "/js/i18n.js",
  "/i18n/en.json",
  "/i18n/sv.json",
  "/i18n/fi.json",
  "/i18n/nb.json",
];

self.addEventListener("install", (event) => {
  event.waitUntil(
    caches
      .open(CACHE)
      .then((cache) => cache.addAll(SHELL))
      .then(() => self.skipWaiting()),
  );
});

self.addEventListener("activate", (event) => {
  event.waitUntil(
    caches
      .keys()
      .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
      .then(() => self.clients.claim()),
  );
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  const url = new URL(request.url);
  if (request.method !== "GET" || url.origin !== self.location.origin) return;
  if (url.pathname.startsWith("/v1/") || url.pathname === "/config.json") return;
  event.respondWith(
    fetch(request)
      .then((response) => {
        if (response.ok && SHELL.includes(url.pathname)) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(request, copy));
        }
        return response;
      })
      .catch(async () => {
        if (request.mode === "navigate") return (await caches.match("/offline.html")) || Response.error();
        return (await caches.match(request)) || Response.error();
      }),
  );
});
