//! `report = "compare"`: algorithms compared as the field does, per puzzle set
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
//!   view (runs that reach a penalty of at most 16, 8, 4, 2, 0 and the ERT to reach it; its
//!   chart as censored Kaplan-Meier curves with bands, see [`survival_charts`]) and the
//!   fixed-budget view (the distribution of the best penalty so far after 10^2, 10^3, ...
//!   evaluations), over all puzzles.
//! * Charts: success with Wilson bars and ERT per scope, runtime ECDFs per scope and pooled,
//!   fixed-target ECDFs, fixed-budget box plots, and the critical-difference diagram.
//! * `compare-bayes.csv` and the simplex charts `compare-bayes-ert.png`,
//!   `compare-bayes-success.png`: the Bayesian signed-rank test with a region of practical
//!   equivalence between every pair over the puzzles of each scope (see [`bayes`]).
//! * `compare-runs-needed.csv`: the runs per puzzle each pairwise comparison needs for 80 %
//!   power to detect a 10-point success difference or a 2x ERT (see [`runs_needed`]).
//! * `compare-survival.csv`, `compare-logrank.csv`: censored runtimes ([`survival`]):
//!   Kaplan-Meier runtime distributions with unsolved runs censored where they stopped (the runtime ECDF charts, with bootstrap bands), median time to solve with its
//!   interval, ERT with its bootstrap interval, and pairwise log-rank tests.
//! * Every table also as Markdown and LaTeX (booktabs) beside its CSV.

pub mod answers;
pub mod bayes;
pub mod charts;
pub mod data;
pub mod report;
pub mod runs_needed;
pub mod stats;
pub mod survival;
pub mod survival_charts;

use super::inputs::Inputs;
use anyhow::Result;
use data::Data;
use stats::{friedman_all, pairs};

/// Every table (CSV, Markdown, LaTeX) and chart of the report; returns report.md's text.
pub fn write(inp: &Inputs) -> Result<String> {
    let (spec, dir) = (inp.spec, inp.out);
    let data = &Data::load(spec, inp.loaded, dir)?;
    let note = &format!(
        "{}{}{}",
        note(inp, data.clock),
        effective_budgets(spec, data),
        failed_runs(spec, data)
    );

    let Computed {
        pairs,
        survival: surv,
        bayes: bayes_tests,
        answers,
    } = &compute(spec, data)?;
    let tests = friedman_all(data)?;
    let success = report::success_table(data);
    let pair_t = report::pairs_table(data, pairs);
    let (fried, ranks, post) = report::friedman_tables(data, &tests);
    let ropes = (spec.rope_log_ert(), spec.rope_success_rate());
    let bayes_t = bayes::table(data, bayes_tests);
    let effect = runs_needed::Effect::default();
    let needed = runs_needed::compute(data, &effect)?;
    let needed_t = runs_needed::table(data, &needed, &effect);
    let (km, logrank) = (
        survival::survival_table(data, surv),
        survival::logrank_table(data, surv),
    );
    let answers_t = answers::table(data, answers);
    let mut tables = vec![
        ("compare-answers", &answers_t),
        ("compare-success", &success),
        ("compare-pairs", &pair_t),
        ("compare-friedman", &fried),
        ("compare-ranks", &ranks),
        ("compare-posthoc", &post),
        ("compare-bayes", &bayes_t),
        ("compare-runs-needed", &needed_t),
        ("compare-survival", &km),
        ("compare-logrank", &logrank),
    ];
    let (targets, budget);
    if data.anytime {
        targets = report::targets_table(data);
        budget = report::budget_table(data);
        tables.push(("compare-targets", &targets));
        tables.push(("compare-budget", &budget));
    }
    for (name, t) in &tables {
        report::write_table(dir, name, t, &spec.id)?;
    }
    charts::draw(data, &tests, surv, dir)?;
    bayes::draw(data, bayes_tests, dir)?;
    let runtimes = survival::markdown(data, surv);
    let answers_md = answers::markdown(data, answers);
    let parts = report::Sections {
        note,
        runtimes: &runtimes,
        answers: &answers_md,
    };
    let md = report::markdown(spec, data, &tests, &tables, &parts);
    let extra =
        bayes::markdown(data, bayes_tests, ropes) + &runs_needed::markdown(data, &needed, &effect);
    Ok(before_files(md, &extra))
}

/// The tests every pair's answer is read from, and the answers: what compare-answers.csv
/// holds, for the report and for the same protocol at another master seed
/// ([`super::seeds`]).
pub struct Computed {
    pub pairs: Vec<stats::Pair>,
    pub survival: survival::Survival,
    pub bayes: Vec<bayes::BayesPair>,
    pub answers: Vec<answers::Answer>,
}

/// The pairs' tests and answers of `data` (the runs of `spec`).
pub fn compute(spec: &crate::spec::Spec, data: &Data) -> Result<Computed> {
    let pairs = pairs(data)?;
    let survival = survival::Survival::compute(data)?;
    let ropes = (spec.rope_log_ert(), spec.rope_success_rate());
    let bayes = bayes::compute(data, ropes, spec.master_seed)?;
    let evaluations_verdict = |p: &stats::Pair| report::evaluations_verdict(data, p);
    let answers = answers::compute(
        data,
        &answers::Tests {
            pairs: &pairs,
            survival: &survival,
            bayes: &bayes,
            rope_success: ropes.1,
            evaluations_verdict: &evaluations_verdict,
        },
    );
    Ok(Computed {
        pairs,
        survival,
        bayes,
        answers,
    })
}

