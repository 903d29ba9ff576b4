//! AdminService's credential calls: an account's credentials as operators
//! see them (what each is, never its secret), and revoking one, audited in
//! the revocation's transaction. The revocation feed tells every
//! instance's cache.

use skit_api::{ApiError, timestamp};
use skit_proto::v1::{
    AdminCredential, ListCredentialsRequest, ListCredentialsResponse, RevokeCredentialRequest,
};
use skit_store::{AccountId, Credential, CredentialId};

use crate::admin_service::{AdminApi, account_id};
use crate::audit::{self, Operator};
use crate::error::store_error;

fn message(c: Credential) -> AdminCredential {
    AdminCredential {
        credential_id: c.id.to_string(),
        kind: c.kind.as_str().to_owned(),
        session_id: c.session_id,
        scopes: c.scopes.iter().map(|s| s.as_str().to_owned()).collect(),
        label: c.label,
        created_at: Some(timestamp(c.created_at)),
        expires_at: c.expires_at.map(timestamp),
        revoked_at: c.revoked_at.map(timestamp),
        revoked_reason: c.revoked_reason,
    }
}

impl AdminApi {
    /// NOT_FOUND unless account `id` exists.
    async fn existing(&self, id: AccountId) -> Result<(), ApiError> {
        self.state()
            .store
            .account(id)
            .await
            .map_err(store_error)?
            .map(drop)
            .ok_or_else(|| ApiError::not_found(format!("no account {id}")))
    }

    #[tracing::instrument(skip_all, fields(account = %req.account_id))]
    pub(crate) async fn credentials(
        &self,
        req: ListCredentialsRequest,
    ) -> Result<ListCredentialsResponse, ApiError> {
        let id = account_id("account_id", &req.account_id)?;
        self.existing(id).await?;
        let credentials = self
            .state()
            .store
            .account_credentials(id)
            .await
            .map_err(store_error)?;
        Ok(ListCredentialsResponse {
            credentials: credentials.into_iter().map(message).collect(),
        })
    }

    #[tracing::instrument(skip_all, fields(account = %req.account_id))]
    pub(crate) async fn revoke(
        &self,
        operator: Operator,
        req: RevokeCredentialRequest,
    ) -> Result<AdminCredential, ApiError> {
        let id = account_id("account_id", &req.account_id)?;
        let credential = account_id("credential_id", &req.credential_id)?;
        let reason = audit::reason("reason", &req.reason, true)?;
        let mut record = operator.audit_account("revoke_credential", &reason, id);
        record.details = serde_json::json!({ "credential_id": credential.0 });
        let revoked = self
            .state()
            .store
            .revoke_credential_audited(id, CredentialId(credential.0), &reason, &record)
            .await
            .map_err(store_error)?
            .ok_or_else(|| {
                ApiError::not_found(format!(
                    "account {id} holds no live credential {}",
                    credential.0
                ))
            })?;
        self.state().auth.forget_account(id);
        tracing::info!(credential = credential.0, "credential revoked");
        Ok(message(revoked))
    }
}
