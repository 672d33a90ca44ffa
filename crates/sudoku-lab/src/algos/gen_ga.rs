//! Options of Benbassat's generator GA (see the gen-ga crate docs).

use anyhow::{bail, Result};
use gen_ga::{Diversity, GenGa, GenGaConfig, MutationUnit};
use serde::Deserialize;

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