/// `md` with `extra` inserted before its "## Files" section (at the end without one).
fn before_files(mut md: String, extra: &str) -> String {
    let at = md.find("\n## Files").unwrap_or(md.len());
    md.insert_str(at, extra);
    md
}

/// Each algorithm's effective budget: where unsolved runs stopped before the spec's
/// `max_evaluations` (the algorithm's own rule, a generation cap), how many and at the median
/// of how many evaluations, so that no one reads a fixed-budget or ERT comparison as if every
/// algorithm had spent the whole budget.
fn effective_budgets(spec: &crate::spec::Spec, data: &Data) -> String {
    let mut lines = Vec::new();
    for (a, alg) in spec.algorithms.iter().enumerate() {
        let Some(max) = alg.max_evaluations else {
            continue;
        };
        let line = match data::early_stops(data, a, Some(max)) {
            Some(e) => format!(
                "`{}`: {} of its {} unsolved runs stopped before {max} evaluations ({}), at a median of {:.0} evaluations: {}",
                alg.label,
                e.early,
                e.unsolved,
                e.termination,
                e.median_evaluations,
                crate::algos::early_stop_hint(&alg.algorithm, &e.termination)
            ),
            None => format!("`{}`: {max} (every unsolved run used it)", alg.label),
        };
        lines.push(line);
    }
    if lines.is_empty() {
        return String::new();
    }
    format!(
        "\n\nEffective budgets (unsolved runs stopped before the spec's `max_evaluations`): {}. In the fixed-budget view a run keeps its last value up to every later budget (a solved run 0, an unsolved one its best penalty); in ERT its evaluations count as spent.",
        lines.join("; ")
    )
}

/// Runs that failed rather than stopped (runs.csv `termination` is a failure reason of
/// [`external::Failure`], `invalid_claim` among them: a claimed solution the exact checker
/// rejects), counted per algorithm and reason, so that a solver that lies, crashes or hangs
/// shows as such and not only as a lower success rate. Empty when no run failed.
fn failed_runs(spec: &crate::spec::Spec, data: &Data) -> String {
    let mut lines = Vec::new();
    for (a, alg) in spec.algorithms.iter().enumerate() {
        let mut counts: std::collections::BTreeMap<&str, usize> = Default::default();
        for r in data.runs.iter().filter(|r| r.algorithm == a) {
            if external::Failure::CODES.contains(&r.termination.as_str()) {
                *counts.entry(r.termination.as_str()).or_default() += 1;
            }
        }
        if counts.is_empty() {
            continue;
        }
        let each: Vec<String> = counts
            .iter()
            .map(|(reason, n)| match *reason {
                "invalid_claim" => format!("{n} invalid solution (`invalid_claim`)"),
                r => format!("{n} `{r}`"),
            })
            .collect();
        let runs = data.runs.iter().filter(|r| r.algorithm == a).count();
        lines.push(format!(
            "`{}`: {} of {runs} runs",
            alg.label,
            each.join(", ")
        ));
    }
    if lines.is_empty() {
        return String::new();
    }
    format!(
        "\n\nFailed runs (counted as unsolved; the reason of each is in runs.csv's `termination`, an external solver's stderr in `external-logs/`): {}.",
        lines.join("; ")
    )
}

/// The first lines of a compare report: how it was made, and whether it is a quick run.
fn note(inp: &Inputs, clock: data::Clock) -> String {
    let (spec, cap, wall) = (inp.spec, inp.quick_cap, inp.wall);
    // One budget per algorithm in words (evaluations, generations, CPU or wall seconds); the
    // distinct ones, in the spec's order.
    let mut budgets: Vec<String> = Vec::new();
    for b in spec.algorithms.iter().map(|a| a.budget_text()) {
        if !budgets.contains(&b) {
            budgets.push(b);
        }
    }
    // Runs per puzzle: one number, or the range when the spec's entries differ.
    let (lo, hi) = (inp.loaded.runs.iter().min(), inp.loaded.runs.iter().max());
    let runs = match (lo, hi) {
        (Some(lo), Some(hi)) if lo != hi => format!("{lo} to {hi}"),
        (Some(lo), _) => lo.to_string(),
        _ => inp.runs.to_string(),
    };
    let quick = match cap {
        Some(g) => format!(
            "**QUICK RUN (`--quick`: {} runs per puzzle, at most {g} generations, sets cut to {} puzzles): it checks the code path, it is not a result.**\n\n",
            inp.runs,
            spec.quick_set_size.map_or("all".to_string(), |k| k.to_string())
        ),
        None => String::new(),
    };
    format!(
        "{quick}Generated by sudoku-lab from the spec of experiment `{}` ({wall:.0} s of protocol wall time, {} threads): {} algorithms, {} puzzles, {runs} runs per puzzle, each run stopped at {}. Success with its Wilson 95 % interval; ERT = all {} (or all evaluations) of all runs / successes.",
        spec.id,
        inp.threads,
        spec.algorithms.len(),
        inp.loaded.puzzles.len(),
        budgets.join(" / "),
        clock.words()
    )
}
