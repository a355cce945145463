//! `--report-timing` (a benchmark hook, hidden from `--help`): time from the start of `main` to the first
//! presented frame and, over the frames after a warm-up, frame intervals, the app's own main-thread work per
//! frame and CPU time per frame (the whole process, and the main thread alone). Printed to stderr as one
//! `rigscope-timing key=value ...` line when the event loop ends.
//!
//! CPU time comes from procfs: `/proc/self/stat` (utime + stime of every thread, live or gone, in clock
//! ticks) and `/proc/thread-self/schedstat` (the calling thread's time on a CPU, in nanoseconds).

use std::time::{Duration, Instant};

/// Linux's `USER_HZ`, the unit of `/proc/self/stat`'s times: 100 on every architecture Linux runs on.
const TICKS_PER_SECOND: f64 = 100.0;

pub struct Timing {
    started: Instant,
    first_frame: Option<Duration>,
    /// When each frame was presented.
    presents: Vec<Instant>,
    /// The app's main-thread work in each frame: everything but acquiring, submitting and presenting.
    app_work: Vec<Duration>,
    /// (process CPU seconds, main-thread CPU seconds) at the end of the warm-up.
    cpu_at_warmup: Option<(f64, f64)>,
    warmup: usize,
}

impl Timing {
    /// `started`: taken first thing in `main`. `frames`: how many frames will be drawn, if known.
    pub fn new(started: Instant, frames: Option<u64>) -> Timing {
        let warmup = frames.map_or(10, |n| (n / 4).min(10) as usize);
        Timing { started, first_frame: None, presents: Vec::new(), app_work: Vec::new(), cpu_at_warmup: None, warmup }
    }

    /// Call right after a frame is presented, with that frame's app work.
    pub fn presented(&mut self, app_work: Duration) {
        let now = Instant::now();
        if self.first_frame.is_none() {
            self.first_frame = Some(now.saturating_duration_since(self.started));
        }
        self.presents.push(now);
        self.app_work.push(app_work);
        if self.presents.len() == self.warmup.max(1) {
            self.cpu_at_warmup = cpu_now();
        }
    }

    /// The report line.
    pub fn report(&self) -> String {
        let ms = |d: Duration| d.as_secs_f64() * 1e3;
        let mut line = String::from("rigscope-timing");
        let mut add = |key: &str, value: String| {
            line.push(' ');
            line.push_str(key);
            line.push('=');
            line.push_str(&value);
        };
        add("first_frame_ms", self.first_frame.map_or("none".into(), |d| format!("{:.1}", ms(d))));
        add("frames", self.presents.len().to_string());
        let w = self.warmup.max(1);
        if self.presents.len() > w {
            let steady = &self.presents[w - 1..];
            let intervals: Vec<f64> = steady.windows(2).map(|p| ms(p[1].saturating_duration_since(p[0]))).collect();
            let work: Vec<f64> = self.app_work[w..].iter().map(|d| ms(*d)).collect();
            let n = intervals.len() as f64;
            add("warmup_frames", w.to_string());
            add("frame_ms_mean", format!("{:.3}", intervals.iter().sum::<f64>() / n));
            add("frame_ms_median", format!("{:.3}", median(intervals)));
            add("app_work_ms_mean", format!("{:.3}", work.iter().sum::<f64>() / n));
            add("app_work_ms_median", format!("{:.3}", median(work)));
            if let (Some((p0, t0)), Some((p1, t1))) = (self.cpu_at_warmup, cpu_now()) {
                add("cpu_ms_per_frame", format!("{:.3}", (p1 - p0) * 1e3 / n));
                add("main_thread_cpu_ms_per_frame", format!("{:.3}", (t1 - t0) * 1e3 / n));
            }
        }
        line
    }
}

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    match v.len() {
        0 => f64::NAN,
        n if n % 2 == 1 => v[n / 2],
        n => (v[n / 2 - 1] + v[n / 2]) / 2.0,
    }
}

/// (process CPU seconds, this thread's CPU seconds), from procfs; `None` off Linux.
fn cpu_now() -> Option<(f64, f64)> {
    let stat = std::fs::read_to_string("/proc/self/stat").ok()?;
    // Fields after the command name (which may hold spaces) start at field 3, `state`; utime and stime are
    // fields 14 and 15.
    let rest = &stat[stat.rfind(')')? + 1..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<u64>().ok()? + fields.get(12)?.parse::<u64>().ok()?;
    let sched = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
    let thread_ns = sched.split_whitespace().next()?.parse::<u64>().ok()?;
    Some((ticks as f64 / TICKS_PER_SECOND, thread_ns as f64 * 1e-9))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_report_has_frame_statistics_after_the_warmup() {
        let mut t = Timing::new(Instant::now(), Some(8));
        for _ in 0..8 {
            t.presented(Duration::from_millis(1));
        }
        let line = t.report();
        assert!(line.starts_with("rigscope-timing first_frame_ms="), "{line}");
        assert!(line.contains(" frames=8 warmup_frames=2 "), "{line}");
        assert!(line.contains(" app_work_ms_median=1.000"), "{line}");
        if cfg!(target_os = "linux") {
            assert!(line.contains(" cpu_ms_per_frame="), "{line}");
        }
        assert_eq!(median(vec![3.0, 1.0, 2.0, 10.0]), 2.5);
    }
}
