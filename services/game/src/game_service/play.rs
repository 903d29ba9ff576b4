//! Commands: creating, joining and playing games. Each is checked, turned
//! into events, appended in one go and only then applied to the cache.

use serde_json::json;
use skit_api::{ApiError, ErrorCode};
use skit_proto::v1::{
    CreateGameRequest, CreateGameResponse, JoinGameRequest, JoinGameResponse, SubmitMoveRequest,
    SubmitMoveResponse,
};
use skit_store::{AccountId, AccountKind, NewEvent, NewGame};

use super::quotas::quota_error;
use super::{GameApi, assignments, game_id, held_seat, holder, seat_move_id, seat_number};
use crate::auth::Caller;
use crate::cached::Cached;
use crate::clock::TimeControl;
use crate::convert;
use crate::error::store_error;
use crate::live::{Created, Holder, Live, kind, to_act_at_start};
use crate::shuffle::Seed;

/// How many times a command is re-checked after losing a race to another
/// instance before the client is told to retry.
pub(super) const APPEND_ATTEMPTS: usize = 3;

/// The account id a seat spec names, as `seats[i].account_id`.
fn seat_account(i: usize, text: &str) -> Result<AccountId, ApiError> {
    text.parse::<i64>()
        .map(AccountId)
        .map_err(|_| ApiError::invalid(format!("seats[{i}].account_id"), "not an account id"))
}

/// The seed an operator chose (`shuffle_seed`: 64 lower-case hex
/// characters, 32 bytes), checked with `seal_seed`: both are the
/// operator's alone, refused to anyone else before anything is looked up.
fn chosen_seed(caller: &Caller, req: &CreateGameRequest) -> Result<Option<Seed>, ApiError> {
    if !caller.is_operator() {
        let field = if req.shuffle_seed.is_some() {
            "shuffle_seed"
        } else if req.seal_seed {
            "seal_seed"
        } else {
            return Ok(None);
        };
        return Err(ApiError::new(
            ErrorCode::PermissionDenied,
            "operator_only_field",
            format!("{field}: only the operator deals a game from a chosen seed or seals it"),
        )
        .with_violation(field, "only the operator may set it"));
    }
    let Some(text) = req.shuffle_seed.as_deref() else {
        return Ok(None);
    };
    let hex = text.len() == 64 && text.bytes().all(|b| matches!(b, b'0'..=b'9' | b'a'..=b'f'));
    if !hex {
        return Err(ApiError::invalid(
            "shuffle_seed",
            "must be 64 lower-case hex characters (32 bytes)",
        ));
    }
    Seed::from_hex(text)
        .map(Some)
        .map_err(|e| ApiError::invalid("shuffle_seed", e.to_string()))
}

impl GameApi {
    #[tracing::instrument(skip_all, fields(game_id, account = %caller.account.id))]
    pub(super) async fn create(
        &self,
        caller: Caller,
        req: CreateGameRequest,
    ) -> Result<CreateGameResponse, ApiError> {
        let request_id = skit_api::request_id(&req.request_id, "request_id")?;
        let chosen = chosen_seed(&caller, &req)?;
        if let Some(id) = request_id
            && let Some(first) = self.created_before(&caller, id).await?
        {
            return Ok(first);
        }
        let rules = skit_api::rules(req.rules.as_ref())?;
        let players = u8::try_from(req.players)
            .map_err(|_| ApiError::invalid("players", "too many players"))?;
        rules.check_players(players)?;
        let time_control = req
            .time_control
            .as_ref()
            .map(|tc| TimeControl::from_request(tc, self.state.clock_min_limit))
            .transpose()?;
        let seats = self.seat_holders(&caller, &req, players).await?;
        if req.rated
            && seats
                .iter()
                .flatten()
                .any(|(_, kind)| *kind == AccountKind::Guest)
        {
            return Err(guest_in_rated_game());
        }
        let dealer = req.dealer.map(|d| seat_number(d, "dealer")).transpose()?;
        let seed = match chosen {
            Some(seed) => seed,
            None => Seed::generate().map_err(|e| ApiError::internal("cannot draw a seed", &e))?,
        };
        let holders: Vec<Option<Holder>> = seats
            .iter()
            .map(|s| s.as_ref().map(|(h, _)| h.clone()))
            .collect();
        let created = Live::created(
            &rules,
            players,
            dealer,
            holders.clone(),
            req.rated,
            &seed,
            time_control,
        )
        .map(|c| Created {
            sealed: req.seal_seed,
            ..c
        })?;
        let new = NewGame {
            ruleset: created.rules.clone(),
            ruleset_key: rules.key(),
            created_by: caller.account.id,
            seats: holders
                .iter()
                .map(|h| h.as_ref().map(|h| skit_store::AccountId(h.account_id)))
                .collect(),
            seed: skit_store::Seed::new(seed.to_hex()),
            commitment: seed.commitment(),
            rated: req.rated,
            request_id: request_id.map(str::to_owned),
            to_act: to_act_at_start(&created, &seed),
        };
        let first = NewEvent::new(kind::CREATED, json!(created));
        let quotas = self.quotas_of(&caller);
        let row = match self
            .state
            .store
            .create_game_within(new, first, quotas)
            .await
        {
            Ok(row) => row,
            // A concurrent twin of this request won.
            Err(skit_store::Error::DuplicateRequest) => {
                let id = request_id.unwrap_or_default();
                return self.created_before(&caller, id).await?.ok_or_else(|| {
                    ApiError::invariant("a duplicate request id with no game behind it")
                });
            }
            Err(e) => return Err(quota_error(e)),
        };
        tracing::Span::current().record("game_id", tracing::field::display(row.id));
        let mut live = self.state.games.lock(row.id).await?;
        // A deal may already await a chance outcome; settle it before play.
        let pending = live.pending_events()?;
        if pending.is_empty() {
            self.sync_clock(&live).await;
        } else {
            self.append(&mut live, pending).await.map_err(store_error)?;
        }
        Ok(CreateGameResponse {
            game_id: row.id.to_string(),
            seats: assignments(&live),
            dealer: u32::from(live.game.state().dealer()),
            shuffle_commitment: live.commitment.clone(),
            version: live.version,
        })
    }

