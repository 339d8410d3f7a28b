//! SVMlin (Sindhwani & Keerthi, SIGIR 2006): large-scale sparse linear RLS and l2-SVMs
//! (modified finite Newton), transductive SVM with multiple label switching and
//! deterministic annealing. Every cost is linear in the non-zeros of the CSR design; the
//! bias is a constant feature 1 appended implicitly to every row, regularised with w.

mod cgls;
mod da;
mod design;
mod examples;
mod family;
mod fit;
mod inner;
mod kernels;
mod line_search;
mod mfn;
mod p_step;
mod params;
mod tsvm;
mod weighted_cd;

pub use cgls::{CglsOptions, CglsReport, CglsWork, Subset, cgls};
pub use da::{DaOptions, DaReport, DaStep, da};
pub use design::{Design, Span, with_bias};
pub use examples::{Examples, l2, objective, s3vm_objective};
pub use family::SvmlinFamily;
pub use fit::{Details, FittedSvmlin};
pub use inner::Inner;
pub use line_search::line_search;
pub use mfn::{MfnOptions, MfnReport, MfnWork, mfn};
pub use p_step::{mean_entropy, mean_kl, p_step};
pub use params::{Kind, PositiveFraction, SvmSolver, Svmlin, SvmlinParams};
pub use tsvm::{TsvmOptions, TsvmReport, initial_labels, switch_labels, tsvm};
pub use weighted_cd::{WeightedCdOptions, WeightedCdReport, WeightedCdWork, weighted_cd};

#[cfg(test)]
mod tests;
