//! The app installs: Lighthouse's installability audit passes in Chromium,
//! and with the server out of reach the service worker shows the offline
//! page.

use std::process::Stdio;

use serde_json::Value;

use super::a11y::npm_file;
use super::driver::Page;
use super::proxy::Proxy;

/// Lighthouse (`installable-manifest`: a manifest with a name, a start
/// URL, a standalone display and icons of 192 and 512 pixels, and a
/// service worker) on the page at `site`, in its own headless Chromium.
pub async fn lighthouse_finds_it_installable(site: &str, chrome: &std::path::Path) {
    let cli = npm_file("lighthouse/cli/index.js");
    let output = tokio::process::Command::new("node")
        .arg(cli)
        .arg(site)
        .args([
            "--only-audits=installable-manifest",
            "--output=json",
            "--output-path=stdout",
            "--quiet",
            "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage",
        ])
        .env("CHROME_PATH", chrome)
        .stdin(Stdio::null())
        .output()
        .await
        .expect("node runs Lighthouse");
    let report: Value = serde_json::from_slice(&output.stdout).unwrap_or_else(|e| {
        panic!(
            "Lighthouse wrote no report ({e}): {}",
            String::from_utf8_lossy(&output.stderr)
        )
    });
    let audit = &report["audits"]["installable-manifest"];
    assert_eq!(audit["score"], Value::from(1), "not installable: {audit}");
}

/// The server cut off: opening the app shows the offline page, from the
/// service worker's cache; back again, the app.
pub async fn offline_the_app_says_so(page: &Page, site: &str, proxy: &Proxy) {
    page.until(
        "the service worker in control",
        "navigator.serviceWorker.controller !== null",
    )
    .await;
    proxy.cut();
    page.open(site).await;
    let heading = page.text("h1#offline").await;
    assert_eq!(heading, "You are offline");
    proxy.reopen();
    page.open(site).await;
    page.find("#main h1").await;
    assert!(
        page.eval("return document.getElementById('offline') === null")
            .await
            .as_bool()
            .unwrap_or(false),
        "still the offline page"
    );
}
