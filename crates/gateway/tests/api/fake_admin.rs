//! The fake's AdminService: records each request and answers with what it
//! was asked about.

use skit_proto::v1::{
    AccountStatus, AdminAccount, AdminCredential, AdminSetHouseBotRequest, AuditEntry,
    FindAccountsRequest, FindAccountsResponse, GetAccountRequest, ListAuditLogRequest,
    ListAuditLogResponse, ListCredentialsRequest, ListCredentialsResponse, ResetPasswordRequest,
    ResetPasswordResponse, RevokeCredentialRequest, SetAccountStatusRequest, VoidGameRequest,
    VoidGameResponse, admin_service_server::AdminService,
};
use tonic::{Request, Response, Status};

use crate::fake::Fake;

fn account(account_id: String, status: i32) -> AdminAccount {
    AdminAccount {
        account_id,
        name: "Ada".into(),
        status,
        ..Default::default()
    }
}

#[tonic::async_trait]
impl AdminService for Fake {
    async fn find_accounts(
        &self,
        request: Request<FindAccountsRequest>,
    ) -> Result<Response<FindAccountsResponse>, Status> {
        self.accept("FindAccounts", &request)?;
        Ok(Response::new(FindAccountsResponse {
            accounts: vec![account("7".into(), AccountStatus::Active.into())],
            next_page_token: "7".into(),
        }))
    }

    async fn get_account(
        &self,
        request: Request<GetAccountRequest>,
    ) -> Result<Response<AdminAccount>, Status> {
        self.accept("GetAccount", &request)?;
        let id = request.into_inner().account_id;
        Ok(Response::new(account(id, AccountStatus::Active.into())))
    }

    async fn set_account_status(
        &self,
        request: Request<SetAccountStatusRequest>,
    ) -> Result<Response<AdminAccount>, Status> {
        self.accept("SetAccountStatus", &request)?;
        let request = request.into_inner();
        Ok(Response::new(account(request.account_id, request.status)))
    }

    async fn set_house_bot(
        &self,
        request: Request<AdminSetHouseBotRequest>,
    ) -> Result<Response<AdminAccount>, Status> {
        self.accept("AdminSetHouseBot", &request)?;
        let request = request.into_inner();
        let mut answer = account(request.account_id, AccountStatus::Active.into());
        answer.house_bot = request.house_bot;
        Ok(Response::new(answer))
    }

    async fn void_game(
        &self,
        request: Request<VoidGameRequest>,
    ) -> Result<Response<VoidGameResponse>, Status> {
        self.accept("VoidGame", &request)?;
        Ok(Response::new(VoidGameResponse {
            game_id: request.into_inner().game_id,
            version: 9,
        }))
    }

    async fn list_audit_log(
        &self,
        request: Request<ListAuditLogRequest>,
    ) -> Result<Response<ListAuditLogResponse>, Status> {
        self.accept("ListAuditLog", &request)?;
        Ok(Response::new(ListAuditLogResponse {
            entries: vec![AuditEntry {
                id: "3".into(),
                action: request.into_inner().action,
                ..Default::default()
            }],
            next_page_token: String::new(),
        }))
    }

    async fn list_credentials(
        &self,
        request: Request<ListCredentialsRequest>,
    ) -> Result<Response<ListCredentialsResponse>, Status> {
        self.accept("ListCredentials", &request)?;
        Ok(Response::new(ListCredentialsResponse {
            credentials: vec![AdminCredential {
                credential_id: "5".into(),
                kind: "api_key".into(),
                ..Default::default()
            }],
        }))
    }

    async fn revoke_credential(
        &self,
        request: Request<RevokeCredentialRequest>,
    ) -> Result<Response<AdminCredential>, Status> {
        self.accept("RevokeCredential", &request)?;
        Ok(Response::new(AdminCredential {
            credential_id: request.into_inner().credential_id,
            kind: "api_key".into(),
            revoked_reason: Some("operator".into()),
            ..Default::default()
        }))
    }

    async fn reset_password(
        &self,
        request: Request<ResetPasswordRequest>,
    ) -> Result<Response<ResetPasswordResponse>, Status> {
        self.accept("ResetPassword", &request)?;
        Ok(Response::new(ResetPasswordResponse {
            account: Some(account(request.into_inner().account_id, 0)),
            generated_password: "picked-by-the-fake".into(),
        }))
    }
}
