//! Euclidean projection onto the probability simplex {x ≥ 0, Σ x = 1} (sort-based; gives
//! the same point as Michelot's finite algorithm).

/// Projects `v` in place; `sorted` is caller workspace (resized to `v.len()`).
pub fn project_simplex(v: &mut [f64], sorted: &mut Vec<f64>) {
    sorted.clear();
    sorted.extend_from_slice(v);
    sorted.sort_unstable_by(|a, b| b.total_cmp(a));
    let mut cumulative = 0.0;
    let mut theta = 0.0;
    for (j, u) in sorted.iter().enumerate() {
        cumulative += u;
        let t = (cumulative - 1.0) / (j + 1) as f64;
        if u - t > 0.0 {
            theta = t;
        }
    }
    for x in v.iter_mut() {
        *x = (*x - theta).max(0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    #[test]
    fn feasible_idempotent_and_optimal() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let mut work = Vec::new();
        for trial in 0..200 {
            let c = 1 + trial % 7;
            let v: Vec<f64> = (0..c).map(|_| rng.random_range(-3.0..3.0)).collect();
            let mut x = v.clone();
            project_simplex(&mut x, &mut work);
            assert!(x.iter().all(|a| *a >= 0.0));
            assert!((x.iter().sum::<f64>() - 1.0).abs() < 1e-12);
            let mut again = x.clone();
            project_simplex(&mut again, &mut work);
            assert!(x.iter().zip(&again).all(|(a, b)| (a - b).abs() < 1e-12));
            // Optimality: (v − x)ᵀ(z − x) ≤ 0 for every vertex z = e_k, hence for the simplex.
            let r: Vec<f64> = v.iter().zip(&x).map(|(a, b)| a - b).collect();
            let rx: f64 = r.iter().zip(&x).map(|(a, b)| a * b).sum();
            assert!(r.iter().all(|rk| rk - rx <= 1e-12));
        }
    }

    #[test]
    fn known_points() {
        let mut work = Vec::new();
        let mut a = vec![0.2, 0.3, 0.5];
        project_simplex(&mut a, &mut work);
        assert!((a[0] - 0.2).abs() < 1e-15 && (a[2] - 0.5).abs() < 1e-15);
        let mut b = vec![2.0, 0.0];
        project_simplex(&mut b, &mut work);
        assert_eq!(b, vec![1.0, 0.0]);
        let mut c = vec![1.0, 1.0];
        project_simplex(&mut c, &mut work);
        assert_eq!(c, vec![0.5, 0.5]);
    }
}
