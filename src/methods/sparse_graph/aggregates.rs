//! The aggregates of a graph that the deflated solves of Laplace and Poisson learning share
//! (`deflation.rs`): about [`TARGET`] groups of connected nodes, built once per graph on
//! first use and kept with it.

use std::collections::VecDeque;
use std::sync::OnceLock;

/// Aggregates aimed at per graph (fewer on small graphs: at least [`MIN_SIZE`] nodes each).
pub const TARGET: usize = 200;
/// The least aggregate size aimed at.
const MIN_SIZE: usize = 16;

/// Each node's aggregate and their number.
#[derive(Debug, Clone, PartialEq)]
pub struct Aggregates {
    pub count: usize,
    pub group: Vec<u32>,
}

/// A graph's aggregates once computed: a cache, equal whatever it holds.
#[derive(Debug, Clone, Default)]
pub struct AggregatesCache(OnceLock<Aggregates>);

impl PartialEq for AggregatesCache {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl AggregatesCache {
    /// The aggregates of the graph of n nodes whose row i's neighbours are `row(i)`
    /// (computed on the first call).
    pub fn get<'g>(&self, n: usize, row: impl Fn(usize) -> &'g [u32]) -> &Aggregates {
        self.0.get_or_init(|| aggregates(n, row))
    }
}

/// Groups of s = max(⌈n / TARGET⌉, MIN_SIZE) nodes grown breadth-first (neighbours in index
/// order) from the first node not yet grouped; then every node of a group under s/2 nodes
/// joins the group of its first neighbour in a group of at least s/2 (repeated until none
/// moves), and the groups are numbered in order of their first node. A group never spans
/// two connected components.
pub fn aggregates<'g>(n: usize, row: impl Fn(usize) -> &'g [u32]) -> Aggregates {
    let size = n.div_ceil(TARGET).max(MIN_SIZE);
    let mut group = vec![u32::MAX; n];
    let mut sizes = Vec::new();
    let mut queue = VecDeque::new();
    for start in 0..n {
        if group[start] != u32::MAX {
            continue;
        }
        let id = sizes.len() as u32;
        group[start] = id;
        let mut count = 1;
        queue.clear();
        queue.push_back(start);
        while let Some(i) = queue.pop_front().filter(|_| count < size) {
            for &j in row(i) {
                if group[j as usize] == u32::MAX && count < size {
                    group[j as usize] = id;
                    count += 1;
                    queue.push_back(j as usize);
                }
            }
        }
        sizes.push(count);
    }
    let small = |s: usize| 2 * s < size;
    let mut moved = true;
    while moved {
        moved = false;
        for i in 0..n {
            if !small(sizes[group[i] as usize]) {
                continue;
            }
            let big =
                row(i).iter().map(|&j| group[j as usize]).find(|&q| !small(sizes[q as usize]));
            if let Some(q) = big {
                sizes[group[i] as usize] -= 1;
                sizes[q as usize] += 1;
                group[i] = q;
                moved = true;
            }
        }
    }
    let mut number = vec![u32::MAX; sizes.len()];
    let mut count = 0;
    for q in group.iter_mut() {
        if number[*q as usize] == u32::MAX {
            number[*q as usize] = count;
            count += 1;
        }
        *q = number[*q as usize];
    }
    Aggregates { count: count as usize, group }
}
