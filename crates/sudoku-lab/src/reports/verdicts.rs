//! Published values against ours, cell by cell: comparison.csv (every published cell with its
//! test and Holm-adjusted verdict) and the report of an ablation (variants against a published
//! table's rows). Used by the Table 1 report (`table1.rs`) and every `report = "ablation"`.

use crate::protocol::io::write_atomic_with;
use crate::reports::groups::{Group, PublishedRow};
use crate::spec::Entry;
use crate::spec::Spec;
use anyhow::Result;
use lab_stats::{fisher_exact_two_sided, holm_adjust, welch_t_test, wilson_interval, Summary};
use std::io::Write;
use std::path::Path;

/// Significance level of the verdicts (after Holm adjustment).
pub const ALPHA: f64 = 0.05;

/// One comparison line.
#[derive(Debug, Clone)]
pub struct Cell {
    pub family: &'static str,
    pub level: String,
    pub puzzle: String,
    pub algorithm: String,
    pub statistic: &'static str,
    pub paper: f64,
    pub ours: Option<f64>,
    /// Runs behind the paper's row and behind ours (None for `givens`, a property of the
    /// puzzle, and where the paper prints no run count). A `count` is compared as a rate over
    /// these.
    pub paper_runs: Option<u64>,
    pub our_runs: Option<u64>,
    /// 95 % interval of our statistic: Wilson for the success rate of a `count` (a rate, not a
    /// count), the percentile bootstrap for the mean of an `average` (None below
    /// [`lab_stats::BOOTSTRAP_MIN_N`] successes); None elsewhere. Never a negative bound.
    pub ours_ci: Option<(f64, f64)>,
    /// Our successful runs behind an `average` (None elsewhere): says why it has no interval.
    pub successes: Option<u64>,
    pub test: &'static str,
    pub p: Option<f64>,
    pub p_holm: Option<f64>,
    /// Approximate power of the test, at the 5 % level, to detect a two-fold difference from
    /// the paper's value (see [`power_two_fold_rate`] and [`power_two_fold_mean`]); None where
    /// there is no test or it cannot be computed.
    pub power_2x: Option<f64>,
}

/// Below this power a "no significant difference" is flagged "low power": the comparison
/// could easily have missed a two-fold difference.
pub const LOW_POWER: f64 = 0.8;

/// Power of a two-sided two-proportion z test (normal approximation, unpooled variance) at
/// the 5 % level to detect a success rate twice the paper's `p` (half of it when `2p > 1`),
/// with `n_paper` and `n_ours` runs. None for `p = 0` (no two-fold of zero).
pub fn power_two_fold_rate(p: f64, n_paper: u64, n_ours: u64) -> Option<f64> {
    if !(p > 0.0 && p <= 1.0) || n_paper == 0 || n_ours == 0 {
        return None;
    }
    let q = if 2.0 * p <= 1.0 { 2.0 * p } else { p / 2.0 };
    let se = (p * (1.0 - p) / n_paper as f64 + q * (1.0 - q) / n_ours as f64).sqrt();
    normal_power((q - p).abs(), se)
}

/// Power of a two-sided z test (normal approximation of Welch's) at the 5 % level to detect a
/// mean twice the paper's `mean`, with the paper's `sd` over `n_paper` values and our `sd_ours`
/// (the paper's when we have none) over `n_ours`.
pub fn power_two_fold_mean(
    mean: f64,
    sd: f64,
    n_paper: u64,
    sd_ours: Option<f64>,
    n_ours: u64,
) -> Option<f64> {
    if !(mean.is_finite() && mean > 0.0 && sd.is_finite()) || n_paper < 2 || n_ours < 2 {
        return None;
    }
    let so = sd_ours.filter(|x| x.is_finite()).unwrap_or(sd);
    let se = (sd * sd / n_paper as f64 + so * so / n_ours as f64).sqrt();
    normal_power(mean, se)
}

