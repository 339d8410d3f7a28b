//! The (α_l, α_u) grid and the error of each of its points under one policy.

use crate::error::{Error, Result};

/// The α_l and α_u values of the grid (each ascending); (0, 0) is never evaluated. A point
/// is skipped (no error, never selected) when the system is not positive definite in the
/// eigenbasis of C_u, λ ≤ α_u·λ_max(C_u): see [`admits`].
#[derive(Debug, Clone, PartialEq)]
pub struct Grid {
    pub alphas_l: Vec<f64>,
    pub alphas_u: Vec<f64>,
}

impl Grid {
    /// Default: 11 points per axis, α ∈ {0, 0.1, …, 1} (120 grid points).
    pub const DEFAULT_POINTS: usize = 11;
    /// Largest number of points per axis (10⁶ grid points).
    pub const MAX_POINTS: usize = 1000;

    /// `points` equally spaced values in [0, 1] on both axes, α = i/(points − 1).
    pub fn uniform(points: usize) -> Result<Self> {
        if !(2..=Self::MAX_POINTS).contains(&points) {
            return Err(Error::param(
                "grid",
                format!("needs 2 to {} points per axis, got {points}", Self::MAX_POINTS),
            ));
        }
        Ok(Grid { alphas_l: uniform_values(points), alphas_u: uniform_values(points) })
    }

    /// A grid of given axis values: each axis 1 to [`MAX_POINTS`](Self::MAX_POINTS) finite
    /// values ≥ 0, strictly ascending, with some point other than (0, 0).
    pub fn new(alphas_l: Vec<f64>, alphas_u: Vec<f64>) -> Result<Self> {
        for (name, v) in [("alpha_l", &alphas_l), ("alpha_u", &alphas_u)] {
            if v.is_empty() || v.len() > Self::MAX_POINTS {
                return Err(Error::param(
                    name,
                    format!("needs 1 to {} grid values, got {}", Self::MAX_POINTS, v.len()),
                ));
            }
            if let Some(x) = v.iter().find(|x| !(x.is_finite() && **x >= 0.0)) {
                return Err(Error::param(
                    name,
                    format!("grid values must be finite and ≥ 0, got {x}"),
                ));
            }
            if v.windows(2).any(|w| w[0] >= w[1]) {
                return Err(Error::param(name, "grid values must be strictly ascending"));
            }
        }
        if alphas_l == [0.0] && alphas_u == [0.0] {
            return Err(Error::param("alpha_l", "the grid has no point but (0, 0)"));
        }
        Ok(Grid { alphas_l, alphas_u })
    }

    /// Number of (α_l, α_u) pairs, (0, 0) included.
    pub fn len(&self) -> usize {
        self.alphas_l.len() * self.alphas_u.len()
    }

    /// Whether the grid has no point (never, for a checked grid).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// For result rows: `grid=N` for a uniform grid, else both axes (`alpha_l=0/1/10 ...`).
    pub fn describe(&self) -> String {
        let n = self.alphas_l.len();
        if self.alphas_u.len() == n
            && self.alphas_l == uniform_values(n)
            && self.alphas_u == self.alphas_l
        {
            return format!("grid={n}");
        }
        let join = |v: &[f64]| v.iter().map(f64::to_string).collect::<Vec<_>>().join("/");
        format!("alpha_l={} alpha_u={}", join(&self.alphas_l), join(&self.alphas_u))
    }
}

impl Default for Grid {
    fn default() -> Self {
        Grid {
            alphas_l: uniform_values(Self::DEFAULT_POINTS),
            alphas_u: uniform_values(Self::DEFAULT_POINTS),
        }
    }
}

/// {0, 1/(points − 1), …, 1}.
fn uniform_values(points: usize) -> Vec<f64> {
    let last = (points.max(2) - 1) as f64;
    (0..points.max(2)).map(|i| i as f64 / last).collect()
}

/// Whether (α_u, λ) keeps D = λ − α_u·e positive for every eigenvalue e of C_u (top
/// eigenvalue `top_u`): the rule every policy uses to skip grid points. With α_u ≤ 1 and
/// an eigenvalue λ policy it always holds.
pub fn admits(lambda: f64, alpha_u: f64, top_u: f64) -> bool {
    lambda - alpha_u * top_u > 0.0
}

/// One error per grid point (None: (0, 0), a skipped point, or a point where the theory
/// has no value), stored row-major: index `il * alphas_u.len() + iu`.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorGrid {
    pub alphas_l: Vec<f64>,
    pub alphas_u: Vec<f64>,
    pub errors: Vec<Option<f64>>,
}

impl ErrorGrid {
    /// Evaluates `f(α_l, α_u)` at every point but (0, 0).
    pub fn build<E>(
        grid: &Grid,
        mut f: impl FnMut(f64, f64) -> Result<Option<f64>, E>,
    ) -> Result<Self, E> {
        let mut errors = Vec::with_capacity(grid.len());
        for &al in &grid.alphas_l {
            for &au in &grid.alphas_u {
                errors.push(if al == 0.0 && au == 0.0 { None } else { f(al, au)? });
            }
        }
        Ok(ErrorGrid { alphas_l: grid.alphas_l.clone(), alphas_u: grid.alphas_u.clone(), errors })
    }

    /// The error at (il, iu).
    pub fn at(&self, il: usize, iu: usize) -> Option<f64> {
        self.errors[il * self.alphas_u.len() + iu]
    }

    /// The error at the point (α_l, α_u) when it is on the grid.
    pub fn at_point(&self, alpha_l: f64, alpha_u: f64) -> Option<f64> {
        let il = self.alphas_l.iter().position(|&a| a == alpha_l)?;
        let iu = self.alphas_u.iter().position(|&a| a == alpha_u)?;
        self.at(il, iu)
    }

    /// The point of lowest error (α_l, α_u, error); ties go to the first in grid order
    /// (α_l ascending, then α_u ascending). None when no point has a value.
    pub fn best(&self) -> Option<(f64, f64, f64)> {
        let mut best: Option<(f64, f64, f64)> = None;
        for (il, &al) in self.alphas_l.iter().enumerate() {
            for (iu, &au) in self.alphas_u.iter().enumerate() {
                if let Some(e) = self.at(il, iu)
                    && best.is_none_or(|b| e < b.2)
                {
                    best = Some((al, au, e));
                }
            }
        }
        best
    }
}
