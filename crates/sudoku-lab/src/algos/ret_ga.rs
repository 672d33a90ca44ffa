//! Options of the Retrievable GA (see the ret-ga crate docs for the paper's words behind each
//! reading and the defaults).

use super::options::{at_most, choose, choose_or, MAX_INDIVIDUALS};
use anyhow::Result;
use ret_ga::*;
use serde::Deserialize;
use sudoku_core::{Algorithm, OptionError, Options, Solver};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RetGaParams {
    population_factor: Option<usize>,
    crossover_probability: Option<f64>,
    mutation_probability: Option<f64>,
    reset_point: Option<u64>,
    /// "stagnation" | "fixed-period" | "never"
    reset_rule: Option<String>,
    /// "present-in-unit" | "givens-of-unit"
    repetition_set: Option<String>,
    /// "consecutive" | "random"
    pairing: Option<String>,
    /// "best-first" | "ascending-literal" | "ascending"
    elite_order: Option<String>,
    /// "alternate" | "best"
    elitism: Option<String>,
    /// "alternate" | "uniform-random"
    crossover_rows: Option<String>,
    /// "givens" | "all"
    repetition_scope: Option<String>,
    /// "current" | "completed"
    success_generation: Option<String>,
}

/// The Retrievable GA from the options of a spec entry: each option checked, the ones not set
/// at the papers' values.
pub fn ret_ga(params: &toml::Table) -> Result<RetGa> {
    let p: RetGaParams = toml::Value::Table(params.clone()).try_into()?;
    let mut c = RetGaConfig::default();
    set_population(&p, &mut c)?;
    set_reset(&p, &mut c)?;
    set_operators(&p, &mut c)?;
    set_success_generation(&p, &mut c)?;
    Ok(RetGa::new(c)?)
}

/// The population size (within the memory limit) and the crossover and mutation
/// probabilities.
fn set_population(p: &RetGaParams, c: &mut RetGaConfig) -> Result<()> {
    // Population = factor x N: 10^5 x 9 is already ~10^6 individuals.
    at_most(
        "population_factor",
        p.population_factor,
        MAX_INDIVIDUALS / 10,
    )?;
    if let Some(v) = p.population_factor {
        c.population_factor = v;
    }
    if let Some(v) = p.crossover_probability {
        c.crossover_probability = v;
    }
    if let Some(v) = p.mutation_probability {
        c.mutation_probability = v;
    }
    Ok(())
}

/// When the population is regenerated: a fixed `reset_point` (else the papers' table by
/// number of givens) and what it counts (`reset_rule`).
fn set_reset(p: &RetGaParams, c: &mut RetGaConfig) -> Result<()> {
    c.reset_point = p.reset_point.or(c.reset_point);
    if let Some(v) = &p.reset_rule {
        c.reset_rule = choose(
            "reset_rule",
            v,
            &[
                ("stagnation", ResetRule::Stagnation),
                ("fixed-period", ResetRule::FixedPeriod),
                ("never", ResetRule::Never),
            ],
        )?;
    }
    Ok(())
}

/// The readings of the operators: Remove Repetition (`repetition_set`, `repetition_scope`),
/// crossover (`pairing`, `crossover_rows`) and alternate elitism (`elite_order`, `elitism`),
/// in this order of their checks.
fn set_operators(p: &RetGaParams, c: &mut RetGaConfig) -> Result<()> {
    if let Some(v) = &p.repetition_set {
        c.repetition_set = choose(
            "repetition_set",
            v,
            &[
                ("present-in-unit", RepetitionSet::PresentInUnit),
                ("givens-of-unit", RepetitionSet::GivensOfUnit),
            ],
        )?;
    }
    if let Some(v) = &p.pairing {
        c.pairing = choose(
            "pairing",
            v,
            &[
                ("consecutive", Pairing::Consecutive),
                ("random", Pairing::Random),
            ],
        )?;
    }
    if let Some(v) = &p.elite_order {
        c.elite_order = choose(
            "elite_order",
            v,
            &[
                ("best-first", EliteOrder::BestFirst),
                ("ascending-literal", EliteOrder::AscendingLiteral),
                ("ascending", EliteOrder::Ascending),
            ],
        )?;
    }
    c.elitism = choose_or(
        "elitism",
        p.elitism.as_deref(),
        &[("alternate", Elitism::Alternate), ("best", Elitism::Best)],
        c.elitism,
    )?;
    c.crossover_rows = choose_or(
        "crossover_rows",
        p.crossover_rows.as_deref(),
        &[
            ("alternate", CrossoverRows::Alternate),
            ("uniform-random", CrossoverRows::UniformRandom),
        ],
        c.crossover_rows,
    )?;
    c.repetition_scope = choose_or(
        "repetition_scope",
        p.repetition_scope.as_deref(),
        &[
            ("givens", RepetitionScope::Givens),
            ("all", RepetitionScope::All),
        ],
        c.repetition_scope,
    )?;
    Ok(())
}

