//! Progress of a run's fits: a bar on a terminal; without one (a batch job's log, a pipe) a
//! line on stderr when another tenth of the fits is done (at most one per [`QUIET`]), when a
//! fit ends a minute or more after the last line, and at the end: fits done of total,
//! elapsed time and the time left, estimated from the methods' cost estimates
//! (`Method::fit_cost`) of the fits done and still to do.

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

/// How long at most between two progress lines while fits finish.
const EVERY: Duration = Duration::from_secs(60);

/// How long at least between two lines for tenths (short runs stay short).
const QUIET: Duration = Duration::from_secs(10);

/// The counter of a run's fits, shared by the worker threads.
pub struct Progress {
    bar: ProgressBar,
    lines: Option<Mutex<Lines>>,
    total: usize,
    total_cost: f64,
    start: Instant,
}

/// The state of the line printer.
struct Lines {
    done: usize,
    /// Cost of the fits done by this process (resumed ones excluded: they took no time).
    cost_done: f64,
    /// Cost of every fit done so far, resumed ones included.
    cost_all: f64,
    last: Instant,
    next: usize,
}

/// A number of fits and their summed cost ([`Method::fit_cost`](crate::engine::Method::fit_cost)).
#[derive(Debug, Clone, Copy, Default)]
pub struct Fits {
    pub count: usize,
    pub cost: f64,
}

impl Fits {
    /// One more fit of cost `cost`.
    pub fn add(&mut self, cost: f64) {
        self.count += 1;
        self.cost += cost;
    }
}

impl Progress {
    /// A counter of `total` fits, `skipped` of them already done by an earlier run; silent
    /// unless `show`.
    pub fn new(show: bool, total: Fits, skipped: Fits) -> Self {
        let Fits { count: total, cost: total_cost } = total;
        let Fits { count: skipped, cost: skipped_cost } = skipped;
        let terminal = std::io::stderr().is_terminal();
        let bar = if show && terminal {
            let style = ProgressStyle::with_template(
                "{elapsed_precise} [{bar:40}] {pos}/{len} fits, eta {eta}",
            )
            .expect("static template")
            .progress_chars("=> ");
            ProgressBar::new(total as u64).with_style(style)
        } else {
            ProgressBar::hidden()
        };
        bar.inc(skipped as u64);
        let step = total.div_ceil(10).max(1);
        let lines = (show && !terminal).then(|| {
            Mutex::new(Lines {
                done: skipped,
                cost_done: 0.0,
                cost_all: skipped_cost,
                last: Instant::now(),
                next: (skipped / step + 1) * step,
            })
        });
        Progress { bar, lines, total, total_cost, start: Instant::now() }
    }

    /// Counts one finished fit of estimated cost `cost`.
    pub fn inc(&self, cost: f64) {
        self.bar.inc(1);
        let Some(lines) = &self.lines else { return };
        let Ok(mut l) = lines.lock() else { return };
        l.done += 1;
        l.cost_done += cost;
        l.cost_all += cost;
        let since = l.last.elapsed();
        let tenth = l.done >= l.next && since >= QUIET;
        if !tenth && since < EVERY && l.done < self.total {
            return;
        }
        let step = self.total.div_ceil(10).max(1);
        while l.next <= l.done {
            l.next += step;
        }
        l.last = Instant::now();
        let elapsed = self.start.elapsed().as_secs_f64();
        let left = if l.done >= self.total {
            "done".to_string()
        } else if l.cost_done > 0.0 {
            let rate = elapsed / l.cost_done;
            format!("about {} left", duration((self.total_cost - l.cost_all).max(0.0) * rate))
        } else {
            "time left unknown".to_string()
        };
        eprintln!(
            "progress: {}/{} fits ({:.0}%), elapsed {}, {left}",
            l.done,
            self.total,
            100.0 * l.done as f64 / self.total.max(1) as f64,
            duration(elapsed)
        );
    }

    /// Removes the bar.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

/// `seconds` as `1h02m`, `3m05s` or `12s`.
pub fn duration(seconds: f64) -> String {
    let s = seconds.round() as u64;
    match s {
        0..60 => format!("{s}s"),
        60..3600 => format!("{}m{:02}s", s / 60, s % 60),
        _ => format!("{}h{:02}m", s / 3600, (s % 3600) / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::duration;

    #[test]
    fn durations_read_as_written() {
        assert_eq!(duration(0.4), "0s");
        assert_eq!(duration(59.6), "1m00s");
        assert_eq!(duration(185.0), "3m05s");
        assert_eq!(duration(3720.0), "1h02m");
    }
}
