//! Statistical tests used by the reports.

mod wilcoxon;

pub use wilcoxon::signed_rank_p_greater;
