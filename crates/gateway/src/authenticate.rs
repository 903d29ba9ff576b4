//! Who may call, as the REST face asks it before refusing a request's
//! content: a request with bad credentials is told so (401) before it is
//! told what is wrong with its body or query (400, 413, 415), so a client
//! that is not signed in learns that first.
//!
//! The services authenticate every call themselves; this is asked only
//! for a request the gateway refuses before the service sees it.

use std::sync::Arc;

use skit_i18n::Language;
use skit_proto::v1::{WhoAmIRequest, account_service_server::AccountService};
use tonic::{Status, metadata::MetadataMap};

/// Checks a request's credentials (its `authorization` metadata).
#[tonic::async_trait]
pub trait Authenticate: Send + Sync + 'static {
    /// `Ok` if the credentials name a caller; the service's status (e.g.
    /// UNAUTHENTICATED) otherwise.
    async fn authenticate(&self, metadata: MetadataMap) -> Result<(), Status>;

    /// The language the caller chose for their account, if the
    /// credentials name a caller who chose one; error messages follow it
    /// before `Accept-Language` (docs/languages.md).
    async fn language(&self, metadata: MetadataMap) -> Option<Language> {
        let _ = metadata;
        None
    }
}

/// Credentials checked by the AccountService's `WhoAmI`.
#[derive(Debug)]
pub struct WhoAmI<A>(pub Arc<A>);

#[tonic::async_trait]
impl<A: AccountService> Authenticate for WhoAmI<A> {
    async fn authenticate(&self, metadata: MetadataMap) -> Result<(), Status> {
        let request = tonic::Request::from_parts(metadata, Default::default(), WhoAmIRequest {});
        self.0.who_am_i(request).await.map(|_| ())
    }

    async fn language(&self, metadata: MetadataMap) -> Option<Language> {
        let request = tonic::Request::from_parts(metadata, Default::default(), WhoAmIRequest {});
        let me = self.0.who_am_i(request).await.ok()?.into_inner();
        Language::parse(&me.language)
    }
}
