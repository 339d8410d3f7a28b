//! The binary methods, one file each: RLS, SVM, Laplacian RLS/SVM, TV-RLS/SVM and
//! Cheeger-RLS/SVM; each maps the prepared kernel and graph to transductive scores.

pub(crate) mod cheeger;
pub(crate) mod lap_rls;
pub(crate) mod lap_svm;
pub(crate) mod rls;
pub(crate) mod svm;
pub(crate) mod tv;
