//! Options of Benbassat's generator GA (see the gen-ga crate docs).

use anyhow::{bail, Result};
use gen_ga::{Diversity, GenGa, GenGaConfig, MutationUnit};
use serde::Deserialize;
use sudoku_core::{Algorithm, OptionError, Options, Solver};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct GenGaParams {
    population: Option<usize>,
    mutation_rate: Option<f64>,
    /// "per-individual" | "per-row"
    mutation_unit: Option<String>,
    tournament: Option<usize>,
    elitism: Option<usize>,
    /// "none" | "clearing" | "bucketing"
    diversity: Option<String>,
    /// Clearing period in generations (100).
    clearing_period: Option<u64>,
    /// Buckets (0 = floor(sqrt(population)), the author's code).
    buckets: Option<usize>,
}

pub fn gen_ga(params: &toml::Table) -> Result<GenGa> {
    let p: GenGaParams = toml::Value::Table(params.clone()).try_into()?;
    use super::options::{at_most, MAX_INDIVIDUALS};
    at_most("population", p.population, MAX_INDIVIDUALS)?;
    at_most("elitism", p.elitism, MAX_INDIVIDUALS)?;
    at_most("tournament", p.tournament, MAX_INDIVIDUALS)?;
    at_most("buckets", p.buckets, MAX_INDIVIDUALS)?;
    let mut c = GenGaConfig::default();
    c.population = p.population.unwrap_or(c.population);
    c.mutation_rate = p.mutation_rate.unwrap_or(c.mutation_rate);
    c.tournament = p.tournament.unwrap_or(c.tournament);
    c.elitism = p.elitism.unwrap_or(c.elitism);
    if let Some(u) = &p.mutation_unit {
        c.mutation_unit = super::options::choose(
            "mutation_unit",
            u,
            &[
                ("per-individual", MutationUnit::PerIndividual),
                ("per-row", MutationUnit::PerRow),
            ],
        )?;
    }
    c.diversity = match p.diversity.as_deref() {
        None | Some("none") => Diversity::None,
        Some("clearing") => Diversity::Clearing {
            period: p.clearing_period.unwrap_or(100),
        },
        Some("bucketing") => Diversity::Bucketing {
            buckets: p.buckets.unwrap_or(0),
        },
        Some(o) => bail!("diversity = '{o}' is not one of: none, clearing, bucketing"),
    };
    Ok(GenGa::new(c)?)
}

/// The registry entry (see [`sudoku_core::Algorithm`]): the options above, and what the
/// runner knows of the algorithm.
pub struct GenGaAlgorithm;

/// The line of the registry.
pub const ALGORITHM: &dyn Algorithm = &GenGaAlgorithm;

impl Algorithm for GenGaAlgorithm {
    fn name(&self) -> &'static str {
        "gen-ga"
    }
    fn summary(&self) -> &'static str {
        "Benbassat's GA that generates solved boards"
    }
    fn build(&self, options: &Options) -> Result<Box<dyn Solver>, OptionError> {
        gen_ga(options)
            .map(|s| Box::new(s) as Box<dyn Solver>)
            .map_err(super::option_error)
    }
    fn counters(&self, _options: &Options) -> Vec<&'static str> {
        {
            let mut v = vec!["distinct_boards", "cleared"];
            v.extend(::gen_ga::CHECKPOINTS);
            v
        }
    }
    fn evaluation_unit(&self) -> &'static str {
        "the fitness of one new board"
    }
    fn sources(&self) -> (&'static str, &'static [&'static str]) {
        ("gen-ga", &[include_str!("../../../gen-ga/src/lib.rs")])
    }
    fn ambiguities(&self) -> &'static [sudoku_core::Ambiguity] {
        ::gen_ga::AMBIGUITIES
    }
    fn individuals(&self, options: &Options, _n: usize) -> Option<(&'static str, u64)> {
        let d = GenGaConfig::default().population;
        Some(("population", super::int_option(options, "population", d)))
    }
    /// Runs to its budget whatever it finds (it collects solved boards), so its runs cannot
    /// be capped.
    fn cappable(&self) -> bool {
        false
    }
    /// The board encoding is 9x9 only.
    fn orders(&self) -> Option<&'static [usize]> {
        Some(&[9])
    }
    fn default_max_generations(&self) -> u64 {
        2_000
    }
}
