//! Metrics and statistical tests used by the runner and the reports.

pub mod friedman;
mod metrics;
pub mod posthoc;
pub mod special;
mod wilcoxon;

pub use metrics::{log_log_fit, mean_ci, mean_std, prbep};
pub use wilcoxon::{EXACT_MAX, signed_rank_p_greater};
