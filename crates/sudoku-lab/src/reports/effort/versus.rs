//! `report = "versus"`: tests.csv and its section of report.md. For every puzzle entry and pair
//! of algorithms, Fisher's exact test on the success counts, the Mann-Whitney U test on the
//! effort (failures censored at +infinity) and on the final penalty, all p-values of the
//! file Holm-adjusted together. The effort is the evaluations when both algorithms count the
//! same unit of evaluation ([`unit_of`]); across units an evaluation of one is not an
//! evaluation of the other, so the effort is the run time: CPU seconds when every run of the
//! pair has them, else wall seconds (folders recorded before the `cpu_ms` column), and the
//! report says which.

use super::cells::Cell;
use super::format::f;
use crate::protocol::io::write_atomic_with;
use crate::reports::compare::data::unit_of;
use crate::reports::format::p_value as pval;
use crate::spec::{Loaded, Spec};
use anyhow::Result;
use lab_stats::{fisher_exact_two_sided, holm_adjust, mann_whitney_u};
use std::fmt::Write as _;
use std::io::Write;
use std::path::Path;

/// One pairwise comparison of `report = "versus"`.
struct Test {
    entry: usize,
    a: usize,
    b: usize,
    fisher: f64,
    /// What the effort test compared.
    measure: Measure,
    mw: Option<(f64, f64)>,
    pen: Option<(f64, f64)>,
    fisher_holm: f64,
    mw_holm: Option<f64>,
    pen_holm: Option<f64>,
}

/// What the effort test of a pair compares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Measure {
    /// Evaluations (both algorithms count the same unit).
    Evaluations,
    /// CPU seconds of the runs (units differ; every run has a CPU time).
    CpuSeconds,
    /// Wall seconds of the runs (units differ; some run has no CPU time).
    WallSeconds,
}

impl Measure {
    /// The word tests.csv writes.
    fn as_str(self) -> &'static str {
        match self {
            Measure::Evaluations => "evaluations",
            Measure::CpuSeconds => "cpu_seconds",
            Measure::WallSeconds => "wall_seconds",
        }
    }

    /// The effort measure of a pair: evaluations within one unit, run time across units.
    fn of(same_unit: bool, x: &Cell, y: &Cell) -> Measure {
        match (same_unit, x.all_cpu && y.all_cpu) {
            (true, _) => Measure::Evaluations,
            (false, true) => Measure::CpuSeconds,
            (false, false) => Measure::WallSeconds,
        }
    }
}

/// tests.csv and report.md's section on it.
pub fn write_tests(
    spec: &Spec,
    loaded: &Loaded,
    cells: &[Vec<Cell>],
    out: &Path,
) -> Result<String> {
    let mut tests = run_tests(spec, loaded, cells, &pairs(spec));
    adjust(&mut tests);
    let verdicts = Verdicts { spec, cells };
    write_tests_csv(spec, loaded, cells, &tests, &verdicts, out)?;
    Ok(tests_markdown(spec, cells, &tests, &verdicts))
}

/// The pairs of algorithms compared: every algorithm against the first with
/// `versus = "baseline"`, every pair otherwise.
fn pairs(spec: &Spec) -> Vec<(usize, usize)> {
    let k = spec.algorithms.len();
    if spec.versus.as_deref() == Some("baseline") {
        (1..k).map(|b| (0, b)).collect()
    } else {
        (0..k)
            .flat_map(|a| (a + 1..k).map(move |b| (a, b)))
            .collect()
    }
}

