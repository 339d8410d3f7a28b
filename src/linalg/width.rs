//! Loops over the columns of an n × c row-major block with their number known at compile
//! time: a hot loop written once as `f::<W>` for a width W ≤ [`WIDTH`], called on blocks of
//! at most [`WIDTH`] columns through [`by_width!`](crate::by_width) (unrolled, its values
//! kept in registers). Each column sees the same operations in the same order whatever the
//! blocks, so the same bits.

/// The most columns of one compiled loop.
pub const WIDTH: usize = 16;

/// `by_width!(w, f(args…))` calls `f::<W>(args…)` with W = w; panics unless 1 ≤ w ≤ 16.
#[macro_export]
macro_rules! by_width {
    ($w:expr, $f:ident($($a:expr),* $(,)?)) => {
        match $w {
            1 => $f::<1>($($a),*),
            2 => $f::<2>($($a),*),
            3 => $f::<3>($($a),*),
            4 => $f::<4>($($a),*),
            5 => $f::<5>($($a),*),
            6 => $f::<6>($($a),*),
            7 => $f::<7>($($a),*),
            8 => $f::<8>($($a),*),
            9 => $f::<9>($($a),*),
            10 => $f::<10>($($a),*),
            11 => $f::<11>($($a),*),
            12 => $f::<12>($($a),*),
            13 => $f::<13>($($a),*),
            14 => $f::<14>($($a),*),
            15 => $f::<15>($($a),*),
            16 => $f::<16>($($a),*),
            w => panic!("by_width!: {w} columns (1 to 16)"),
        }
    };
}

/// The W entries of `v` from `start`, as an array (a column block of a row-major row).
#[inline(always)]
pub fn block<const W: usize>(v: &[f64], start: usize) -> &[f64; W] {
    v[start..start + W].try_into().expect("W entries")
}

/// [`block`], mutable.
#[inline(always)]
pub fn block_mut<const W: usize>(v: &mut [f64], start: usize) -> &mut [f64; W] {
    (&mut v[start..start + W]).try_into().expect("W entries")
}

/// The column blocks of c columns: (first column, width), widths at most [`WIDTH`].
pub fn column_blocks(c: usize) -> impl Iterator<Item = (usize, usize)> {
    (0..c).step_by(WIDTH).map(move |a| (a, (c - a).min(WIDTH)))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sum<const W: usize>(v: &[f64]) -> (usize, f64) {
        (W, block::<W>(v, 0).iter().sum())
    }

    #[test]
    fn blocks_cover_the_columns_and_each_width_has_its_loop() {
        let v: Vec<f64> = (0..40).map(|i| i as f64).collect();
        for c in 1..=40 {
            let blocks: Vec<_> = column_blocks(c).collect();
            assert_eq!(blocks.iter().map(|b| b.1).sum::<usize>(), c);
            for (a, w) in blocks {
                assert_eq!(
                    crate::by_width!(w, sum(&v[a..])),
                    (w, (a..a + w).sum::<usize>() as f64)
                );
            }
        }
        assert!(std::panic::catch_unwind(|| crate::by_width!(17, sum(&v))).is_err());
    }
}
