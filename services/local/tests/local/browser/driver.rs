//! Chromium under chromedriver, headless: one WebDriver session per
//! browser window the test drives. Missing, the test fails and says how
//! to install them; it never passes without a browser.

use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use fantoccini::{
    Client, ClientBuilder, Locator, elements::Element, wd::WebDriverCompatibleCommand,
};
use hyper_util::client::legacy::connect::HttpConnector;
use serde_json::json;
use tokio::process::{Child, Command};

const INSTALL: &str = "the web client's browser test needs Chromium and chromedriver: \
     `apt-get install chromium chromium-driver` (Debian; .ci/run installs them), \
     or set CHROME and CHROMEDRIVER to their paths";

/// Patience for the page: generous, so only a hang fails a test.
pub const PATIENCE: Duration = Duration::from_secs(30);

fn on_path(names: &[&str]) -> Option<PathBuf> {
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .flat_map(|dir| names.iter().map(move |name| dir.join(name)))
        .find(|candidate| candidate.is_file())
}

fn program(variable: &str, names: &[&str]) -> PathBuf {
    std::env::var_os(variable)
        .map(PathBuf::from)
        .or_else(|| on_path(names))
        .unwrap_or_else(|| panic!("{INSTALL} ({} not found)", names[0]))
}

/// A running chromedriver; stopped when dropped.
pub struct Driver {
    url: String,
    pub chrome: PathBuf,
    _process: Child,
}

impl Driver {
    pub async fn start() -> Driver {
        let chrome = program("CHROME", &["chromium", "chromium-browser", "google-chrome"]);
        let chromedriver = program("CHROMEDRIVER", &["chromedriver"]);
        let port = TcpListener::bind("127.0.0.1:0")
            .and_then(|l| l.local_addr())
            .expect("a free port")
            .port();
        let process = Command::new(&chromedriver)
            .arg(format!("--port={port}"))
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .kill_on_drop(true)
            .spawn()
            .unwrap_or_else(|e| panic!("{INSTALL}: cannot run {}: {e}", chromedriver.display()));
        for _ in 0..100 {
            if tokio::net::TcpStream::connect(("127.0.0.1", port))
                .await
                .is_ok()
            {
                return Driver {
                    url: format!("http://127.0.0.1:{port}"),
                    chrome,
                    _process: process,
                };
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
        panic!("chromedriver did not start listening on port {port}");
    }

    /// A new headless window whose viewport is `size` CSS pixels.
    pub async fn window(&self, size: (u32, u32)) -> Page {
        self.window_in(size, "en-US").await
    }

    /// A new headless window whose browser speaks `language` (a BCP 47
    /// tag: its `navigator.languages` and `Accept-Language`).
    pub async fn window_in(&self, size: (u32, u32), language: &str) -> Page {
        let mut capabilities = serde_json::Map::new();
        capabilities.insert(
            "goog:chromeOptions".into(),
            json!({
                "binary": self.chrome,
                "args": [
                    "--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                    "--no-first-run", "--disable-extensions",
                    "--window-size=1280,900",
                    format!("--lang={language}"),
                ],
                "prefs": { "intl.accept_languages": language },
            }),
        );
        let client = ClientBuilder::new(HttpConnector::new())
            .capabilities(capabilities)
            .connect(&self.url)
            .await
            .unwrap_or_else(|e| panic!("{INSTALL}: chromedriver could not start Chromium: {e}"));
        let page = Page { client };
        page.resize(size).await;
        page
    }
}

/// A Chrome DevTools command through chromedriver: the viewport set
/// exactly, where a window cannot be made narrower than 500 pixels.
#[derive(Debug)]
struct Cdp(serde_json::Value);

impl WebDriverCompatibleCommand for Cdp {
    fn endpoint(
        &self,
        base: &url::Url,
        session: Option<&str>,
    ) -> Result<url::Url, url::ParseError> {
        base.join(&format!(
            "session/{}/goog/cdp/execute",
            session.unwrap_or_default()
        ))
    }

    fn method_and_body(&self, _: &url::Url) -> (http::Method, Option<String>) {
        (http::Method::POST, Some(self.0.to_string()))
    }
}

/// One browser window and what the test does in it.
pub struct Page {
    pub client: Client,
}

impl Page {
    pub async fn open(&self, url: &str) {
        self.client.goto(url).await.expect("the page opens");
    }

    /// The element once it is there.
    pub async fn find(&self, css: &str) -> Element {
        match self
            .client
            .wait()
            .at_most(PATIENCE)
            .for_element(Locator::Css(css))
            .await
        {
            Ok(element) => element,
            Err(e) => {
                let shows = self
                    .client
                    .execute(
                        "return [location.hash, document.getElementById('notice')?.textContent,                          document.getElementById('main')?.innerText.slice(0, 800)]",
                        vec![],
                    )
                    .await;
                panic!("{css} did not appear: {e}; the page shows {shows:?}")
            }
        }
    }

    pub async fn click(&self, css: &str) {
        self.find(css)
            .await
            .click()
            .await
            .unwrap_or_else(|e| panic!("cannot click {css}: {e}"));
    }

    pub async fn type_into(&self, css: &str, text: &str) {
        self.find(css).await.send_keys(text).await.expect("typing");
    }

    /// The value of a script run in the page.
    pub async fn eval(&self, script: &str) -> serde_json::Value {
        self.client
            .execute(script, vec![])
            .await
            .unwrap_or_else(|e| panic!("{script}: {e}"))
    }

    /// Waits until `script` (an expression) is true in the page.
    pub async fn until(&self, what: &str, script: &str) {
        let check = format!("return Boolean({script});");
        let deadline = tokio::time::Instant::now() + PATIENCE;
        while self.eval(&check).await != json!(true) {
            assert!(
                tokio::time::Instant::now() < deadline,
                "waited too long for {what}"
            );
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    }

    pub async fn text(&self, css: &str) -> String {
        self.find(css).await.text().await.expect("text")
    }

    /// Saves a screenshot as `dir/name.png`.
    pub async fn screenshot(&self, dir: &Path, name: &str) {
        let png = self.client.screenshot().await.expect("a screenshot");
        std::fs::write(dir.join(format!("{name}.png")), png).expect("the screenshot is saved");
    }

    /// The viewport as a phone's or a desktop's, one CSS pixel a pixel.
    pub async fn resize(&self, (width, height): (u32, u32)) {
        let command = json!({
            "cmd": "Emulation.setDeviceMetricsOverride",
            "params": { "width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600 },
        });
        self.client
            .issue_cmd(Cdp(command))
            .await
            .expect("the viewport is set");
    }

    /// A DevTools command's answer (chromedriver's session runs it).
    pub async fn cdp(&self, method: &str, params: serde_json::Value) -> serde_json::Value {
        self.client
            .issue_cmd(Cdp(json!({ "cmd": method, "params": params })))
            .await
            .unwrap_or_else(|e| panic!("{method}: {e}"))
    }

    /// Requests to URLs that match `patterns` (`*` any text) fail as if
    /// the network were down; none: every request goes through again.
    pub async fn block(&self, patterns: &[&str]) {
        self.cdp("Network.enable", json!({})).await;
        self.cdp("Network.setBlockedURLs", json!({ "urls": patterns }))
            .await;
    }

    pub async fn close(self) {
        let _ = self.client.close().await;
    }
}
