use std::process::ExitCode;

use reviewlock::config::{Cli, Command, TokenCommand};

#[tokio::main]
async fn main() -> ExitCode {
    let cli = Cli::parse_naming_env();
    let outcome = match cli.command {
        Some(Command::Openapi) => {
            println!("{}", reviewlock::openapi_json());
            Ok(())
        }
        Some(Command::Check(args)) => return reviewlock::cli::check(&args).await,
        Some(Command::Mcp(args)) => {
            // stdout carries the protocol: logs on stderr, without colours.
            reviewlock::telemetry::init();
            reviewlock::mcp::stdio::run(&args).await
        }
        Some(Command::Hook(args)) => return reviewlock::hook::run(&args).await,
        Some(Command::Guard(command)) => return reviewlock::guard::run(&command).await,
        Some(Command::Verify(args)) => return reviewlock::guard::verify(&args).await,
        Some(Command::Migrate(database)) => {
            reviewlock::telemetry::init();
            reviewlock::cli::migrate(&database).await
        }
        Some(Command::Token(command)) => {
            reviewlock::telemetry::init();
            match command {
                TokenCommand::Create(args) => {
                    reviewlock::cli::token_create(&args).await.map(|s| println!("{s}"))
                }
                TokenCommand::List(args) => reviewlock::cli::token_list(&args).await,
                TokenCommand::Revoke(args) => reviewlock::cli::token_revoke(&args).await,
            }
        }
        Some(Command::Serve(config)) => {
            reviewlock::telemetry::init();
            reviewlock::serve(*config).await
        }
        None => {
            reviewlock::telemetry::init();
            reviewlock::serve(cli.serve).await
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
