//! Bearer tokens' secrets, stored only as hashes.

use sha2::{Digest, Sha256};

/// A new random secret: `rl_` and 64 hex digits (256 bits).
pub fn new_secret() -> String {
    let bytes: [u8; 32] = rand::random();
    format!("rl_{}", hex::encode(bytes))
}

/// Secrets are stored and looked up only by their SHA-256, so a lookup compares no secret bytes.
pub fn hash_secret(secret: &str) -> Vec<u8> {
    Sha256::digest(secret.as_bytes()).to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn secrets_are_random_and_hash_stably() {
        let (a, b) = (new_secret(), new_secret());
        assert_ne!(a, b);
        assert!(a.starts_with("rl_") && a.len() == 67);
        assert_eq!(hash_secret(&a), hash_secret(&a));
        assert_ne!(hash_secret(&a), hash_secret(&b));
    }
}
