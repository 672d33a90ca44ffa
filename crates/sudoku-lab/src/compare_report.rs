//! `report = "compare"`: algorithms compared as the field does (issue 9), per puzzle set
//! ("scope": the puzzle entries' `label`) and pooled over all puzzles.
//!
//! * `compare-success.csv`: success with its Wilson 95 % interval, ERT in evaluations and in
//!   seconds (Auger & Hansen 2005: all evaluations of all runs / successes).
//! * `compare-pairs.csv`: for every scope and pair of algorithms, Fisher's exact test on the
//!   success counts and the Mann-Whitney U test on the evaluations to solve (failures count as
//!   +infinity: censored at the common budget, they rank behind every success and tie), with the
//!   Vargha-Delaney A12 effect size of "A needs fewer evaluations than B" and its magnitude;
//!   Holm-adjusted within each test family over the whole file.
//! * `compare-friedman.csv`, `compare-ranks.csv`, `compare-posthoc.csv`: across puzzles as
//!   blocks (Demsar 2006): each puzzle ranks the algorithms by their ERT on it (infinite ERTs
//!   tie), Friedman's test (chi-square with the tie correction of R's `friedman.test`, and the
//!   Iman-Davenport F), then, as post hoc, the Wilcoxon signed-rank test on the per-puzzle ERTs
//!   of every pair with Holm's adjustment (Benavoli, Corani & Mangili 2016 recommend it over the
//!   mean-ranks Nemenyi test, whose critical difference is given for reference). An infinite
//!   ERT is replaced, for the signed-rank test only, by 10 x the largest finite ERT of the
//!   scope: any value above 2 x that largest ERT gives the same ranks of the differences, so
//!   the test does not depend on the choice; a puzzle that both algorithms of a pair never
//!   solve is a zero difference (dropped, as R does).
//! * `compare-targets.csv`, `compare-budget.csv` (with `anytime = true`): the fixed-target
//!   view (runs that reach a penalty of at most 16, 8, 4, 2, 0 and the ERT to reach it) and the
//!   fixed-budget view (the distribution of the best penalty so far after 10^2, 10^3, ...
//!   evaluations), over all puzzles.
//! * Charts: success with Wilson bars and ERT per scope, runtime ECDFs per scope and pooled,
//!   fixed-target ECDFs, fixed-budget box plots, and the critical-difference diagram.
//! * Every table also as Markdown and LaTeX (booktabs) beside its CSV.

use crate::compare_data::{self as cd, Data, Run, Success};
use crate::export::tables::Table;
use anyhow::Result;
use lab_stats::{fisher_exact_two_sided, holm_adjust, mann_whitney_u};

/// One pairwise comparison in one scope.
#[derive(Debug, Clone, PartialEq)]
pub struct Pair {
    pub scope: usize,
    pub a: usize,
    pub b: usize,
    pub success_a: Success,
    pub success_b: Success,
    pub fisher_p: f64,
    pub fisher_holm: f64,
    /// Mann-Whitney U on the censored evaluations; `None` when every run of both failed.
    pub mwu_p: Option<f64>,
    pub mwu_holm: Option<f64>,
    /// P(a run of A needs fewer evaluations than a run of B) + P(tie) / 2.
    pub a12: f64,
}

/// Friedman's test over the puzzles of one scope.
#[derive(Debug, Clone, PartialEq)]
pub struct Friedman {
    pub scope: usize,
    /// What ERT counts: evaluations (deterministic) or seconds (wall time, machine-dependent).
    pub unit: Unit,
    pub puzzles: usize,
    pub avg_ranks: Vec<f64>,
    pub chi2: f64,
    pub df: f64,
    pub p: f64,
    pub f_id: f64,
    pub p_id: f64,
    /// Nemenyi's critical difference of the average ranks at alpha = 0.05 (when tabulated).
    pub nemenyi_cd: Option<f64>,
    pub posthoc: Vec<PostHoc>,
}

/// The Wilcoxon signed-rank post hoc of one pair.
#[derive(Debug, Clone, PartialEq)]
pub struct PostHoc {
    pub a: usize,
    pub b: usize,
    /// Puzzles with a non-zero difference.
    pub n: usize,
    pub v: f64,
    pub p: f64,
    pub holm: f64,
    pub exact: bool,
}

