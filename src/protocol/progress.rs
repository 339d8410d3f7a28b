//! Progress of a run's fits: a bar on a terminal; without one (a batch job's log, a pipe) a
//! line on stderr when another tenth of the fits is done (at most one per [`QUIET`]), when a
//! fit ends a minute or more after the last line, and at the end. Both give fits done of
//! total, elapsed time and the time left, estimated from the estimated seconds
//! ([`estimate::fit_seconds`](super::estimate::fit_seconds)) of the fits done and still to
//! do (not from their count: cheap fits often come first). Every fit counted is kept in the row log: the count is what an
//! interrupt reports ([`interrupt`]).

use std::io::IsTerminal;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use crate::support::interrupt;

/// How long at most between two progress lines while fits finish.
const EVERY: Duration = Duration::from_secs(60);

/// How long at least between two lines for tenths (short runs stay short).
const QUIET: Duration = Duration::from_secs(10);

/// The counter of a run's fits, shared by the worker threads.
pub struct Progress {
    bar: ProgressBar,
    /// Lines instead of the bar.
    lines: bool,
    state: Mutex<Lines>,
    total: usize,
    total_cost: f64,
    start: Instant,
}

/// Fits done and their cost, and when the last line was printed.
struct Lines {
    done: usize,
    /// Cost of the fits done by this process (resumed ones excluded: they took no time).
    cost_done: f64,
    /// Cost of every fit done so far, resumed ones included.
    cost_all: f64,
    last: Instant,
    next: usize,
}

/// A number of fits and their summed estimated seconds ([`super::estimate::fit_seconds`]).
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
                "{elapsed_precise} [{bar:40}] {pos}/{len} fits, {msg}",
            )
            .expect("static template")
            .progress_chars("=> ");
            ProgressBar::new(total as u64).with_style(style).with_message("time left unknown")
        } else {
            ProgressBar::hidden()
        };
        bar.inc(skipped as u64);
        interrupt::set_kept(skipped);
        let step = total.div_ceil(10).max(1);
        let state = Mutex::new(Lines {
            done: skipped,
            cost_done: 0.0,
            cost_all: skipped_cost,
            last: Instant::now(),
            next: (skipped / step + 1) * step,
        });
        Progress { bar, lines: show && !terminal, state, total, total_cost, start: Instant::now() }
    }

    /// Counts one finished fit, already in the row log, of estimated cost `cost`.
    pub fn inc(&self, cost: f64) {
        interrupt::add_kept();
        let Ok(mut l) = self.state.lock() else { return };
        l.done += 1;
        l.cost_done += cost;
        l.cost_all += cost;
        let elapsed = self.start.elapsed().as_secs_f64();
        let left =
            time_left(elapsed, l.cost_done, self.total_cost - l.cost_all, l.done >= self.total);
        self.bar.set_message(left.clone());
        self.bar.inc(1);
        if !self.lines {
            return;
        }
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

/// The time left after `elapsed` seconds spent on fits of summed cost `cost_done`, for fits
/// of summed cost `cost_left` still to do: the same seconds per unit of cost.
fn time_left(elapsed: f64, cost_done: f64, cost_left: f64, finished: bool) -> String {
    if finished {
        "done".to_string()
    } else if cost_done > 0.0 {
        format!("about {} left", duration(cost_left.max(0.0) * elapsed / cost_done))
    } else {
        "time left unknown".to_string()
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
    use super::{duration, time_left};

    #[test]
    fn the_time_left_goes_by_cost_not_by_count() {
        // 10 s for a tenth of the cost (resumed fits' cost not counted as done here): 80 s
        // for the 8 tenths left, however many fits they are.
        assert_eq!(time_left(10.0, 1.0, 8.0, false), "about 1m20s left");
        assert_eq!(time_left(10.0, 0.0, 8.0, false), "time left unknown");
        assert_eq!(time_left(10.0, 1.0, 0.0, true), "done");
    }

    #[test]
    fn durations_read_as_written() {
        assert_eq!(duration(0.4), "0s");
        assert_eq!(duration(59.6), "1m00s");
        assert_eq!(duration(185.0), "3m05s");
        assert_eq!(duration(3720.0), "1h02m");
    }
}
