//! The client's files, built into the binary: each one's path under `/`
//! and its bytes. A file in `app/` missing here fails this crate's tests,
//! so none is forgotten.

/// One file of the client.
#[derive(Debug)]
pub struct Asset {
    /// Where it is served, e.g. `/js/api.js`.
    pub path: &'static str,
    pub body: &'static [u8],
}

impl Asset {
    /// By the file's extension; the client ships no other kinds.
    pub fn content_type(&self) -> &'static str {
        match self.path.rsplit_once('.').map(|(_, ext)| ext) {
            Some("html") => "text/html; charset=utf-8",
            Some("css") => "text/css; charset=utf-8",
            Some("js") => "text/javascript; charset=utf-8",
            Some("svg") => "image/svg+xml",
            Some("png") => "image/png",
            Some("webmanifest") => "application/manifest+json",
            Some("json") => "application/json",
            _ => "application/octet-stream",
        }
    }
}

macro_rules! asset {
    ($path:literal) => {
        Asset {
            path: concat!("/", $path),
            body: include_bytes!(concat!("../app/", $path)),
        }
    };
}

/// The page itself, served at `/`.
pub const INDEX: Asset = asset!("index.html");

/// Everything the page loads.
pub const ASSETS: &[Asset] = &[
    asset!("style.css"),
    asset!("icon.svg"),
    asset!("manifest.webmanifest"),
    asset!("sw.js"),
    asset!("offline.html"),
    asset!("icons/icon-192.png"),
    asset!("icons/icon-512.png"),
    asset!("icons/maskable-192.png"),
    asset!("icons/maskable-512.png"),
    asset!("js/api.js"),
    asset!("js/stream.js"),
    asset!("js/errors.js"),
    asset!("js/cards.js"),
    asset!("js/dom.js"),
    asset!("js/main.js"),
    asset!("js/lobby.js"),
    asset!("js/table.js"),
    asset!("js/board.js"),
    asset!("js/end.js"),
    asset!("js/presets.js"),
    asset!("js/moves.js"),
    asset!("js/narrate.js"),
    asset!("js/log.js"),
    asset!("js/limit.js"),
    asset!("js/help.js"),
    asset!("js/replay.js"),
    asset!("js/fairness.js"),
    asset!("js/leaderboard.js"),
    asset!("js/tournaments.js"),
    asset!("js/i18n.js"),
    asset!("i18n/en.json"),
    asset!("i18n/sv.json"),
    asset!("i18n/fi.json"),
    asset!("i18n/nb.json"),
];
