//! The tables and report.md of the compare report (see the module docs of [`super`]).

use super::data::penalties_at;
use super::data::Clock;
use super::data::{self as cd, Data, Run, Success};
use super::stats::{magnitude, Friedman, Pair, Unit};
use crate::export::tables::Table;
use anyhow::Result;

/// A table with `header` and no rows yet.
fn table(header: &[&str]) -> Table {
    Table {
        header: header.iter().map(|h| h.to_string()).collect(),
        rows: Vec::new(),
    }
}

/// The table as CSV (csv crate: fields quoted where needed).
pub fn table_csv(t: &Table) -> Result<Vec<u8>> {
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&t.header)?;
    for r in &t.rows {
        w.write_record(r)?;
    }
    Ok(w.into_inner()?)
}

/// A number with `digits` decimals; "inf" and "" for infinite and missing values.
pub fn num(x: f64, digits: usize) -> String {
    if x.is_finite() {
        // + 0.0 turns -0.0 into 0.0.
        format!("{:.digits$}", x + 0.0)
    } else if x == f64::INFINITY {
        "inf".into()
    } else {
        String::new()
    }
}

/// A p-value: 4 significant decimals, "<0.0001" below.
pub fn pval(p: f64) -> String {
    if p < 1e-4 {
        "<0.0001".into()
    } else {
        format!("{p:.4}")
    }
}

/// A p-value in a sentence: "p < 0.0001" or "p = 0.0123" (never "p = <0.0001").
pub fn p_is(p: f64) -> String {
    if p < 1e-4 {
        "p < 0.0001".into()
    } else {
        format!("p = {p:.4}")
    }
}

pub fn success_table(data: &Data) -> Table {
    let ert_time = format!("ert_{}", data.clock.csv());
    let mut t = table(&[
        "scope",
        "algorithm",
        "runs",
        "successes",
        "success_rate",
        "success_ci_low",
        "success_ci_high",
        &ert_time,
        "evaluation_unit",
        "ert_evaluations",
        "median_evaluations_of_successes",
        "mean_final_penalty",
    ]);
    let names = data.scope_names();
    for (s, name) in names.iter().enumerate() {
        for (a, label) in data.algorithms.iter().enumerate() {
            let runs: Vec<&Run> = data.runs_of(a, s).collect();
            let x = cd::success(runs.iter().copied());
            let solved: Vec<f64> = runs
                .iter()
                .filter(|r| r.solved)
                .map(|r| r.evaluations as f64)
                .collect();
            let median = lab_stats::summarize(&solved).map_or(f64::NAN, |m| m.median);
            let pen = runs.iter().map(|r| r.penalty as f64).sum::<f64>() / runs.len().max(1) as f64;
            t.rows.push(vec![
                name.clone(),
                label.clone(),
                x.runs.to_string(),
                x.successes.to_string(),
                num(x.successes as f64 / x.runs.max(1) as f64, 3),
                num(x.ci_low, 3),
                num(x.ci_high, 3),
                num(x.ert_seconds, 3),
                data.units[a].clone(),
                num(x.ert_evaluations, 0),
                num(median, 0),
                num(pen, 2),
            ]);
        }
    }
    t
}

