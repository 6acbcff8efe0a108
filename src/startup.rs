//! What a process needs before it serves: the database it was pointed at, described for the
//! errors an operator reads at startup, created if need be, connected to and migrated.

use std::fmt::Display;

use sqlx::migrate::MigrateDatabase;
use sqlx::postgres::{PgConnectOptions, PgPoolOptions};
use sqlx::{Connection, PgPool, Postgres};

use crate::config::{DatabaseConfig, PoolConfig};
use crate::store::{MIGRATOR, PING_IDLE_AFTER};

/// Creates the database if it does not exist, connects, and applies the migrations. An error
/// names the server and database it was about (never the password) and what to check.
pub async fn connect(database: &DatabaseConfig, config: &PoolConfig) -> Result<PgPool, String> {
    let target = Target::parse(&database.database_url)?;
    let url = &database.database_url;
    if !Postgres::database_exists(url).await.map_err(|e| target.failed("connecting", e))? {
        // Loudly: a typo in DATABASE_URL must not pass for a fresh, empty database.
        tracing::warn!(database = %target.database, server = %target.server, "the database does not exist; creating it");
        match Postgres::create_database(url).await {
            Ok(()) => tracing::warn!(database = %target.database, "created the database"),
            // Another replica created it first.
            Err(sqlx::Error::Database(e)) if e.code().as_deref() == Some("42P04") => {}
            Err(e) => return Err(target.failed("creating the database", e)),
        }
    }
    if target.is_maintenance() {
        tracing::warn!(
            database = %target.database,
            "DATABASE_URL names Postgres's maintenance database: reviewlock's tables will live there"
        );
    }
    let options = target.options.clone();
    let pool = PgPoolOptions::new()
        .max_connections(config.db_max_connections)
        .acquire_timeout(config.db_acquire_timeout)
        // sqlx pings every connection it takes back (a read's connection, parked by `store::Db`
        // instead, had every statement complete); pinging again on acquire would add a round
        // trip to every request. Only a connection idle for a while (one a database restart or
        // a proxy may have cut) is pinged first, and replaced if it does not answer.
        .test_before_acquire(false)
        .before_acquire(|conn, meta| {
            Box::pin(async move { Ok(meta.idle_for < PING_IDLE_AFTER || conn.ping().await.is_ok()) })
        })
        .connect_with(options)
        .await
        .map_err(|e| target.failed("connecting", e))?;
    MIGRATOR.run(&pool).await.map_err(|e| target.failed("applying the migrations", e))?;
    Ok(pool)
}

/// The database of `DATABASE_URL`, parsed, with what an error may say about it.
pub struct Target {
    pub options: PgConnectOptions,
    /// `host:port` (or the socket directory).
    pub server: String,
    pub database: String,
    pub user: String,
}

impl Target {
    /// Refuses anything but a `postgres://` (or `postgresql://`) URL, quoting it without its
    /// password.
    pub fn parse(url: &str) -> Result<Target, String> {
        let postgres = ["postgres://", "postgresql://"].iter().any(|s| url.starts_with(s));
        let options = postgres.then(|| url.parse::<PgConnectOptions>().ok()).flatten().ok_or_else(|| {
            format!(
                "DATABASE_URL must be a URL like postgres://user:password@host:5432/reviewlock; got '{}'",
                redact(url)
            )
        })?;
        let server = match options.get_socket() {
            Some(dir) => dir.display().to_string(),
            None => format!("{}:{}", options.get_host(), options.get_port()),
        };
        let database = options.get_database().unwrap_or(options.get_username()).to_owned();
        let user = options.get_username().to_owned();
        Ok(Target { options, server, database, user })
    }

    /// Whether this is one of the databases Postgres itself keeps (a URL copied from an admin
    /// tool often names one).
    pub fn is_maintenance(&self) -> bool {
        matches!(self.database.as_str(), "postgres" | "template0" | "template1")
    }

    /// What failed, where, and what to check: the error's own words without Postgres's
    /// internals (source files, line numbers).
    pub fn failed(&self, doing: &str, error: impl Into<sqlx::Error>) -> String {
        let error = error.into();
        let unreachable = "is Postgres running there? check DATABASE_URL";
        let (cause, hint): (&dyn Display, &str) = match &error {
            sqlx::Error::Io(e) => (e, unreachable),
            sqlx::Error::PoolTimedOut => (&"no connection within the timeout", unreachable),
            sqlx::Error::Database(e) => {
                (&e.message(), "check the user, password and database of DATABASE_URL")
            }
            sqlx::Error::Tls(e) => (e, "check the sslmode of DATABASE_URL"),
            other => (other, "check DATABASE_URL"),
        };
        format!(
            "{doing} to database '{}' as user '{}' on {} failed: {cause}; {hint}",
            self.database, self.user, self.server
        )
    }
}

/// The URL with its password replaced by `***`.
pub fn redact(url: &str) -> String {
    let Some((scheme, rest)) = url.split_once("://") else { return url.to_owned() };
    let Some((credentials, host)) = rest.rsplit_once('@') else { return url.to_owned() };
    match credentials.split_once(':') {
        Some((user, _)) => format!("{scheme}://{user}:***@{host}"),
        None => url.to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_url_is_described_without_its_password() {
        let t = Target::parse("postgres://bob:s3cret@db.example:6543/rl").unwrap();
        assert_eq!(
            (t.server.as_str(), t.database.as_str(), t.user.as_str()),
            ("db.example:6543", "rl", "bob")
        );
        let message = t.failed("connecting", sqlx::Error::PoolTimedOut);
        assert!(
            message.contains("db.example:6543") && message.contains("'rl'") && !message.contains("s3cret")
        );
        assert!(!t.is_maintenance());
        assert!(Target::parse("postgresql://127.0.0.1/postgres").unwrap().is_maintenance());
    }

    #[test]
    fn anything_but_postgres_is_refused_with_the_url_redacted() {
        for url in ["mysql://u:pw@h/db", "127.0.0.1:5432/db", "", "postgres//x"] {
            let e = Target::parse(url).err().expect(url);
            assert!(e.contains("DATABASE_URL must be") && !e.contains("pw@"), "{e}");
        }
        assert_eq!(redact("mysql://u:pw@h/db"), "mysql://u:***@h/db");
        assert_eq!(redact("postgres://u@h/db"), "postgres://u@h/db");
    }
}
