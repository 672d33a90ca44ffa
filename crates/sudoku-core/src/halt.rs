//! Time limits of a run, checked where every algorithm already checks its budget
//! ([`Budget::reason`](crate::Budget::reason)), without the algorithm reading a clock.
//!
//! The runner installs a [`Stop`] on the thread that runs one `solve` call ([`with_stop`]);
//! `Budget::reason` (and so `Budget::exhausted`) asks it at each of the algorithm's budget
//! checks. Three kinds of stop:
//!
//! - [`Stop::Time`]: a CPU-seconds and/or a wall-seconds limit. The thread's CPU clock and the
//!   wall clock are read every `stride` checks, the stride doubling while reads come less than
//!   a quarter of a millisecond of CPU apart and halving when they come more than a millisecond
//!   apart, so a read (a system call of a few hundred nanoseconds) costs well under 1 % of a run
//!   whatever the algorithm's check rate, and a limit is seen within about a millisecond of CPU
//!   plus one of the algorithm's steps between checks (measured: docs/performance.md).
//! - [`Stop::At`]: replay of a run that a time limit stopped. Time never decides a replay: the
//!   run stops at the first check whose generations and evaluations reach the recorded ones,
//!   which is where the original run stopped (see the rule below).
//! - [`Stop::AtCheck`]: the n-th check with new counts (tests: a time stop without a clock).
//!
//! The rule that makes a stopped run replayable: a stop fires only at a check whose
//! (generations, evaluations) differ from the previous check's, and once fired it answers every
//! later check of the run. Algorithms count effort monotonically, so the check where a live
//! run stopped is the first check whose counts reach the recorded ones: [`Stop::At`] with the
//! outcome's counts stops the replay at the same check, with the same state. A test of the
//! runner checks this for every algorithm of the registry.

use crate::contract::Termination;
use std::cell::Cell;
use std::time::{Duration, Instant};

/// How a run is stopped besides its generation and evaluation limits.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Stop {
    /// Stop once the run's thread has used `cpu` of CPU time or `wall` of wall-clock time
    /// (either may be absent), counted from [`with_stop`]'s start.
    Time {
        cpu: Option<Duration>,
        wall: Option<Duration>,
    },
    /// Stop at the first check with at least `generations` and `evaluations`, ending with
    /// `termination` (a replay of a run a time limit stopped).
    At {
        generations: u64,
        evaluations: u64,
        termination: Termination,
    },
    /// Stop at the `check`-th check with new counts (from 1), ending with `termination`.
    AtCheck {
        check: u64,
        termination: Termination,
    },
}

/// What the stop observed during one `solve` call.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct StopReport {
    /// Checks made (calls of `Budget::reason` while the stop was installed).
    pub checks: u64,
    /// Clock reads made by [`Stop::Time`].
    pub clock_reads: u64,
    /// The termination the stop gave, if it fired.
    pub fired: Option<Termination>,
}

/// The stride's bounds (checks between two clock reads).
const MAX_STRIDE: u32 = 1 << 16;
/// Reads closer than this (in CPU or wall time, whichever limit is set) double the stride.
const READ_AT_LEAST: Duration = Duration::from_micros(250);
/// Reads further apart than this halve the stride.
const READ_AT_MOST: Duration = Duration::from_millis(1);

struct State {
    stop: Cell<Option<Stop>>,
    fired: Cell<Option<Termination>>,
    /// The clock saw a limit at a check whose counts were not new: fire at the next new ones.
    pending: Cell<Option<Termination>>,
    last: Cell<Option<(u64, u64)>>,
    checks: Cell<u64>,
    new_checks: Cell<u64>,
    clock_reads: Cell<u64>,
    stride: Cell<u32>,
    countdown: Cell<u32>,
    cpu_start: Cell<Duration>,
    wall_start: Cell<Option<Instant>>,
    last_read: Cell<Duration>,
}

thread_local! {
    static STATE: State = const {
        State {
            stop: Cell::new(None),
            fired: Cell::new(None),
            pending: Cell::new(None),
            last: Cell::new(None),
            checks: Cell::new(0),
            new_checks: Cell::new(0),
            clock_reads: Cell::new(0),
            stride: Cell::new(1),
            countdown: Cell::new(1),
            cpu_start: Cell::new(Duration::ZERO),
            wall_start: Cell::new(None),
            last_read: Cell::new(Duration::ZERO),
        }
    };
}