pub fn pairs_table(data: &Data, pairs: &[Pair]) -> Table {
    let c = data.clock.csv();
    let time_cols = [
        format!("mwu_{c}_p"),
        format!("mwu_{c}_p_holm"),
        format!("a12_a_less_{c}"),
        format!("a12_magnitude_{c}"),
        format!("verdict_{c}"),
    ];
    let mut header = vec![
        "scope",
        "algorithm_a",
        "algorithm_b",
        "success_rate_a",
        "success_rate_b",
        "fisher_p",
        "fisher_p_holm",
    ];
    header.extend(time_cols.iter().map(String::as_str));
    header.extend([
        "same_evaluation_unit",
        "mwu_evaluations_p",
        "mwu_evaluations_p_holm",
        "a12_a_fewer_evaluations",
        "a12_magnitude",
        "verdict_evaluations",
    ]);
    let mut t = table(&header);
    let names = data.scope_names();
    for p in pairs {
        let rate = |s: &Success| num(s.successes as f64 / s.runs.max(1) as f64, 3);
        let opt = |x: Option<f64>| x.map_or(String::new(), pval);
        t.rows.push(vec![
            names[p.scope].clone(),
            data.algorithms[p.a].clone(),
            data.algorithms[p.b].clone(),
            rate(&p.success_a),
            rate(&p.success_b),
            pval(p.fisher_p),
            pval(p.fisher_holm),
            opt(p.time_p),
            opt(p.time_holm),
            num(p.a12_time, 3),
            magnitude(p.a12_time).to_string(),
            verdict(data, p, p.time_holm, Some(p.a12_time), Unit::Seconds),
            p.comparable.to_string(),
            opt(p.mwu_p),
            opt(p.mwu_holm),
            p.a12.map_or(String::new(), |a| num(a, 3)),
            p.a12.map_or(String::new(), |a| magnitude(a).to_string()),
            verdict(data, p, p.mwu_holm, p.a12, Unit::Evaluations),
        ]);
    }
    t
}

/// compare-pairs.csv's verdict in evaluations of a pair.
pub fn evaluations_verdict(data: &Data, p: &Pair) -> String {
    verdict(data, p, p.mwu_holm, p.a12, Unit::Evaluations)
}

/// What the report says of a comparison in evaluations between algorithms of different units.
pub const NOT_COMPARABLE: &str = "not comparable in evaluations";

/// The pair's verdict at the 5 % level after Holm, on the time to solve in `unit`.
fn verdict(data: &Data, p: &Pair, holm: Option<f64>, a12: Option<f64>, unit: Unit) -> String {
    if unit == Unit::Evaluations && !p.comparable {
        return NOT_COMPARABLE.into();
    }
    match (holm, a12) {
        (Some(h), Some(a12)) if h < 0.05 => {
            let (better, worse) = if a12 > 0.5 { (p.a, p.b) } else { (p.b, p.a) };
            format!(
                "{} faster than {} in {}",
                data.algorithms[better],
                data.algorithms[worse],
                unit.words(data.clock)
            )
        }
        (Some(_), _) => "no significant difference".into(),
        (None, _) => "neither solves".into(),
    }
}

pub fn friedman_tables(data: &Data, tests: &[Friedman]) -> (Table, Table, Table) {
    let names = data.scope_names();
    let mut f = table(&[
        "ert_unit",
        "scope",
        "puzzles",
        "algorithms",
        "friedman_chi2",
        "df",
        "friedman_p",
        "iman_davenport_f",
        "iman_davenport_p",
        "nemenyi_cd_0.05",
    ]);
    let mut ranks = table(&["ert_unit", "scope", "algorithm", "average_rank"]);
    let mut post = table(&[
        "ert_unit",
        "scope",
        "algorithm_a",
        "algorithm_b",
        "puzzles_nonzero",
        "wilcoxon_v",
        "exact",
        "p",
        "p_holm",
        "verdict",
    ]);
    for t in tests {
        let scope = &names[t.scope];
        let unit = ert_unit(data, t);
        f.rows.push(vec![
            unit.clone(),
            scope.clone(),
            t.puzzles.to_string(),
            t.algorithms.len().to_string(),
            num(t.chi2, 3),
            num(t.df, 0),
            pval(t.p),
            num(t.f_id, 3),
            pval(t.p_id),
            t.nemenyi_cd.map_or(String::new(), |c| num(c, 3)),
        ]);
        for (&a, r) in t.algorithms.iter().zip(&t.avg_ranks) {
            ranks.rows.push(vec![
                unit.clone(),
                scope.clone(),
                data.algorithms[a].clone(),
                num(*r, 3),
            ]);
        }
        for p in &t.posthoc {
            let verdict = match p.favoured() {
                Some(better) if p.holm < 0.05 => {
                    format!("{} ranks better", data.algorithms[better])
                }
                _ => "no significant difference".into(),
            };
            post.rows.push(vec![
                unit.clone(),
                scope.clone(),
                data.algorithms[p.a].clone(),
                data.algorithms[p.b].clone(),
                p.n.to_string(),
                num(p.v, 1),
                p.exact.to_string(),
                pval(p.p),
                pval(p.holm),
                verdict,
            ]);
        }
    }
    (f, ranks, post)
}

