//! QLDS (Feofanov et al. 2023): ω = (1/√n)(λI + α_l C_l − α_u C_u)⁻¹ X_l y_l, f(x) = ωᵀx/√n,
//! with its special cases LS-SVM (1, 0), GB-SSL (0, 1) and spectral clustering; the choice
//! of (α_l, α_u) by theory, cross-validation or oracle ([`selection`]) and the random-matrix
//! theory that predicts its error ([`theory`]).

mod family;
mod fit;
mod method;
mod multiclass;
mod native;
mod params;
mod prepared;
pub mod selection;
mod spectral;
pub mod theory;

pub use family::{QldsFamily, lambda_policy};
pub use fit::FittedQlds;
pub use method::{dense_cost, dense_memory, moments};
pub use multiclass::{FittedMulticlass, label_matrix};
pub use native::Native;
pub use params::{LambdaPolicy, Qlds, QldsParams};
pub use prepared::Moments;
pub use spectral::{FittedSpectral, Spectral};

#[cfg(test)]
mod tests;