/// The three tests of every pair on every puzzle entry (entry by entry), not yet adjusted.
fn run_tests(
    spec: &Spec,
    loaded: &Loaded,
    cells: &[Vec<Cell>],
    pairs: &[(usize, usize)],
) -> Vec<Test> {
    let mut tests = Vec::new();
    for (e, _) in loaded.entries.iter().enumerate() {
        for &(a, b) in pairs {
            let (x, y) = (&cells[a][e], &cells[b][e]);
            let same = unit_of(&spec.algorithms[a]) == unit_of(&spec.algorithms[b]);
            let measure = Measure::of(same, x, y);
            let (ex, ey) = match measure {
                Measure::Evaluations => (&x.censored, &y.censored),
                _ => (&x.censored_ms, &y.censored_ms),
            };
            let fisher = fisher_exact_two_sided(
                x.successes,
                x.runs - x.successes,
                y.successes,
                y.runs - y.successes,
            );
            let mw = mann_whitney_u(ex, ey).ok().map(|r| (r.u, r.p_value));
            let pen = mann_whitney_u(&x.penalties, &y.penalties)
                .ok()
                .map(|r| (r.u, r.p_value));
            tests.push(Test {
                entry: e,
                a,
                b,
                fisher,
                measure,
                mw,
                pen,
                fisher_holm: f64::NAN,
                mw_holm: None,
                pen_holm: None,
            });
        }
    }
    tests
}

/// Holm over every p-value of the file, the three tests together: all Fisher p-values first,
/// then the Mann-Whitney ones on evaluations, then those on penalties.
fn adjust(tests: &mut [Test]) {
    let mut ps: Vec<f64> = tests.iter().map(|t| t.fisher).collect();
    ps.extend(tests.iter().filter_map(|t| t.mw.map(|m| m.1)));
    ps.extend(tests.iter().filter_map(|t| t.pen.map(|m| m.1)));
    let adj = holm_adjust(&ps);
    let mut rest = adj[tests.len()..].iter();
    for (t, &q) in tests.iter_mut().zip(&adj) {
        t.fisher_holm = q;
    }
    for t in tests.iter_mut().filter(|t| t.mw.is_some()) {
        t.mw_holm = rest.next().copied();
    }
    for t in tests.iter_mut().filter(|t| t.pen.is_some()) {
        t.pen_holm = rest.next().copied();
    }
}

/// The verdicts of a test in words, at Holm p < 0.05, naming the algorithm that does better.
struct Verdicts<'a> {
    spec: &'a Spec,
    cells: &'a [Vec<Cell>],
}

impl Verdicts<'_> {
    fn label(&self, i: usize) -> &str {
        self.spec.algorithms[i].label.as_str()
    }

    /// Fisher's test: which algorithm succeeds more, or "no difference".
    fn success(&self, t: &Test) -> String {
        let (x, y) = (&self.cells[t.a][t.entry], &self.cells[t.b][t.entry]);
        if t.fisher_holm >= 0.05 {
            "no difference".to_string()
        } else if x.rate() > y.rate() {
            format!("{} succeeds more", self.label(t.a))
        } else {
            format!("{} succeeds more", self.label(t.b))
        }
    }

    /// A Mann-Whitney test: which algorithm has the lower values (`"<label> <what>"`).
    fn lower(&self, t: &Test, m: Option<(f64, f64)>, q: Option<f64>, what: &str) -> String {
        match (m, q) {
            (Some((u, _)), Some(q)) if q < 0.05 => {
                // U counts pairs with x > y: above nx ny / 2, the first has the larger values.
                let (nx, ny) = (
                    self.cells[t.a][t.entry].runs as f64,
                    self.cells[t.b][t.entry].runs as f64,
                );
                if u > nx * ny / 2.0 {
                    format!("{} {what}", self.label(t.b))
                } else {
                    format!("{} {what}", self.label(t.a))
                }
            }
            (Some(_), _) => "no difference".into(),
            _ => "no test (all runs tied)".into(),
        }
    }

    /// The effort test: which algorithm needs fewer evaluations, or (across units) solves in
    /// less time.
    fn effort(&self, t: &Test) -> String {
        match t.measure {
            Measure::Evaluations => self.lower(t, t.mw, t.mw_holm, "needs fewer"),
            Measure::CpuSeconds => self.lower(t, t.mw, t.mw_holm, "solves in less CPU time"),
            Measure::WallSeconds => self.lower(t, t.mw, t.mw_holm, "solves in less wall time"),
        }
    }

    /// The test on final penalties: which algorithm ends lower.
    fn penalty(&self, t: &Test) -> String {
        self.lower(t, t.pen, t.pen_holm, "ends lower")
    }
}

