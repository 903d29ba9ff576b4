//! Bearer JWTs from an operator's identity provider, on both databases: a
//! JWT signed with a key of the provider's JWKS (a file, or a URL read
//! again as the provider rotates keys) acts as the account of its subject,
//! created on first sight and named after its `preferred_username`; a JWT
//! that is expired, from another issuer, for another audience or signed
//! with another key is refused, saying which; a banned subject's JWTs are
//! refused.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use jsonwebtoken::jwk::{Jwk, JwkSet};
use jsonwebtoken::{Algorithm, EncodingKey, Header};
use rand::RngCore;
use serde_json::{Value, json};
use skit_proto::v1::{
    AccountKind, AccountStatus, CreateGameRequest, WhoAmIRequest, WhoAmIResponse,
};
use skit_testkit::{Expected, GameService, TestDb, authed, on_both_databases, spawn_game_with};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;
use tonic::{Code, Status};

on_both_databases!(
    a_jwt_acts_as_its_subjects_account,
    refused_jwts_say_why,
    keys_are_fetched_and_refreshed_from_a_url,
);

const ISSUER: &str = "https://id.example.test";
const AUDIENCE: &str = "skitgubbe";

/// An Ed25519 signing key and its public JWK under `kid`.
struct Key {
    encoding: EncodingKey,
    jwk: Jwk,
}

impl Key {
    fn new(kid: &str) -> Self {
        let mut seed = [0u8; 32];
        rand::rng().fill_bytes(&mut seed);
        // PKCS#8 of an Ed25519 seed (RFC 8410): a fixed header, the seed.
        let mut der = hex::decode("302e020100300506032b657004220420").expect("hex");
        der.extend_from_slice(&seed);
        let encoding = EncodingKey::from_ed_der(&der);
        let mut jwk = Jwk::from_encoding_key(&encoding, Algorithm::EdDSA).expect("jwk");
        jwk.common.key_id = Some(kid.into());
        Self { encoding, jwk }
    }

    fn sign(&self, claims: &Value) -> String {
        let mut header = Header::new(Algorithm::EdDSA);
        header.kid = self.jwk.common.key_id.clone();
        jsonwebtoken::encode(&header, claims, &self.encoding).expect("sign")
    }
}

fn jwks(keys: &[&Key]) -> String {
    let set = JwkSet {
        keys: keys.iter().map(|k| k.jwk.clone()).collect(),
    };
    serde_json::to_string(&set).expect("jwks")
}

fn now() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .expect("time")
        .as_secs()
}

/// A provider's claims for `sub`, valid for an hour.
fn claims(sub: &str, name: &str) -> Value {
    json!({
        "iss": ISSUER,
        "aud": AUDIENCE,
        "sub": sub,
        "exp": now() + 3600,
        "iat": now(),
        "preferred_username": name,
    })
}

async fn who(app: &GameService, token: &str) -> Result<WhoAmIResponse, Status> {
    app.accounts()
        .await
        .who_am_i(authed(WhoAmIRequest {}, token))
        .await
        .map(tonic::Response::into_inner)
}

/// The service trusting the JWKS in a file.
async fn with_key_file(db: &TestDb, keys: &[&Key]) -> (GameService, tempfile::TempDir) {
    let dir = tempfile::tempdir().expect("dir");
    let path = dir.path().join("jwks.json");
    std::fs::write(&path, jwks(keys)).expect("write jwks");
    let app = spawn_game_with(db, |c| {
        c.jwks_file = Some(path);
        c.jwt_issuer = Some(ISSUER.into());
        c.jwt_audience = Some(AUDIENCE.into());
    })
    .await;
    (app, dir)
}

async fn a_jwt_acts_as_its_subjects_account(db: &TestDb) {
    let key = Key::new("k1");
    let (app, _dir) = with_key_file(db, &[&key]).await;

    let first = who(&app, &key.sign(&claims("u-1", "ann")))
        .await
        .expect("jwt");
    let again = who(&app, &key.sign(&claims("u-1", "ann")))
        .await
        .expect("jwt");
    let namesake = who(&app, &key.sign(&claims("u-2", "Ann")))
        .await
        .expect("jwt");

    assert_eq!(first.kind(), AccountKind::Player);
    assert_eq!(first.name, "ann");
    assert_eq!(
        again.account_id, first.account_id,
        "one subject, one account"
    );
    assert_ne!(namesake.account_id, first.account_id);
    assert_eq!(namesake.name, "Ann-2", "names stay unique");
    // A JWT works wherever a token does: a rated game of its own.
    let mut req = CreateGameRequest {
        rated: true,
        players: 2,
        ..skit_testkit::skitgubbe_for(&[])
    };
    req.seats.clear();
    app.games()
        .await
        .create_game(authed(req, &key.sign(&claims("u-1", "ann"))))
        .await
        .expect("a game created with a JWT");
    // A banned subject's JWTs are refused, as every sign-in of its account.
    let mut admin = app.admin().await;
    crate::admin::set_status(
        &mut admin,
        &first.account_id,
        AccountStatus::Banned,
        "fraud",
    )
    .await
    .expect("ban");
    let banned = who(&app, &key.sign(&claims("u-1", "ann"))).await;
    Expected::new(Code::Unauthenticated, "account_disabled").grpc(&banned.expect_err("banned"));
    drop(admin);
    app.stop().await;
}

