//! The harness of the tests that start real `reviewlock` processes: [`Serve`] starts one on a
//! database and [`Client`] talks HTTP to it; [`listen`] serves the in-process router to one that
//! asks a server (a hook, `reviewlock check`) and keeps what it sent. Included by each such test
//! binary with `mod process;`; each uses only part of it, hence the allowances.
#![allow(dead_code, unused_imports)]

mod client;
mod listen;
mod server;

pub use client::{Call, Client, Reply};
pub use listen::{Listening, Received, listen};
pub use server::{Serve, Server, database_url, free_port, serve, server_url};
