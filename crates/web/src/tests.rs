#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use axum::body::Body;
use axum::http::{Request, StatusCode, header};
use http_body_util::BodyExt;
use tower::ServiceExt;

use super::*;

fn app_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("app")
}

fn files_under(dir: &Path, root: &Path, found: &mut BTreeSet<String>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            files_under(&path, root, found);
        } else {
            let relative = path.strip_prefix(root).unwrap().to_str().unwrap();
            found.insert(format!("/{}", relative.replace('\\', "/")));
        }
    }
}

#[test]
fn every_file_of_the_client_is_built_in() {
    let mut on_disk = BTreeSet::new();
    files_under(&app_dir(), &app_dir(), &mut on_disk);

    let served: BTreeSet<String> = ASSETS
        .iter()
        .chain([&INDEX])
        .map(|a| a.path.to_owned())
        .collect();

    assert_eq!(on_disk, served, "app/ and assets.rs list different files");
}

/// `import ... from "./x.js"` and the page's `src`/`href`: each names a
/// served file, so a renamed module cannot break the page unnoticed.
#[test]
fn every_module_and_link_the_page_loads_is_served() {
    let served: BTreeSet<&str> = ASSETS.iter().map(|a| a.path).collect();
    let quoted = |text: &str, before: &str| -> Vec<String> {
        text.split(before)
            .skip(1)
            .filter_map(|rest| rest.split('"').next().map(str::to_owned))
            .collect()
    };
    let mut wanted = Vec::new();
    for asset in ASSETS.iter().filter(|a| a.path.ends_with(".js")) {
        let text = std::str::from_utf8(asset.body).unwrap();
        for module in quoted(text, " from \"./") {
            wanted.push((asset.path, format!("/js/{module}")));
        }
    }
    let index = std::str::from_utf8(INDEX.body).unwrap();
    for link in quoted(index, "src=\"")
        .into_iter()
        .chain(quoted(index, "href=\""))
    {
        if link.starts_with('/') {
            wanted.push((INDEX.path, link));
        }
    }
    assert!(wanted.len() > 20, "{wanted:?}");
    for (from, path) in wanted {
        assert!(
            served.contains(path.as_str()),
            "{from} loads {path}, which is not served"
        );
    }
}

async fn fetch(router: Router, path: &str, etag: Option<&str>) -> axum::response::Response {
    let mut request = Request::get(path);
    if let Some(tag) = etag {
        request = request.header(header::IF_NONE_MATCH, tag);
    }
    router
        .oneshot(request.body(Body::empty()).unwrap())
        .await
        .unwrap()
}

#[tokio::test]
async fn the_page_is_served_at_the_root_with_a_policy_that_allows_the_matchmaker_and_leagues() {
    let config = WebConfig {
        matchmaker_url: Some("http://127.0.0.1:50052".into()),
        leagues_url: Some("http://127.0.0.1:50053".into()),
    };

    let response = fetch(router(&config), "/", None).await;

    assert_eq!(response.status(), StatusCode::OK);
    let headers = response.headers().clone();
    assert_eq!(headers[header::CONTENT_TYPE], "text/html; charset=utf-8");
    assert_eq!(headers[header::CACHE_CONTROL], "no-cache");
    let policy = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
    assert!(
        policy.contains("connect-src 'self' http://127.0.0.1:50052 http://127.0.0.1:50053;"),
        "{policy}"
    );
    assert!(policy.contains("script-src 'self';"), "{policy}");
    let body = response.into_body().collect().await.unwrap().to_bytes();
    assert!(body.starts_with(b"<!doctype html>"));
}

#[tokio::test]
async fn scripts_have_their_type_and_an_unchanged_file_is_not_sent_again() {
    let page = router(&WebConfig::default());

    let first = fetch(page.clone(), "/js/main.js", None).await;
    let tag = first.headers()[header::ETAG].to_str().unwrap().to_owned();
    let again = fetch(page.clone(), "/js/main.js", Some(&tag)).await;
    let other = fetch(page, "/js/main.js", Some("\"something-else\"")).await;

    assert_eq!(first.status(), StatusCode::OK);
    assert_eq!(
        first.headers()[header::CONTENT_TYPE],
        "text/javascript; charset=utf-8"
    );
    assert_eq!(again.status(), StatusCode::NOT_MODIFIED);
    assert!(
        again
            .into_body()
            .collect()
            .await
            .unwrap()
            .to_bytes()
            .is_empty()
    );
    assert_eq!(other.status(), StatusCode::OK);
}

#[tokio::test]
async fn the_config_names_the_matchmaker_or_none() {
    let with = router(&WebConfig {
        matchmaker_url: Some("https://mm.cards.example".into()),
        leagues_url: Some("https://leagues.cards.example".into()),
    });
    let without = router(&WebConfig::default());

    let read = |r: axum::response::Response| async {
        let bytes = r.into_body().collect().await.unwrap().to_bytes();
        serde_json::from_slice::<serde_json::Value>(&bytes).unwrap()
    };
    let with = read(fetch(with, "/config.json", None).await).await;
    let without = read(fetch(without, "/config.json", None).await).await;

    assert_eq!(with["matchmakerUrl"], "https://mm.cards.example");
    assert_eq!(with["leaguesUrl"], "https://leagues.cards.example");
    assert!(without["matchmakerUrl"].is_null());
    assert!(without["leaguesUrl"].is_null());
}

