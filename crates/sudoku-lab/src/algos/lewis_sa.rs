//! Options of Lewis's simulated annealing (see the lewis-sa crate docs: the source of every
//! default, and which readings of the unclear rules the options select).

use anyhow::Result;
use lewis_sa::{BoxChoice, LewisConfig, LewisSa, Reheat, ReheatTrigger, T0Sampling};
use serde::Deserialize;
use sudoku_core::{Algorithm, OptionError, Options, Solver};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LewisParams {
    alpha: Option<f64>,
    /// Moves per Markov chain; unset = (number of free cells)^2.
    chain_length: Option<u64>,
    t0_samples: Option<usize>,
    /// "neighbours" | "walk"
    t0_sampling: Option<String>,
    reheat_after: Option<u64>,
    /// "current-cost" | "best-cost"
    reheat_trigger: Option<String>,
    /// "temperature" | "randomise" | "never"
    reheat: Option<String>,
    /// "uniform-box" | "uniform-pair"
    box_choice: Option<String>,
}

pub fn lewis_sa(params: &toml::Table) -> Result<LewisSa> {
    let p: LewisParams = toml::Value::Table(params.clone()).try_into()?;
    super::options::at_most("t0_samples", p.t0_samples, super::options::MAX_INDIVIDUALS)?;
    let d = LewisConfig::default();
    use super::options::choose_or;
    let t0_sampling = choose_or(
        "t0_sampling",
        p.t0_sampling.as_deref(),
        &[
            ("neighbours", T0Sampling::Neighbours),
            ("walk", T0Sampling::Walk),
        ],
        d.t0_sampling,
    )?;
    let reheat_trigger = choose_or(
        "reheat_trigger",
        p.reheat_trigger.as_deref(),
        &[
            ("current-cost", ReheatTrigger::CurrentCost),
            ("best-cost", ReheatTrigger::BestCost),
        ],
        d.reheat_trigger,
    )?;
    let reheat = choose_or(
        "reheat",
        p.reheat.as_deref(),
        &[
            ("temperature", Reheat::Temperature),
            ("randomise", Reheat::Randomise),
            ("never", Reheat::Never),
        ],
        d.reheat,
    )?;
    let box_choice = choose_or(
        "box_choice",
        p.box_choice.as_deref(),
        &[
            ("uniform-box", BoxChoice::UniformBox),
            ("uniform-pair", BoxChoice::UniformPair),
        ],
        d.box_choice,
    )?;
    Ok(LewisSa::new(LewisConfig {
        alpha: p.alpha.unwrap_or(d.alpha),
        chain_length: p.chain_length.or(d.chain_length),
        t0_samples: p.t0_samples.unwrap_or(d.t0_samples),
        t0_sampling,
        reheat_after: p.reheat_after.unwrap_or(d.reheat_after),
        reheat_trigger,
        reheat,
        box_choice,
    })?)
}

/// The registry entry (see [`sudoku_core::Algorithm`]): the options above, and what the
/// runner knows of the algorithm.
pub struct LewisSaAlgorithm;

/// The line of the registry.
pub const ALGORITHM: &dyn Algorithm = &LewisSaAlgorithm;

impl Algorithm for LewisSaAlgorithm {
    fn name(&self) -> &'static str {
        "lewis-sa"
    }
    fn summary(&self) -> &'static str {
        "Simulated annealing of Lewis (2007)"
    }
    fn build(&self, options: &Options) -> Result<Box<dyn Solver>, OptionError> {
        lewis_sa(options)
            .map(|s| Box::new(s) as Box<dyn Solver>)
            .map_err(super::option_error)
    }
    fn counters(&self, _options: &Options) -> Vec<&'static str> {
        vec!["reheats", "accepted_moves", "improving_moves", "t0_x1000"]
    }
    fn schedule_evaluations(&self, options: &Options, free: u64) -> Option<(u64, String)> {
        let sa = lewis_sa(options).ok()?;
        let c = sa.config();
        let evaluations = c.schedule_evaluations(free)?;
        let chain = match c.chain_length {
            Some(l) => format!("{l} moves"),
            None => "(free cells)^2 moves".to_string(),
        };
        let what = format!(
            "its cooling (alpha = {}) takes {} chains of {chain}, 1 / -ln(alpha) rounded up, to bring the temperature down to t0 / e, plus the {} evaluations of the start and the t0 sample",
            c.alpha,
            c.schedule_chains()?,
            1 + c.t0_samples
        );
        Some((evaluations, what))
    }
    fn evaluation_unit(&self) -> &'static str {
        "one proposed swap (its cost delta, from the two rows and two columns it touches), accepted or not, and each cost of the initial-temperature sample"
    }
    fn sources(&self) -> (&'static str, &'static [&'static str]) {
        (
            "lewis-sa",
            &[
                include_str!("../../../lewis-sa/src/lib.rs"),
                include_str!("../../../lewis-sa/src/ops.rs"),
            ],
        )
    }
}
