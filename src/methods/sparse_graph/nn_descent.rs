//! Approximate k nearest neighbours by NN-descent (Dong, Charikar & Li 2011: a neighbour
//! of a neighbour is likely a neighbour), for datasets where the exact search's N² cost is
//! too high. Our own implementation, not a crate's: the Rust HNSW crates build an index for
//! queries (a graph of ~2·M links per point and a query per point afterwards), while the
//! graph methods need only the kNN lists, which NN-descent refines directly.
//!
//! Each round every node, in parallel, pulls candidates from its general neighbours (its
//! list and the nodes listing it, at most k of these, nearest first) and their general
//! neighbours, skipping pairs whose two links are both older than the last round, and keeps
//! its k nearest. A round reads only the previous round's lists, so the result does not
//! depend on the number of threads; the start lists are drawn from `seed` per node. Search
//! distances are f32; the final lists are ranked by exact f64 distances (ties by index).

use ndarray::ArrayView2;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rayon::prelude::*;

/// Rounds at most; a round that changes fewer than `STOP` × n·k entries is the last.
const ROUNDS: usize = 16;
const STOP: f64 = 0.001;
/// Nodes per parallel task.
const CHUNK: usize = 512;

/// One list entry: neighbour, f32 squared distance, and whether it arrived last round.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Entry {
    node: u32,
    d: f32,
    new: bool,
}

/// For each row, k approximate nearest other rows and their squared distances, nearest
/// first (row-major n × k, exact f64 distances, ties by index). Needs 1 ≤ k < n.
pub fn nn_descent(x: ArrayView2<f64>, k: usize, seed: u64) -> (Vec<usize>, Vec<f64>) {
    let (n, dim) = x.dim();
    let xf: Vec<f32> = x.iter().map(|&v| v as f32).collect();
    let row = |i: usize| &xf[i * dim..(i + 1) * dim];
    let dist = |i: usize, j: usize| -> f32 {
        row(i).iter().zip(row(j)).map(|(a, b)| (a - b) * (a - b)).sum()
    };
    let mut lists: Vec<Entry> = (0..n)
        .into_par_iter()
        .flat_map_iter(|i| {
            let mut rng =
                ChaCha8Rng::seed_from_u64(seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15));
            let mut picked: Vec<u32> = Vec::with_capacity(k);
            while picked.len() < k {
                let j = rng.random_range(0..n - 1);
                let j = (j + usize::from(j >= i)) as u32;
                if !picked.contains(&j) {
                    picked.push(j);
                }
            }
            let mut row: Vec<Entry> = picked
                .into_iter()
                .map(|j| Entry { node: j, d: dist(i, j as usize), new: true })
                .collect();
            row.sort_by(order);
            row
        })
        .collect();
    for _ in 0..ROUNDS {
        let general = general_neighbours(&lists, n, k);
        let mut next = vec![Entry { node: 0, d: 0.0, new: false }; n * k];
        let changed: usize = next
            .par_chunks_mut(CHUNK * k)
            .enumerate()
            .map(|(t, block)| {
                let mut candidates: Vec<u32> = Vec::new();
                let mut changed = 0;
                for (r, out) in block.chunks_mut(k).enumerate() {
                    let v = t * CHUNK + r;
                    candidates.clear();
                    for &(u, new_vu) in &general[v] {
                        for &(w, new_uw) in &general[u as usize] {
                            if (new_vu || new_uw) && w as usize != v {
                                candidates.push(w);
                            }
                        }
                    }
                    candidates.sort_unstable();
                    candidates.dedup();
                    let old = &lists[v * k..(v + 1) * k];
                    let mut merged: Vec<Entry> =
                        old.iter().map(|e| Entry { new: false, ..*e }).collect();
                    for &w in &candidates {
                        if old.iter().all(|e| e.node != w) {
                            merged.push(Entry { node: w, d: dist(v, w as usize), new: true });
                        }
                    }
                    merged.sort_by(order);
                    out.copy_from_slice(&merged[..k]);
                    changed += out.iter().filter(|e| e.new).count();
                }
                changed
            })
            .sum();
        lists = next;
        if (changed as f64) < STOP * (n * k) as f64 {
            break;
        }
    }
    rank_exactly(x, &lists, k)
}