/// tests.csv: one row per test, with U, the raw and the adjusted p-values.
fn write_tests_csv(
    spec: &Spec,
    loaded: &Loaded,
    cells: &[Vec<Cell>],
    tests: &[Test],
    v: &Verdicts,
    out: &Path,
) -> Result<()> {
    write_atomic_with(&out.join("tests.csv"), |w| {
        writeln!(w, "experiment,puzzle,label,algorithm_a,algorithm_b,successes_a,runs_a,successes_b,runs_b,fisher_p,fisher_p_holm,success_verdict,effort_measure,mw_u,mw_p,mw_p_holm,effort_verdict,penalty_mean_a,penalty_mean_b,penalty_u,penalty_p,penalty_p_holm,penalty_verdict")?;
        for t in tests {
            let (x, y) = (&cells[t.a][t.entry], &cells[t.b][t.entry]);
            writeln!(
                w,
                "{},{},{},{},{},{},{},{},{},{:.4e},{:.4e},{},{},{},{},{},{},{},{},{},{},{},{}",
                spec.id,
                loaded.entries[t.entry].id,
                spec.puzzles[t.entry].label(),
                v.label(t.a),
                v.label(t.b),
                x.successes,
                x.runs,
                y.successes,
                y.runs,
                t.fisher,
                t.fisher_holm,
                v.success(t),
                t.measure.as_str(),
                t.mw.map_or(String::new(), |m| format!("{:.1}", m.0)),
                t.mw.map_or(String::new(), |m| format!("{:.4e}", m.1)),
                t.mw_holm.map_or(String::new(), |q| format!("{q:.4e}")),
                v.effort(t),
                f(x.penalty().map(|s| s.mean), 3),
                f(y.penalty().map(|s| s.mean), 3),
                t.pen.map_or(String::new(), |m| format!("{:.1}", m.0)),
                t.pen.map_or(String::new(), |m| format!("{:.4e}", m.1)),
                t.pen_holm.map_or(String::new(), |q| format!("{q:.4e}")),
                v.penalty(t),
            )?;
        }
        Ok(())
    })
}

/// report.md's table of the tests: adjusted p-values and verdicts.
fn tests_markdown(spec: &Spec, cells: &[Vec<Cell>], tests: &[Test], v: &Verdicts) -> String {
    let mut md = String::from("| Puzzles | A | B | Success A / B | Fisher p (Holm) | Success | Effort, failures last | Mann-Whitney p (Holm) | Effort | Final penalty A / B | Mann-Whitney p (Holm) | Penalty |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
    for t in tests {
        let (x, y) = (&cells[t.a][t.entry], &cells[t.b][t.entry]);
        let _ = writeln!(
            md,
            "| {} | {} | {} | {}/{} vs {}/{} | {} | {} | {} | {} | {} | {} / {} | {} | {} |",
            spec.puzzles[t.entry].label(),
            v.label(t.a),
            v.label(t.b),
            x.successes,
            x.runs,
            y.successes,
            y.runs,
            pval(Some(t.fisher_holm)),
            v.success(t),
            match t.measure {
                Measure::Evaluations => "evaluations",
                Measure::CpuSeconds => "CPU seconds (units differ)",
                Measure::WallSeconds => "wall seconds (units differ)",
            },
            pval(t.mw_holm),
            v.effort(t),
            f(x.penalty().map(|s| s.mean), 2),
            f(y.penalty().map(|s| s.mean), 2),
            pval(t.pen_holm),
            v.penalty(t),
        );
    }
    md
}
