//! The matchmaker over REST/JSON on its gRPC port, as a web app would use
//! it: refused tickets by field, a ticket watched as Server-Sent Events
//! until two players are matched, a long poll, a cancel, and the OpenAPI
//! document.

use serde_json::json;
use skit_proto::v1::AccountKind;
use skit_testkit::*;

use crate::helpers::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn tickets_over_rest_from_queue_to_game() {
    let (game_db, mm_db) = (TestDb::sqlite(), TestDb::sqlite());
    let game = spawn_game(&game_db).await;
    let mm = spawn_matchmaker(&mm_db, &game).await;
    drop(mm.client().await); // waits until it serves
    let ann = game.account("ann", AccountKind::Player).await;
    let bob = game.account("bob", AccountKind::Player).await;
    let cat = game.account("cat", AccountKind::Player).await;
    let http = mm.http();
    let mas_for_two = json!({"rules": {"preset": "mas"}, "playerCounts": [2]});

    // Refused requests name the field and queue nothing.
    let (status, body) = http
        .call(
            "POST",
            "/v1/tickets",
            Some(&ann.token),
            Some(json!({"rules": {"preset": "mas"}, "playerCounts": [2, 5]})),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["code"], "INVALID_ARGUMENT");
    let message = body["message"].as_str().expect("message");
    assert!(message.starts_with("player_counts[1]:"), "{message}");
    let (status, body) = http
        .call(
            "POST",
            "/v1/tickets",
            Some(&ann.token),
            Some(json!({"allowBots": "yes"})),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["code"], "INVALID_ARGUMENT");
    assert!(
        body["message"]
            .as_str()
            .expect("message")
            .contains("boolean"),
        "{body}"
    );
    let (status, body) = http
        .call("POST", "/v1/tickets", None, Some(mas_for_two.clone()))
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (401, Some("UNAUTHENTICATED"))
    );

    // Ann queues and watches her ticket as events.
    let (status, queued) = http
        .call(
            "POST",
            "/v1/tickets",
            Some(&ann.token),
            Some(mas_for_two.clone()),
        )
        .await;
    assert_eq!(status, 200, "{queued}");
    assert_eq!(queued["state"], "TICKET_STATE_QUEUED");
    assert_eq!(queued["accountId"], ann.id.as_str());
    assert_eq!(queued["playerCounts"], json!([2]));
    let ticket = queued["ticketId"].as_str().expect("ticket id").to_owned();
    let (status, again) = http
        .call(
            "GET",
            &format!("/v1/tickets/{ticket}"),
            Some(&ann.token),
            None,
        )
        .await;
    assert_eq!(
        (status, &again["state"]),
        (200, &json!("TICKET_STATE_QUEUED"))
    );
    let watch = {
        let http = http.clone();
        let (path, token) = (format!("/v1/tickets/{ticket}/watch"), ann.token.clone());
        tokio::spawn(async move { http.text("GET", &path, Some(&token), None).await })
    };
    // Another player's ticket is not Ann's to read.
    let (status, body) = http
        .call(
            "GET",
            &format!("/v1/tickets/{ticket}"),
            Some(&cat.token),
            None,
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (403, Some("PERMISSION_DENIED"))
    );

    // Bob's ticket completes the table; his long poll answers matched.
    let (status, bobs) = http
        .call(
            "POST",
            "/v1/tickets",
            Some(&bob.token),
            Some(mas_for_two.clone()),
        )
        .await;
    assert_eq!(status, 200, "{bobs}");
    let bobs_id = bobs["ticketId"].as_str().expect("ticket id");
    let (status, matched) = http
        .call(
            "GET",
            &format!("/v1/tickets/{bobs_id}?waitMs=5000"),
            Some(&bob.token),
            None,
        )
        .await;
    assert_eq!(
        (status, &matched["state"]),
        (200, &json!("TICKET_STATE_MATCHED"))
    );
    let game_id = matched["gameId"].as_str().expect("game id");

    // Ann's stream showed her ticket queued, then matched to the same
    // game, and ended.
    let (status, events) = watch.await.expect("watch task");
    assert_eq!(status, 200, "{events}");
    let tickets = sse_messages(&events);
    assert_eq!(
        tickets.first().map(|t| &t["state"]),
        Some(&json!("TICKET_STATE_QUEUED"))
    );
    let last = tickets.last().expect("a matched ticket");
    assert_eq!(last["state"], "TICKET_STATE_MATCHED", "{events}");
    assert_eq!(last["gameId"], game_id);
    assert_ne!(last["seat"], matched["seat"]);
    let seated: Vec<String> = games_of(&game, &ann)
        .await
        .into_iter()
        .map(|g| g.game_id)
        .collect();
    assert_eq!(seated, vec![game_id.to_owned()]);

    // A matched ticket cannot be cancelled; a queued one can.
    let (status, body) = http
        .call(
            "POST",
            &format!("/v1/tickets/{ticket}/cancel"),
            Some(&ann.token),
            None,
        )
        .await;
    assert_eq!(
        (status, body["code"].as_str()),
        (409, Some("FAILED_PRECONDITION"))
    );
    let (_, cats) = http
        .call("POST", "/v1/tickets", Some(&cat.token), Some(mas_for_two))
        .await;
    let cats_id = cats["ticketId"].as_str().expect("ticket id");
    let (status, cancelled) = http
        .call(
            "POST",
            &format!("/v1/tickets/{cats_id}/cancel"),
            Some(&cat.token),
            None,
        )
        .await;
    assert_eq!(
        (status, &cancelled["state"]),
        (200, &json!("TICKET_STATE_CANCELLED"))
    );

    // The document lists exactly the matchmaker's routes.
    let (status, document) = http.call("GET", "/openapi.json", None, None).await;
    assert_eq!(status, 200);
    let mut paths: Vec<&String> = document["paths"]
        .as_object()
        .expect("paths")
        .keys()
        .collect();
    paths.sort();
    assert_eq!(
        paths,
        [
            "/v1/tickets",
            "/v1/tickets/{ticket_id}",
            "/v1/tickets/{ticket_id}/cancel",
            "/v1/tickets/{ticket_id}/watch"
        ]
    );
    mm.stop().await;
    game.stop().await;
}