    /// The seats as asked: each with its holder and account kind.
    async fn seat_holders(
        &self,
        caller: &Caller,
        req: &CreateGameRequest,
        players: u8,
    ) -> Result<Vec<Option<(Holder, AccountKind)>>, ApiError> {
        if req.seats.is_empty() {
            let mut seats = vec![None; usize::from(players)];
            if !caller.is_operator() {
                seats[0] = Some((holder(&caller.account), caller.account.kind));
            }
            return Ok(seats);
        }
        if req.seats.len() != usize::from(players) {
            return Err(ApiError::invalid(
                "seats",
                format!("expected {players} seats"),
            ));
        }
        let ids = req
            .seats
            .iter()
            .enumerate()
            .map(|(i, spec)| {
                spec.account_id
                    .as_ref()
                    .map(|text| seat_account(i, text))
                    .transpose()
            })
            .collect::<Result<Vec<_>, _>>()?;
        // Nobody is seated without their consent: a player seats only
        // themselves and the others join the open seats; the operator (the
        // matchmaker, whose players asked for a table) seats anyone. Checked
        // before any account is looked up, so a refusal says nothing about
        // which accounts exist.
        if !caller.is_operator()
            && let Some((i, id)) = ids
                .iter()
                .enumerate()
                .find_map(|(i, id)| id.filter(|&id| id != caller.account.id).map(|id| (i, id)))
        {
            let field = format!("seats[{i}].account_id");
            return Err(ApiError::new(
                ErrorCode::PermissionDenied,
                "seat_requires_consent",
                format!(
                    "{field}: only the operator seats other accounts; create the game with \
                     the seat open and let account {id} join it"
                ),
            )
            .with_violation(field, "only your own account, or none (an open seat)"));
        }
        let mut seats = Vec::with_capacity(ids.len());
        for (i, id) in ids.into_iter().enumerate() {
            let Some(id) = id else {
                seats.push(None);
                continue;
            };
            let account = self
                .state
                .store
                .account(id)
                .await
                .map_err(store_error)?
                .ok_or_else(|| {
                    ApiError::invalid(format!("seats[{i}].account_id"), format!("no account {id}"))
                })?;
            seats.push(Some((holder(&account), account.kind)));
        }
        Ok(seats)
    }

    /// Appends `events` after the game's last one and applies them. Every
    /// change to a game, and so every way a game ends, passes here.
    pub(super) async fn append(
        &self,
        live: &mut Cached,
        events: Vec<NewEvent>,
    ) -> Result<(), skit_store::Error> {
        self.lower_clock(live).await?;
        let to_act = live.to_act_after(&events);
        let stored = self
            .state
            .append(live.id, live.version + 1, events, to_act)
            .await?;
        for event in &stored {
            if let Err(e) = live.apply_event(event) {
                // The log holds the events; a replay will show the problem.
                tracing::error!(error = %e, "cannot apply an event just appended");
            }
        }
        self.state.games.notice(live.id, live.version);
        self.sync_clock(live).await;
        if live.is_over() {
            self.game_finished(live).await;
        }
        Ok(())
    }

