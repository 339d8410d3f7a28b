//! Self-training with LS-SVM (QLDS(1, 0)) as the base classifier, ST(LS-SVM): repeatedly
//! fit, then move the most confident unlabeled points, with their predicted labels, into
//! the labeled set.

mod family;
mod fit;
mod params;

pub use family::SelfTrainingFamily;
pub use fit::FittedSelfTraining;
pub use params::{SelfTraining, SelfTrainingParams, Threshold};
