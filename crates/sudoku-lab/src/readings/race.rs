//! The race: rounds of runs per puzzle for every surviving reading, tests after every batch,
//! eliminations.
//!
//! Round k gives every surviving reading runs 0..n_k on each puzzle (n_k cumulative, e.g. 5,
//! 10, 20, 50, 100, capped by the protocol's runs). A round has two stages when runs can be
//! capped: first every puzzle at its cap (a multiple of the published maximum) with the
//! quantile tests ([`super::cells::capped_tests`]), then every puzzle at the full budget (a
//! capped run that solved is not rerun: it is the same run) with the quantile tests and those
//! of comparison.csv ([`super::cells::full_tests`]). Within a stage the puzzles come cheapest
//! first (lowest published mean), and every reading is tested after each puzzle on every cell
//! it has data for so far. Each of these tests of a reading is a *look*: its p-values are
//! Holm-adjusted within the reading, and the reading is eliminated when the smallest adjusted
//! p-value is at most alpha / L, where L = rounds x stages x puzzles is the number of looks a
//! reading can have (Bonferroni across the repeated looks: a reading whose runs come from the
//! same distribution as the paper's is eliminated with probability at most alpha over the
//! whole race). That is procedure v1; procedures v2 and v3 spend alpha over the rounds instead
//! ([`super::procedure`]).

use super::cells::{capped_tests, full_tests, holm_min, Levels, Tally, Target, Test};
use super::procedure::Procedure;
use super::store::{Job, Pending, Served, Store};
use crate::protocol::Protocol;
use anyhow::Result;
use std::collections::HashMap;

/// A reading whose elimination is decided before its runs are complete: the cell with the
/// smallest adjusted p-value and the largest such p-value over its remaining runs' outcomes.
type Decided = (String, f64);

/// A stage of a round.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Runs stopped at each puzzle's cap; quantile tests only.
    Capped,
    /// Full-budget runs; every test.
    Full,
}

impl Stage {
    pub fn name(self) -> &'static str {
        match self {
            Stage::Capped => "capped",
            Stage::Full => "full",
        }
    }
}

/// Why and when a reading left the race.
#[derive(Debug, Clone, PartialEq)]
pub struct Elimination {
    /// Round, from 1.
    pub round: usize,
    /// Runs per puzzle in that round.
    pub runs: u64,
    pub stage: Stage,
    /// The cell with the smallest Holm-adjusted p-value, and that p-value.
    pub cell: String,
    pub p_holm: f64,
}

/// The outcome of one reading.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Fate {
    pub eliminated: Option<Elimination>,
    /// The smallest Holm-adjusted p-value at the reading's last look (None: never tested).
    pub min_p: Option<f64>,
    /// The index of that look (0-based): later is a better fit.
    pub last_look: usize,
}

/// Where a race stands after [`Race::run`]: every reading decided, or stopped at a look
/// whose runs its store cannot serve (a race on a cluster, between two rounds of shards).
#[derive(Debug, Clone, PartialEq)]
pub enum Step {
    /// The race has ended: the fate of every reading.
    Decided(Vec<Fate>),
    /// The race needs these runs, which no shard made yet, before its next look.
    NeedsRuns(Pending),
}

/// Everything a race needs, validated.
pub struct Race<'a> {
    /// The protocol whose algorithms are the readings (None: every run is already in the
    /// store, as in a simulation of the race).
    pub protocol: Option<&'a Protocol<'a>>,
    /// The number of readings.
    pub readings: usize,
    /// Runs of each puzzle at most (the protocol's).
    pub runs: &'a [u64],
    /// The published cells, cheapest first.
    pub targets: &'a [Target],
    /// Runs per puzzle in each round, increasing.
    pub rounds: &'a [u64],
    pub full: u64,
    pub alpha: f64,
    pub threads: usize,
    /// The number of raced entries: reading r on entry e is the protocol's algorithm
    /// `r * entries + e`.
    pub entries: usize,
    /// Stop a reading's capped runs once its elimination is decided ([`Race::curtail`]).
    pub curtail: bool,
    /// The statistical procedure (v1: Bonferroni over looks and Welch; v2: alpha spent over
    /// rounds, Holm over a round's cells, the guarded mean test).
    pub procedure: Procedure,
    /// Print each round's survivors on stderr.
    pub verbose: bool,
}

