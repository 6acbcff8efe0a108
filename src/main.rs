use clap::Parser;
use reviewlock::config::{Cli, Command, ServeConfig};

#[tokio::main]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Openapi) => {
            println!("{}", reviewlock::openapi_json());
            std::process::ExitCode::SUCCESS
        }
        command => {
            reviewlock::telemetry::init();
            let config = match command {
                Some(Command::Serve(config)) => config,
                _ => ServeConfig::from_env(),
            };
            match reviewlock::serve(config).await {
                Ok(()) => std::process::ExitCode::SUCCESS,
                Err(e) => {
                    tracing::error!(error = %e, "reviewlock stopped");
                    std::process::ExitCode::FAILURE
                }
            }
        }
    }
}