#[test]
fn a_matchmaker_url_is_an_origin_a_page_can_call() {
    let parse = |url| WebConfig::parse("SKIT_WEB_MATCHMAKER_URL", Some(url));

    assert_eq!(
        parse("http://127.0.0.1:50052/")
            .unwrap()
            .matchmaker_url
            .as_deref(),
        Some("http://127.0.0.1:50052")
    );
    assert_eq!(WebConfig::parse("X", None).unwrap(), WebConfig::default());
    assert_eq!(parse("  ").unwrap(), WebConfig::default());
    for bad in [
        "127.0.0.1:50052",
        "ftp://mm.example",
        "https://mm.example/v1",
        "https://u@mm.example",
    ] {
        let error = parse(bad).expect_err(bad).to_string();
        assert!(error.starts_with("SKIT_WEB_MATCHMAKER_URL: "), "{error}");
    }
}

/// The service worker keeps every file of the app shell, so an installed
/// app opens offline; a file added to the client and not to `sw.js` fails
/// here.
#[test]
fn the_service_worker_keeps_every_file_of_the_shell() {
    let worker = ASSETS.iter().find(|a| a.path == "/sw.js").unwrap();
    let text = std::str::from_utf8(worker.body).unwrap();
    let shell: BTreeSet<&str> = text
        .split("const SHELL = [")
        .nth(1)
        .and_then(|rest| rest.split("];").next())
        .unwrap()
        .split('"')
        .skip(1)
        .step_by(2)
        .collect();

    let wanted: BTreeSet<&str> = ASSETS
        .iter()
        .map(|a| a.path)
        .filter(|p| *p != "/sw.js")
        .chain(["/"])
        .collect();

    assert_eq!(shell, wanted);
}

/// A worker obeys the policy its own script came with: the service
/// worker's lets it fetch the shell from the page's origin (with the API's
/// `default-src 'none'` its install failed and the app never installed).
#[tokio::test]
async fn the_service_worker_may_fetch_the_shell_from_its_origin() {
    let page = router(&WebConfig::default());

    let worker = fetch(page, "/sw.js", None).await;

    let policy = worker.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap();
    assert!(policy.contains("connect-src 'self'"), "{policy}");
}

#[tokio::test]
async fn the_manifest_and_its_icons_are_served_with_their_types() {
    let page = router(&WebConfig::default());

    let manifest = fetch(page.clone(), "/manifest.webmanifest", None).await;
    assert_eq!(
        manifest.headers()[header::CONTENT_TYPE],
        "application/manifest+json"
    );
    let body = manifest.into_body().collect().await.unwrap().to_bytes();
    let manifest: serde_json::Value = serde_json::from_slice(&body).unwrap();
    let icons = manifest["icons"].as_array().unwrap();
    for (size, purpose) in [
        ("192x192", "any"),
        ("512x512", "any"),
        ("192x192", "maskable"),
        ("512x512", "maskable"),
    ] {
        let icon = icons
            .iter()
            .find(|i| i["sizes"] == size && i["purpose"] == purpose)
            .unwrap_or_else(|| panic!("no {purpose} icon of {size}"));
        let src = icon["src"].as_str().unwrap();
        let png = fetch(page.clone(), src, None).await;
        assert_eq!(png.headers()[header::CONTENT_TYPE], "image/png", "{src}");
        let bytes = png.into_body().collect().await.unwrap().to_bytes();
        assert!(
            bytes.starts_with(b"\x89PNG\r\n\x1a\n"),
            "{src} is not a PNG"
        );
        let (width, height) = (
            u32::from_be_bytes(bytes[16..20].try_into().unwrap()),
            u32::from_be_bytes(bytes[20..24].try_into().unwrap()),
        );
        assert_eq!(format!("{width}x{height}"), size, "{src}");
    }
    let policy = fetch(page, "/", None).await.headers()[header::CONTENT_SECURITY_POLICY]
        .to_str()
        .unwrap()
        .to_owned();
    assert!(policy.contains("manifest-src 'self';"), "{policy}");
}

/// Every language's words: the same keys as English, none empty, and the
/// page's every `data-i18n` key among them.
#[test]
fn every_word_of_the_page_has_all_four_languages() {
    let catalogue = |tag: &str| -> serde_json::Map<String, serde_json::Value> {
        let path = format!("/i18n/{tag}.json");
        let asset = ASSETS.iter().find(|a| a.path == path).unwrap();
        serde_json::from_slice(asset.body).unwrap()
    };
    let english = catalogue("en");
    for tag in ["en", "sv", "fi", "nb"] {
        let words = catalogue(tag);
        let keys: BTreeSet<&String> = words.keys().collect();
        assert_eq!(keys, english.keys().collect(), "{tag}");
        for (key, word) in &words {
            assert!(
                word.as_str().is_some_and(|w| !w.trim().is_empty()),
                "{tag}: {key} is empty"
            );
            if tag != "en" {
                assert_ne!(word, &english[key], "{tag}: {key} is the English word");
            }
        }
    }
    let page = std::str::from_utf8(INDEX.body).unwrap();
    for key in page.split("data-i18n=\"").skip(1) {
        let key = key.split('"').next().unwrap();
        assert!(english.contains_key(key), "{key} is in no catalogue");
    }
}
