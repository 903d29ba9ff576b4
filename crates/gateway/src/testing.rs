//! A REST client for tests (feature `testing`): the calls a web app makes,
//! answered as (status, JSON body). Panics on transport failures, which a
//! test cannot go on from.

use reqwest::header::HeaderMap;
use serde_json::Value;

/// Requests to one server's REST routes.
#[derive(Debug, Clone)]
pub struct Http {
    client: reqwest::Client,
    base: String,
}

impl Http {
    /// A client for the server at `base` (`http://127.0.0.1:port`).
    pub fn new(base: impl Into<String>) -> Self {
        Self {
            client: reqwest::Client::new(),
            base: base.into(),
        }
    }

    /// `method` (`GET` or `POST`) on `path`, with a bearer `token` and a
    /// JSON `body` if given; the body answered as JSON, or as a JSON string
    /// if it is not JSON.
    pub async fn call(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, Value) {
        let (status, text) = self.text(method, path, token, body).await;
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, body)
    }

    /// As [`Http::call`], with the response's headers too.
    pub async fn call_with_headers(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, HeaderMap, Value) {
        let response = self.send(method, path, token, body).await;
        let status = response.status().as_u16();
        let headers = response.headers().clone();
        let text = response.text().await.expect("body");
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, headers, body)
    }

    /// As [`Http::call`], with the body as text (an event stream, metrics).
    pub async fn text(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> (u16, String) {
        let response = self.send(method, path, token, body).await;
        let status = response.status().as_u16();
        (status, response.text().await.expect("body"))
    }

    async fn send(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> reqwest::Response {
        let url = format!("{}{path}", self.base);
        let mut request = match method {
            "POST" => self.client.post(url),
            "GET" => self.client.get(url),
            other => panic!("the REST routes are GET or POST, not {other}"),
        };
        if let Some(token) = token {
            request = request.bearer_auth(token);
        }
        if let Some(body) = body {
            request = request.json(&body);
        }
        request.send().await.expect("request")
    }
}

/// The `data:` messages of a finished Server-Sent Events body, as JSON.
pub fn sse_messages(body: &str) -> Vec<Value> {
    body.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(|data| serde_json::from_str(data.trim()).expect("JSON data"))
        .collect()
}
