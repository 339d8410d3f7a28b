//! Reports from result rows: summary tables (polars) and PNG figures (plotters), each
//! stamped with the config hash and the commit. No numerics beyond aggregation happen here.

pub mod columns;
pub mod compare;
mod csv_rows;
mod entries;
pub mod figures;
pub mod html;
mod measure;
mod stamp;
pub mod swept;
pub mod tables;
pub mod times;

pub use csv_rows::write_csv;
pub use stamp::{commit, stamp};
