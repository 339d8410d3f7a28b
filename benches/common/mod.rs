//! Shared by the benchmarks (each includes this file as its `common` module).

/// The median of `values`: the upper of the two middle ones for an even count.
pub fn median(values: impl IntoIterator<Item = f64>) -> f64 {
    let mut v: Vec<f64> = values.into_iter().collect();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}
