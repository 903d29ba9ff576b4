//! axe-core, injected into the page as it stands: no serious or critical
//! violation, in the light and in the dark colour scheme.

use serde_json::json;

use super::driver::Page;

/// The npm packages the browser test injects or runs (`npm ci` there).
pub const NPM: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/local/browser/npm");

const INSTALL: &str = "the web client's browser test needs axe-core and Lighthouse: \
     `npm ci --prefix services/local/tests/local/browser/npm` (.ci/run does)";

pub fn npm_file(path: &str) -> String {
    let full = format!("{NPM}/node_modules/{path}");
    assert!(
        std::path::Path::new(&full).is_file(),
        "{INSTALL} ({full} is missing)"
    );
    full
}

const RUN: &str = "return axe.run(document, { resultTypes: ['violations'] }).then(r => r.violations\
    .filter(v => v.impact === 'serious' || v.impact === 'critical')\
    .map(v => `${v.id} (${v.impact}): ${v.help}: ${v.nodes.slice(0, 4)\
        .map(n => n.target.join(' ') + ' ' + (n.failureSummary || '').replaceAll('\\n', ' ')).join(' | ')}`))";

/// Asserts that `screen` as the page shows it now has no serious or
/// critical violation in either colour scheme.
pub async fn no_serious_violations(page: &Page, screen: &str) {
    if page.eval("return typeof window.axe === 'undefined'").await == json!(true) {
        let source = std::fs::read_to_string(npm_file("axe-core/axe.min.js"))
            .unwrap_or_else(|e| panic!("{INSTALL}: {e}"));
        page.eval(&source).await;
    }
    for scheme in ["light", "dark"] {
        page.cdp(
            "Emulation.setEmulatedMedia",
            json!({ "features": [{ "name": "prefers-color-scheme", "value": scheme }] }),
        )
        .await;
        let found = page.eval(RUN).await;
        assert_eq!(found, json!([]), "{screen}, {scheme} colour scheme");
    }
    page.cdp("Emulation.setEmulatedMedia", json!({ "features": [] }))
        .await;
}
