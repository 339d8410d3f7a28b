//! What every layer of sslab uses and which uses nothing of sslab's own but its errors:
//! reading one config table (with key suggestions), the folders a config's paths are read
//! from, files written whole or not at all, the memory limit, and what an interrupt does.

pub mod address_space;
pub mod atomic;
mod base;
mod entry;
pub mod interrupt;
pub mod memory;
pub mod suggest;

pub use atomic::write_atomic;
pub use base::{Base, data_dir};
pub use entry::{Entry, Lines, Located, Shared, newlines};
