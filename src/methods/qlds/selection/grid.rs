//! The (α_l, α_u) grid and the error of each of its points under one policy.

/// Equally spaced α_l and α_u values in [0, 1]; (0, 0) is never evaluated.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Grid {
    /// Points per axis (≥ 2): α = i/(points − 1).
    pub points: usize,
}

impl Grid {
    /// Default: 11 points per axis, α ∈ {0, 0.1, …, 1} (120 grid points).
    pub const DEFAULT_POINTS: usize = 11;
    /// Largest number of points per axis (10⁶ grid points).
    pub const MAX_POINTS: usize = 1000;

    /// The α values of one axis.
    pub fn values(&self) -> Vec<f64> {
        let last = (self.points.max(2) - 1) as f64;
        (0..self.points.max(2)).map(|i| i as f64 / last).collect()
    }
}

impl Default for Grid {
    fn default() -> Self {
        Grid { points: Self::DEFAULT_POINTS }
    }
}

/// One error per grid point (None: (0, 0), or a point where the theory has no value),
/// stored row-major: index `il * alphas_u.len() + iu`.
#[derive(Debug, Clone, PartialEq)]
pub struct ErrorGrid {
    pub alphas_l: Vec<f64>,
    pub alphas_u: Vec<f64>,
    pub errors: Vec<Option<f64>>,
}

impl ErrorGrid {
    /// Evaluates `f(α_l, α_u)` at every point but (0, 0).
    pub fn build<E>(grid: &Grid, mut f: impl FnMut(f64, f64) -> Result<Option<f64>, E>) -> Result<Self, E> {
        let values = grid.values();
        let mut errors = Vec::with_capacity(values.len() * values.len());
        for &al in &values {
            for &au in &values {
                errors.push(if al == 0.0 && au == 0.0 { None } else { f(al, au)? });
            }
        }
        Ok(ErrorGrid { alphas_l: values.clone(), alphas_u: values, errors })
    }

    /// The error at (il, iu).
    pub fn at(&self, il: usize, iu: usize) -> Option<f64> {
        self.errors[il * self.alphas_u.len() + iu]
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