/// Which generation a success found mid-generation is credited to.
fn set_success_generation(p: &RetGaParams, c: &mut RetGaConfig) -> Result<()> {
    if let Some(v) = &p.success_generation {
        c.success_generation = choose(
            "success_generation",
            v,
            &[
                ("current", SuccessGeneration::Current),
                ("completed", SuccessGeneration::Completed),
            ],
        )?;
    }
    Ok(())
}

/// The registry entry (see [`sudoku_core::Algorithm`]): the options above, and what the
/// runner knows of the algorithm.
pub struct RetGaAlgorithm;

/// The line of the registry.
pub const ALGORITHM: &dyn Algorithm = &RetGaAlgorithm;

impl Algorithm for RetGaAlgorithm {
    fn name(&self) -> &'static str {
        "ret-ga"
    }
    fn summary(&self) -> &'static str {
        "Retrievable GA (Das, Bhatia, Puri, Deep)"
    }
    fn build(&self, options: &Options) -> Result<Box<dyn Solver>, OptionError> {
        ret_ga(options)
            .map(|s| Box::new(s) as Box<dyn Solver>)
            .map_err(super::option_error)
    }
    fn counters(&self, _options: &Options) -> Vec<&'static str> {
        vec![
            "crossovers",
            "cells_redrawn",
            "repetitions_removed",
            "reset_point",
        ]
    }
    fn evaluation_unit(&self) -> &'static str {
        "the fitness of one new individual (each child of crossover + mutation + repetition removal, and each member of a reinitialised population), counted incrementally"
    }
    fn sources(&self) -> (&'static str, &'static [&'static str]) {
        (
            "ret-ga",
            &[
                include_str!("../../../ret-ga/src/lib.rs"),
                include_str!("../../../ret-ga/src/config.rs"),
                include_str!("../../../ret-ga/src/ops.rs"),
            ],
        )
    }
    fn ambiguities(&self) -> &'static [sudoku_core::Ambiguity] {
        ::ret_ga::AMBIGUITIES
    }
    /// Two readings make the same runs: with `elitism = best`, `elite_order = ascending` and
    /// `ascending-literal` sort the pool the same way and keep its best 10N alike
    /// (`ret_ga::ops::select_survivors`); and `success_generation = completed` is the run of
    /// `current` that reports a solution found in generation g as g - 1 (at 0 for the initial
    /// population) and stops at the same budget.
    fn same_run(&self, options: &Options) -> Option<sudoku_core::SameRun> {
        let text = |k: &str| options.get(k).and_then(toml::Value::as_str);
        let mut same = options.clone();
        if text("elitism") == Some("best") && text("elite_order") == Some("ascending-literal") {
            same.insert("elite_order".into(), "ascending".into());
        }
        let completed = text("success_generation") == Some("completed");
        if completed {
            same.insert("success_generation".into(), "current".into());
        }
        (same != *options).then_some(sudoku_core::SameRun {
            options: same,
            solved_shift: u64::from(completed),
        })
    }
    fn individuals(&self, options: &Options, n: usize) -> Option<(&'static str, u64)> {
        let d = ::ret_ga::RetGaConfig::default().population_factor;
        Some((
            "population_factor",
            super::int_option(options, "population_factor", d).saturating_mul(n as u64),
        ))
    }
}