    #[tracing::instrument(skip_all, fields(game_id = %req.game_id, seat))]
    pub(super) async fn join(
        &self,
        caller: Caller,
        req: JoinGameRequest,
    ) -> Result<JoinGameResponse, ApiError> {
        let id = game_id(&req.game_id)?;
        let mut live = self.state.games.lock(id).await?;
        for _ in 0..APPEND_ATTEMPTS {
            if let Some(&seat) = live.seats_of(caller.account.id).first() {
                // A retried join is answered with the seat already held; a
                // second seat is not to be had by joining.
                if req.seat.is_some_and(|s| s != u32::from(seat)) {
                    return Err(ApiError::failed_precondition(format!(
                        "you already sit at seat {seat} of game {id}"
                    )));
                }
                tracing::Span::current().record("seat", seat);
                return Ok(JoinGameResponse {
                    seat: u32::from(seat),
                    view: Some(convert::view(&live, Some(seat), None)),
                });
            }
            let lowest = live.lowest_open_seat().ok_or_else(|| {
                ApiError::failed_precondition(format!("game {id} has no open seat"))
            })?;
            if let Some(wanted) = req.seat
                && usize::try_from(wanted).ok() != Some(lowest)
            {
                return Err(ApiError::invalid(
                    "seat",
                    format!("only the lowest open seat ({lowest}) can be taken"),
                ));
            }
            if live.rated && caller.account.kind == AccountKind::Guest {
                return Err(guest_in_rated_game());
            }
            let quotas = self.quotas_of(&caller);
            let joined = self
                .state
                .store
                .join_seat_within(id, caller.account.id, quotas)
                .await
                .map_err(quota_error)?;
            let event = Live::joined_event(joined.seat as usize, holder(&caller.account));
            match self.append(&mut live, vec![event]).await {
                Ok(()) => {}
                Err(skit_store::Error::Conflict { .. }) => {
                    self.state.games.catch_up(&mut live).await?
                }
                Err(e) => return Err(store_error(e)),
            }
        }
        Err(ApiError::stale(live.version, live.version))
    }

    #[tracing::instrument(skip_all, fields(game_id = %req.game_id, seat = req.seat))]
    pub(super) async fn submit(
        &self,
        caller: Caller,
        req: SubmitMoveRequest,
    ) -> Result<SubmitMoveResponse, ApiError> {
        let id = game_id(&req.game_id)?;
        // A client that read a newer version on another instance decided
        // on that one: follow the log to it before judging the move.
        let mut live = self
            .state
            .games
            .lock_at(id, Some(req.expected_version))
            .await?;
        let seat = self
            .seat_checked(&mut live, |live| held_seat(&caller, live, req.seat))
            .await?;
        let kind = skit_api::move_kind(&req.action.unwrap_or_default(), "action")?;
        let move_id = seat_move_id(seat, &req.move_id)?;
        for _ in 0..APPEND_ATTEMPTS {
            if let Some(first) = live.move_by_id(&move_id) {
                if first.seat != seat || first.kind != kind {
                    return Err(ApiError::move_id_reused(format!(
                        "move id {:?} was used for another move",
                        req.move_id
                    )));
                }
                return Ok(SubmitMoveResponse {
                    version: first.version,
                    view: Some(convert::view(&live, Some(seat), None)),
                });
            }
            if live.resignation_by_id(&move_id).is_some() {
                return Err(ApiError::move_id_reused(format!(
                    "move id {:?} was used for a resignation",
                    req.move_id
                )));
            }
            // The clock plays a forfeited seat for good, whatever the version.
            live.check_not_forfeited(seat)?;
            if req.expected_version != live.version {
                return Err(ApiError::stale(req.expected_version, live.version));
            }
            let events = live.plan_move(seat, kind, &move_id)?;
            match self.append(&mut live, events).await {
                Ok(()) => {
                    // The history since the version the move was made on:
                    // what this move did, so the reply's size does not grow
                    // with the game.
                    let after = Some(req.expected_version);
                    return Ok(SubmitMoveResponse {
                        version: live.version,
                        view: Some(convert::view(&live, Some(seat), after)),
                    });
                }
                // Another instance appended first (maybe this very move):
                // follow the log and check again.
                Err(
                    skit_store::Error::Conflict { .. } | skit_store::Error::DuplicateMove { .. },
                ) => {
                    self.state.games.catch_up(&mut live).await?;
                }
                Err(e) => return Err(store_error(e)),
            }
        }
        Err(ApiError::stale(req.expected_version, live.version))
    }
}

/// One refusal for one rule, on CreateGame and JoinGame alike.
fn guest_in_rated_game() -> ApiError {
    ApiError::new(
        ErrorCode::PermissionDenied,
        "rated_requires_account",
        "guests may not play rated games: register or sign in to play one",
    )
}