/// Every pair of algorithms in every scope (pooled last).
pub fn pairs(data: &Data) -> Result<Vec<Pair>> {
    let k = data.algorithms.len();
    let mut out = Vec::new();
    for s in 0..=data.scopes.len() {
        for a in 0..k {
            for b in a + 1..k {
                out.push(pair(data, s, a, b)?);
            }
        }
    }
    let fisher = holm_adjust(&out.iter().map(|p| p.fisher_p).collect::<Vec<_>>());
    let with_mwu: Vec<usize> = (0..out.len()).filter(|&i| out[i].mwu_p.is_some()).collect();
    let mwu = holm_adjust(
        &with_mwu
            .iter()
            .map(|&i| out[i].mwu_p.unwrap_or(1.0))
            .collect::<Vec<_>>(),
    );
    for (p, h) in out.iter_mut().zip(fisher) {
        p.fisher_holm = h;
    }
    for (&i, h) in with_mwu.iter().zip(mwu) {
        out[i].mwu_holm = Some(h);
    }
    Ok(out)
}

fn pair(data: &Data, s: usize, a: usize, b: usize) -> Result<Pair> {
    let (ra, rb): (Vec<&Run>, Vec<&Run>) =
        (data.runs_of(a, s).collect(), data.runs_of(b, s).collect());
    let (sa, sb) = (
        cd::success(ra.iter().copied()),
        cd::success(rb.iter().copied()),
    );
    let (ca, cb) = (
        cd::censored(ra.iter().copied()),
        cd::censored(rb.iter().copied()),
    );
    let fisher_p = fisher_exact_two_sided(
        sa.successes,
        sa.runs - sa.successes,
        sb.successes,
        sb.runs - sb.successes,
    );
    let any_success = sa.successes + sb.successes > 0;
    let mwu_p = if any_success {
        // Every run of both tied (e.g. two identical configurations): nothing separates them.
        match mann_whitney_u(&ca, &cb) {
            Err(lab_stats::StatsError::ZeroVariance(_)) => Some(1.0),
            r => Some(r?.p_value),
        }
    } else {
        None
    };
    // Fewer evaluations is better: A12 of "A below B" is the A12 of B over A.
    let a12 = lab_stats::vargha_delaney_a12(&cb, &ca)?;
    Ok(Pair {
        scope: s,
        a,
        b,
        success_a: sa,
        success_b: sb,
        fisher_p,
        fisher_holm: fisher_p,
        mwu_p,
        mwu_holm: None,
        a12,
    })
}

/// The unit of the ERTs a Friedman test ranks.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Unit {
    Evaluations,
    Seconds,
}

impl Unit {
    pub fn as_str(self) -> &'static str {
        match self {
            Unit::Evaluations => "evaluations",
            Unit::Seconds => "seconds",
        }
    }
}

/// ERT in `unit` of every (puzzle of scope `s`, algorithm): rows are puzzles (blocks).
pub fn ert_blocks(data: &Data, s: usize, unit: Unit) -> Vec<Vec<f64>> {
    let pooled = s == data.scopes.len();
    let k = data.algorithms.len();
    let mut puzzles: Vec<usize> = data
        .runs
        .iter()
        .filter(|r| pooled || r.scope == s)
        .map(|r| r.puzzle)
        .collect();
    puzzles.sort_unstable();
    puzzles.dedup();
    puzzles
        .iter()
        .map(|&p| {
            (0..k)
                .map(|a| {
                    let runs = data
                        .runs
                        .iter()
                        .filter(|r| r.algorithm == a && r.puzzle == p);
                    let x = cd::success(runs);
                    match unit {
                        Unit::Evaluations => x.ert_evaluations,
                        Unit::Seconds => x.ert_seconds,
                    }
                })
                .collect()
        })
        .collect()
}

/// `blocks` with every infinite value replaced by 10 x the largest finite value (1 when none is
/// finite): the signed-rank test's input (see the module docs).
pub fn capped(blocks: &[Vec<f64>]) -> Vec<Vec<f64>> {
    let largest = blocks
        .iter()
        .flatten()
        .copied()
        .filter(|x| x.is_finite())
        .fold(0.0f64, f64::max);
    let cap = 10.0 * largest.max(1.0);
    blocks
        .iter()
        .map(|row| {
            row.iter()
                .map(|&x| if x.is_finite() { x } else { cap })
                .collect()
        })
        .collect()
}

