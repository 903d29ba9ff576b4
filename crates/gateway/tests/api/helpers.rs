//! Spawning the gateway on a real port and talking to it as a client would.

use std::{net::SocketAddr, sync::Arc};

use axum::Router;
use http_body_util::{BodyExt, Full};
use hyper::{Method, Request, StatusCode, body::Bytes, header::HeaderMap};
use hyper_util::{client::legacy::Client, rt::TokioExecutor};
use serde_json::Value;
use skit_gateway::{CorsOrigins, Limits, LimitsConfig, RestConfig};

use crate::fake::{Fake, TOKEN};

pub struct TestApp {
    pub addr: SocketAddr,
    pub fake: Arc<Fake>,
}

pub struct Answer {
    pub status: StatusCode,
    pub headers: HeaderMap,
    pub text: String,
}

impl Answer {
    pub fn json(&self) -> Value {
        serde_json::from_str(&self.text).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.text))
    }
}

/// The REST router over a fresh fake on a fresh port.
pub async fn spawn_app() -> TestApp {
    spawn_with(&RestConfig::default(), false).await
}

/// REST (and with `combined`, gRPC and gRPC-Web) on one fresh port; no
/// other origin allowed.
pub async fn spawn_with(config: &RestConfig, combined: bool) -> TestApp {
    let origins = combined.then(CorsOrigins::none);
    spawn_inner(config, origins.as_ref()).await
}

/// REST, gRPC and gRPC-Web on one fresh port, answering browsers from the
/// comma-separated `origins`.
pub async fn spawn_for_browsers(origins: &str) -> TestApp {
    let origins = CorsOrigins::parse("TEST_ORIGINS", origins).unwrap();
    spawn_inner(&RestConfig::default(), Some(&origins)).await
}

async fn spawn_inner(config: &RestConfig, combined: Option<&CorsOrigins>) -> TestApp {
    let fake = Arc::new(Fake::default());
    let rest = skit_gateway::router_with(
        fake.clone(),
        fake.clone(),
        fake.clone(),
        fake.clone(),
        config,
    );
    let app: Router = match combined {
        Some(origins) => skit_gateway::combined(
            skit_gateway::grpc_routes(fake.clone(), fake.clone(), fake.clone(), fake.clone()),
            rest,
            origins,
        ),
        None => rest,
    };
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    tokio::spawn(skit_gateway::serve(listener, app, std::future::pending()));
    TestApp { addr, fake }
}

/// REST, gRPC and gRPC-Web on one fresh port behind `limits`, served with
/// its connection protections.
pub async fn spawn_limited(limits: &LimitsConfig) -> TestApp {
    let fake = Arc::new(Fake::default());
    let limits = Limits::new(limits, &[]).unwrap();
    let app = skit_gateway::combined_with_limits(
        skit_gateway::grpc_routes(fake.clone(), fake.clone(), fake.clone(), fake.clone()),
        skit_gateway::router(fake.clone(), fake.clone(), fake.clone(), fake.clone()),
        &CorsOrigins::none(),
        &limits,
    );
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let addr = listener.local_addr().unwrap();
    let connections = limits.connections().clone();
    tokio::spawn(async move {
        skit_gateway::serve_with(listener, app, &connections, std::future::pending()).await
    });
    TestApp { addr, fake }
}

impl TestApp {
    pub fn url(&self, path: &str) -> String {
        format!("http://{}{path}", self.addr)
    }

    /// A request with the good token.
    pub async fn call(&self, method: Method, path: &str, body: Option<&str>) -> Answer {
        let auth = skit_api::bearer_header(TOKEN).unwrap();
        let auth = auth.to_str().unwrap();
        self.send(method, path, body, &[("authorization", auth)])
            .await
    }

    pub async fn send(
        &self,
        method: Method,
        path: &str,
        body: Option<&str>,
        headers: &[(&str, &str)],
    ) -> Answer {
        let mut request = Request::builder().method(method).uri(self.url(path));
        for (name, value) in headers {
            request = request.header(*name, *value);
        }
        if body.is_some() {
            request = request.header("content-type", "application/json");
        }
        let body = Full::new(Bytes::from(body.unwrap_or("").to_owned()));
        self.raw(request.body(body).unwrap()).await
    }

    pub async fn raw(&self, request: Request<Full<Bytes>>) -> Answer {
        let client = Client::builder(TokioExecutor::new()).build_http();
        let response = client.request(request).await.unwrap();
        let status = response.status();
        let headers = response.headers().clone();
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        Answer {
            status,
            headers,
            text: String::from_utf8_lossy(&bytes).into_owned(),
        }
    }
}