/// Power of a two-sided z test at the 5 % level to see `difference` with standard error `se`.
pub fn normal_power(difference: f64, se: f64) -> Option<f64> {
    use statrs::distribution::{ContinuousCDF, Normal};
    if se == 0.0 {
        return Some(1.0);
    }
    let n = Normal::new(0.0, 1.0).ok()?;
    let shift = difference / se;
    Some(n.cdf(shift - Z95) + n.cdf(-shift - Z95))
}

impl Cell {
    /// The paper's value and ours on a common scale: success rates (count / runs) for a
    /// `count`, whose run counts may differ; the values themselves otherwise.
    pub fn comparable(&self) -> Option<(f64, f64)> {
        let ours = self.ours?;
        if self.statistic == "count" {
            match (self.paper_runs, self.our_runs) {
                (Some(pr), Some(or)) if pr > 0 && or > 0 => {
                    Some((self.paper / pr as f64, ours / or as f64))
                }
                _ => None,
            }
        } else {
            Some((self.paper, ours))
        }
    }

    /// Ours over the paper's on the scale of [`Cell::comparable`]: the ratio of success rates
    /// for a `count`.
    pub fn ratio(&self) -> Option<f64> {
        self.comparable()
            .filter(|&(paper, _)| paper != 0.0)
            .map(|(paper, ours)| ours / paper)
    }

    pub fn verdict(&self) -> String {
        match (self.p_holm, self.comparable()) {
            (Some(p), Some((paper, ours))) if p < ALPHA => {
                format!(
                    "differs ({})",
                    if ours > paper {
                        "ours higher"
                    } else {
                        "ours lower"
                    }
                )
            }
            (Some(_), _) if self.power_2x.is_some_and(|w| w < LOW_POWER) => {
                "no significant difference (low power)".into()
            }
            (Some(_), _) => "no significant difference".into(),
            (None, _) if self.test == "none" => "descriptive".into(),
            _ => "n/a".into(),
        }
    }
}

/// z of the two-sided 95 % interval.
const Z95: f64 = 1.959964;

/// Seed of the bootstrap intervals of comparison.csv: fixed, so that the file is the same on
/// every machine and thread count.
const BOOTSTRAP_SEED: u64 = 0x5eed_0b00_7572_a9e5;

/// Our 95 % interval of the mean of `xs` (generations of successful runs, never negative):
/// the percentile bootstrap ([`lab_stats::bootstrap_mean_interval`]), whose bounds are means
/// of observed values, so never negative (the t interval of 2-4 skewed values reached
/// -250 550). None with fewer than [`lab_stats::BOOTSTRAP_MIN_N`] successes.
fn mean_interval(xs: &[f64]) -> Option<(f64, f64)> {
    lab_stats::bootstrap_mean_interval(xs, 0.95, BOOTSTRAP_SEED)
}

/// How comparison.csv's interval of a cell was made, or why there is none.
fn interval_method(c: &Cell) -> String {
    match (c.statistic, c.ours_ci, c.ours) {
        ("count", Some(_), _) => "wilson".into(),
        ("average", Some(_), _) => format!(
            "bootstrap percentile ({} resamples)",
            lab_stats::BOOTSTRAP_RESAMPLES
        ),
        ("average", None, Some(_)) => format!(
            "none (too few successes: {} < {})",
            c.successes.unwrap_or(0),
            lab_stats::BOOTSTRAP_MIN_N
        ),
        _ => String::new(),
    }
}

/// Build every comparison cell: for each published row (level, algorithm), each spec puzzle
/// with that label and each spec algorithm with that paper label. Success counts: Fisher's
/// exact test on (ours successes / runs) against (paper count / paper runs); their direction
/// and ratio are those of the success rates, since the run counts may differ. Means: Welch's
/// t-test from the published mean, SD and count against ours (needs >= 2 successes on each
/// side). Minimum, maximum, median, SD: shown with their ratio, no test (no sampling
/// distribution can be derived from the published numbers alone). Holm adjustment within each
/// family: "primary" (the puzzles taken as the paper's) and "candidate" (uncertain files).
pub fn comparison(
    spec: &Spec,
    puzzles: &[Entry],
    g: &[Vec<Group>],
    published: &[PublishedRow],
) -> Vec<Cell> {
    let mut cells = Vec::new();
    for row in published {
        for (p, pref) in spec.puzzles.iter().enumerate() {
            if pref.label() != row.level {
                continue;
            }
            for (a, alg) in spec.algorithms.iter().enumerate() {
                if alg.paper_label.as_deref() != Some(row.algorithm.as_str()) {
                    continue;
                }
                let ours = &g[a][p];
                let source = Source {
                    row,
                    family: if pref.primary { "primary" } else { "candidate" },
                    puzzle: &puzzles[p],
                    algorithm: &alg.label,
                    ours,
                    generations: ours.generations(),
                };
                source.push_cells(&mut cells);
            }
        }
    }
    adjust_within_families(&mut cells);
    cells
}