/// Friedman's test and the Wilcoxon-Holm post hoc over the puzzles of scope `s`; `None` with
/// fewer than two puzzles.
pub fn friedman(data: &Data, s: usize, unit: Unit) -> Result<Option<Friedman>> {
    let blocks = ert_blocks(data, s, unit);
    if blocks.len() < 2 {
        return Ok(None);
    }
    // Ranks: lower ERT is better; infinite ERTs tie behind every finite one.
    // Every puzzle ties every algorithm (e.g. nothing solved anything): no ranking to test.
    let f = match lab_stats::friedman_test(&blocks) {
        Err(lab_stats::StatsError::ZeroVariance(_)) => return Ok(None),
        r => r?,
    };
    let k = data.algorithms.len();
    let nemenyi_cd = lab_stats::nemenyi_critical_difference(k, blocks.len(), 0.05).ok();
    let cap = capped(&blocks);
    let mut posthoc = Vec::new();
    for a in 0..k {
        for b in a + 1..k {
            let x: Vec<f64> = cap.iter().map(|r| r[a]).collect();
            let y: Vec<f64> = cap.iter().map(|r| r[b]).collect();
            let w = lab_stats::wilcoxon_signed_rank(&x, &y);
            let (n, v, p, exact) = match w {
                Ok(w) => (w.n, w.v, w.p_value, w.exact),
                // Every difference is zero: nothing separates the two.
                Err(_) => (0, 0.0, 1.0, true),
            };
            posthoc.push(PostHoc {
                a,
                b,
                n,
                v,
                p,
                holm: p,
                exact,
            });
        }
    }
    let holm = holm_adjust(&posthoc.iter().map(|p| p.p).collect::<Vec<_>>());
    for (p, h) in posthoc.iter_mut().zip(holm) {
        p.holm = h;
    }
    Ok(Some(Friedman {
        scope: s,
        unit,
        puzzles: blocks.len(),
        avg_ranks: f.avg_ranks,
        chi2: f.chi_square,
        df: f.df,
        p: f.p_value,
        f_id: f.iman_davenport.f,
        p_id: f.iman_davenport.p_value,
        nemenyi_cd,
        posthoc,
    }))
}

/// Vargha & Delaney's magnitude label of an A12 value.
pub fn magnitude(a12: f64) -> &'static str {
    lab_stats::A12Magnitude::effsize(a12).map_or("", |m| m.as_str())
}

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

pub fn success_table(data: &Data) -> Table {
    let mut t = table(&[
        "scope",
        "algorithm",
        "runs",
        "successes",
        "success_rate",
        "success_ci_low",
        "success_ci_high",
        "ert_evaluations",
        "ert_seconds",
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
                num(x.ert_evaluations, 0),
                num(x.ert_seconds, 3),
                num(median, 0),
                num(pen, 2),
            ]);
        }
    }
    t
}

pub fn pairs_table(data: &Data, pairs: &[Pair]) -> Table {
    let mut t = table(&[
        "scope",
        "algorithm_a",
        "algorithm_b",
        "success_rate_a",
        "success_rate_b",
        "fisher_p",
        "fisher_p_holm",
        "mwu_p",
        "mwu_p_holm",
        "a12_a_fewer_evaluations",
        "a12_magnitude",
        "verdict",
    ]);
    let names = data.scope_names();
    for p in pairs {
        let rate = |s: &Success| num(s.successes as f64 / s.runs.max(1) as f64, 3);
        t.rows.push(vec![
            names[p.scope].clone(),
            data.algorithms[p.a].clone(),
            data.algorithms[p.b].clone(),
            rate(&p.success_a),
            rate(&p.success_b),
            pval(p.fisher_p),
            pval(p.fisher_holm),
            p.mwu_p.map_or(String::new(), pval),
            p.mwu_holm.map_or(String::new(), pval),
            num(p.a12, 3),
            magnitude(p.a12).to_string(),
            verdict(data, p),
        ]);
    }
    t
}

