//! The integration tests, one binary (as ripgrep does): one link of the test harness against
//! sslab instead of one per file. Each file below is a module of end-to-end tests of the
//! `sslab` binary or the library; `common` holds their shared helpers. Tests longer than
//! 30 s sit in modules named `long` and are `#[ignore]`d: `make test-long` runs them.

mod address_space;
mod cli;
mod command_groups;
mod command_method;
mod common;
mod config_paths;
mod data_cli;
mod dataset_kind;
mod datasets;
mod docs_links;
mod engine_family;
mod estimates;
mod fetch_http;
mod fetch_proxy;
mod fetch_tls;
mod figure_svg;
mod figures_listed;
mod gallery;
mod hardening;
mod import_cycles;
mod interrupt;
mod knn_exact;
mod layout;
mod method_tables;
mod models;
mod non_regular_files;
mod one_vs_rest;
mod originals;
mod own_row_order;
mod pooling;
mod predict;
mod provenance;
mod report;
mod resume_kill;
mod row_order;
mod scores;
mod shards;
mod simd_paths;
mod sklearn_scripts;
mod slurm_scripts;
mod solver_default;
mod stray_rows;
mod table_kinds;
mod test_sets;
mod theory_cli;
mod tuning;
mod workflow;