/// What every comparison cell of one (published row, spec puzzle, spec algorithm) shares: the
/// paper's row, the puzzle entry and algorithm it is compared with, and our runs of them.
struct Source<'a> {
    row: &'a PublishedRow,
    family: &'static str,
    puzzle: &'a Entry,
    algorithm: &'a str,
    ours: &'a Group,
    /// The generations of our successful runs (None when no run solved).
    generations: Option<Summary>,
}

impl Source<'_> {
    /// The cells of this source, in the order of comparison.csv: givens, count, average, the
    /// descriptive statistics, then the times.
    fn push_cells(&self, cells: &mut Vec<Cell>) {
        cells.extend(self.givens());
        cells.extend(self.count());
        cells.extend(self.average());
        cells.extend(self.descriptive());
        cells.extend(self.times());
    }

    /// A cell of this source with our run count beside the paper's, no interval, no power and
    /// no Holm-adjusted p-value yet (that one needs every cell of the family).
    fn cell(
        &self,
        statistic: &'static str,
        paper: f64,
        ours: Option<f64>,
        test: &'static str,
        p: Option<f64>,
    ) -> Cell {
        Cell {
            family: self.family,
            level: self.row.level.clone(),
            puzzle: self.puzzle.id.clone(),
            algorithm: self.algorithm.to_string(),
            statistic,
            paper,
            ours,
            paper_runs: self.row.runs,
            our_runs: Some(self.ours.runs),
            ours_ci: None,
            successes: None,
            test,
            p,
            p_holm: None,
            power_2x: None,
        }
    }

    /// The puzzle's givens against the paper's: a property of the puzzle, so no run counts.
    fn givens(&self) -> Option<Cell> {
        let gv = self.row.givens?;
        Some(Cell {
            paper_runs: None,
            our_runs: None,
            ..self.cell(
                "givens",
                gv as f64,
                self.puzzle.givens.map(|g| g as f64),
                "none",
                None,
            )
        })
    }

    /// Successes: Fisher's exact test, the Wilson interval of our rate and the power to see a
    /// two-fold rate; only where the paper prints both its count and its runs.
    fn count(&self) -> Option<Cell> {
        let (Some(count), Some(runs)) = (self.row.count, self.row.runs) else {
            return None;
        };
        let x = self.ours;
        let fisher = fisher_exact_two_sided(
            x.successes,
            x.runs - x.successes,
            count,
            runs.saturating_sub(count),
        );
        let (lo, hi) = wilson_interval(x.successes, x.runs, Z95);
        Some(Cell {
            ours_ci: Some((lo, hi)).filter(|(lo, hi)| lo.is_finite() && hi.is_finite()),
            power_2x: power_two_fold_rate(count as f64 / runs as f64, runs, x.runs),
            ..self.cell(
                "count",
                count as f64,
                Some(x.successes as f64),
                "fisher_exact",
                Some(fisher),
            )
        })
    }

    /// The mean generations of successful runs: Welch's t-test where the paper prints an SD,
    /// our t interval and the power to see a two-fold mean.
    fn average(&self) -> Option<Cell> {
        let avg = self.row.average?;
        let s = self.generations;
        let (test, p_value) = self.average_test(avg);
        let power_2x = match (self.row.sd, p_value) {
            (Some(sd), Some(_)) => power_two_fold_mean(
                avg,
                sd,
                self.row.count.unwrap_or(0),
                s.map(|s| s.sd),
                s.map_or(0, |s| s.n as u64),
            ),
            _ => None,
        };
        Some(Cell {
            ours_ci: mean_interval(&self.ours.success_generations),
            successes: Some(self.ours.successes),
            power_2x,
            ..self.cell("average", avg, s.map(|s| s.mean), test, p_value)
        })
    }

    /// The test of our mean against the paper's `avg` and its p-value: Welch's t-test from the
    /// published SD and count, which needs >= 2 successes on each side.
    fn average_test(&self, avg: f64) -> (&'static str, Option<f64>) {
        let published_count = self.row.count.unwrap_or(0);
        match self.row.sd {
            None => ("none (no published SD)", None),
            Some(sd) => {
                let w = self
                    .generations
                    .filter(|s| s.n >= 2 && published_count >= 2)
                    .and_then(|s| {
                        welch_t_test(s.mean, s.sd, s.n as u64, avg, sd, published_count).ok()
                    });
                match w {
                    Some(w) => ("welch_t", Some(w.p_value)),
                    None => ("welch_t (too few successes)", None),
                }
            }
        }
    }

    /// Minimum, maximum, median and SD of the generations of successful runs, where the paper
    /// prints them: no test (no sampling distribution follows from the published numbers).
    fn descriptive(&self) -> Vec<Cell> {
        let (row, s) = (self.row, self.generations);
        [
            ("minimum", row.minimum, s.map(|s| s.min)),
            ("maximum", row.maximum, s.map(|s| s.max)),
            ("median", row.median, s.map(|s| s.median)),
            ("sd", row.sd, s.filter(|s| s.n >= 2).map(|s| s.sd)),
        ]
        .into_iter()
        .filter_map(|(name, paper, ours)| paper.map(|v| self.cell(name, v, ours, "none", None)))
        .collect()
    }

    /// The expected time to solve and the time per run, where the paper prints them: ratios
    /// to another machine, never a test.
    fn times(&self) -> Vec<Cell> {
        let x = self.ours;
        let mut cells = Vec::new();
        if let Some(t) = self.row.ets_s {
            let ours = lab_stats::ert(x.total_wall_ms / 1e3, x.successes);
            cells.push(self.cell("ets_s", t, Some(ours), "none (other machine)", None));
        }
        if let Some(t) = self.row.time_s {
            // Seconds per run, measured single-threaded inside each run.
            let ours = x.total_wall_ms / x.runs.max(1) as f64 / 1e3;
            cells.push(self.cell("time_s", t, Some(ours), "none (other machine)", None));
        }
        cells
    }
}

