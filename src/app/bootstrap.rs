//! A newcomer's first token: with no admin token configured and no token in the database, the
//! server creates a server-wide admin token so it can be used with curl at once.

use crate::auth;
use crate::store::{Db, tokens};

/// Creates the server-wide admin token unless any token exists, and returns its secret (`None`
/// when tokens existed). `keep` receives the secret before the token is committed, and an
/// error from it creates nothing: a secret nobody can read is never created.
pub async fn admin_token<E: From<sqlx::Error>>(
    db: &Db,
    keep: impl FnOnce(&str) -> Result<(), E>,
) -> Result<Option<String>, E> {
    let secret = auth::new_secret();
    let mut tx = db.begin().await?;
    if !tokens::bootstrap_admin(&mut tx, &auth::hash_secret(&secret)).await? {
        return Ok(None);
    }
    keep(&secret)?;
    tx.commit().await?;
    Ok(Some(secret))
}
