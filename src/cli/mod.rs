//! The subcommands of `sslab`, one file each: its arguments and what it does.

pub mod data;
pub mod merge;
pub mod output;
pub mod phase_diagram;
pub mod plot_curve;
pub mod plot_scores;
pub mod proportions;
pub mod run;
pub mod slurm;
pub mod study;
pub mod table;
pub mod theory;
pub mod theory_check;
pub mod times;
pub mod validate;