/// Holm's adjustment of the p-values within each family ("primary", then "candidate"), each
/// family's p-values in cell order; cells without a test keep no adjusted p-value.
fn adjust_within_families(cells: &mut [Cell]) {
    for family in ["primary", "candidate"] {
        let idx: Vec<usize> = (0..cells.len())
            .filter(|&i| cells[i].family == family && cells[i].p.is_some())
            .collect();
        let ps: Vec<f64> = idx
            .iter()
            .map(|&i| cells[i].p.unwrap_or(f64::NAN))
            .collect();
        for (&i, q) in idx.iter().zip(holm_adjust(&ps)) {
            cells[i].p_holm = Some(q);
        }
    }
}

fn num(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => {
            if x.fract() == 0.0 && x.abs() < 1e15 {
                format!("{x:.0}")
            } else {
                format!("{x:.4}")
            }
        }
        _ => String::new(),
    }
}

fn pval(v: Option<f64>) -> String {
    match v {
        Some(x) if x.is_finite() => format!("{x:.4e}"),
        _ => String::new(),
    }
}

pub fn write_comparison(path: &Path, spec: &Spec, cells: &[Cell]) -> Result<()> {
    write_atomic_with(path, |w| {
        writeln!(w, "experiment,family,level,puzzle,algorithm,statistic,paper,paper_runs,ours,our_runs,ratio,ours_ci_low,ours_ci_high,ours_ci,test,p_value,p_holm,power_2x,verdict")?;
        for c in cells {
            let runs = |r: Option<u64>| r.map_or(String::new(), |r| r.to_string());
            writeln!(
                w,
                "{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{},{}",
                spec.id,
                c.family,
                c.level,
                c.puzzle,
                c.algorithm,
                c.statistic,
                num(Some(c.paper)),
                runs(c.paper_runs),
                num(c.ours),
                runs(c.our_runs),
                c.ratio()
                    .filter(|r| r.is_finite())
                    .map(|r| format!("{r:.3}"))
                    .unwrap_or_default(),
                num(c.ours_ci.map(|c| c.0)),
                num(c.ours_ci.map(|c| c.1)),
                interval_method(c),
                c.test,
                pval(c.p),
                pval(c.p_holm),
                c.power_2x.map_or(String::new(), |w| format!("{w:.3}")),
                c.verdict()
            )?;
        }
        Ok(())
    })
}

