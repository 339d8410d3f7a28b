//! Small value checks shared by the experiment and dataset entries.

use toml::Spanned;

use crate::engine::Located;
use crate::error::Result;

/// A count ≥ 1, or an error at its line naming `key`.
pub(super) fn positive(v: &Spanned<i64>, key: &str, at: Located) -> Result<usize> {
    match usize::try_from(*v.get_ref()) {
        Ok(n) if n >= 1 => Ok(n),
        _ => Err(at.error(v.span(), format!("{key}: must be ≥ 1, got {}", v.get_ref()))),
    }
}
