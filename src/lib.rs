//! sslab: semi-supervised classification methods and an experiment harness.
//!
//! One path carries everything: [`config`] (TOML → checked experiment) → [`data`]
//! (datasets and problems) → [`protocol`] (seeded splits, parallel runner, result rows) →
//! [`report`] (polars tables, plotters figures). Methods live in [`methods`], one folder
//! per family, each implementing the [`engine`] traits; dense algebra goes through the
//! thin faer helpers in [`linalg`].

pub mod config;
pub mod data;
pub mod engine;
pub mod error;
pub mod linalg;
pub mod methods;
pub mod protocol;
#[cfg(feature = "report")]
pub mod report;
pub mod stats;

pub use error::{Error, Result};
