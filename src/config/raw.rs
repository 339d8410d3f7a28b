//! The TOML schema as written by users: every value keeps its byte span for messages.
//! Unknown experiment keys are rejected by serde (`deny_unknown_fields`); a method's keys
//! are checked by its family, a dataset's by its kind.

use std::collections::BTreeMap;

use serde::Deserialize;
use toml::Spanned;

/// A whole config file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Config {
    pub experiment: Spanned<Experiment>,
    /// `[[datasets]]` entries: each key with its value; the dataset kind of `kind` reads
    /// them (`data::kinds`).
    #[serde(default)]
    pub datasets: Vec<Spanned<Table>>,
    /// `[[methods]]` entries: each key with its value; the family of its `kind` reads them.
    #[serde(default)]
    pub methods: Vec<Spanned<Table>>,
}

/// `[experiment]`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Experiment {
    pub name: Spanned<String>,
    pub seed: Spanned<i64>,
    pub splits: Option<Spanned<i64>>,
}

/// One `[[methods]]` or `[[datasets]]` table: each key with its value.
pub type Table = BTreeMap<String, Spanned<toml::Value>>;
