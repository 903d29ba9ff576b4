//! AdminService's ResetPassword: a registered person's account gets a new
//! password (the operator's, or one picked here and answered once) and
//! loses every credential it holds, in one audited transaction, so whoever
//! knew the old password is signed out on every instance (the revocation
//! feed). The person logs in again with the new one.

use skit_api::{ApiError, ErrorCode};
use skit_proto::v1::{ResetPasswordRequest, ResetPasswordResponse};
use skit_store::PasswordReset;

use crate::admin_service::{AdminApi, account_id};
use crate::audit::{self, Operator};
use crate::error::store_error;
use crate::passwords;
use crate::secrets::random_hex;

impl AdminApi {
    #[tracing::instrument(skip_all, fields(account = %req.account_id))]
    pub(crate) async fn password_reset(
        &self,
        operator: Operator,
        req: ResetPasswordRequest,
    ) -> Result<ResetPasswordResponse, ApiError> {
        let id = account_id("account_id", &req.account_id)?;
        let reason = audit::reason("reason", &req.reason, true)?;
        let (password, generated) = match req.new_password {
            Some(given) => {
                passwords::check("new_password", &given)?;
                (given, String::new())
            }
            None => {
                // 24 hex characters for the operator to pass on.
                let picked = random_hex::<12>()?;
                (picked.clone(), picked)
            }
        };
        let hash = passwords::hash(password).await?;
        let record = operator.audit_account("reset_password", &reason, id);
        let reset = self
            .state()
            .store
            .reset_password(id, &hash, &record)
            .await
            .map_err(store_error)?;
        match reset {
            PasswordReset::Reset(_) => {}
            PasswordReset::NoAccount => {
                return Err(ApiError::not_found(format!("no account {id}")));
            }
            PasswordReset::NoPassword => {
                return Err(ApiError::new(
                    ErrorCode::FailedPrecondition,
                    "no_password",
                    format!("account {id} signs in without a password"),
                ));
            }
        }
        self.state().auth.forget_account(id);
        tracing::info!("password reset");
        Ok(ResetPasswordResponse {
            account: Some(self.shown(id).await?),
            generated_password: generated,
        })
    }
}
