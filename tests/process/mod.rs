//! A real `reviewlock serve` process on the test's own database.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sqlx::PgPool;

/// The URL of the test's own database, for the binary.
pub fn database_url(pool: &PgPool) -> String {
    let options = pool.connect_options();
    let base = dotenvy_url();
    let (server, _) = base.rsplit_once('/').expect("DATABASE_URL names a database");
    format!("{server}/{}", options.get_database().expect("a test database"))
}

pub fn dotenvy_url() -> String {
    std::env::var("DATABASE_URL").ok().unwrap_or_else(|| {
        let env = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/.env")).unwrap();
        env.lines().find_map(|l| l.strip_prefix("DATABASE_URL=")).unwrap().trim().to_owned()
    })
}

/// A `reviewlock serve` process on a free port, stopped on drop.
pub struct Server {
    child: std::process::Child,
    pub url: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub async fn serve(database: &str, admin_token: &str) -> Server {
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let child = Command::new(env!("CARGO_BIN_EXE_reviewlock"))
        .arg("serve")
        .env("DATABASE_URL", database)
        .env("REVIEWLOCK_LISTEN", format!("127.0.0.1:{port}"))
        .env("REVIEWLOCK_ADMIN_TOKEN", admin_token)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let server = Server { child, url: format!("http://127.0.0.1:{port}") };
    let started = Instant::now();
    while tokio::net::TcpStream::connect(("127.0.0.1", port)).await.is_err() {
        assert!(started.elapsed() < Duration::from_secs(30), "the server did not start");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    server
}
