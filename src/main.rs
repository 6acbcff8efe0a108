use std::process::ExitCode;

use clap::Parser;
use reviewlock::config::{Cli, Command, ServeConfig, TokenCommand};

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse();
    let outcome = match cli.command {
        Some(Command::Openapi) => {
            println!("{}", reviewlock::openapi_json());
            Ok(())
        }
        Some(Command::Check(args)) => return reviewlock::cli::check(&args).await,
        Some(Command::Migrate(database)) => {
            reviewlock::telemetry::init();
            reviewlock::cli::migrate(&database).await
        }
        Some(Command::Token(TokenCommand::Create(args))) => {
            reviewlock::telemetry::init();
            reviewlock::cli::token_create(&args).await.map(|secret| println!("{secret}"))
        }
        Some(Command::Serve(config)) => {
            reviewlock::telemetry::init();
            reviewlock::serve(config).await
        }
        None => {
            reviewlock::telemetry::init();
            reviewlock::serve(ServeConfig::from_env()).await
        }
    };
    match outcome {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("reviewlock: {e}");
            ExitCode::FAILURE
        }
    }
}
