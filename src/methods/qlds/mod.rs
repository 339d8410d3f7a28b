//! QLDS (Feofanov et al. 2023): ω = (1/√n)(λI + α_l C_l − α_u C_u)⁻¹ X_l y_l, f(x) = ωᵀx/√n,
//! with its special cases LS-SVM (1, 0), GB-SSL (0, 1) and spectral clustering.

mod fit;
mod params;
mod prepared;
mod spectral;

pub use fit::FittedQlds;
pub use params::{LambdaPolicy, Qlds, QldsParams};
pub use prepared::Prepared;
pub use spectral::{FittedSpectral, Spectral};

#[cfg(test)]
mod tests;
