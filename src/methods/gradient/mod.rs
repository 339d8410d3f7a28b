//! Linear semi-supervised losses trained by Adam (QLDS paper, Table 4): λ‖ω‖² plus a labeled
//! loss (square, smooth hinge, logistic) plus an unlabeled term (QLDS's rewarded quadratic
//! margin or the penalised smooth absolute margin), with QLDS's centring and 1/√n scaling;
//! gradients by hand, full-batch Adam, (α_l, α_u, λ) chosen by the oracle over a grid.

mod adam;
mod family;
mod grid;
mod loss;
mod objective;

pub use adam::{Adam, Run, Workspace};
pub use family::{GradientFamily, GradientSsl};
pub use grid::{Best, OracleGrid, Training};
pub use loss::{HINGE_GAMMA, Labeled, Unlabeled};
pub use objective::{Inputs, Objective, bounded};

#[cfg(test)]
mod tests;