/// The `ert_unit` of a Friedman test's rows: the folder's seconds, "evaluations" when every
/// algorithm counts in one unit, else "evaluations (UNIT)" for the group of that unit.
pub fn ert_unit(data: &Data, t: &Friedman) -> String {
    match t.unit {
        Unit::Seconds => t.unit.csv(data.clock).to_string(),
        Unit::Evaluations if data.one_unit() => "evaluations".into(),
        Unit::Evaluations => format!("evaluations ({})", data.units[t.algorithms[0]]),
    }
}

/// Fixed target, all puzzles: per algorithm and target, the runs that reached a penalty of at
/// most the target and the ERT to reach it.
pub fn targets_table(data: &Data) -> Table {
    let mut t = table(&[
        "algorithm",
        "target_penalty",
        "runs",
        "reached",
        "fraction",
        "ert_evaluations",
    ]);
    let pooled = data.scopes.len();
    for (a, label) in data.algorithms.iter().enumerate() {
        for target in cd::TARGETS {
            let runs: Vec<&Run> = data.runs_of(a, pooled).collect();
            let hits: Vec<f64> = runs.iter().map(|r| cd::hitting_time(r, target)).collect();
            let reached = hits.iter().filter(|h| h.is_finite()).count();
            // ERT to the target: evaluations until the hit for runs that reached it, the
            // whole run for the others.
            let spent: f64 = runs
                .iter()
                .zip(&hits)
                .map(|(r, h)| {
                    if h.is_finite() {
                        *h
                    } else {
                        r.evaluations as f64
                    }
                })
                .sum();
            t.rows.push(vec![
                label.clone(),
                target.to_string(),
                runs.len().to_string(),
                reached.to_string(),
                num(reached as f64 / runs.len().max(1) as f64, 3),
                num(lab_stats::ert(spent, reached as u64), 0),
            ]);
        }
    }
    t
}

/// Fixed budget, all puzzles: the distribution of the best penalty so far.
pub fn budget_table(data: &Data) -> Table {
    let mut t = table(&[
        "algorithm",
        "evaluations",
        "runs_with_a_value",
        "min",
        "q1",
        "median",
        "q3",
        "max",
        "mean",
        "solved_fraction",
    ]);
    for (a, label) in data.algorithms.iter().enumerate() {
        for b in cd::fixed_budgets(data) {
            let v = penalties_at(data, a, b);
            // R's type 7, as the box plots draw them.
            let q = |p: f64| lab_charts::quantile_type7(&v, p).unwrap_or(f64::NAN);
            let mean = v.iter().sum::<f64>() / v.len().max(1) as f64;
            let solved = v.iter().filter(|&&x| x == 0.0).count() as f64 / v.len().max(1) as f64;
            t.rows.push(vec![
                label.clone(),
                b.to_string(),
                v.len().to_string(),
                num(q(0.0), 0),
                num(q(0.25), 2),
                num(q(0.5), 1),
                num(q(0.75), 2),
                num(q(1.0), 0),
                if v.is_empty() {
                    String::new()
                } else {
                    num(mean, 2)
                },
                if v.is_empty() {
                    String::new()
                } else {
                    num(solved, 3)
                },
            ]);
        }
    }
    t
}

