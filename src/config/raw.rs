//! The TOML schema as written by users: every value keeps its byte span for messages.
//! Unknown experiment keys are rejected by serde (`deny_unknown_fields`); a method's keys
//! are checked by its family, a dataset's by its kind.

use std::collections::BTreeMap;
use std::ops::Range;

use serde::Deserialize;
use toml::{Spanned, Value};

use crate::engine::{Located, Shared};
use crate::error::Result;

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
    pub save_scores: Option<bool>,
    pub save_models: Option<bool>,
}

/// One `[[methods]]` or `[[datasets]]` table: each key with its value (shared by the
/// entries its sweeps expand to).
pub type Table = BTreeMap<String, Spanned<Shared>>;

/// A table's span, `kind` (required), `name` (optional) and its other keys.
pub type TableParts =
    (Range<usize>, Spanned<String>, Option<Spanned<String>>, Vec<(String, Spanned<Shared>)>);

/// Splits a `[[methods]]` or `[[datasets]]` table into its span, `kind`, `name` and the rest.
pub fn table_parts(table: Spanned<Table>, at: Located) -> Result<TableParts> {
    let span = table.span();
    let mut values = table.into_inner();
    let string = |v: Spanned<Shared>| match &**v.get_ref() {
        Value::String(s) => Ok(Spanned::new(v.span(), s.clone())),
        other => Err(at.error(
            v.span(),
            format!("invalid type: {} `{other}`, expected a string", other.type_str()),
        )),
    };
    let kind = match values.remove("kind") {
        Some(v) => string(v)?,
        None => return Err(at.error(span, "missing field `kind`".into())),
    };
    let name = values.remove("name").map(string).transpose()?;
    Ok((span, kind, name, values.into_iter().collect()))
}
