//! A person's language, kept with the account: set over REST, shown by
//! WhoAmI, followed by error messages (only their `message`), refused
//! unless it is one of the four, and cleared with an empty tag.

use serde_json::json;
use skit_testkit::TestDb;
use skit_testkit::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stored_language_translates_errors_until_cleared() {
    let db = TestDb::sqlite();
    let app = spawn_game(&db).await;
    let ada = app.guest("Ada").await;
    let http = app.http();
    let token = Some(ada.token.as_str());
    let missing = "/v1/games/00000000000000000000000000000000/view";

    let (_, english) = http.call("GET", missing, token, None).await;
    let (set, me) = http
        .call(
            "POST",
            "/v1/accounts/me/language",
            token,
            Some(json!({"language": "sv-SE"})),
        )
        .await;
    let (_, shown) = http.call("GET", "/v1/accounts/me", token, None).await;
    let (_, swedish) = http.call("GET", missing, token, None).await;
    let (refused, why) = http
        .call(
            "POST",
            "/v1/accounts/me/language",
            token,
            Some(json!({"language": "de"})),
        )
        .await;
    let (_, still) = http.call("GET", "/v1/accounts/me", token, None).await;
    let (cleared, _) = http
        .call(
            "POST",
            "/v1/accounts/me/language",
            token,
            Some(json!({"language": ""})),
        )
        .await;
    let (_, again) = http.call("GET", missing, token, None).await;

    assert_eq!(set, 200, "{me}");
    assert_eq!(me["language"], "sv");
    assert_eq!(shown["language"], "sv");
    assert_ne!(swedish["message"], english["message"]);
    for name in ["code", "reason", "fieldViolations", "metadata", "details"] {
        assert_eq!(swedish[name], english[name], "{name}");
    }
    assert_eq!(refused, 400, "{why}");
    assert_eq!(why["fieldViolations"][0]["field"], "language");
    // Swedish still: the refusal changed nothing, and is itself in Swedish.
    assert_eq!(still["language"], "sv");
    assert_eq!(why["message"], "Fältet language är ogiltigt.");
    assert_eq!(cleared, 200);
    assert_eq!(again, english, "cleared: the English body as before");
}
