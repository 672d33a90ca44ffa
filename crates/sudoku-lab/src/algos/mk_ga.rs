//! Options of the Mantere & Koljonen GA (see the mk-ga crate docs for sources and defaults).

use anyhow::{bail, Result};
use mk_ga::{CrossoverKind, MkGa, MkGaConfig, MutationRatios, RestartRule};
use serde::Deserialize;
use sudoku_core::{Algorithm, OptionError, Options, Solver};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct MkGaParams {
    population: Option<usize>,
    elitism: Option<usize>,
    /// "uniform-boxes" | "one-point-boxes"
    crossover: Option<String>,
    crossover_probability: Option<f64>,
    mutation_probability: Option<f64>,
    /// [swap, three_swap, insertion]
    mutation_ratios: Option<[f64; 3]>,
    mutation_retries: Option<u32>,
    ageing: Option<bool>,
    ageing_bonus: Option<f64>,
    /// "stagnation" | "fixed-period" | "never"
    restart_rule: Option<String>,
    restart_generations: Option<u64>,
}

pub fn mk_ga(params: &toml::Table) -> Result<MkGa> {
    let p: MkGaParams = toml::Value::Table(params.clone()).try_into()?;
    use super::options::{at_most, MAX_INDIVIDUALS};
    at_most("population", p.population, MAX_INDIVIDUALS)?;
    at_most("elitism", p.elitism, MAX_INDIVIDUALS)?;
    let mut c = MkGaConfig::default();
    c.population = p.population.unwrap_or(c.population);
    c.elitism = p.elitism.unwrap_or(c.elitism);
    if let Some(x) = &p.crossover {
        c.crossover = match x.as_str() {
            "uniform-boxes" => CrossoverKind::UniformBoxes,
            "one-point-boxes" => CrossoverKind::OnePointBoxes,
            o => bail!("crossover = '{o}' is not one of: uniform-boxes, one-point-boxes"),
        };
    }
    c.crossover_probability = p.crossover_probability.unwrap_or(c.crossover_probability);
    c.mutation_probability = p.mutation_probability.unwrap_or(c.mutation_probability);
    if let Some([swap, three_swap, insertion]) = p.mutation_ratios {
        c.mutation_ratios = MutationRatios {
            swap,
            three_swap,
            insertion,
        };
    }
    c.mutation_retries = p.mutation_retries.unwrap_or(c.mutation_retries);
    c.ageing = p.ageing.unwrap_or(c.ageing);
    c.ageing_bonus = p.ageing_bonus.unwrap_or(c.ageing_bonus);
    let period = p.restart_generations.unwrap_or(2000);
    match p.restart_rule.as_deref() {
        None if p.restart_generations.is_some() => c.restart = RestartRule::Stagnation(period),
        None => {}
        Some("stagnation") => c.restart = RestartRule::Stagnation(period),
        Some("fixed-period") => c.restart = RestartRule::FixedPeriod(period),
        Some("never") => c.restart = RestartRule::Never,
        Some(o) => bail!("restart_rule = '{o}' is not one of: stagnation, fixed-period, never"),
    }
    Ok(MkGa::new(c)?)
}

/// The registry entry (see [`sudoku_core::Algorithm`]): the options above, and what the
/// runner knows of the algorithm.
pub struct MkGaAlgorithm;

/// The line of the registry.
pub const ALGORITHM: &dyn Algorithm = &MkGaAlgorithm;

impl Algorithm for MkGaAlgorithm {
    fn name(&self) -> &'static str {
        "mk-ga"
    }
    fn summary(&self) -> &'static str {
        "GA of Mantere & Koljonen (2006/2007)"
    }
    fn build(&self, options: &Options) -> Result<Box<dyn Solver>, OptionError> {
        mk_ga(options)
            .map(|s| Box::new(s) as Box<dyn Solver>)
            .map_err(super::option_error)
    }
    fn counters(&self, _options: &Options) -> Vec<&'static str> {
        vec![
            "mutations",
            "mutations_illegal",
            "mutations_abandoned",
            "elite_aged_out",
        ]
    }
    fn evaluation_unit(&self) -> &'static str {
        "the fitness (eq. (1)) of one new individual: each child of a generation, each member of a restarted population"
    }
    fn sources(&self) -> (&'static str, &'static [&'static str]) {
        (
            "mk-ga",
            &[
                include_str!("../../../mk-ga/src/lib.rs"),
                include_str!("../../../mk-ga/src/ops.rs"),
            ],
        )
    }
    fn ambiguities(&self) -> &'static [sudoku_core::Ambiguity] {
        ::mk_ga::AMBIGUITIES
    }
    fn individuals(&self, options: &Options, _n: usize) -> Option<(&'static str, u64)> {
        let d = MkGaConfig::default().population;
        Some(("population", super::int_option(options, "population", d)))
    }
    fn default_max_generations(&self) -> u64 {
        100_000
    }
}
