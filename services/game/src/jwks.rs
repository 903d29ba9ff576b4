//! Where the identity provider's public keys come from: a JWKS document
//! fetched from `SKIT_JWKS_URL` (http or https) and/or read from
//! `SKIT_JWKS_FILE`, read at start-up (the service refuses to start
//! without them) and again every `SKIT_JWKS_REFRESH_MS`, so keys the
//! provider rotates in are taken up without a restart. A failed refresh
//! keeps the keys it has.

use std::path::PathBuf;
use std::time::Duration;

use anyhow::Context;
use jsonwebtoken::jwk::JwkSet;

use crate::config::Config;
use crate::jwt::JwtVerifier;

/// The longest a JWKS fetch may take.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// The configured places to read keys from.
#[derive(Debug, Clone)]
pub struct KeySource {
    url: Option<String>,
    file: Option<PathBuf>,
    client: reqwest::Client,
}

impl KeySource {
    /// `None` unless a URL or a file is configured.
    pub fn new(url: Option<String>, file: Option<PathBuf>) -> anyhow::Result<Option<Self>> {
        if url.is_none() && file.is_none() {
            return Ok(None);
        }
        if let Some(url) = &url
            && !(url.starts_with("https://") || url.starts_with("http://"))
        {
            anyhow::bail!("SKIT_JWKS_URL must be an http:// or https:// URL, not {url:?}");
        }
        let client = reqwest::Client::builder()
            .timeout(FETCH_TIMEOUT)
            .build()
            .context("cannot build the JWKS client")?;
        Ok(Some(Self { url, file, client }))
    }

    /// Every key of the configured documents.
    pub async fn load(&self) -> anyhow::Result<JwkSet> {
        let mut keys = Vec::new();
        if let Some(path) = &self.file {
            let text = tokio::fs::read(path)
                .await
                .with_context(|| format!("cannot read SKIT_JWKS_FILE {}", path.display()))?;
            let set: JwkSet = serde_json::from_slice(&text)
                .with_context(|| format!("SKIT_JWKS_FILE {} is no JWKS", path.display()))?;
            keys.extend(set.keys);
        }
        if let Some(url) = &self.url {
            let body = self
                .client
                .get(url)
                .send()
                .await
                .and_then(reqwest::Response::error_for_status)
                .with_context(|| format!("cannot fetch SKIT_JWKS_URL {url}"))?
                .bytes()
                .await
                .with_context(|| format!("cannot fetch SKIT_JWKS_URL {url}"))?;
            let set: JwkSet = serde_json::from_slice(&body)
                .with_context(|| format!("SKIT_JWKS_URL {url} answered no JWKS"))?;
            keys.extend(set.keys);
        }
        Ok(JwkSet { keys })
    }
}

/// Reads the keys again every `every`, for as long as the service runs.
pub async fn refresh(source: KeySource, verifier: JwtVerifier, every: Duration) {
    let mut ticks = tokio::time::interval(every);
    ticks.tick().await;
    loop {
        ticks.tick().await;
        match source.load().await {
            Ok(keys) => {
                tracing::debug!(keys = keys.keys.len(), "identity provider keys read");
                verifier.replace_keys(keys);
            }
            Err(e) => {
                tracing::warn!(error = %format!("{e:#}"), "identity provider keys not refreshed; keeping the old ones")
            }
        }
    }
}

/// The verifier the configuration asks for, its keys read, and where to
/// read them again; `None` when no JWKS is configured. Refuses an issuer
/// or audience without keys, keys without both, and keys that cannot be
/// read: a service that would refuse every JWT does not start.
pub async fn configured(config: &Config) -> anyhow::Result<Option<(JwtVerifier, KeySource)>> {
    let Some(source) = KeySource::new(config.jwks_url.clone(), config.jwks_file.clone())? else {
        if config.jwt_issuer.is_some() || config.jwt_audience.is_some() {
            anyhow::bail!(
                "SKIT_JWT_ISSUER and SKIT_JWT_AUDIENCE need SKIT_JWKS_URL or SKIT_JWKS_FILE"
            );
        }
        return Ok(None);
    };
    let (Some(issuer), Some(audience)) = (&config.jwt_issuer, &config.jwt_audience) else {
        anyhow::bail!(
            "SKIT_JWKS_URL and SKIT_JWKS_FILE need SKIT_JWT_ISSUER and SKIT_JWT_AUDIENCE"
        );
    };
    let keys = source.load().await?;
    tracing::info!(keys = keys.keys.len(), issuer = %issuer, "accepting JWTs of the identity provider");
    let verifier = JwtVerifier::new(
        keys,
        issuer.clone(),
        audience.clone(),
        config.jwt_name_claim.clone(),
    );
    Ok(Some((verifier, source)))
}