/// Nearest first, ties by index.
fn order(a: &Entry, b: &Entry) -> std::cmp::Ordering {
    a.d.total_cmp(&b.d).then(a.node.cmp(&b.node))
}

/// Per node: its list and up to k of the nodes listing it (nearest first), each with
/// whether the link is new.
fn general_neighbours(lists: &[Entry], n: usize, k: usize) -> Vec<Vec<(u32, bool)>> {
    let mut reverse: Vec<Vec<Entry>> = vec![Vec::new(); n];
    for (e, entry) in lists.iter().enumerate() {
        reverse[entry.node as usize].push(Entry { node: (e / k) as u32, ..*entry });
    }
    reverse
        .into_par_iter()
        .enumerate()
        .map(|(v, mut rev)| {
            rev.sort_by(order);
            let own = &lists[v * k..(v + 1) * k];
            let mut g: Vec<(u32, bool)> = own.iter().map(|e| (e.node, e.new)).collect();
            for e in rev.iter().filter(|e| own.iter().all(|o| o.node != e.node)).take(k) {
                g.push((e.node, e.new));
            }
            g
        })
        .collect()
}

/// The lists with exact f64 squared distances, re-sorted (ties by index).
fn rank_exactly(x: ArrayView2<f64>, lists: &[Entry], k: usize) -> (Vec<usize>, Vec<f64>) {
    let n = x.nrows();
    let mut neighbours = vec![0usize; n * k];
    let mut sq = vec![0.0; n * k];
    neighbours.par_chunks_mut(k).zip(sq.par_chunks_mut(k)).enumerate().for_each(|(i, (nb, d))| {
        let mut row: Vec<(f64, usize)> = lists[i * k..(i + 1) * k]
            .iter()
            .map(|e| {
                let j = e.node as usize;
                let d2 = x.row(i).iter().zip(x.row(j)).map(|(a, b)| (a - b) * (a - b)).sum();
                (d2, j)
            })
            .collect();
        row.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        for (s, (d2, j)) in row.into_iter().enumerate() {
            nb[s] = j;
            d[s] = d2;
        }
    });
    (neighbours, sq)
}

/// Recall@k of `neighbours` (row-major n × k) against the exact k nearest others of
/// `samples` evenly spaced rows (brute force in f64, ties by index).
pub fn recall(x: ArrayView2<f64>, neighbours: &[usize], k: usize, samples: usize) -> f64 {
    let n = x.nrows();
    let rows: Vec<usize> = (0..samples.min(n)).map(|s| s * n / samples.min(n)).collect();
    let hits: usize = rows
        .par_iter()
        .map(|&i| {
            let mut all: Vec<(f64, usize)> = (0..n)
                .filter(|&j| j != i)
                .map(|j| (x.row(i).iter().zip(x.row(j)).map(|(a, b)| (a - b) * (a - b)).sum(), j))
                .collect();
            all.select_nth_unstable_by(k - 1, |a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
            let found = &neighbours[i * k..(i + 1) * k];
            all[..k].iter().filter(|(_, j)| found.contains(j)).count()
        })
        .sum();
    hits as f64 / (rows.len() * k) as f64
}

#[cfg(test)]
mod tests {
    use super::*;
    use ndarray::Array2;

    #[test]
    fn finds_almost_every_exact_neighbour_and_ignores_the_thread_count() {
        let mut rng = ChaCha8Rng::seed_from_u64(3);
        let x = Array2::from_shape_fn((3000, 8), |_| rng.random::<f64>());
        let run = |threads| {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(threads).build().unwrap();
            pool.install(|| nn_descent(x.view(), 10, 7))
        };
        let (a, da) = run(1);
        assert_eq!((a.clone(), da.clone()), run(3));
        let r = recall(x.view(), &a, 10, 300);
        assert!(r > 0.97, "recall {r}");
        let (exact, _) = crate::methods::graph::nearest(x.view(), 10);
        let same = a.iter().zip(&exact).filter(|(p, q)| p == q).count();
        assert!(same as f64 > 0.95 * a.len() as f64);
        assert!(da.chunks(10).all(|d| d.windows(2).all(|w| w[0] <= w[1])));
    }
}
