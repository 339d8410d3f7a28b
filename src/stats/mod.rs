//! Metrics and statistical tests used by the runner and the reports.

mod metrics;
pub mod special;
mod wilcoxon;

pub use metrics::{log_log_fit, mean_std, prbep};
pub use wilcoxon::signed_rank_p_greater;
