//! Registered names as people write them: full Unicode case folding
//! (`STRAẞE` is `Straße`), names with combining marks accepted once
//! composed, look-alike names (a Cyrillic `Ѕ`) refused; and names stored
//! under the earlier rule rekeyed at start, every one still signing in.

use skit_proto::v1::{LoginRequest, RegisterRequest, SignInResponse};
use skit_testkit::{Expected, GameService, TestDb, on_both_databases, spawn_game};
use tonic::Code;

on_both_databases!(
    names_fold_compose_and_refuse_look_alikes,
    names_stored_under_the_old_rule_still_sign_in,
);

const PASSWORD: &str = "correct horse battery";
const OTHER_PASSWORD: &str = "another horse entirely";

async fn register(app: &GameService, name: &str) -> Result<SignInResponse, tonic::Status> {
    register_with(app, name, PASSWORD).await
}

async fn register_with(
    app: &GameService,
    name: &str,
    password: &str,
) -> Result<SignInResponse, tonic::Status> {
    let req = RegisterRequest {
        name: name.into(),
        password: password.into(),
    };
    let mut accounts = app.accounts().await;
    accounts
        .register(req)
        .await
        .map(tonic::Response::into_inner)
}

async fn login(app: &GameService, name: &str) -> Result<SignInResponse, tonic::Status> {
    login_with(app, name, PASSWORD).await
}

async fn login_with(
    app: &GameService,
    name: &str,
    password: &str,
) -> Result<SignInResponse, tonic::Status> {
    let req = LoginRequest {
        name: name.into(),
        password: password.into(),
    };
    let mut accounts = app.accounts().await;
    accounts.login(req).await.map(tonic::Response::into_inner)
}

fn taken() -> Expected {
    Expected {
        field: Some("name"),
        ..Expected::new(Code::AlreadyExists, "name_taken")
    }
}

async fn names_fold_compose_and_refuse_look_alikes(db: &TestDb) {
    let app = spawn_game(db).await;
    let strasse = register(&app, "Straße").await.expect("register");

    for same in ["STRAẞE", "\u{0405}traße", "Ѕtrasse"] {
        taken().grpc(&register(&app, same).await.expect_err(same));
    }
    let zoe = register(&app, "Zoe\u{0308}")
        .await
        .expect("a combining mark");
    let mut accepted = Vec::new();
    for name in ["लक्ष्मी", "ณัฐพงษ์"] {
        accepted.push(register(&app, name).await.expect(name).name);
    }

    assert_eq!(zoe.name, "Zoë", "stored composed");
    assert_eq!(accepted, ["लक्ष्मी", "ณัฐพงษ์"]);
    taken().grpc(&register(&app, "ZOË").await.expect_err("Zoë again"));
    let by_capital = login(&app, "STRAẞE").await.expect("one name, any case");
    assert_eq!(by_capital.account_id, strasse.account_id);
    let decomposed = login(&app, "Zoe\u{0308}").await.expect("either form");
    assert_eq!(decomposed.account_id, zoe.account_id);
    app.stop().await;
}

/// Runs `sql` on `db` directly, as a database written by an earlier
/// version would hold it.
async fn execute(db: &TestDb, sql: &str) {
    match db.sqlite_path() {
        Some(path) => {
            let pool = sqlx::SqlitePool::connect(&format!("sqlite://{}", path.display()))
                .await
                .expect("open the SQLite file");
            sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_owned()))
                .execute(&pool)
                .await
                .expect(sql);
            pool.close().await;
        }
        None => {
            let pool = sqlx::PgPool::connect(db.url()).await.expect("connect");
            sqlx::raw_sql(sqlx::AssertSqlSafe(sql.to_owned()))
                .execute(&pool)
                .await
                .expect(sql);
            pool.close().await;
        }
    }
}

async fn names_stored_under_the_old_rule_still_sign_in(db: &TestDb) {
    // Three people registered, then their rows put back as the earlier
    // rule stored them: upper-then-lower-case keys and no skeleton. Under
    // that rule `STRAẞE` (key `straße`) and `Straße` (key `strasse`) were
    // two people.
    let app = spawn_game(db).await;
    let first = register(&app, "Straße").await.expect("register");
    let second = register_with(&app, "Placeholder", OTHER_PASSWORD)
        .await
        .expect("register");
    let third = register(&app, "Ölund").await.expect("register");
    app.stop().await;
    execute(
        db,
        &format!(
            "UPDATE accounts SET name_skeleton = NULL, name_rule = 1 WHERE name_key IS NOT NULL;
             UPDATE accounts SET name = 'STRAẞE', name_key = 'straße' WHERE id = {};",
            second.account_id
        ),
    )
    .await;

    // The service starts: every name is recomputed under the current rule.
    let app = spawn_game(db).await;

    let signed_in = [
        login(&app, "Straße").await.expect("Straße"),
        login_with(&app, "STRAẞE", OTHER_PASSWORD)
            .await
            .expect("STRAẞE keeps its old key"),
        login(&app, "ölund").await.expect("Ölund"),
    ];
    let ids: Vec<_> = signed_in.iter().map(|s| s.account_id.as_str()).collect();
    assert_eq!(
        ids,
        [
            first.account_id.as_str(),
            second.account_id.as_str(),
            third.account_id.as_str()
        ]
    );
    // Rekeyed: Straße's skeleton is held again, so a look-alike is refused.
    taken().grpc(
        &register(&app, "\u{0405}traße")
            .await
            .expect_err("look-alike"),
    );
    app.stop().await;
    // And a second start has nothing left to do.
    let app = spawn_game(db).await;
    login_with(&app, "STRAẞE", OTHER_PASSWORD)
        .await
        .expect("still");
    app.stop().await;
}