async fn refused_jwts_say_why(db: &TestDb) {
    let key = Key::new("k1");
    let (app, _dir) = with_key_file(db, &[&key]).await;
    let with = |change: &dyn Fn(&mut Value)| {
        let mut c = claims("u-9", "zed");
        change(&mut c);
        c
    };
    let impostor = Key::new("k1");
    let stranger = Key::new("k2");

    let cases = [
        (
            "jwt_expired",
            key.sign(&with(&|c| c["exp"] = json!(now() - 3600))),
        ),
        (
            "jwt_wrong_issuer",
            key.sign(&with(&|c| c["iss"] = json!("https://evil.test"))),
        ),
        (
            "jwt_wrong_audience",
            key.sign(&with(&|c| c["aud"] = json!("another-app"))),
        ),
        ("jwt_bad_signature", impostor.sign(&claims("u-9", "zed"))),
        ("jwt_unknown_key", stranger.sign(&claims("u-9", "zed"))),
        (
            "jwt_missing_claim",
            key.sign(&with(&|c| {
                c.as_object_mut().expect("object").remove("sub");
            })),
        ),
    ];
    for (reason, token) in &cases {
        let refused = who(&app, token).await.expect_err(reason);
        Expected::new(Code::Unauthenticated, reason).grpc(&refused);
    }
    // Over REST alike; and no refused JWT created an account.
    let (status, body) = app
        .http()
        .call("GET", "/v1/accounts/me", Some(&cases[0].1), None)
        .await;
    Expected::new(Code::Unauthenticated, "jwt_expired").rest(&(status, body));
    let fine = who(&app, &key.sign(&claims("u-9", "zed")))
        .await
        .expect("jwt");
    assert_eq!(fine.name, "zed", "the name was still free");
    app.stop().await;
}

/// Serves whatever `body` holds, as JSON, to every request.
async fn serve_jwks(body: Arc<Mutex<String>>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("addr");
    tokio::spawn(async move {
        while let Ok((mut socket, _)) = listener.accept().await {
            let body = body.lock().unwrap_or_else(PoisonError::into_inner).clone();
            tokio::spawn(async move {
                let mut request = [0u8; 4096];
                let _ = socket.read(&mut request).await;
                let answer = format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\n\
                     content-length: {}\r\nconnection: close\r\n\r\n{body}",
                    body.len()
                );
                let _ = socket.write_all(answer.as_bytes()).await;
            });
        }
    });
    format!("http://{addr}/.well-known/jwks.json")
}

async fn keys_are_fetched_and_refreshed_from_a_url(db: &TestDb) {
    let old = Key::new("2026-01");
    let new = Key::new("2026-02");
    let published = Arc::new(Mutex::new(jwks(&[&old])));
    let url = serve_jwks(published.clone()).await;
    let app = spawn_game_with(db, |c| {
        c.jwks_url = Some(url);
        c.jwks_refresh_ms = 50;
        c.jwt_issuer = Some(ISSUER.into());
        c.jwt_audience = Some(AUDIENCE.into());
    })
    .await;

    let before = who(&app, &new.sign(&claims("u-3", "cy"))).await;
    let by_old = who(&app, &old.sign(&claims("u-3", "cy")))
        .await
        .expect("jwt");
    // The provider rotates: the new key is published, the old one dropped.
    *published.lock().unwrap_or_else(PoisonError::into_inner) = jwks(&[&new]);
    let mut by_new = None;
    for _ in 0..100 {
        if let Ok(me) = who(&app, &new.sign(&claims("u-3", "cy"))).await {
            by_new = Some(me);
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }

    Expected::new(Code::Unauthenticated, "jwt_unknown_key").grpc(&before.expect_err("unknown"));
    let by_new = by_new.expect("the new key is taken up");
    assert_eq!(by_new.account_id, by_old.account_id);
    let dropped = who(&app, &old.sign(&claims("u-3", "cy"))).await;
    Expected::new(Code::Unauthenticated, "jwt_unknown_key").grpc(&dropped.expect_err("dropped"));
    app.stop().await;
}
