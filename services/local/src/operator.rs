//! The operator's token of a local Skitgubbe: `SKIT_OPERATOR_TOKEN`, else
//! the one kept in the data folder, else a new random one kept there, so
//! bots and tables survive restarts. Whoever holds it acts for every seat:
//! the file is readable by its owner only, and a token short enough to
//! guess is refused.

use std::fs::OpenOptions;
use std::io::Write;
use std::path::Path;

use anyhow::Context;
use rand::RngCore;
use skit_api::Secret;

/// The token's file in the data folder.
pub const TOKEN_FILE: &str = "skitgubbe-operator.token";

/// `SKIT_OPERATOR_TOKEN`, else the token kept in `data_dir`, else a new
/// random one written there.
pub fn operator_token(data_dir: &Path) -> anyhow::Result<String> {
    token_from(std::env::var("SKIT_OPERATOR_TOKEN").ok(), data_dir)
}

/// [`operator_token`] with the environment's value given.
fn token_from(from_env: Option<String>, data_dir: &Path) -> anyhow::Result<String> {
    if let Some(token) = from_env {
        Secret::new(token.as_str()).check_operator_token()?;
        return Ok(token);
    }
    let path = data_dir.join(TOKEN_FILE);
    match std::fs::read_to_string(&path) {
        Ok(token) if !token.trim().is_empty() => {
            // A file written before it was kept private, or copied in.
            owner_only(&path)?;
            let token = token.trim().to_owned();
            Secret::new(token.as_str())
                .check_operator_token()
                .with_context(|| format!("the operator token in {}", path.display()))?;
            return Ok(token);
        }
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
        Err(e) => return Err(e).with_context(|| format!("cannot read {}", path.display())),
    }
    let mut bytes = [0u8; 32];
    rand::rng().fill_bytes(&mut bytes);
    let token = format!("op_{}", hex::encode(bytes));
    write_owner_only(&path, &token).with_context(|| format!("cannot write {}", path.display()))?;
    Ok(token)
}

/// Writes `text` to `path`, readable and writable by its owner only, from
/// the moment it is created (an existing file loses other permissions
/// before anything is written to it).
fn write_owner_only(path: &Path, text: &str) -> anyhow::Result<()> {
    let mut options = OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let mut file = options.open(path)?;
    owner_only(path)?;
    file.write_all(text.as_bytes())?;
    Ok(())
}

/// Mode 0600 on Unix; elsewhere the folder's own protection applies.
fn owner_only(path: &Path) -> anyhow::Result<()> {
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o600))
            .with_context(|| format!("cannot make {} private", path.display()))?;
    }
    #[cfg(not(unix))]
    let _ = path;
    Ok(())
}

#[cfg(all(test, unix))]
mod tests {
    use std::os::unix::fs::PermissionsExt;

    use super::*;

    fn mode(path: &Path) -> u32 {
        std::fs::metadata(path)
            .expect("metadata")
            .permissions()
            .mode()
            & 0o777
    }

    #[test]
    fn a_new_token_is_kept_for_its_owner_only_and_reused() {
        let dir = tempfile::tempdir().expect("temp dir");

        let made = token_from(None, dir.path()).expect("a new token");
        let again = token_from(None, dir.path()).expect("the kept token");

        assert_eq!(made, again, "the kept token is reused");
        assert!(made.len() >= 16, "{made}");
        assert_eq!(mode(&dir.path().join(TOKEN_FILE)), 0o600);
    }

    #[test]
    fn an_existing_readable_token_file_is_made_private() {
        let dir = tempfile::tempdir().expect("temp dir");
        let path = dir.path().join(TOKEN_FILE);
        std::fs::write(&path, "op_an-older-token-from-a-file\n").expect("write");
        std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).expect("chmod");

        let token = token_from(None, dir.path()).expect("the kept token");

        assert_eq!(token, "op_an-older-token-from-a-file");
        assert_eq!(mode(&path), 0o600);
    }

    #[test]
    fn a_short_token_is_refused_at_start_up() {
        let dir = tempfile::tempdir().expect("temp dir");

        let from_env = token_from(Some("x".into()), dir.path()).expect_err("one character");
        std::fs::write(dir.path().join(TOKEN_FILE), "short").expect("write");
        let from_file = token_from(None, dir.path()).expect_err("five characters");

        assert!(
            from_env.to_string().contains("SKIT_OPERATOR_TOKEN"),
            "{from_env}"
        );
        assert!(
            format!("{from_file:#}").contains("at least 16"),
            "{from_file:#}"
        );
    }
}
