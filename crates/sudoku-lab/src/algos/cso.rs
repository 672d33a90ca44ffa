//! Options of Cat Swarm Optimization (see the cso crate docs: which values come from the
//! thesis and which are the canonical CSO values).

use anyhow::Result;
use cso::{Cso, CsoConfig, Rounding, TracingPosition, TracingRounding, TracingSelection};
use serde::Deserialize;
use sudoku_core::{Algorithm, OptionError, Options, Solver};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct CsoParams {
    cats: Option<usize>,
    smp: Option<usize>,
    srd: Option<f64>,
    cdc: Option<f64>,
    spc: Option<bool>,
    mr: Option<f64>,
    c1: Option<f64>,
    max_velocity: Option<f64>,
    /// "truncate" | "round"
    rounding: Option<String>,
    /// "floor" | "round" | "truncate"
    tracing_rounding: Option<String>,
    /// "own" | "best"
    tracing_position: Option<String>,
    /// "count" | "per-cat"
    tracing_selection: Option<String>,
}

pub fn cso(params: &toml::Table) -> Result<Cso> {
    let p: CsoParams = toml::Value::Table(params.clone()).try_into()?;
    use super::options::{at_most, MAX_INDIVIDUALS};
    at_most("cats", p.cats, MAX_INDIVIDUALS)?;
    at_most("smp", p.smp, MAX_INDIVIDUALS)?;
    // Each cat's seeking mode holds smp copies of it.
    let d = CsoConfig::default();
    let copies = p
        .cats
        .unwrap_or(d.cats)
        .saturating_mul(p.smp.unwrap_or(d.smp));
    at_most("cats x smp", Some(copies), MAX_INDIVIDUALS)?;
    use super::options::choose_or;
    let rounding = choose_or(
        "rounding",
        p.rounding.as_deref(),
        &[("truncate", Rounding::Truncate), ("round", Rounding::Round)],
        d.rounding,
    )?;
    let tracing_rounding = choose_or(
        "tracing_rounding",
        p.tracing_rounding.as_deref(),
        &[
            ("floor", TracingRounding::Floor),
            ("round", TracingRounding::Round),
            ("truncate", TracingRounding::Truncate),
        ],
        d.tracing_rounding,
    )?;
    let tracing_position = choose_or(
        "tracing_position",
        p.tracing_position.as_deref(),
        &[
            ("own", TracingPosition::Own),
            ("best", TracingPosition::Best),
        ],
        d.tracing_position,
    )?;
    let tracing_selection = choose_or(
        "tracing_selection",
        p.tracing_selection.as_deref(),
        &[
            ("count", TracingSelection::Count),
            ("per-cat", TracingSelection::PerCat),
        ],
        d.tracing_selection,
    )?;
    Ok(Cso::new(CsoConfig {
        cats: p.cats.unwrap_or(d.cats),
        smp: p.smp.unwrap_or(d.smp),
        srd: p.srd.unwrap_or(d.srd),
        cdc: p.cdc.unwrap_or(d.cdc),
        spc: p.spc.unwrap_or(d.spc),
        mr: p.mr.unwrap_or(d.mr),
        c1: p.c1.unwrap_or(d.c1),
        max_velocity: p.max_velocity.unwrap_or(d.max_velocity),
        rounding,
        tracing_rounding,
        tracing_position,
        tracing_selection,
    })?)
}

/// The registry entry (see [`sudoku_core::Algorithm`]): the options above, and what the
/// runner knows of the algorithm.
pub struct CsoAlgorithm;

/// The line of the registry.
pub const ALGORITHM: &dyn Algorithm = &CsoAlgorithm;

impl Algorithm for CsoAlgorithm {
    fn name(&self) -> &'static str {
        "cso"
    }
    fn summary(&self) -> &'static str {
        "Cat Swarm Optimization (CSO thesis)"
    }
    fn build(&self, options: &Options) -> Result<Box<dyn Solver>, OptionError> {
        cso(options)
            .map(|s| Box::new(s) as Box<dyn Solver>)
            .map_err(super::option_error)
    }
    fn counters(&self, options: &Options) -> Vec<&'static str> {
        match options.get("tracing_selection").and_then(|v| v.as_str()) {
            Some("per-cat") => vec!["tracing_moves"],
            _ => vec!["tracing_cats_per_cycle"],
        }
    }
    fn evaluation_unit(&self) -> &'static str {
        "the fitness of one candidate position: each seeking-mode copy and each tracing-mode move"
    }
    fn sources(&self) -> (&'static str, &'static [&'static str]) {
        ("cso", &[include_str!("../../../cso/src/lib.rs")])
    }
    fn ambiguities(&self) -> &'static [sudoku_core::Ambiguity] {
        ::cso::AMBIGUITIES
    }
    /// Cats and their seeking copies.
    fn individuals(&self, options: &Options, _n: usize) -> Option<(&'static str, u64)> {
        let d = CsoConfig::default();
        let cats = super::int_option(options, "cats", d.cats);
        Some((
            "cats",
            cats.saturating_mul(super::int_option(options, "smp", d.smp) + 1),
        ))
    }
    fn default_max_generations(&self) -> u64 {
        10_000
    }
}
