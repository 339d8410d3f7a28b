//! Classification methods, one folder per family. Each family implements
//! [`Family`](crate::engine::Family) (its config) and [`Method`](crate::engine::Method)
//! (fitting a split); the registry below is all the runner and the config know of them.

pub mod command;
pub mod gradient;
pub mod graph;
pub mod qlds;
pub mod self_training;
pub mod sparse_graph;
pub mod svmlin;

use crate::engine::Family;

/// Every built-in family; a config's `kind` is looked up here, in this order.
pub const FAMILIES: &[&dyn Family] = &[
    &qlds::QldsFamily,
    &self_training::SelfTrainingFamily,
    &graph::GraphFamily,
    &sparse_graph::SparseGraphFamily,
    &gradient::GradientFamily,
    &svmlin::SvmlinFamily,
    &command::CommandFamily,
];