pub(super) fn write_table(dir: &std::path::Path, name: &str, t: &Table, id: &str) -> Result<()> {
    use crate::export::tables::{latex, markdown};
    use crate::protocol::io::write_atomic;
    let source = format!("{name}.csv");
    write_atomic(&dir.join(&source), &table_csv(t)?)?;
    write_atomic(
        &dir.join(format!("{name}.md")),
        markdown(t, id, &source).as_bytes(),
    )?;
    write_atomic(
        &dir.join(format!("{name}.tex")),
        latex(t, id, &source).as_bytes(),
    )?;
    Ok(())
}

/// The parts of report.md that other modules write.
pub(super) struct Sections<'a> {
    pub note: &'a str,
    /// The runtime distributions (`survival::markdown`).
    pub runtimes: &'a str,
    /// One answer per pair (`answers::markdown`).
    pub answers: &'a str,
}

pub(super) fn markdown(
    spec: &crate::spec::Spec,
    data: &Data,
    tests: &[Friedman],
    tables: &[(&str, &Table)],
    parts: &Sections,
) -> String {
    use std::fmt::Write as _;
    let mut md = format!("# {}\n\n{}\n\n", spec.title, parts.note);
    md.push_str(&units_section(spec, data));
    md.push_str(&format!(
        "\n## Success and time to solve\n\nPer puzzle set: runs solved (Wilson 95 % interval), ERT in {} (all {} of all runs / successes) and, in brackets, ERT in evaluations (each algorithm in its own unit: compare these only within a unit).\n\n![success](compare-success.png)\n\n![ERT](compare-ert.png)\n\n",
        data.clock.words(),
        data.clock.words()
    ));
    md.push_str(&scope_matrix(data));
    md.push_str(parts.answers);
    for t in (tests.iter()).filter(|t| t.scope == data.scopes.len() && t.unit == Unit::Seconds) {
        md.push_str(&ranking(data, t));
    }
    md.push_str(parts.runtimes);
    for t in (tests.iter()).filter(|t| t.scope == data.scopes.len() && t.unit == Unit::Evaluations)
    {
        md.push_str(&ranking(data, t));
    }
    if data.anytime {
        md.push_str("\nFixed target (in each algorithm's own evaluations: compare the curves only within a unit): the fraction of runs whose best grid so far has at most 16, 8, 4, 2, 0 values missing from its rows, columns and boxes, against evaluations (all puzzles; Kaplan-Meier, a run that stopped before reaching a target censored where it stopped; shaded: 95 % bootstrap bands, puzzles then runs).\n\n![targets](compare-targets.png)\n\nFixed budget: the distribution of that penalty after 10^2, 10^3, ... evaluations (all puzzles; runs without a value there are left out, see compare-budget.csv).\n\n![budget](compare-budget.png)\n");
    }
    md.push_str("\n## Files\n\n");
    for (name, _) in tables {
        let _ = writeln!(md, "- `{name}.csv` (also `.md`, `.tex`)");
    }
    md
}

/// The time measure of the report and what one evaluation is per algorithm, with the groups
/// of algorithms that count in one unit.
fn units_section(spec: &crate::spec::Spec, data: &Data) -> String {
    use std::fmt::Write as _;
    let clock = match data.clock {
        Clock::Cpu => "Seconds in this report are CPU seconds (\"CPU s\": runs.csv `cpu_ms`, the run thread's CPU clock for a built-in algorithm, the CPU of an external solver's process group), which do not depend on how loaded the machine was.",
        Clock::Wall => "Seconds in this report are wall-clock seconds (\"wall s\": runs.csv `wall_ms`), since not every run of this folder has its CPU time (runs.csv `cpu_ms`, written by newer versions): they depend on the machine and on its load while the protocol ran.",
    };
    let mut md = format!("## Time and units\n\n{clock} An evaluation is a different thing in each algorithm (below): tests, rankings, ERTs and Bayesian verdicts in evaluations are made only between algorithms of one evaluation unit; across units the report says \"{NOT_COMPARABLE}\" and compares {}.\n\n| Algorithm | Solver | Evaluation unit | One evaluation |\n|---|---|---|---|\n", data.clock.words());
    for (a, alg) in spec.algorithms.iter().enumerate() {
        let _ = writeln!(
            md,
            "| {} | {} | `{}` | {} |",
            alg.label,
            alg.algorithm,
            data.units[a],
            super::data::unit_text(alg)
        );
    }
    let groups: Vec<String> = (data.unit_groups().iter())
        .filter(|g| g.len() >= 2)
        .map(|g| {
            let names: Vec<&str> = g.iter().map(|&a| data.algorithms[a].as_str()).collect();
            format!("{} (`{}`)", names.join(", "), data.units[g[0]])
        })
        .collect();
    let _ = writeln!(
        md,
        "\n{}",
        if data.one_unit() {
            "Every algorithm counts in one unit: evaluations compare across all of them."
                .to_string()
        } else if groups.is_empty() {
            "No two algorithms count in one unit: nothing is compared in evaluations.".to_string()
        } else {
            format!(
                "Compared in evaluations, within their unit only: {}.",
                groups.join("; ")
            )
        }
    );
    md
}