impl Race<'_> {
    /// The stages of a round: with a cap on some target, capped runs first.
    fn stages(&self) -> Vec<Stage> {
        if self.targets.iter().any(|t| t.cap.is_some()) {
            vec![Stage::Capped, Stage::Full]
        } else {
            vec![Stage::Full]
        }
    }

    /// The number of looks a reading can have: rounds x stages x targets.
    pub fn looks(&self) -> usize {
        self.rounds.len() * self.stages().len() * self.targets.len()
    }

    /// The threshold of the smallest adjusted p-value at one look (v1: Holm-adjusted, at
    /// alpha / looks; v2: see [`Levels::adjusted`], at alpha).
    pub fn threshold(&self) -> f64 {
        match self.procedure {
            Procedure::V1 => self.alpha / self.looks().max(1) as f64,
            Procedure::V2 | Procedure::V3 => self.alpha,
        }
    }

    /// The levels of procedures v2 and v3.
    pub fn levels(&self) -> Levels {
        Levels::new(self.alpha, self.rounds, self.targets)
    }

    /// The smallest adjusted p-value of a look in round `k` and its test.
    fn adjusted(&self, k: usize, tests: &[Test]) -> Option<(usize, f64)> {
        match self.procedure {
            Procedure::V1 => holm_min(tests),
            Procedure::V2 | Procedure::V3 => self.levels().adjusted(k, tests),
        }
    }

    /// The full-budget tests of the race's procedure.
    pub fn full_tests(&self, t: &Target, x: &Tally, out: &mut Vec<Test>) {
        full_tests(self.procedure, t, x, out)
    }

    /// Run the race to its end, executing and recording runs in `store` (runs already there
    /// are not redone): the fate of every reading. For a store that executes its runs (no
    /// pool): a race on a local machine, or simulated on outcomes in memory.
    pub fn decide(&self, store: &mut Store) -> Result<Vec<Fate>> {
        match self.run(store)? {
            Step::Decided(fates) => Ok(fates),
            Step::NeedsRuns(p) => anyhow::bail!("{p}"),
        }
    }

    /// Run the race as far as `store` serves its runs (runs already there are not redone):
    /// to its end, or to the first look whose runs a store with a pool lacks.
    pub fn run(&self, store: &mut Store) -> Result<Step> {
        let readings = self.readings;
        let mut fates = vec![Fate::default(); readings];
        let mut look = 0;
        for (k, &n) in self.rounds.iter().enumerate() {
            for stage in self.stages() {
                for j in 0..self.targets.len() {
                    let alive: Vec<usize> = (0..readings)
                        .filter(|&r| fates[r].eliminated.is_none())
                        .collect();
                    let Some(decided) = self.execute_curtailed(store, &alive, j, (k, n), stage)?
                    else {
                        let pending = self.pending(store, &alive, j, (k, n), stage);
                        return Ok(Step::NeedsRuns(pending));
                    };
                    for &r in &alive {
                        let at = (k, n, stage);
                        match decided.get(&r) {
                            Some(d) => Self::eliminate(&mut fates[r], d, look, at),
                            None => {
                                let tests = self.tests(store, r, j, n, stage);
                                self.judge(&mut fates[r], &tests, look, at);
                            }
                        }
                    }
                    look += 1;
                }
            }
            let alive = fates.iter().filter(|f| f.eliminated.is_none()).count();
            if !self.verbose {
                continue;
            }
            eprintln!(
                "round {} ({n} runs per puzzle): {alive} of {readings} readings survive",
                k + 1
            );
        }
        Ok(Step::Decided(fates))
    }

    /// A race on a cluster stopped for runs no shard made yet: every run the look after
    /// target `j` of this stage may need (all of the `alive` readings' runs there, as if none
    /// were curtailed), so that one round of shards makes them all.
    fn pending(
        &self,
        store: &Store,
        alive: &[usize],
        j: usize,
        (k, n): (usize, u64),
        stage: Stage,
    ) -> Pending {
        let t = &self.targets[j];
        let at = format!(
            "round {} of {n} runs per puzzle, {} stage, row {} of column {}",
            k + 1,
            stage.name(),
            t.level,
            t.row.algorithm
        );
        let jobs = store.missing(&self.jobs(alive, j, n, stage));
        Pending { jobs, at }
    }

    /// The budget of target `t`'s runs in `stage` (None: no capped runs on it).
    fn budget(&self, t: &Target, stage: Stage) -> Option<u64> {
        match stage {
            Stage::Capped => t.cap,
            Stage::Full => Some(self.full),
        }
    }

    /// The runs of target `j` the `alive` readings need in this stage: 0..n (at most the
    /// puzzle's runs), under the stage's budget.
    fn jobs(&self, alive: &[usize], j: usize, n: u64, stage: Stage) -> Vec<Job> {
        let t = &self.targets[j];
        let Some(cap) = self.budget(t, stage) else {
            return Vec::new();
        };
        let runs = n.min(self.runs[t.puzzle]);
        let mut jobs = Vec::with_capacity(alive.len() * runs as usize);
        for &r in alive {
            let solver = (r * self.entries + t.entry) as u32;
            for run in 0..runs {
                jobs.push((solver, t.puzzle as u32, run, cap));
            }
        }
        jobs
    }

    /// Runs 0..n of reading `r` on target `t` under `cap` generations.
    pub fn tally(&self, store: &Store, r: usize, t: &Target, n: u64, cap: u64) -> Tally {
        let mut x = Tally::default();
        let solver = (r * self.entries + t.entry) as u32;
        for run in 0..n.min(self.runs[t.puzzle]) {
            if let Some(s) = store.seen(solver, t.puzzle as u32, run, cap) {
                x.add(t, s.solved, s.generations, s.counter);
            }
        }
        x
    }

    /// The tests of reading `r` at the look after target `j` of `stage` in a round of `n`
    /// runs: in the capped stage the quantile tests of targets 0..=j; in the full stage every
    /// test of targets 0..=j and the quantile tests of the others (from their capped runs).
    fn tests(&self, store: &Store, r: usize, j: usize, n: u64, stage: Stage) -> Vec<Test> {
        self.tests_but(store, r, (j, None), n, stage)
    }

    /// [`Race::tests`] without those of target `skip` (curtailment adds them itself, for
    /// every outcome of the remaining runs).
    fn tests_but(
        &self,
        store: &Store,
        r: usize,
        (j, skip): (usize, Option<usize>),
        n: u64,
        stage: Stage,
    ) -> Vec<Test> {
        let mut tests = Vec::new();
        for (i, t) in self.targets.iter().enumerate() {
            if skip == Some(i) {
                continue;
            }
            match (stage, i <= j, t.cap) {
                (Stage::Full, true, _) => {
                    let x = self.tally(store, r, t, n, self.full);
                    capped_tests(self.procedure, t, &x, &mut tests);
                    self.full_tests(t, &x, &mut tests);
                }
                (Stage::Capped, true, Some(cap)) | (Stage::Full, false, Some(cap)) => {
                    let x = self.tally(store, r, t, n, cap);
                    capped_tests(self.procedure, t, &x, &mut tests);
                }
                _ => {}
            }
        }
        tests
    }

    /// The capped runs of target `j` for the `alive` readings, run by run (run 0 of every
    /// reading, then run 1, ...), with curtailment: a reading stops getting runs once its
    /// elimination at this look is decided whatever its remaining runs show (see
    /// [`Race::curtail`]). Exact: the decision is the one all runs would give, and it depends
    /// on the reading's own runs only, so on no thread count. The decided readings, with
    /// the cell and largest adjusted p-value over the remaining runs' outcomes; None when
    /// the store's pool lacks runs the look needs (nothing decided then).
    fn execute_curtailed(
        &self,
        store: &mut Store,
        alive: &[usize],
        j: usize,
        (k, n): (usize, u64),
        stage: Stage,
    ) -> Result<Option<HashMap<usize, Decided>>> {
        let t = &self.targets[j];
        let mut decided = HashMap::new();
        let Some(budget) = self.budget(t, stage) else {
            return Ok(Some(decided));
        };
        let runs = n.min(self.runs[t.puzzle]);
        if !self.curtail || !curtailable(t, stage) {
            let jobs = self.jobs(alive, j, n, stage);
            return Ok(match store.execute(self.protocol, &jobs, self.threads)? {
                Served::Done => Some(decided),
                Served::Lacking(_) => None,
            });
        }
        let mut open = alive.to_vec();
        for run in 0..runs {
            let jobs: Vec<Job> = (open.iter())
                .map(|&r| {
                    (
                        (r * self.entries + t.entry) as u32,
                        t.puzzle as u32,
                        run,
                        budget,
                    )
                })
                .collect();
            if let Served::Lacking(_) = store.execute(self.protocol, &jobs, self.threads)? {
                return Ok(None);
            }
            open.retain(
                |&r| match self.curtail(store, r, j, (k, n, run + 1), stage) {
                    Some(d) => {
                        decided.insert(r, d);
                        false
                    }
                    None => true,
                },
            );
            if open.is_empty() {
                break;
            }
        }
        Ok(Some(decided))
    }

    /// Whether reading `r`'s elimination at the capped look after target `j` is decided by
    /// its first `upto` runs there: every outcome of its remaining runs (each solved before
    /// the median, at it, by the maximum only, or neither; for a mean cap, solved within it or
    /// not) leaves a Holm-adjusted p-value at most the threshold. Only runs 0..upto count,
    /// even where a folder holds later ones (from an earlier binary), so the decision and its
    /// p-value do not depend on the folder's history. None when no run is left (the look
    /// judges the runs as they are) or some outcome saves it.
    fn curtail(
        &self,
        store: &Store,
        r: usize,
        j: usize,
        (k, n, upto): (usize, u64, u64),
        stage: Stage,
    ) -> Option<Decided> {
        let t = &self.targets[j];
        let budget = self.budget(t, stage)?;
        let x = self.tally(store, r, t, upto, budget);
        let left = n.min(self.runs[t.puzzle]).checked_sub(upto)?;
        if left == 0 || x.runs != upto {
            return None;
        }
        let others = self.tests_but(store, r, (j, Some(j)), n, stage);
        let mut worst: Option<Decided> = None;
        // The outcome at the paper's own rates first: a reading that can still be saved is
        // found at once; then every outcome.
        let likely = likely_outcome(t, left);
        // Without a median or maximum, "solved by the maximum only" (b) changes no test of
        // the row beyond what a does (capped stage: only the mean cap's count a; full stage
        // without a mean cap: only the successes a + b), so one dimension of outcomes covers
        // every test the row has: linear, not quadratic, in the runs left (1000-run rows).
        let flat = t.row.maximum.is_none()
            && t.row.median.is_none()
            && (stage == Stage::Capped || t.by_cap_bound.is_none());
        let every = (0..=left)
            .rev()
            .flat_map(move |a| (0..=if flat { 0 } else { left - a }).map(move |b| (a, b)));
        let order = std::iter::once(likely).chain(every);
        // Of the a runs solved by the median, those strictly before it only lower the median
        // cell's p-value (it tests them only when they are too many): the largest p-value is
        // where all a are at the median, which a run can be only when the median is a whole
        // number (generations are); else all a are before it.
        let tied = t.row.median.is_some_and(|m| m.fract() == 0.0);
        for (a, b) in order {
            let mut y = x.clone();
            y.runs += left;
            y.by_median += a;
            y.before_median += if tied { 0 } else { a };
            y.by_max += a + b;
            y.by_cap += a;
            y.solved += a + b;
            let mut tests = others.clone();
            capped_tests(self.procedure, t, &y, &mut tests);
            if stage == Stage::Full {
                self.full_tests(t, &y, &mut tests);
            }
            let (i, q) = self.adjusted(k, &tests)?;
            if q > self.threshold() {
                return None;
            }
            if worst.as_ref().is_none_or(|w| q > w.1) {
                worst = Some((tests[i].cell.clone(), q));
            }
        }
        worst
    }

    /// Eliminate a reading decided by curtailment at look `look`.
    fn eliminate(fate: &mut Fate, d: &Decided, look: usize, at: (usize, u64, Stage)) {
        fate.min_p = Some(d.1);
        fate.last_look = look;
        fate.eliminated = Some(Elimination {
            round: at.0 + 1,
            runs: at.1,
            stage: at.2,
            cell: d.0.clone(),
            p_holm: d.1,
        });
    }

    /// Record a look at a reading: its smallest Holm-adjusted p-value, and its elimination
    /// when that is at most the threshold.
    fn judge(&self, fate: &mut Fate, tests: &[Test], look: usize, at: (usize, u64, Stage)) {
        let Some((i, q)) = self.adjusted(at.0, tests) else {
            return;
        };
        fate.min_p = Some(q);
        fate.last_look = look;
        if q <= self.threshold() {
            fate.eliminated = Some(Elimination {
                round: at.0 + 1,
                runs: at.1,
                stage: at.2,
                cell: tests[i].cell.clone(),
                p_holm: q,
            });
        }
    }
}

