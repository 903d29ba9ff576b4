//! The per-game secret seed and its public commitment.

use std::fmt;
use std::str::FromStr;

use rand::TryRngCore;
use rand::rngs::OsRng;
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use sha2::{Digest, Sha256};

/// A game's secret: 32 bytes, written as 64 lower-case hex characters.
///
/// `Debug` shows only the commitment, so a seed logged by accident is not
/// revealed before the game ends.
#[derive(Clone, PartialEq, Eq)]
pub struct Seed([u8; 32]);

/// A seed that could not be made or read.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum SeedError {
    #[error("a seed is 64 hex characters (32 bytes): {0}")]
    Hex(String),
    #[error("the operating system's random source failed: {0}")]
    Os(String),
}

impl Seed {
    /// A fresh seed from the operating system's random source.
    pub fn generate() -> Result<Seed, SeedError> {
        let mut bytes = [0u8; 32];
        OsRng
            .try_fill_bytes(&mut bytes)
            .map_err(|e| SeedError::Os(e.to_string()))?;
        Ok(Seed(bytes))
    }

    pub const fn from_bytes(bytes: [u8; 32]) -> Seed {
        Seed(bytes)
    }

    pub const fn as_bytes(&self) -> &[u8; 32] {
        &self.0
    }

    /// Reads 64 hex characters (either case).
    pub fn from_hex(text: &str) -> Result<Seed, SeedError> {
        let mut bytes = [0u8; 32];
        hex::decode_to_slice(text.trim(), &mut bytes)
            .map_err(|e| SeedError::Hex(format!("{text:?}: {e}")))?;
        Ok(Seed(bytes))
    }

    /// The 64 lower-case hex characters. This is the secret: reveal it only
    /// when the game is over.
    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    /// What is published at creation: lower-case hex of sha256 over the 32
    /// raw bytes (not over the hex text).
    pub fn commitment(&self) -> String {
        hex::encode(Sha256::digest(self.0))
    }

    /// Whether `commitment` (hex, either case) is this seed's.
    pub fn matches(&self, commitment: &str) -> bool {
        commitment.trim().eq_ignore_ascii_case(&self.commitment())
    }
}

impl fmt::Debug for Seed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Seed")
            .field("commitment", &self.commitment())
            .finish_non_exhaustive()
    }
}

impl FromStr for Seed {
    type Err = SeedError;

    fn from_str(text: &str) -> Result<Seed, SeedError> {
        Seed::from_hex(text)
    }
}

/// The revealed form: the hex text.
impl Serialize for Seed {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_hex().serialize(s)
    }
}

impl<'de> Deserialize<'de> for Seed {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let text = String::deserialize(d)?;
        Seed::from_hex(&text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_round_trip_and_commitment() {
        let seed = Seed::from_bytes([0u8; 32]);
        assert_eq!(seed.to_hex(), "0".repeat(64));
        assert_eq!(Seed::from_hex(&seed.to_hex()), Ok(seed.clone()));
        // sha256 of 32 zero bytes, a well-known value.
        assert_eq!(
            seed.commitment(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
        assert!(seed.matches(&seed.commitment().to_uppercase()));
        assert!(Seed::from_hex("abc").is_err());
        assert!(Seed::from_hex(&"g".repeat(64)).is_err());
    }

    #[test]
    fn debug_does_not_print_the_secret() {
        let seed = Seed::from_bytes([0xab; 32]);
        let shown = format!("{seed:?}");
        assert!(!shown.contains(&seed.to_hex()), "{shown}");
        assert!(shown.contains(&seed.commitment()), "{shown}");
    }

    #[test]
    fn generated_seeds_differ() {
        let a = Seed::generate().expect("os random");
        let b = Seed::generate().expect("os random");
        assert_ne!(a, b);
    }
}
