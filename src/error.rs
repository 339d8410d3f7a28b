//! The crate's error type: every failure names the file, line, parameter or method involved.

use std::path::PathBuf;

/// Result alias used across the library.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in sslab, each variant carrying where it happened.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Reading or writing a file failed.
    #[error("{}: {source}", path.display())]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    /// A config value is out of range, unknown or inconsistent, at `line` of `path`.
    #[error("{}:{line}: {message}", path.display())]
    Config { path: PathBuf, line: usize, message: String },
    /// A value of a method's table given without a file (the Python estimators'
    /// parameters) is wrong; the message starts with the key (`lambda: must be > 0`).
    #[error("{0}")]
    Table(String),
    /// A method or model parameter is invalid (no file context).
    #[error("parameter `{param}`: {message}")]
    Param { param: &'static str, message: String },
    /// A dense factorisation failed, e.g. a matrix that should be positive definite is not.
    #[error("{context}: {message}")]
    Linalg { context: &'static str, message: String },
    /// A data file is malformed at `line` (1-based) of `path`.
    #[error("{}:{line}: {message}", path.display())]
    Parse { path: PathBuf, line: usize, message: String },
    /// Data do not fit what an operation needs (too few points, one class only, ...); the
    /// message is shown as it is, with no prefix naming the module.
    #[error("{0}")]
    Data(String),
    /// A results file could not be read or written as CSV.
    #[error("{}: {message}", path.display())]
    Csv { path: PathBuf, message: String },
    /// Building a table or a figure failed (the message as it is).
    #[error("{0}")]
    Report(String),
    /// A run or merge finished and wrote its outputs, but some fits failed (exit code 3).
    #[error("{failed} of {total} fits failed (recorded in the results); first: {first}")]
    FitsFailed { failed: usize, total: usize, first: String },
}

impl Error {
    /// Wraps an I/O error with the path it concerns.
    pub fn io(path: impl Into<PathBuf>, source: std::io::Error) -> Self {
        Error::Io { path: path.into(), source }
    }

    /// The process exit code for this error: 3 for [`Error::FitsFailed`], else 1.
    pub fn exit_code(&self) -> u8 {
        match self {
            Error::FitsFailed { .. } => 3,
            _ => 1,
        }
    }

    /// A parameter error for `param`.
    pub fn param(param: &'static str, message: impl Into<String>) -> Self {
        Error::Param { param, message: message.into() }
    }
}