/// The Iman-Davenport statistic in words: F and its p-value, and why F is infinite when it
/// is (every puzzle ranks the algorithms in the same order, so the ranks leave no residual
/// variance: the denominator of F is zero, and the agreement is as strong as it can be).
fn iman_davenport(f: f64, p: f64) -> String {
    if f.is_infinite() {
        return format!(
            "Iman-Davenport F = inf, {} (F is infinite at perfect agreement: every puzzle \
             ranks the algorithms in the same order, so no variance is left within puzzles to \
             divide by)",
            p_is(p)
        );
    }
    format!("Iman-Davenport F = {f:.2}, {}", p_is(p))
}

fn ranking(data: &Data, t: &Friedman) -> String {
    use std::fmt::Write as _;
    let mut order: Vec<usize> = (0..t.algorithms.len()).collect();
    order.sort_by(|&a, &b| t.avg_ranks[a].total_cmp(&t.avg_ranks[b]));
    let unit = t.unit.words(data.clock);
    let (why, chart) = match (t.unit, data.clock) {
        (Unit::Evaluations, _) => (
            "deterministic: the same on any machine",
            cd_chart_name(data, t),
        ),
        (Unit::Seconds, Clock::Cpu) => ("CPU time of this machine: comparable across algorithms, whatever one evaluation is; less dependent on load than wall time, but not on the machine", "compare-cd-seconds".to_string()),
        (Unit::Seconds, Clock::Wall) => ("wall time of this machine and load: comparable across algorithms, whatever one evaluation is, but it can change from run to run of the protocol", "compare-cd-seconds".to_string()),
    };
    let among = if t.unit == Unit::Evaluations && !data.one_unit() {
        format!(
            " (the algorithms of unit `{}` only)",
            data.units[t.algorithms[0]]
        )
    } else {
        String::new()
    };
    let mut md = format!(
        "\n## Ranking over all {} puzzles, ERT in {unit}{among}\n\nEach puzzle ranks the algorithms by ERT in {unit} ({why}; infinite when no run solved the puzzle: such ties share their average rank). Friedman chi2 = {:.2} (df {}), {}; {}. Post hoc: Wilcoxon signed-rank on the per-puzzle ERTs, Holm-adjusted (compare-posthoc.csv); its verdict \"A ranks better\" names the algorithm the pair's own signed ranks favour, which the average ranks below, taken over every algorithm at once, can order the other way (on the puzzles B wins, third algorithms may beat A too and push A further back); bars join algorithms no post hoc test separates at 5 %.{}\n\n![critical difference]({chart}.png)\n\n| Rank | Algorithm | Average rank |\n|---|---|---|\n",
        t.puzzles,
        t.chi2,
        t.df,
        p_is(t.p),
        iman_davenport(t.f_id, t.p_id),
        t.nemenyi_cd.map_or(String::new(), |c| format!(" Nemenyi's critical difference at 5 % (for reference): {c:.2}."))
    );
    for (i, &k) in order.iter().enumerate() {
        let _ = writeln!(
            md,
            "| {} | {} | {:.2} |",
            i + 1,
            data.algorithms[t.algorithms[k]],
            t.avg_ranks[k]
        );
    }
    md
}

