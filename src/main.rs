//! The `sslab` command line: parse arguments and dispatch to one file per subcommand
//! (`src/cli/`); errors go to stderr with a non-zero exit code.

mod cli;

use std::process::ExitCode;

use clap::Parser;

use cli::{Cli, dispatch};

fn main() -> ExitCode {
    // A closed pipe (`sslab table … | head`) ends the process quietly, as for other tools.
    #[cfg(unix)]
    // SAFETY: restoring the default action of a signal before any thread starts.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    let result = dispatch(Cli::parse().command);
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
