//! The two halves of each semi-supervised loss as functions of the margin m = ωᵀx/√n: the
//! labeled loss ℓ(y, m) and the unlabeled term h(m), each with its derivative in m.

/// γ of the smooth hinge (1/γ)·log(1 + exp(γ(1 − y m))), as in the paper's appendix.
pub const HINGE_GAMMA: f64 = 20.0;

/// The loss on the labeled points (all three convex in m).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Labeled {
    /// (y − m)².
    Square,
    /// (1/γ)·log(1 + exp(γ(1 − y m))), γ = [`HINGE_GAMMA`].
    SmoothHinge,
    /// Cross-entropy on σ(m): log(1 + exp(−y m)).
    Logistic,
}

/// The term on the unlabeled points.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unlabeled {
    /// −m²: QLDS's quadratic margin, rewarded (concave).
    QuadraticMargin,
    /// exp(−3 m²): Chapelle & Zien's smooth absolute margin, penalised (non-convex).
    SmoothAbsMargin,
}

impl Labeled {
    /// The config spellings, in table order.
    pub const NAMES: [&'static str; 3] = ["square", "smooth_hinge", "logistic"];

    /// Reads a config spelling.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "square" => Some(Labeled::Square),
            "smooth_hinge" => Some(Labeled::SmoothHinge),
            "logistic" => Some(Labeled::Logistic),
            _ => None,
        }
    }

    /// The config spelling.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The short name of method names (`sq`, `hinge`, `log`).
    pub fn short(self) -> &'static str {
        ["sq", "hinge", "log"][self as usize]
    }

    /// ℓ(y, m) and ∂ℓ/∂m.
    pub fn eval(self, y: f64, m: f64) -> (f64, f64) {
        let loss = match self {
            Labeled::Square => (y - m) * (y - m),
            Labeled::SmoothHinge => softplus(HINGE_GAMMA * (1.0 - y * m)) / HINGE_GAMMA,
            Labeled::Logistic => softplus(-y * m),
        };
        (loss, self.slope(y, m))
    }

    /// ∂ℓ/∂m alone (what training needs).
    pub fn slope(self, y: f64, m: f64) -> f64 {
        match self {
            Labeled::Square => -2.0 * (y - m),
            Labeled::SmoothHinge => -y * sigmoid(HINGE_GAMMA * (1.0 - y * m)),
            Labeled::Logistic => -y * sigmoid(-y * m),
        }
    }
}

impl Unlabeled {
    /// The config spellings.
    pub const NAMES: [&'static str; 2] = ["quadratic_margin", "smooth_abs_margin"];

    /// Reads a config spelling.
    pub fn parse(name: &str) -> Option<Self> {
        match name {
            "quadratic_margin" => Some(Unlabeled::QuadraticMargin),
            "smooth_abs_margin" => Some(Unlabeled::SmoothAbsMargin),
            _ => None,
        }
    }

    /// The config spelling.
    pub fn name(self) -> &'static str {
        Self::NAMES[self as usize]
    }

    /// The short name of method names (`QM`, `AM`).
    pub fn short(self) -> &'static str {
        ["QM", "AM"][self as usize]
    }

    /// h(m) and h'(m).
    pub fn eval(self, m: f64) -> (f64, f64) {
        match self {
            Unlabeled::QuadraticMargin => (-m * m, -2.0 * m),
            Unlabeled::SmoothAbsMargin => {
                let e = (-3.0 * m * m).exp();
                (e, -6.0 * m * e)
            }
        }
    }
}

/// log(1 + eᶻ), without overflow.
fn softplus(z: f64) -> f64 {
    z.max(0.0) + (-z.abs()).exp().ln_1p()
}

/// 1 / (1 + e⁻ᶻ), without overflow.
fn sigmoid(z: f64) -> f64 {
    if z >= 0.0 {
        1.0 / (1.0 + (-z).exp())
    } else {
        let e = z.exp();
        e / (1.0 + e)
    }
}
