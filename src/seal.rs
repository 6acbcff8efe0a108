//! Secrets at rest: webhook signing secrets and forge tokens are stored sealed with the key of
//! `REVIEWLOCK_SECRET_KEY` (ChaCha20-Poly1305), never in clear. A sealed value is
//! `1 ‖ key id (8 bytes) ‖ nonce (12) ‖ ciphertext and tag`, bound to the row it belongs to (its
//! team and id are the associated data), so one row's secret cannot be copied into another's.
//! Rotation: the new key in `REVIEWLOCK_SECRET_KEY`, the old ones in
//! `REVIEWLOCK_SECRET_KEY_PREVIOUS`; values sealed with an old key still open, and a serving
//! process seals them again with the new one at start (docs/webhooks.md).

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use chacha20poly1305::aead::{Aead, KeyInit, Payload};
use chacha20poly1305::{ChaCha20Poly1305, Nonce};
use sha2::{Digest, Sha256};

const VERSION: u8 = 1;
const HEADER: usize = 1 + 8 + 12;

/// The keys secrets are sealed with: the current one seals, any of them opens.
#[derive(Clone)]
pub struct Keys {
    current: SealKey,
    previous: Vec<SealKey>,
}

#[derive(Clone)]
struct SealKey {
    id: [u8; 8],
    cipher: ChaCha20Poly1305,
}

impl std::fmt::Debug for Keys {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Key ids only: never key material.
        f.debug_struct("Keys").field("current", &hex::encode(self.current.id)).finish_non_exhaustive()
    }
}

impl SealKey {
    fn parse(base64: &str, setting: &str) -> Result<SealKey, String> {
        let bytes = STANDARD
            .decode(base64.trim())
            .map_err(|_| format!("{setting} is not base64 (it must be 32 random bytes in base64)"))?;
        if bytes.len() != 32 {
            return Err(format!("{setting} must be 32 bytes in base64, not {} bytes", bytes.len()));
        }
        let digest = Sha256::digest(&bytes);
        let mut id = [0; 8];
        id.copy_from_slice(&digest[..8]);
        let cipher = ChaCha20Poly1305::new_from_slice(&bytes).expect("the key is 32 bytes");
        Ok(SealKey { id, cipher })
    }
}

/// A sealed value that does not open: another key's, damaged, or bound to another row.
#[derive(Debug, thiserror::Error)]
#[error("a sealed secret does not open: {0}")]
pub struct Unsealable(&'static str);

impl Keys {
    /// The current key and the previous ones, each 32 bytes in base64.
    pub fn parse(current: &str, previous: &[String]) -> Result<Keys, String> {
        let current = SealKey::parse(current, "REVIEWLOCK_SECRET_KEY")?;
        let previous = previous
            .iter()
            .filter(|k| !k.trim().is_empty())
            .map(|k| SealKey::parse(k, "REVIEWLOCK_SECRET_KEY_PREVIOUS"))
            .collect::<Result<_, _>>()?;
        Ok(Keys { current, previous })
    }

    /// Seals `secret` for the row `bound_to` (its team and id).
    pub fn seal(&self, secret: &[u8], bound_to: &str) -> Vec<u8> {
        let nonce: [u8; 12] = rand::random();
        let sealed = self
            .current
            .cipher
            .encrypt(&Nonce::from(nonce), Payload { msg: secret, aad: bound_to.as_bytes() })
            .expect("ChaCha20-Poly1305 seals any message shorter than 256 GiB");
        let mut out = Vec::with_capacity(HEADER + sealed.len());
        out.push(VERSION);
        out.extend_from_slice(&self.current.id);
        out.extend_from_slice(&nonce);
        out.extend_from_slice(&sealed);
        out
    }

    /// Opens a value sealed for the row `bound_to` with any of the keys.
    pub fn open(&self, sealed: &[u8], bound_to: &str) -> Result<Vec<u8>, Unsealable> {
        if sealed.len() < HEADER || sealed[0] != VERSION {
            return Err(Unsealable("not a sealed value"));
        }
        let key = std::iter::once(&self.current).chain(&self.previous).find(|k| k.id == sealed[1..9]).ok_or(
            Unsealable("sealed with a key that is neither REVIEWLOCK_SECRET_KEY nor a previous one"),
        )?;
        let nonce: [u8; 12] = sealed[9..HEADER].try_into().expect("12 bytes");
        key.cipher
            .decrypt(&Nonce::from(nonce), Payload { msg: &sealed[HEADER..], aad: bound_to.as_bytes() })
            .map_err(|_| Unsealable("damaged, or sealed for another row"))
    }

    /// Whether `sealed` was sealed with the current key (else it is sealed again at start).
    pub fn is_current(&self, sealed: &[u8]) -> bool {
        sealed.len() >= HEADER && sealed[1..9] == self.current.id
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn key(byte: u8) -> String {
        STANDARD.encode([byte; 32])
    }

    #[test]
    fn a_sealed_secret_opens_only_for_its_row_and_with_a_known_key() {
        let keys = Keys::parse(&key(1), &[]).unwrap();
        let sealed = keys.seal(b"whsec_abc", "acme/1");
        assert!(!sealed.windows(9).any(|w| w == b"whsec_abc"), "stored in clear");
        assert_eq!(keys.open(&sealed, "acme/1").unwrap(), b"whsec_abc");
        assert!(keys.open(&sealed, "acme/2").is_err(), "opened for another row");
        assert_ne!(keys.seal(b"whsec_abc", "acme/1"), sealed, "the nonce is random");

        let other = Keys::parse(&key(2), &[]).unwrap();
        assert!(other.open(&sealed, "acme/1").is_err());
        // Rotated: the new key seals, the old one still opens.
        let rotated = Keys::parse(&key(2), &[key(1)]).unwrap();
        assert_eq!(rotated.open(&sealed, "acme/1").unwrap(), b"whsec_abc");
        assert!(!rotated.is_current(&sealed));
        assert!(rotated.is_current(&rotated.seal(b"x", "acme/1")));
    }

    #[test]
    fn a_key_must_be_32_bytes_in_base64() {
        assert!(Keys::parse("not base64!", &[]).unwrap_err().contains("not base64"));
        assert!(Keys::parse(&STANDARD.encode([0; 16]), &[]).unwrap_err().contains("not 16 bytes"));
        assert!(Keys::parse(&key(1), &["short".into()]).unwrap_err().contains("PREVIOUS"));
    }
}
