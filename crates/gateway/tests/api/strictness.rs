//! `/openapi.json` is exactly as strict as the server about unknown fields,
//! `null` and required fields, and its names read well in generated
//! clients. The fake service accepts every request, so what is refused here
//! is refused by the JSON layer, which the schemas must describe.

use hyper::{Method, StatusCode};
use serde_json::{Value, json};
use skit_gateway::routes::{ROUTES, RouteSpec, Shape};

use crate::helpers::{Answer, TestApp, spawn_app};

async fn document(app: &TestApp) -> Value {
    app.send(Method::GET, "/openapi.json", None, &[])
        .await
        .json()
}

/// The component a `$ref` (possibly wrapped in `allOf`) points to.
fn component<'a>(document: &'a Value, schema: &Value) -> &'a Value {
    let reference = schema["$ref"]
        .as_str()
        .or_else(|| schema["allOf"][0]["$ref"].as_str())
        .unwrap_or_else(|| panic!("not a reference: {schema}"));
    let name = reference.trim_start_matches("#/components/schemas/");
    &document["components"]["schemas"][name]
}

fn body_schema<'a>(document: &'a Value, route: &RouteSpec) -> &'a Value {
    let operation = &document["paths"][route.path][route.method.to_lowercase()];
    component(
        document,
        &operation["requestBody"]["content"]["application/json"]["schema"],
    )
}

/// The route's path with each parameter filled in.
fn concrete(route: &RouteSpec) -> String {
    route
        .path_params()
        .fold(route.path.to_owned(), |path, name| {
            path.replace(&format!("{{{name}}}"), "g1")
        })
}

async fn post(app: &TestApp, route: &RouteSpec, body: &Value) -> Answer {
    let text = body.to_string();
    app.call(Method::POST, &concrete(route), Some(&text)).await
}

fn refused_as_malformed(answer: &Answer) -> bool {
    answer.status == StatusCode::BAD_REQUEST && answer.text.contains("malformed JSON body")
}

#[tokio::test]
async fn component_names_read_well() {
    let app = spawn_app().await;
    let document = document(&app).await;

    let schemas = document["components"]["schemas"].as_object().unwrap();

    for name in schemas.keys() {
        let plain = name.chars().next().is_some_and(|c| c.is_ascii_uppercase())
            && name.chars().all(|c| c.is_ascii_alphanumeric());
        assert!(plain, "component name {name:?}");
    }
    for name in [
        "View",
        "SubmitMoveRequest",
        "TimeControlBank",
        "Rules",
        "RulesInput",
    ] {
        assert!(
            schemas.contains_key(name),
            "no {name} in {:?}",
            schemas.keys()
        );
    }
}

#[tokio::test]
async fn unknown_fields_are_refused_where_the_schema_says_so() {
    let app = spawn_app().await;
    let document = document(&app).await;

    for route in ROUTES.iter().filter(|r| r.shape == Shape::Body) {
        let schema = body_schema(&document, route);
        let answer = post(&app, route, &json!({"noSuchField": 1})).await;

        assert_eq!(schema["additionalProperties"], false, "{}", route.path);
        assert!(
            refused_as_malformed(&answer),
            "{}: {}",
            route.path,
            answer.text
        );
    }
}

