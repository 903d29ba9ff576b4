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

    /// `method` on `path` with the body `text` as given, sent with the
    /// `content_type` if any (to try bodies that are not JSON, or not
    /// labelled as JSON); the answer as [`Http::call`] gives it.
    pub async fn raw(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        content_type: Option<&str>,
        text: &str,
    ) -> (u16, Value) {
        let mut request = self.request(method, path, token);
        if let Some(content_type) = content_type {
            request = request.header("content-type", content_type);
        }
        let response = request.body(text.to_owned()).send().await.expect("request");
        let status = response.status().as_u16();
        let text = response.text().await.expect("body");
        let body = serde_json::from_str(&text).unwrap_or(Value::String(text));
        (status, body)
    }

    async fn send(
        &self,
        method: &str,
        path: &str,
        token: Option<&str>,
        body: Option<Value>,
    ) -> reqwest::Response {
        let mut request = self.request(method, path, token);
        if let Some(body) = body {
            request = request.json(&body);
        }
        request.send().await.expect("request")
    }

    fn request(&self, method: &str, path: &str, token: Option<&str>) -> reqwest::RequestBuilder {
        let url = format!("{}{path}", self.base);
        let request = match method {
            "POST" => self.client.post(url),
            "GET" => self.client.get(url),
            other => panic!("the REST routes are GET or POST, not {other}"),
        };
        match token {
            Some(token) => request.bearer_auth(token),
            None => request,
        }
    }
}

/// The `data:` messages of a finished Server-Sent Events body, as JSON.
pub fn sse_messages(body: &str) -> Vec<Value> {
    body.lines()
        .filter_map(|line| line.strip_prefix("data:"))
        .map(|data| serde_json::from_str(data.trim()).expect("JSON data"))
        .collect()
}
