//! The `sslab` command line: parse arguments and dispatch to one file per subcommand
//! (`src/cli/`); errors go to stderr with a non-zero exit code.

mod cli;

use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

use cli::{Cli, dispatch};

fn main() -> ExitCode {
    // A closed pipe (`sslab table … | head`) ends the process quietly, as for other tools.
    #[cfg(unix)]
    // SAFETY: restoring the default action of a signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    // The version names the commit every output is stamped with (fixed at build time).
    let mut command = Cli::command();
    if std::env::args().any(|a| a == "--version" || a == "-V") {
        let version = format!("{} (commit {})", env!("CARGO_PKG_VERSION"), sslab::report::commit());
        command = command.version(&*Box::leak(version.into_boxed_str()));
    }
    let matches = command.get_matches();
    let cli = Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.exit());
    let result = dispatch(cli.command);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::from(e.exit_code())
        }
    }
}