/// A published "average (SD)" cell, with what the paper prints.
pub fn paper_avg_sd(r: &PublishedRow) -> String {
    match (r.average, r.sd) {
        (Some(a), Some(sd)) => format!("{a:.1} ({sd:.1})"),
        (Some(a), None) => format!("{a:.1}"),
        _ => "-".into(),
    }
}

/// The Holm-adjusted p-value of a cell as the Markdown reports print it: "<0.001" below
/// 0.001, three decimals otherwise, "-" where there is no cell or no test.
pub fn p_holm_text(c: Option<&Cell>) -> String {
    super::format::p_value(c.and_then(|c| c.p_holm))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: &str = r#"
id = "rates"
title = "test"
master_seed = 1
runs = 50
quick_runs = 2
quick_max_generations = 10
puzzles = [{ id = "mk_2star", label = "2 Star" }]

[[algorithms]]
label = "default"
algorithm = "mk-ga"
paper_label = "GA"
max_generations = 100
"#;

    /// One success-count cell of ours (successes / runs) against the paper's (count / runs),
    /// and the comparison.csv line written for it.
    fn count_cell(ours: (u64, u64), paper: (u64, u64)) -> (Cell, String) {
        let spec = Spec::parse(SPEC, "rates.toml").unwrap();
        let puzzles = [Entry {
            id: "mk_2star".into(),
            givens: Some(30),
            puzzles: 1,
        }];
        let g = vec![vec![Group {
            runs: ours.1,
            successes: ours.0,
            ..Group::default()
        }]];
        let published = crate::reports::groups::parse_published(
            &format!(
                "level,algorithm,runs,count\n2 Star,GA,{},{}\n",
                paper.1, paper.0
            ),
            "published",
        )
        .unwrap();
        let cells = comparison(&spec, &puzzles, &g, &published);
        assert_eq!(cells.len(), 1);
        let dir = std::env::temp_dir().join(format!(
            "sudoku-lab-compare-{}-{}-{}-{}-{}",
            std::process::id(),
            ours.0,
            ours.1,
            paper.0,
            paper.1
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("comparison.csv");
        write_comparison(&path, &spec, &cells).unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        let _ = std::fs::remove_dir_all(&dir);
        let mut lines = text.lines();
        assert_eq!(
            lines.next().unwrap(),
            "experiment,family,level,puzzle,algorithm,statistic,paper,paper_runs,ours,our_runs,ratio,ours_ci_low,ours_ci_high,ours_ci,test,p_value,p_holm,power_2x,verdict"
        );
        (cells[0].clone(), lines.next().unwrap().to_string())
    }

    /// Direction and ratio are those of the success rates: with unequal run counts the raw
    /// counts may point the other way (48 < 69 successes, but 96 % > 69 %).
    #[test]
    fn count_verdicts_compare_rates_not_raw_counts() {
        /// (ours successes, our runs), (paper count, paper runs), ratio of rates, verdict.
        type Case = ((u64, u64), (u64, u64), f64, &'static str);
        let table: [Case; 6] = [
            // unequal run counts, raw counts and rates opposite
            ((48, 50), (69, 100), 0.96 / 0.69, "differs (ours higher)"),
            ((30, 200), (20, 40), 0.15 / 0.5, "differs (ours lower)"),
            // equal run counts
            ((90, 100), (50, 100), 1.8, "differs (ours higher)"),
            ((10, 100), (60, 100), 10.0 / 60.0, "differs (ours lower)"),
            (
                (48, 100),
                (52, 100),
                48.0 / 52.0,
                "no significant difference",
            ),
            // a fourfold rate from 5 runs is no evidence of a difference, and the test could
            // not have seen a two-fold one
            (
                (1, 5),
                (5, 100),
                4.0,
                "no significant difference (low power)",
            ),
        ];
        for (ours, paper, ratio, verdict) in table {
            let (cell, line) = count_cell(ours, paper);
            let what = format!("{ours:?} against {paper:?}: {line}");
            assert_eq!(cell.verdict(), verdict, "{what}");
            assert!((cell.ratio().unwrap() - ratio).abs() < 1e-12, "{what}");
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f[5], "count", "{what}");
            assert_eq!(f[6], paper.0.to_string(), "{what}");
            assert_eq!(f[7], paper.1.to_string(), "{what}");
            assert_eq!(f[8], ours.0.to_string(), "{what}");
            assert_eq!(f[9], ours.1.to_string(), "{what}");
            assert_eq!(f[10], format!("{ratio:.3}"), "{what}");
            // The Wilson 95 % interval of our success rate holds our rate.
            let (lo, hi): (f64, f64) = (f[11].parse().unwrap(), f[12].parse().unwrap());
            let rate = ours.0 as f64 / ours.1 as f64;
            assert!(lo < rate && rate < hi, "{what}");
            assert_eq!(f[13], "wilson", "{what}");
            assert_eq!(f[18], verdict, "{what}");
        }
    }

    /// Power to detect a two-fold difference, normal approximation (values by hand:
    /// Phi(x) from the standard normal table).
    #[test]
    fn power_of_a_two_fold_difference() {
        // p = 0.2 -> 0.4, 100 runs each: se = sqrt(0.2*0.8/100 + 0.4*0.6/100) = 0.063246,
        // power = Phi(0.2/0.063246 - 1.959964) + Phi(-3.162278 - 1.959964) = Phi(1.202314)
        // = 0.885383.
        let w = power_two_fold_rate(0.2, 100, 100).unwrap();
        assert!((w - 0.885383).abs() < 1e-5, "{w}");
        // p = 0.8 -> 0.4 (doubling is impossible): the same se, twice the difference:
        // Phi(6.324555 - 1.959964) = 0.9999936.
        let w = power_two_fold_rate(0.8, 100, 100).unwrap();
        assert!((w - 0.9999936).abs() < 1e-6, "{w}");
        // 5 of our runs against 100 of the paper's: hopeless.
        assert!(power_two_fold_rate(0.05, 100, 5).unwrap() < 0.1);
        assert_eq!(power_two_fold_rate(0.0, 100, 100), None);
        // Means: 1000 (SD 500) over 30 values against 20 of ours with SD 800:
        // se = sqrt(500^2/30 + 800^2/20) = 200.8316; power = Phi(1000/200.8316 - 1.959964)
        // = Phi(3.019332) = 0.998733 (+ a negligible lower tail).
        let w = power_two_fold_mean(1000.0, 500.0, 30, Some(800.0), 20).unwrap();
        assert!((w - 0.998733).abs() < 1e-5, "{w}");
        assert_eq!(power_two_fold_mean(1000.0, 500.0, 1, None, 20), None);
    }

    #[test]
    fn no_mean_interval_has_a_negative_bound() {
        // Before: the t interval of these 3 generations (a mean of 2-4 successes in
        // comparison.csv) ran down to about -58 000.
        assert_eq!(mean_interval(&[500.0, 1200.0, 40000.0]), None);
        let xs = [
            500.0, 1200.0, 40000.0, 800.0, 950.0, 700.0, 3000.0, 650.0, 1100.0, 900.0,
        ];
        let (lo, hi) = mean_interval(&xs).unwrap();
        assert!(lo >= 500.0 && lo < hi && hi <= 40000.0, "{lo} {hi}");
    }
}
