//! `/openapi.json` describes every route, with schemas from the descriptors.

use hyper::{Method, StatusCode};
use serde_json::Value;
use skit_gateway::routes::{ROUTES, Shape};

use crate::helpers::spawn_app;

fn resolve<'a>(document: &'a Value, schema: &'a Value) -> &'a Value {
    match schema["$ref"].as_str() {
        Some(reference) => {
            let name = reference.trim_start_matches("#/components/schemas/");
            &document["components"]["schemas"][name]
        }
        None => schema,
    }
}

#[tokio::test]
async fn every_route_is_documented() {
    let app = spawn_app().await;

    let answer = app.send(Method::GET, "/openapi.json", None, &[]).await;

    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let document = answer.json();
    assert_eq!(document["openapi"], "3.0.3");
    for route in ROUTES {
        let operation = &document["paths"][route.path][route.method.to_lowercase()];
        assert_eq!(
            operation["operationId"], route.rpc,
            "{} {}",
            route.method, route.path
        );
        assert!(operation["responses"]["200"].is_object());
    }
    let mut paths: Vec<&str> = ROUTES.iter().map(|r| r.path).collect();
    paths.sort_unstable();
    paths.dedup();
    assert_eq!(document["paths"].as_object().unwrap().len(), paths.len());
}

#[tokio::test]
async fn submit_move_request_schema_has_the_move_fields() {
    let app = spawn_app().await;
    let document = app
        .send(Method::GET, "/openapi.json", None, &[])
        .await
        .json();

    let operation = &document["paths"]["/v1/games/{game_id}/moves"]["post"];
    let body = &operation["requestBody"]["content"]["application/json"]["schema"];
    let schema = resolve(&document, body);

    let properties = &schema["properties"];
    assert!(properties["moveId"].is_object());
    assert_eq!(properties["expectedVersion"]["type"], "string");
    let action = resolve(&document, &properties["action"]);
    let action = match action["allOf"][0].as_object() {
        Some(_) => resolve(&document, &action["allOf"][0]),
        None => action,
    };
    assert!(action["properties"]["play"].is_object());
    assert!(
        action["description"]
            .as_str()
            .unwrap()
            .contains("at most one of play")
    );
}

#[tokio::test]
async fn schemas_follow_the_json_mapping() {
    let app = spawn_app().await;
    let document = app
        .send(Method::GET, "/openapi.json", None, &[])
        .await
        .json();
    let schemas = &document["components"]["schemas"];

    let phase = &schemas["Phase"];
    assert_eq!(phase["type"], "string");
    assert!(
        phase["enum"]
            .as_array()
            .unwrap()
            .contains(&Value::from("PHASE_TWO"))
    );
    let rules = &schemas["Rules"]["properties"];
    let options = &rules["options"];
    let options = if options["allOf"].is_array() {
        &options["allOf"][0]
    } else {
        options
    };
    assert_eq!(options["type"], "object");
    let seat = &schemas["SeatInfo"]["properties"]["deadline"];
    let seat = if seat["allOf"].is_array() {
        &seat["allOf"][0]
    } else {
        seat
    };
    assert_eq!(seat["format"], "date-time");
    // The .proto comments become descriptions.
    let view = &schemas["View"];
    assert!(view["description"].as_str().unwrap().contains("one viewer"));
}

#[tokio::test]
async fn query_routes_list_their_parameters() {
    let app = spawn_app().await;
    let document = app
        .send(Method::GET, "/openapi.json", None, &[])
        .await
        .json();

    for route in ROUTES.iter().filter(|r| r.shape != Shape::Body) {
        let operation = &document["paths"][route.path][route.method.to_lowercase()];
        let names: Vec<&str> = operation["parameters"]
            .as_array()
            .map(|p| p.iter().filter_map(|p| p["name"].as_str()).collect())
            .unwrap_or_default();
        for param in route.path_params() {
            assert!(names.contains(&param), "{} lacks {param}", route.path);
        }
        if route.rpc == "GetView" {
            assert!(names.contains(&"waitForVersionAfter"), "{names:?}");
            assert!(names.contains(&"timeoutMs"));
            assert!(!names.contains(&"gameId"));
        }
        if route.rpc == "GetSeasonStandings" {
            assert!(!names.contains(&"seasonId"), "{names:?}");
            // A timestamp is plain text in the query, not JSON text.
            let params = operation["parameters"].as_array().unwrap();
            let at = params.iter().find(|p| p["name"] == "at").unwrap();
            assert_eq!(at["schema"]["format"], "date-time", "{at}");
            assert!(at["content"].is_null(), "{at}");
        }
    }
}

#[tokio::test]
async fn the_error_schema_has_the_structured_fields() {
    let app = spawn_app().await;
    let document = app
        .send(Method::GET, "/openapi.json", None, &[])
        .await
        .json();

    let error = &document["components"]["schemas"]["Error"];

    let required: Vec<&str> = error["required"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(Value::as_str)
        .collect();
    for field in [
        "code",
        "reason",
        "message",
        "fieldViolations",
        "metadata",
        "details",
    ] {
        assert!(required.contains(&field), "{field}: {error}");
    }
    let violation = &error["properties"]["fieldViolations"]["items"];
    assert!(violation["properties"]["field"].is_object(), "{error}");
    assert!(error["properties"]["retryDelay"].is_object(), "{error}");
}