/// Run `f` (one `solve` call) with `stop` installed on this thread; the stop is removed when
/// `f` returns or panics. Not reentrant: a stop installed inside `f` is refused by a panic.
pub fn with_stop<R>(stop: Stop, f: impl FnOnce() -> R) -> (R, StopReport) {
    struct Guard;
    impl Drop for Guard {
        fn drop(&mut self) {
            STATE.with(|s| s.stop.set(None));
        }
    }
    STATE.with(|s| {
        assert!(s.stop.get().is_none(), "a stop is already installed");
        s.stop.set(Some(stop));
        s.fired.set(None);
        s.pending.set(None);
        s.last.set(None);
        s.checks.set(0);
        s.new_checks.set(0);
        s.clock_reads.set(0);
        s.stride.set(1);
        s.countdown.set(1);
        if let Stop::Time { .. } = stop {
            s.cpu_start.set(thread_cpu_time().unwrap_or_default());
            s.wall_start.set(Some(Instant::now()));
        }
        s.last_read.set(Duration::ZERO);
    });
    let guard = Guard;
    let r = f();
    drop(guard);
    let report = STATE.with(|s| StopReport {
        checks: s.checks.get(),
        clock_reads: s.clock_reads.get(),
        fired: s.fired.get(),
    });
    (r, report)
}

/// The answer of the installed stop at a budget check with these counts (None: go on, or no
/// stop installed). Called by [`Budget::reason`](crate::Budget::reason) only.
#[inline]
pub(crate) fn check(generations: u64, evaluations: u64) -> Option<Termination> {
    STATE.with(|s| {
        let stop = s.stop.get()?;
        s.checks.set(s.checks.get() + 1);
        if let Some(t) = s.fired.get() {
            return Some(t);
        }
        let now = (generations, evaluations);
        let new = s.last.get() != Some(now);
        s.last.set(Some(now));
        if new {
            s.new_checks.set(s.new_checks.get() + 1);
        }
        let due = match stop {
            Stop::At {
                generations: g,
                evaluations: e,
                termination,
            } => (generations >= g && evaluations >= e).then_some(termination),
            Stop::AtCheck { check, termination } => {
                (new && s.new_checks.get() >= check).then_some(termination)
            }
            Stop::Time { cpu, wall } => {
                if s.pending.get().is_none() {
                    s.pending.set(read_clocks(s, cpu, wall));
                }
                s.pending.get().filter(|_| new)
            }
        };
        if due.is_some() {
            s.fired.set(due);
        }
        due
    })
}

/// Every `stride` checks, read the clocks: the termination of a limit reached, if any.
#[cold]
#[inline(never)]
fn read_clocks_slow(
    s: &State,
    cpu: Option<Duration>,
    wall: Option<Duration>,
) -> Option<Termination> {
    s.clock_reads.set(s.clock_reads.get() + 1);
    let used_wall = s.wall_start.get().map(|t| t.elapsed()).unwrap_or_default();
    let used_cpu = match cpu {
        Some(_) => thread_cpu_time()
            .unwrap_or_default()
            .saturating_sub(s.cpu_start.get()),
        None => Duration::ZERO,
    };
    // The stride follows the clock of the limit that is set (CPU first).
    let used = if cpu.is_some() { used_cpu } else { used_wall };
    let since = used.saturating_sub(s.last_read.get());
    s.last_read.set(used);
    let stride = s.stride.get();
    let stride = if since < READ_AT_LEAST {
        (stride * 2).min(MAX_STRIDE)
    } else if since > READ_AT_MOST {
        (stride / 2).max(1)
    } else {
        stride
    };
    s.stride.set(stride);
    s.countdown.set(stride);
    if cpu.is_some_and(|c| used_cpu >= c) {
        Some(Termination::CpuLimit)
    } else if wall.is_some_and(|w| used_wall >= w) {
        Some(Termination::WallClockLimit)
    } else {
        None
    }
}

#[inline]
fn read_clocks(s: &State, cpu: Option<Duration>, wall: Option<Duration>) -> Option<Termination> {
    let k = s.countdown.get() - 1;
    if k > 0 {
        s.countdown.set(k);
        return None;
    }
    read_clocks_slow(s, cpu, wall)
}