/// The pair's verdict at the 5 % level after Holm, on the evaluations to solve.
fn verdict(data: &Data, p: &Pair) -> String {
    match p.mwu_holm {
        None => "neither solves".into(),
        Some(h) if h >= 0.05 => "no significant difference".into(),
        Some(_) => {
            let (better, worse) = if p.a12 > 0.5 { (p.a, p.b) } else { (p.b, p.a) };
            format!(
                "{} faster than {}",
                data.algorithms[better], data.algorithms[worse]
            )
        }
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
        let unit = t.unit.as_str().to_string();
        f.rows.push(vec![
            unit.clone(),
            scope.clone(),
            t.puzzles.to_string(),
            data.algorithms.len().to_string(),
            num(t.chi2, 3),
            num(t.df, 0),
            pval(t.p),
            num(t.f_id, 3),
            pval(t.p_id),
            t.nemenyi_cd.map_or(String::new(), |c| num(c, 3)),
        ]);
        for (a, r) in t.avg_ranks.iter().enumerate() {
            ranks.rows.push(vec![
                unit.clone(),
                scope.clone(),
                data.algorithms[a].clone(),
                num(*r, 3),
            ]);
        }
        for p in &t.posthoc {
            let better = if t.avg_ranks[p.a] <= t.avg_ranks[p.b] {
                p.a
            } else {
                p.b
            };
            let verdict = if p.holm < 0.05 {
                format!("{} ranks better", data.algorithms[better])
            } else {
                "no significant difference".into()
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

/// The penalties after `budget` evaluations of algorithm `a`'s runs (all puzzles) that have a
/// value there (see [`cd::penalty_at`]).
pub fn penalties_at(data: &Data, a: usize, budget: u64) -> Vec<f64> {
    data.runs_of(a, data.scopes.len())
        .filter_map(|r| cd::penalty_at(r, budget))
        .map(f64::from)
        .collect()
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
        for b in cd::budgets(data.budget) {
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

/// Writes the report: tables (CSV, Markdown, LaTeX), charts and report.md.
pub fn report(
    spec: &crate::spec::Spec,
    data: &Data,
    dir: &std::path::Path,
    note: &str,
) -> Result<String> {
    let pairs = pairs(data)?;
    let mut tests = Vec::new();
    for unit in [Unit::Evaluations, Unit::Seconds] {
        for s in 0..=data.scopes.len() {
            if let Some(f) = friedman(data, s, unit)? {
                tests.push(f);
            }
        }
    }
    let success = success_table(data);
    let pair_t = pairs_table(data, &pairs);
    let (fried, ranks, post) = friedman_tables(data, &tests);
    let mut tables = vec![
        ("compare-success", &success),
        ("compare-pairs", &pair_t),
        ("compare-friedman", &fried),
        ("compare-ranks", &ranks),
        ("compare-posthoc", &post),
    ];
    let (targets, budget);
    if data.anytime {
        targets = targets_table(data);
        budget = budget_table(data);
        tables.push(("compare-targets", &targets));
        tables.push(("compare-budget", &budget));
    }
    for (name, t) in &tables {
        write_table(dir, name, t, &spec.id)?;
    }
    crate::compare_charts::draw(data, &tests, dir)?;
    Ok(markdown(spec, data, &tests, &tables, note))
}

fn write_table(dir: &std::path::Path, name: &str, t: &Table, id: &str) -> Result<()> {
    use crate::export::tables::{latex, markdown};
    use crate::io::write_atomic;
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

/// What one fitness evaluation is, per algorithm (the unit of every budget and ERT here).
pub fn evaluation_unit(algorithm: &str) -> &'static str {
    match algorithm {
        "ret-ga" => "the fitness of one new individual (each child of crossover + mutation + repetition removal, and each member of a reinitialised population), counted incrementally",
        "mk-ga" => "the fitness (eq. (1)) of one new individual: each child of a generation, each member of a restarted population",
        "reseda" => "the cost of one sampled grid (Q samples per round)",
        "cso" => "the fitness of one candidate position: each seeking-mode copy and each tracing-mode move",
        "lewis-sa" => "one proposed swap (its cost delta, from the two rows and two columns it touches), accepted or not, and each cost of the initial-temperature sample",
        "gen-ga" => "the fitness of one new board",
        _ => "see the algorithm's crate docs",
    }
}

fn markdown(
    spec: &crate::spec::Spec,
    data: &Data,
    tests: &[Friedman],
    tables: &[(&str, &Table)],
    note: &str,
) -> String {
    use std::fmt::Write as _;
    let mut md = format!("# {}\n\n{note}\n\n", spec.title);
    md.push_str(
        "## What one evaluation is\n\n| Algorithm | Solver | One evaluation |\n|---|---|---|\n",
    );
    for a in &spec.algorithms {
        let _ = writeln!(
            md,
            "| {} | {} | {} |",
            a.label,
            a.algorithm,
            evaluation_unit(&a.algorithm)
        );
    }
    for t in tests.iter().filter(|t| t.scope == data.scopes.len()) {
        md.push_str(&ranking(data, t));
    }
    md.push_str(
        "\n## Success and ERT\n\n![success](compare-success.png)\n\n![ERT](compare-ert.png)\n\n",
    );
    md.push_str(&scope_matrix(data));
    md.push_str("\n## Runtime distributions\n\nEmpirical cumulative distribution of the evaluations to solve, per puzzle set and pooled (unsolved runs never count, so a curve ends below 1 by the failure rate).\n\n![ECDF](compare-ecdf.png)\n");
    if data.anytime {
        md.push_str("\nFixed target: the fraction of runs whose best grid so far has at most 16, 8, 4, 2, 0 values missing from its rows, columns and boxes, against evaluations (all puzzles).\n\n![targets](compare-targets.png)\n\nFixed budget: the distribution of that penalty after 10^2, 10^3, ... evaluations (all puzzles; runs without a value there are left out, see compare-budget.csv).\n\n![budget](compare-budget.png)\n");
    }
    md.push_str("\n## Files\n\n");
    for (name, _) in tables {
        let _ = writeln!(md, "- `{name}.csv` (also `.md`, `.tex`)");
    }
    md
}

fn ranking(data: &Data, t: &Friedman) -> String {
    use std::fmt::Write as _;
    let mut order: Vec<usize> = (0..data.algorithms.len()).collect();
    order.sort_by(|&a, &b| t.avg_ranks[a].total_cmp(&t.avg_ranks[b]));
    let (unit, why, chart) = match t.unit {
        Unit::Evaluations => ("evaluations", "deterministic: the same on any machine", "compare-cd"),
        Unit::Seconds => ("seconds", "wall time of this machine and load: an evaluation costs each algorithm a different time, so this ranking can differ from the one by evaluations, and it can change from run to run of the protocol", "compare-cd-seconds"),
    };
    let mut md = format!(
        "\n## Ranking over all {} puzzles, ERT in {unit}\n\nEach puzzle ranks the algorithms by ERT in {unit} ({why}; infinite when no run solved the puzzle: such ties share their average rank). Friedman chi2 = {:.2} (df {}), p = {}; Iman-Davenport F = {:.2}, p = {}. Post hoc: Wilcoxon signed-rank on the per-puzzle ERTs, Holm-adjusted (compare-posthoc.csv); bars join algorithms no post hoc test separates at 5 %.{}\n\n![critical difference]({chart}.png)\n\n| Rank | Algorithm | Average rank |\n|---|---|---|\n",
        t.puzzles,
        t.chi2,
        t.df,
        pval(t.p),
        t.f_id,
        pval(t.p_id),
        t.nemenyi_cd.map_or(String::new(), |c| format!(" Nemenyi's critical difference at 5 % (for reference): {c:.2}."))
    );
    for (i, &a) in order.iter().enumerate() {
        let _ = writeln!(
            md,
            "| {} | {} | {:.2} |",
            i + 1,
            data.algorithms[a],
            t.avg_ranks[a]
        );
    }
    md
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
                " {}/{} ({:.0}-{:.0} %), ERT {} |",
                x.successes,
                x.runs,
                100.0 * x.ci_low,
                100.0 * x.ci_high,
                short(x.ert_evaluations)
            );
        }
        md.push('\n');
    }
    md
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
