//! The standings as files for an operator's own systems:
//! `GET /v1/tournaments/{id}/standings.csv` and `.../standings.ndjson`,
//! with the same bearer token as every call. The answer is the standings
//! at one sequence number (header `skit-sequence`); once the tournament
//! has ended (`skit-final: true`) it never changes.

use std::sync::Arc;

use axum::Router;
use axum::extract::{Path, State};
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use skit_gateway::RestError;
use skit_proto::v1::{StandingRow, Standings};
use tonic::metadata::MetadataMap;

use crate::service::LeagueApi;

/// The export routes, beside the API's.
pub fn routes(api: Arc<LeagueApi>) -> Router {
    Router::new()
        .route("/v1/tournaments/{tournament_id}/standings.csv", get(csv))
        .route(
            "/v1/tournaments/{tournament_id}/standings.ndjson",
            get(ndjson),
        )
        .with_state(api)
}

async fn standings(api: &LeagueApi, id: &str, headers: &HeaderMap) -> Result<Standings, RestError> {
    api.export_standings(&MetadataMap::from_headers(headers.clone()), id)
        .await
        .map_err(RestError::from)
}

fn file(content_type: &'static str, standings: &Standings, body: String) -> Response {
    let mut response = (StatusCode::OK, body).into_response();
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(content_type));
    headers.insert("skit-sequence", HeaderValue::from(standings.sequence));
    headers.insert(
        "skit-final",
        HeaderValue::from_static(if standings.ended { "true" } else { "false" }),
    );
    response
}

/// One row per player, best first; the tiebreaks as fractions in chain
/// order.
pub fn to_csv(standings: &Standings) -> String {
    let mut out =
        String::from("rank,account_id,name,score,score_value,tables,firsts,skitgubbes,tiebreaks\n");
    for r in &standings.rows {
        let StandingRow {
            rank,
            account_id,
            score,
            score_value,
            tables,
            firsts,
            skitgubbes,
            tiebreaks,
            name,
        } = r;
        out.push_str(&format!(
            "{rank},{account_id},{},{score},{score_value},{tables},{firsts},{skitgubbes},{}\n",
            csv_field(name),
            tiebreaks.join(" ")
        ));
    }
    out
}

/// A text field, quoted (and its quotes doubled) where CSV needs it.
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// One JSON object per player (the API's StandingRow), best first.
pub fn to_ndjson(standings: &Standings) -> String {
    standings
        .rows
        .iter()
        .filter_map(|r| serde_json::to_string(r).ok())
        .map(|line| line + "\n")
        .collect()
}

async fn csv(
    State(api): State<Arc<LeagueApi>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, RestError> {
    let standings = standings(&api, &id, &headers).await?;
    Ok(file(
        "text/csv; charset=utf-8",
        &standings,
        to_csv(&standings),
    ))
}

async fn ndjson(
    State(api): State<Arc<LeagueApi>>,
    Path(id): Path<String>,
    headers: HeaderMap,
) -> Result<Response, RestError> {
    let standings = standings(&api, &id, &headers).await?;
    Ok(file(
        "application/x-ndjson",
        &standings,
        to_ndjson(&standings),
    ))
}