/// The CPU time the calling thread has used (`CLOCK_THREAD_CPUTIME_ID`); None where the
/// platform has no such clock.
pub fn thread_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes the timespec it is given and nothing else.
        let r = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) };
        (r == 0).then(|| Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

/// The CPU time of the whole process (every thread) so far, where the platform has a clock for
/// it (Linux and other unix systems); None elsewhere.
pub fn process_cpu_time() -> Option<Duration> {
    #[cfg(unix)]
    {
        let mut t = libc::timespec {
            tv_sec: 0,
            tv_nsec: 0,
        };
        // SAFETY: clock_gettime writes the timespec it is given and nothing else.
        let r = unsafe { libc::clock_gettime(libc::CLOCK_PROCESS_CPUTIME_ID, &mut t) };
        (r == 0).then(|| Duration::new(t.tv_sec as u64, t.tv_nsec as u32))
    }
    #[cfg(not(unix))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contract::Budget;

    fn unlimited() -> Budget {
        Budget {
            max_generations: None,
            max_evaluations: None,
        }
    }

    /// The checks of a made-up run: (generations, evaluations) at each budget check, some
    /// repeated (an algorithm checking twice between two steps).
    const CHECKS: &[(u64, u64)] = &[
        (0, 10),
        (1, 20),
        (1, 20),
        (2, 30),
        (2, 30),
        (3, 45),
        (4, 60),
    ];

    /// Where a run over [`CHECKS`] stops under `stop`: the index of the check that fired.
    fn stops_at(stop: Stop) -> Option<usize> {
        let b = unlimited();
        with_stop(stop, || {
            CHECKS.iter().position(|&(g, e)| b.reason(g, e).is_some())
        })
        .0
    }

    #[test]
    fn a_stop_at_a_check_fires_on_new_counts_only_and_replays_at_the_same_check() {
        // (n-th new check, index of the check that fires)
        let table = [(1, 0), (2, 1), (3, 3), (4, 5), (5, 6), (6, usize::MAX)];
        for (n, want) in table {
            let live = stops_at(Stop::AtCheck {
                check: n,
                termination: Termination::CpuLimit,
            });
            assert_eq!(live.unwrap_or(usize::MAX), want, "check {n}");
            if let Some(i) = live {
                let (g, e) = CHECKS[i];
                let replay = stops_at(Stop::At {
                    generations: g,
                    evaluations: e,
                    termination: Termination::CpuLimit,
                });
                assert_eq!(replay, Some(i), "replay of check {n}");
            }
        }
    }

    #[test]
    fn a_fired_stop_answers_every_later_check_and_budget_limits_come_first() {
        let b = Budget {
            max_generations: Some(3),
            max_evaluations: None,
        };
        let stop = Stop::At {
            generations: 1,
            evaluations: 0,
            termination: Termination::WallClockLimit,
        };
        let (seen, report) = with_stop(stop, || {
            [(0, 0), (1, 5), (1, 5), (2, 9), (3, 9)].map(|(g, e)| b.reason(g, e))
        });
        let w = Some(Termination::WallClockLimit);
        assert_eq!(seen, [None, w, w, w, Some(Termination::GenerationLimit)]);
        assert_eq!(
            report.checks, 4,
            "the generation limit answers before the stop"
        );
        assert_eq!(report.fired, w);
        // Removed after the call: no stop, no answer.
        assert_eq!(b.reason(1, 5), None);
    }

    #[test]
    fn a_cpu_limit_stops_a_busy_loop_soon_after_the_limit() {
        let limit = Duration::from_millis(20);
        let b = unlimited();
        let stop = Stop::Time {
            cpu: Some(limit),
            wall: None,
        };
        let start = thread_cpu_time().unwrap();
        let ((g, t), report) = with_stop(stop, || {
            let mut g = 0u64;
            loop {
                g += 1;
                if let Some(t) = b.reason(g, g) {
                    return (g, t);
                }
            }
        });
        let used = thread_cpu_time().unwrap() - start;
        assert_eq!(t, Termination::CpuLimit);
        assert!(used >= limit, "stopped after {used:?} of CPU");
        // Reads are rare: the stride grew (a few reads per millisecond at most).
        assert!(
            report.clock_reads * 100 < g,
            "{} reads for {g} checks",
            report.clock_reads
        );
    }

    #[test]
    fn a_stop_is_removed_after_a_panic() {
        let r = std::panic::catch_unwind(|| {
            with_stop(
                Stop::AtCheck {
                    check: 1,
                    termination: Termination::CpuLimit,
                },
                || panic!("solver bug"),
            )
        });
        assert!(r.is_err());
        assert_eq!(unlimited().reason(0, 0), None);
    }
}
