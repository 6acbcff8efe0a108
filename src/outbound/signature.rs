//! Standard Webhooks' signatures (<https://www.standardwebhooks.com>): a secret is `whsec_` and
//! base64 of random bytes; a signature is `v1,` and base64 of HMAC-SHA256, keyed by the
//! secret's bytes, of `{webhook-id}.{webhook-timestamp}.{body}`.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

const PREFIX: &str = "whsec_";

/// A new signing secret: `whsec_` and base64 of 32 random bytes.
pub fn new_secret() -> String {
    let bytes: [u8; 32] = rand::random();
    format!("{PREFIX}{}", STANDARD.encode(bytes))
}

/// The key a secret signs with: the bytes its base64 spells.
fn key(secret: &str) -> Vec<u8> {
    let encoded = secret.strip_prefix(PREFIX).unwrap_or(secret);
    // Our own secrets always decode; anything else signs with its raw bytes.
    STANDARD.decode(encoded).unwrap_or_else(|_| encoded.as_bytes().to_vec())
}

/// The `webhook-signature` header's value for these secrets (the current one first, then one
/// still valid during a rotation): space-separated `v1,<base64>`.
pub fn sign(secrets: &[&str], id: &str, timestamp: i64, body: &[u8]) -> String {
    secrets
        .iter()
        .map(|secret| {
            let mut mac =
                Hmac::<Sha256>::new_from_slice(&key(secret)).expect("HMAC takes a key of any length");
            mac.update(id.as_bytes());
            mac.update(b".");
            mac.update(timestamp.to_string().as_bytes());
            mac.update(b".");
            mac.update(body);
            format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes()))
        })
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The example of Standard Webhooks' specification and reference libraries.
    #[test]
    fn signs_as_the_reference_example() {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = br#"{"test": 2432232314}"#;
        assert_eq!(
            sign(&[secret], "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body),
            "v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE="
        );
    }

    #[test]
    fn a_rotation_signs_with_both_secrets() {
        let (new, old) = (new_secret(), new_secret());
        assert!(new.starts_with("whsec_") && new != old);
        let both = sign(&[&new, &old], "msg_1", 1, b"{}");
        let parts: Vec<_> = both.split(' ').collect();
        assert_eq!(parts, [sign(&[&new], "msg_1", 1, b"{}"), sign(&[&old], "msg_1", 1, b"{}")]);
    }
}