/// Whether a row's runs may be curtailed in `stage`: always in the capped stage (its tests,
/// solved by the maximum, the median or a mean cap, are proportions of runs); in the full
/// stage only where every test is a proportion too, so that the remaining runs' outcomes are
/// counts: no Welch test (no published mean and SD), no maximum or median (their tests then
/// count solves within them, which the outcomes below do not tell apart from later ones),
/// not a counter row.
fn curtailable(t: &Target, stage: Stage) -> bool {
    match stage {
        Stage::Capped => true,
        Stage::Full => {
            let r = &t.row;
            let welch = r.average.is_some() && r.sd.is_some();
            !(t.counter || welch || r.maximum.is_some() || r.median.is_some())
        }
    }
}

/// The outcome of `left` more runs at the paper's rates: (solved by the median, solved by the
/// maximum only), by its successes, ceil(successes / 2) by the median, and for a mean cap its
/// bound within the cap.
fn likely_outcome(t: &Target, left: u64) -> (u64, u64) {
    let (Some(s), Some(n)) = (t.row.count, t.row.runs.filter(|&n| n > 0)) else {
        return (0, 0);
    };
    let share = |k: u64| ((left as f64) * k as f64 / n as f64).round() as u64;
    match t.by_cap_bound {
        Some(bound) => (share(bound).min(left), 0),
        None => {
            let by_max = share(s).min(left);
            let by_median = share(s.div_ceil(2)).min(by_max);
            (by_median, by_max - by_median)
        }
    }
}

/// The rounds of a race: the cumulative run counts asked for, each at most `max`, increasing,
/// ending at `max`.
pub fn rounds(asked: &[u64], max: u64) -> Vec<u64> {
    let mut out: Vec<u64> = asked
        .iter()
        .map(|&r| r.min(max))
        .filter(|&r| r > 0)
        .collect();
    out.push(max);
    out.sort_unstable();
    out.dedup();
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn rounds_end_at_the_maximum() {
        assert_eq!(
            super::rounds(&[5, 10, 20, 50, 100], 100),
            vec![5, 10, 20, 50, 100]
        );
        assert_eq!(super::rounds(&[5, 10, 20, 50, 100], 12), vec![5, 10, 12]);
        assert_eq!(super::rounds(&[5, 10], 3), vec![3]);
        assert_eq!(super::rounds(&[], 7), vec![7]);
    }
}
