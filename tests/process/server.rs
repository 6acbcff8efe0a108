//! A real `reviewlock serve` process on a database of the test's choosing.

use std::path::PathBuf;
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use sqlx::PgPool;

use super::Client;

/// The URL of the test's own database, for the binary.
pub fn database_url(pool: &PgPool) -> String {
    let options = pool.connect_options();
    let base = server_url();
    let (server, _) = base.rsplit_once('/').expect("DATABASE_URL names a database");
    format!("{server}/{}", options.get_database().expect("a test database"))
}

/// The server URL the tests create their databases through (the README's test command sets it).
pub fn server_url() -> String {
    std::env::var("DATABASE_URL").expect("DATABASE_URL names a server's maintenance database")
}

/// A port nothing listens on at the moment.
pub fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

/// A `reviewlock serve` process with only the settings every test gives it, ready to answer.
pub async fn serve(database: &str, admin_token: &str) -> Server {
    Serve::new(database, admin_token).start().await
}

/// How to start a `reviewlock serve` process: on a free port of 127.0.0.1, with its output
/// discarded unless [`Serve::log`] sends its stderr to a file.
pub struct Serve {
    command: Command,
    port: u16,
    log: Option<PathBuf>,
}

impl Serve {
    pub fn new(database: &str, admin_token: &str) -> Self {
        let port = free_port();
        let mut command = Command::new(env!("CARGO_BIN_EXE_reviewlock"));
        command
            .arg("serve")
            .env("DATABASE_URL", database)
            .env("REVIEWLOCK_LISTEN", format!("127.0.0.1:{port}"))
            .env("REVIEWLOCK_ADMIN_TOKEN", admin_token)
            .stdout(Stdio::null())
            .stderr(Stdio::null());
        Serve { command, port, log: None }
    }

    /// No `REVIEWLOCK_ADMIN_TOKEN`: the server creates its bootstrap token if no token exists.
    pub fn without_admin_token(mut self) -> Self {
        self.command.env_remove("REVIEWLOCK_ADMIN_TOKEN");
        self
    }

    /// Listens on `host` (a name or an address that reaches 127.0.0.1) rather than 127.0.0.1.
    pub fn host(self, host: &str) -> Self {
        let port = self.port;
        self.env("REVIEWLOCK_LISTEN", &format!("{host}:{port}"))
    }

    pub fn env(mut self, name: &str, value: &str) -> Self {
        self.command.env(name, value);
        self
    }

    pub fn envs(self, vars: &[(&str, &str)]) -> Self {
        vars.iter().fold(self, |serve, (name, value)| serve.env(name, value))
    }

    /// Writes the process's stderr (its logs) to `path`.
    pub fn log(mut self, path: PathBuf) -> Self {
        self.command.stderr(std::fs::File::create(&path).unwrap());
        self.log = Some(path);
        self
    }

    /// Starts the process and waits until `/readyz` answers 200 (at most 30 s).
    pub async fn start(mut self) -> Server {
        let child = self.command.spawn().unwrap();
        let mut server =
            Server { child, port: self.port, url: format!("http://127.0.0.1:{}", self.port), log: self.log };
        if server.until_ready(Duration::from_secs(30)).await.is_none() {
            panic!("the server did not become ready{}", server.log_for_failure());
        }
        server
    }
}

/// A running `reviewlock serve` process, killed on drop unless it already exited.
pub struct Server {
    child: Child,
    pub port: u16,
    /// `http://127.0.0.1:{port}`.
    pub url: String,
    log: Option<PathBuf>,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    pub fn client(&self) -> Client {
        Client::new(self.port)
    }

    /// Polls `/readyz` until it answers 200; how long that took, or `None` past `within`.
    /// Panics if the process exits meanwhile.
    pub async fn until_ready(&mut self, within: Duration) -> Option<Duration> {
        let started = Instant::now();
        while started.elapsed() < within {
            if let Ok(reply) = self.client().get("/readyz").send().await
                && reply.status == 200
            {
                return Some(started.elapsed());
            }
            if let Some(status) = self.exited() {
                panic!("the server exited: {status}{}", self.log_for_failure());
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        None
    }

    /// The exit status once the process has exited.
    pub fn exited(&mut self) -> Option<ExitStatus> {
        self.child.try_wait().unwrap()
    }

    pub fn alive(&mut self) -> bool {
        self.exited().is_none()
    }

    /// `kill -9`, and reaps the process.
    pub fn kill(&mut self) {
        self.child.kill().unwrap();
        self.child.wait().unwrap();
    }

    /// Sends SIGTERM; the process is left to exit by itself.
    pub fn terminate(&self) {
        let pid = self.child.id().to_string();
        let sent = Command::new("kill").args(["-TERM", &pid]).status().unwrap();
        assert!(sent.success(), "kill -TERM {pid}");
    }

    /// What the process logged so far (see [`Serve::log`]).
    pub fn log_text(&self) -> String {
        let path = self.log.as_ref().expect("the server's log goes to a file");
        std::fs::read_to_string(path).unwrap_or_default()
    }

    pub fn log_lines_containing(&self, text: &str) -> usize {
        self.log_text().lines().filter(|l| l.contains(text)).count()
    }

    fn log_for_failure(&self) -> String {
        self.log.as_ref().map_or_else(String::new, |_| format!("; its log:\n{}", self.log_text()))
    }
}
