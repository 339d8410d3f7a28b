//! sslab: semi-supervised classification methods and an experiment harness.
//!
//! One path carries everything: [`config`] (TOML → checked experiment) → [`data`]
//! (datasets and problems) → [`protocol`] (seeded splits, parallel runner, result rows) →
//! [`report`] (polars tables, plotters figures). Methods live in [`methods`], one folder
//! per family, each implementing the [`engine`] traits; dense algebra goes through the
//! thin faer helpers in [`linalg`].
//!
//! # Running a config
//!
//! [`config::parse`] checks a config's text (errors name the line and key) and
//! [`protocol::run`] runs every (dataset, split, method) into a folder, as `sslab run` does:
//!
//! ```
//! use std::path::Path;
//!
//! use sslab::{config, protocol};
//!
//! let toml = r#"
//! [experiment]
//! name = "doc"
//! seed = 1
//! splits = 2
//!
//! [[datasets]]
//! name = "gauss"
//! kind = "synthetic"
//! dim = 10
//! mean_norm = 2.0
//! labeled_per_class = 5
//! unlabeled_per_class = 50
//!
//! [[methods]]
//! kind = "ls_svm"
//! "#;
//! let exp = config::parse(toml, Path::new("doc.toml"))?;
//! let dir = std::env::temp_dir().join(format!("sslab-doc-run-{}", std::process::id()));
//! std::fs::create_dir_all(&dir).map_err(|e| sslab::Error::io(&dir, e))?;
//! let rows = protocol::run(&exp, &protocol::RunOptions::default(), &dir);
//! std::fs::remove_dir_all(&dir).map_err(|e| sslab::Error::io(&dir, e))?;
//! let rows = rows?;
//! assert_eq!(rows.len(), 2);
//! assert!(rows.iter().all(|r| r.status == "ok" && r.method == "LS-SVM"));
//! # Ok::<(), sslab::Error>(())
//! ```
//!
//! # Fitting one method
//!
//! Each family can also be used on its own: draw a problem (labeled rows with labels,
//! unlabeled rows) and fit, here QLDS with (α_l, α_u) = (0.5, 1):
//!
//! ```
//! use ndarray::Array1;
//! use rand::SeedableRng;
//! use sslab::data::synthetic::GaussianMixture;
//! use sslab::data::{Sampler, error_rate};
//! use sslab::methods::qlds::QldsParams;
//!
//! let mu = Array1::from_elem(20, 0.5); // class means ±μ, ‖μ₁ − μ₂‖ ≈ 4.5
//! let mixture = GaussianMixture::new([mu.clone(), -mu], None)?;
//! let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
//! let problem = mixture.sample_problem([10, 10], [200, 200], &mut rng);
//! let fitted = QldsParams::new(0.5, 1.0).check()?.fit(&problem)?;
//! let scores = fitted.scores(problem.x_u.to_dense().view());
//! assert!(error_rate(scores.view(), problem.y_u.view()) < 0.1);
//! # Ok::<(), sslab::Error>(())
//! ```

pub mod config;
pub mod data;
pub mod engine;
pub mod error;
pub mod linalg;
pub mod methods;
pub mod protocol;
#[cfg(feature = "report")]
pub mod report;
pub mod stats;
pub mod support;

pub use error::{Error, Result};
