//! `[[methods]]` entries: the config reads `kind` and `name`, the family owning the kind
//! reads the rest.

use std::collections::BTreeMap;
use std::sync::Arc;

use toml::{Spanned, Value};

use super::sweep::Swept;
use crate::engine::{Entry, Family, Located, Method};
use crate::error::Result;

/// A named method with checked parameters.
#[derive(Debug, Clone)]
pub struct MethodSpec {
    pub name: String,
    /// The config `kind` (`qlds`, `ls_svm`, `tv_svm`, `tsvm`, ...).
    pub kind: String,
    pub method: Arc<dyn Method>,
    /// Swept keys and the values this entry took (empty without sweeps).
    pub swept: Vec<(String, String)>,
}

pub(super) fn method(table: Spanned<BTreeMap<String, Spanned<Value>>>, swept: Swept, i: usize, at: Located, families: &[&dyn Family]) -> Result<MethodSpec> {
    let span = table.span();
    let mut values = table.into_inner();
    let string = |v: Spanned<Value>| match v.get_ref() {
        Value::String(s) => Ok(Spanned::new(v.span(), s.clone())),
        other => Err(at.error(v.span(), format!("invalid type: {} `{other}`, expected a string", other.type_str()))),
    };
    let kind = match values.remove("kind") {
        Some(v) => string(v)?,
        None => return Err(at.error(span, "missing field `kind`".into())),
    };
    let name = values.remove("name").map(string).transpose()?;
    let kind_name = kind.get_ref().clone();
    let entry = Entry::new(at, i, span, kind, values.into_iter().collect());
    let family = families.iter().find(|f| f.kinds().contains(&kind_name.as_str())).ok_or_else(|| {
        let known: Vec<&str> = families.iter().flat_map(|f| f.kinds().iter().copied()).collect();
        entry.error("kind", format!("unknown kind `{kind_name}` (known: {})", known.join(", ")))
    })?;
    let checked = family.check(&entry)?;
    let name = name.map_or(checked.name, Spanned::into_inner) + &swept.suffix;
    Ok(MethodSpec { name, kind: kind_name, method: Arc::from(checked.method), swept: swept.values })
}

/// Whether the family of `kind` fits more than two classes with it.
pub(super) fn multiclass(kind: &str, families: &[&dyn Family]) -> bool {
    families.iter().any(|f| f.multiclass_kinds().contains(&kind))
}
