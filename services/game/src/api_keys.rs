//! API keys: long-lived credentials a program (a bot) calls with, each
//! with a label and scopes (`play`, `read`). An account makes, lists,
//! rotates and revokes its own; rotation keeps the old secret working for
//! a grace period the caller asks for (capped by
//! `SKIT_API_KEY_GRACE_MAX_MS`), so a bot fleet can switch without a gap.

use std::time::Duration;

use skit_api::ApiError;
use skit_proto::v1::{
    CreateApiKeyRequest, CreateApiKeyResponse, ListApiKeysResponse, RevokeApiKeyRequest,
    RevokeApiKeyResponse, RotateApiKeyRequest,
};
use skit_store::{AccountKind, Credential, CredentialId, CredentialKind, Scope};
use time::OffsetDateTime;
use tonic::metadata::MetadataMap;

use crate::account_service::AccountApi;
use crate::api_key::{api_key_message, new_api_key};
use crate::auth::Caller;
use crate::error::store_error;
use crate::sessions::after;

/// The scopes an API key may be given.
const KEY_SCOPES: [Scope; 2] = [Scope::Play, Scope::Read];

/// The requested scopes, checked: known, not repeated, at least one.
fn requested_scopes(names: &[String]) -> Result<Vec<Scope>, ApiError> {
    let mut scopes = Vec::new();
    for name in names {
        let scope = Scope::parse(name)
            .filter(|s| KEY_SCOPES.contains(s))
            .ok_or_else(|| {
                ApiError::invalid("scopes", format!("{name:?}: not \"play\" or \"read\""))
            })?;
        if !scopes.contains(&scope) {
            scopes.push(scope);
        }
    }
    if scopes.is_empty() {
        return Err(ApiError::invalid(
            "scopes",
            "at least one of \"play\", \"read\"",
        ));
    }
    scopes.sort();
    Ok(scopes)
}

fn key_id(field: &str, id: &str) -> Result<CredentialId, ApiError> {
    id.parse::<i64>()
        .map(CredentialId)
        .map_err(|_| ApiError::invalid(field, "not an API key id"))
}

impl AccountApi {
    /// The caller, if its account may hold API keys.
    async fn key_holder(&self, metadata: &MetadataMap, scope: Scope) -> Result<Caller, ApiError> {
        let caller = self.state.auth.authorize(metadata, scope).await?;
        match caller.account.kind {
            AccountKind::Bot | AccountKind::Player => Ok(caller),
            AccountKind::Guest | AccountKind::Operator => Err(ApiError::permission_denied(
                "only bot and player accounts hold API keys",
            )),
        }
    }

    /// The caller's live key `id`.
    async fn own_key(&self, caller: &Caller, id: CredentialId) -> Result<Credential, ApiError> {
        let keys = self
            .state
            .store
            .credentials_of(caller.account.id, CredentialKind::ApiKey)
            .await
            .map_err(store_error)?;
        let now = OffsetDateTime::now_utc();
        keys.into_iter()
            .find(|k| k.id == id && k.is_live(now))
            .ok_or_else(|| ApiError::not_found(format!("you have no live API key {id}")))
    }

    #[tracing::instrument(skip_all)]
    pub(crate) async fn create_key(
        &self,
        metadata: &MetadataMap,
        req: CreateApiKeyRequest,
    ) -> Result<CreateApiKeyResponse, ApiError> {
        let caller = self.key_holder(metadata, Scope::Play).await?;
        let label = skit_api::text::name("label", &req.label)?;
        let scopes = requested_scopes(&req.scopes)?;
        let held = caller.scopes();
        if let Some(scope) = scopes.iter().copied().find(|s| !held.contains(s)) {
            // A key cannot do more than the credential that made it.
            caller.require(scope)?;
        }
        let (token, credential) = new_api_key(label, scopes)?;
        let stored = self
            .state
            .store
            .add_credentials(caller.account.id, &[credential])
            .await
            .map_err(store_error)?;
        let key = stored
            .first()
            .ok_or_else(|| ApiError::invariant("a stored key missing"))?;
        tracing::info!(account = %caller.account.id, key = %key.id, "API key created");
        Ok(CreateApiKeyResponse {
            token,
            api_key: Some(api_key_message(key)),
        })
    }

    #[tracing::instrument(skip_all)]
    pub(crate) async fn list_keys(
        &self,
        metadata: &MetadataMap,
    ) -> Result<ListApiKeysResponse, ApiError> {
        let caller = self.key_holder(metadata, Scope::Read).await?;
        let keys = self
            .state
            .store
            .credentials_of(caller.account.id, CredentialKind::ApiKey)
            .await
            .map_err(store_error)?;
        let now = OffsetDateTime::now_utc();
        Ok(ListApiKeysResponse {
            api_keys: keys
                .iter()
                .filter(|k| k.is_live(now))
                .map(api_key_message)
                .collect(),
        })
    }

    #[tracing::instrument(skip_all)]
    pub(crate) async fn rotate_key(
        &self,
        metadata: &MetadataMap,
        req: RotateApiKeyRequest,
    ) -> Result<CreateApiKeyResponse, ApiError> {
        let caller = self.key_holder(metadata, Scope::Play).await?;
        let id = key_id("api_key_id", &req.api_key_id)?;
        let old = self.own_key(&caller, id).await?;
        let label = old.label.clone().unwrap_or_default();
        let (token, credential) = new_api_key(label, old.scopes.clone())?;
        let store = &self.state.store;
        let stored = store
            .add_credentials(caller.account.id, &[credential])
            .await
            .map_err(store_error)?;
        let grace = Duration::from_millis(req.grace_ms).min(self.state.lifetimes.api_key_grace_max);
        let now = OffsetDateTime::now_utc();
        let until = after(now, grace);
        let until = old.expires_at.map_or(until, |at| at.min(until));
        store
            .set_credential_expiry(caller.account.id, id, until)
            .await
            .map_err(store_error)?;
        self.state.auth.forget([&old.token_hash]);
        let key = stored
            .first()
            .ok_or_else(|| ApiError::invariant("a stored key missing"))?;
        tracing::info!(account = %caller.account.id, old = %id, new = %key.id, grace_ms = grace.as_millis(), "API key rotated");
        Ok(CreateApiKeyResponse {
            token,
            api_key: Some(api_key_message(key)),
        })
    }

    #[tracing::instrument(skip_all)]
    pub(crate) async fn revoke_key(
        &self,
        metadata: &MetadataMap,
        req: RevokeApiKeyRequest,
    ) -> Result<RevokeApiKeyResponse, ApiError> {
        let caller = self.key_holder(metadata, Scope::Play).await?;
        let id = key_id("api_key_id", &req.api_key_id)?;
        self.own_key(&caller, id).await?;
        let revoked = self
            .state
            .store
            .revoke_credential(caller.account.id, id, "revoked")
            .await
            .map_err(store_error)?
            .ok_or_else(|| ApiError::not_found(format!("you have no live API key {id}")))?;
        self.state.auth.forget([&revoked.token_hash]);
        tracing::info!(account = %caller.account.id, key = %id, "API key revoked");
        Ok(RevokeApiKeyResponse {})
    }
}