/// The critical-difference chart of a pooled Friedman test: `compare-cd-seconds`, and in
/// evaluations `compare-cd` (one unit) or `compare-cd-UNIT` (each unit's group).
pub fn cd_chart_name(data: &Data, t: &Friedman) -> String {
    match t.unit {
        Unit::Seconds => "compare-cd-seconds".into(),
        Unit::Evaluations if data.one_unit() => "compare-cd".into(),
        Unit::Evaluations => {
            let unit: String = (data.units[t.algorithms[0]].chars())
                .map(|c| {
                    if c.is_ascii_alphanumeric() || c == '-' {
                        c
                    } else {
                        '-'
                    }
                })
                .collect();
            format!("compare-cd-{unit}")
        }
    }
}

/// Success rate (95 % CI) and ERT per scope (rows) and algorithm (columns).
fn scope_matrix(data: &Data) -> String {
    use std::fmt::Write as _;
    let mut md = format!(
        "| Puzzle set | {} |\n|---|{}\n",
        data.algorithms.join(" | "),
        "---|".repeat(data.algorithms.len())
    );
    for (s, name) in data.scope_names().iter().enumerate() {
        let _ = write!(md, "| {name} |");
        for a in 0..data.algorithms.len() {
            let x = cd::success(data.runs_of(a, s));
            let _ = write!(
                md,
                " {}/{} ({:.0}-{:.0} %), ERT {} {} ({} ev.) |",
                x.successes,
                x.runs,
                100.0 * x.ci_low,
                100.0 * x.ci_high,
                seconds(x.ert_seconds),
                data.clock.short(),
                short(x.ert_evaluations)
            );
        }
        md.push('\n');
    }
    md
}

/// Seconds in a short form: 3 significant digits, "inf" when infinite.
pub fn seconds(x: f64) -> String {
    if !x.is_finite() {
        "inf".into()
    } else if x >= 100.0 {
        format!("{x:.0}")
    } else if x >= 0.01 {
        format!("{:.*}", (2 - x.log10().floor() as i64).max(0) as usize, x)
    } else {
        format!("{x:.1e}")
    }
}

/// A count in a short form: 1234 -> "1.2e3".
pub fn short(x: f64) -> String {
    if !x.is_finite() {
        "inf".into()
    } else if x < 1000.0 {
        format!("{x:.0}")
    } else {
        format!("{x:.1e}")
    }
}

#[cfg(test)]
mod tests {
    /// A p-value in a sentence reads "p < 0.0001" below the printed precision, "p = x" above.
    #[test]
    fn p_values_read_as_sentences() {
        for (p, want) in [
            (0.0, "p < 0.0001"),
            (0.00009, "p < 0.0001"),
            (0.0001, "p = 0.0001"),
            (0.0123, "p = 0.0123"),
            (1.0, "p = 1.0000"),
        ] {
            assert_eq!(super::p_is(p), want);
        }
    }

    /// An infinite Iman-Davenport F (perfect agreement of the puzzles' rankings) is
    /// explained, a finite one printed as it is.
    #[test]
    fn an_infinite_iman_davenport_f_is_explained() {
        let inf = super::iman_davenport(f64::INFINITY, 0.0);
        assert!(
            inf.starts_with("Iman-Davenport F = inf, p < 0.0001 "),
            "{inf}"
        );
        assert!(inf.contains("perfect agreement"), "{inf}");
        let finite = super::iman_davenport(3.25, 0.02);
        assert!(
            finite.starts_with("Iman-Davenport F = 3.25, p = 0.0200"),
            "{finite}"
        );
        assert!(!finite.contains("agreement"));
    }
}