#[tokio::test]
async fn null_is_accepted_exactly_where_the_schema_says_so() {
    let app = spawn_app().await;
    let document = document(&app).await;
    let mut checked = 0;

    for route in ROUTES.iter().filter(|r| r.shape == Shape::Body) {
        let schema = body_schema(&document, route);
        let properties = schema["properties"].as_object().unwrap();
        let required = schema["required"].as_array().cloned().unwrap_or_default();
        // A required message's null is its absence, which the parser allows
        // and the service refuses (services/game/tests/rest.rs); the schema
        // offers neither.
        let optional = properties
            .iter()
            .filter(|(name, _)| !required.contains(&json!(name)));
        for (name, property) in optional {
            let answer = post(&app, route, &json!({ name: null })).await;

            let nullable = property["nullable"] == true;
            assert_eq!(
                !refused_as_malformed(&answer),
                nullable,
                "{} {name}: {}",
                route.path,
                answer.text
            );
            checked += 1;
        }
    }
    // Nested: a ruleset's options may be null, a clock's timeout rule not.
    let create = ROUTES.iter().find(|r| r.rpc == "CreateGame").unwrap();
    let rules = component(
        &document,
        &body_schema(&document, create)["properties"]["rules"],
    );
    let clock = component(
        &document,
        &body_schema(&document, create)["properties"]["timeControl"],
    );
    assert_eq!(rules["properties"]["options"]["nullable"], true);
    assert!(clock["properties"]["onTimeout"].get("nullable").is_none());
    let options = post(&app, create, &json!({"rules": {"options": null}})).await;
    let timeout = post(&app, create, &json!({"timeControl": {"onTimeout": null}})).await;
    assert!(!refused_as_malformed(&options), "{}", options.text);
    assert!(refused_as_malformed(&timeout), "{}", timeout.text);
    assert!(checked > 10, "only {checked} properties");
}

#[tokio::test]
async fn two_members_of_a_oneof_are_refused_as_the_schema_says() {
    let app = spawn_app().await;
    let document = document(&app).await;
    let moves = ROUTES.iter().find(|r| r.rpc == "SubmitMove").unwrap();
    let create = ROUTES.iter().find(|r| r.rpc == "CreateGame").unwrap();

    let action = component(
        &document,
        &body_schema(&document, moves)["properties"]["action"],
    );
    let clock = component(
        &document,
        &body_schema(&document, create)["properties"]["timeControl"],
    );
    let two_kinds = json!({"moveId": "m", "action": {"pickup": true, "pass": true}});
    let two_clocks = json!({"timeControl": {"perMove": "5s", "bank": {"initial": "5s"}}});

    assert_eq!(action["maxProperties"], 1);
    let pairs = clock["not"]["anyOf"].as_array().expect("pairs of clocks");
    assert!(
        pairs.contains(&json!({"required": ["perMove", "bank"]})),
        "{pairs:?}"
    );
    assert!(
        pairs.contains(&json!({"required": ["bank", "overage"]})),
        "{pairs:?}"
    );
    assert!(refused_as_malformed(&post(&app, moves, &two_kinds).await));
    assert!(refused_as_malformed(&post(&app, create, &two_clocks).await));
}

#[tokio::test]
async fn required_fields_are_those_a_request_must_set() {
    let app = spawn_app().await;
    let document = document(&app).await;
    let required = |rpc: &str| {
        let route = ROUTES.iter().find(|r| r.rpc == rpc).unwrap();
        let operation = &document["paths"][route.path][route.method.to_lowercase()];
        let fields = body_schema(&document, route)["required"].clone();
        (fields, operation["requestBody"]["required"].clone())
    };

    // The game id comes from the path, so the body need not repeat it.
    assert_eq!(
        required("SubmitMove"),
        (json!(["moveId", "action"]), json!(true))
    );
    assert_eq!(required("Resign"), (json!(["moveId"]), json!(true)));
    assert_eq!(required("CreateGame"), (json!(["players"]), json!(true)));
    assert_eq!(
        required("CreateAccount"),
        (json!(["name", "kind"]), json!(true))
    );
    // Nothing to require: an empty body joins the lowest open seat.
    assert_eq!(required("JoinGame"), (Value::Null, json!(false)));

    let moves = ROUTES.iter().find(|r| r.rpc == "SubmitMove").unwrap();
    let properties = &body_schema(&document, moves)["properties"];
    assert_eq!(properties["moveId"]["minLength"], 1);
    let view = &document["components"]["schemas"]["View"];
    let always = view["required"].as_array().unwrap();
    assert!(always.contains(&json!("version")) && always.contains(&json!("legalActions")));
    assert!(!always.contains(&json!("viewerSeat")) && !always.contains(&json!("result")));
}
