//! Options of RESEDA (see the reseda crate docs for the paper's words and defaults).

use super::options::choose as pick;
use anyhow::{bail, Result};
use reseda::*;
use serde::Deserialize;
use sudoku_core::{Algorithm, OptionError, Options, Solver};

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct ResedaParams {
    samples: Option<usize>,
    elite: Option<usize>,
    alpha: Option<f64>,
    beta: Option<f64>,
    /// "permutations" | "precomputation" | "both"
    strategy: Option<String>,
    /// "draw-in-most-certain-cell" | "argmax-cell-symbol"
    block_pick: Option<String>,
    /// "renormalised" | "raw" | "static" | "box"
    cell_order: Option<String>,
    /// "remaining-symbols" | "allowed-symbols"
    fallback: Option<String>,
    /// "sort" | "best-of-groups"
    elite_selection: Option<String>,
    /// 0 (none) | 3 | 9 | 27
    zones: Option<u32>,
    /// "best-sample" | "most-probable"
    failed_result: Option<String>,
    attempts: Option<u32>,
}

/// RESEDA from the options of a spec entry: each option checked, the ones not set at the
/// paper's values.
pub fn reseda(params: &toml::Table) -> Result<Reseda> {
    let p: ResedaParams = toml::Value::Table(params.clone()).try_into()?;
    let mut c = ResedaConfig::default();
    set_sizes(&p, &mut c)?;
    set_sampler(&p, &mut c)?;
    set_restarts(&p, &mut c)?;
    Ok(Reseda::new(c)?)
}

/// The numbers of a round: Q (`samples`), Q1 (`elite`), both within the memory limit, and
/// `alpha`, `beta`.
fn set_sizes(p: &ResedaParams, c: &mut ResedaConfig) -> Result<()> {
    use super::options::{at_most, MAX_INDIVIDUALS};
    at_most("samples", p.samples, MAX_INDIVIDUALS)?;
    at_most("elite", p.elite, MAX_INDIVIDUALS)?;
    c.samples = p.samples.unwrap_or(c.samples);
    c.elite = p.elite.unwrap_or(c.elite);
    c.alpha = p.alpha.unwrap_or(c.alpha);
    c.beta = p.beta.unwrap_or(c.beta);
    Ok(())
}

/// How samples are drawn and the elite chosen: the readings of the paper's sampler
/// (`strategy`, `block_pick`, `cell_order`, `fallback`, `elite_selection`).
fn set_sampler(p: &ResedaParams, c: &mut ResedaConfig) -> Result<()> {
    if let Some(v) = &p.strategy {
        c.strategy = pick(
            "strategy",
            v,
            &[
                ("permutations", Strategy::Permutations),
                ("precomputation", Strategy::Precomputation),
                ("both", Strategy::Both),
            ],
        )?;
    }
    if let Some(v) = &p.block_pick {
        c.block_pick = pick(
            "block_pick",
            v,
            &[
                (
                    "draw-in-most-certain-cell",
                    BlockPick::DrawInMostCertainCell,
                ),
                ("argmax-cell-symbol", BlockPick::ArgmaxCellSymbol),
            ],
        )?;
    }
    if let Some(v) = &p.cell_order {
        c.cell_order = pick(
            "cell_order",
            v,
            &[
                ("renormalised", CellOrder::Renormalised),
                ("raw", CellOrder::Raw),
                ("static", CellOrder::Static),
                ("box", CellOrder::Box),
            ],
        )?;
    }
    if let Some(v) = &p.fallback {
        c.fallback = pick(
            "fallback",
            v,
            &[
                ("remaining-symbols", Fallback::RemainingSymbols),
                ("allowed-symbols", Fallback::AllowedSymbols),
            ],
        )?;
    }
    if let Some(v) = &p.elite_selection {
        c.elite_selection = pick(
            "elite_selection",
            v,
            &[
                ("sort", EliteSelection::Sort),
                ("best-of-groups", EliteSelection::BestOfGroups),
            ],
        )?;
    }
    Ok(())
}

/// The restarts: the zones a partial restart fixes (`zones`), the result of a failed
/// resolution they start from (`failed_result`), and the full restarts of a run (`attempts`).
fn set_restarts(p: &ResedaParams, c: &mut ResedaConfig) -> Result<()> {
    if let Some(z) = p.zones {
        c.zones = match z {
            0 => Zones::None,
            3 => Zones::Diagonal3,
            9 => Zones::Blocks9,
            27 => Zones::All27,
            o => bail!("zones = {o} is not one of: 0, 3, 9, 27"),
        };
    }
    if let Some(v) = &p.failed_result {
        c.failed_result = pick(
            "failed_result",
            v,
            &[
                ("best-sample", FailedResult::BestSample),
                ("most-probable", FailedResult::MostProbable),
            ],
        )?;
    }
    c.attempts = p.attempts.unwrap_or(c.attempts);
    Ok(())
}

/// The registry entry (see [`sudoku_core::Algorithm`]): the options above, and what the
/// runner knows of the algorithm.
pub struct ResedaAlgorithm;

/// The line of the registry.
pub const ALGORITHM: &dyn Algorithm = &ResedaAlgorithm;

impl Algorithm for ResedaAlgorithm {
    fn name(&self) -> &'static str {
        "reseda"
    }
    fn summary(&self) -> &'static str {
        "RESEDA, restarted EDA (Maire & Prissette)"
    }
    fn build(&self, options: &Options) -> Result<Box<dyn Solver>, OptionError> {
        reseda(options)
            .map(|s| Box::new(s) as Box<dyn Solver>)
            .map_err(super::option_error)
    }
    fn counters(&self, _options: &Options) -> Vec<&'static str> {
        vec![
            "resolutions",
            "zones_tried",
            "zones_skipped",
            "solved_by_zone",
        ]
    }
    fn evaluation_unit(&self) -> &'static str {
        "the cost of one sampled grid (Q samples per round)"
    }
    fn sources(&self) -> (&'static str, &'static [&'static str]) {
        (
            "reseda",
            &[
                include_str!("../../../reseda/src/lib.rs"),
                include_str!("../../../reseda/src/config.rs"),
                include_str!("../../../reseda/src/model.rs"),
            ],
        )
    }
    fn ambiguities(&self) -> &'static [sudoku_core::Ambiguity] {
        ::reseda::AMBIGUITIES
    }
    /// Without partial restarts (`zones = 0`), the result of a failed resolution only
    /// decides the grid (and its cost) a failed run returns, never what a run does next: the
    /// two values of `failed_result` make the same runs (`reseda::Reseda::solve`; the most
    /// probable grid draws nothing from the RNG).
    fn same_run(&self, options: &Options) -> Option<sudoku_core::SameRun> {
        let no_zones = options.get("zones").and_then(toml::Value::as_integer) == Some(0);
        let most =
            options.get("failed_result").and_then(toml::Value::as_str) == Some("most-probable");
        (no_zones && most).then(|| {
            let mut same = options.clone();
            same.insert("failed_result".into(), "best-sample".into());
            sudoku_core::SameRun {
                options: same,
                solved_shift: 0,
            }
        })
    }
    fn individuals(&self, options: &Options, _n: usize) -> Option<(&'static str, u64)> {
        let d = ResedaConfig::default().samples;
        Some(("samples", super::int_option(options, "samples", d)))
    }
    fn own_stopping_rule(&self, options: &Options, max_evaluations: u64) -> Option<String> {
        stopping_rule(options, max_evaluations)
    }
    fn early_stop_hint(&self, termination: &str) -> Option<&'static str> {
        (termination == "converged").then_some("set `attempts` to use the budget")
    }
    /// RESEDA stops by its own rule (rho > beta); the cap is a safety net only.
    fn default_max_generations(&self) -> u64 {
        1_000_000
    }
}

/// The warning of [`sudoku_core::Algorithm::own_stopping_rule`]. Each of RESEDA's `attempts`
/// ends when its sampling distribution has converged, and binds in practice. A round costs
/// `samples` evaluations, so the budget lasts `max_evaluations / samples` rounds; the warning
/// is given when there are fewer attempts than that, i.e. when the runs use the budget only
/// if an attempt lasts `max_evaluations / (samples x attempts)` rounds or more (the paper's
/// attempts end within some tens of rounds; the compare report states the evaluations
/// actually used).
fn stopping_rule(params: &toml::Table, max_evaluations: u64) -> Option<String> {
    let d = ResedaConfig::default();
    let int = |key: &str, default: u64| {
        params
            .get(key)
            .and_then(toml::Value::as_integer)
            .map_or(default, |v| v.max(1) as u64)
    };
    let attempts = int("attempts", u64::from(d.attempts));
    let samples = int("samples", d.samples as u64);
    let rounds = max_evaluations / samples.max(1);
    if attempts >= rounds {
        return None;
    }
    let s = if attempts == 1 { "" } else { "s" };
    Some(format!(
        "stops by its own rule after {attempts} attempt{s} (each ends when its sampling distribution converges); max_evaluations = {max_evaluations} is {rounds} rounds of {samples} samples, used only if an attempt lasts {} rounds or more: set `attempts` to use the budget",
        rounds.div_ceil(attempts)
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cell_order_parses() {
        let table = |s: &str| -> toml::Table { toml::from_str(s).unwrap() };
        for (v, want) in [
            ("renormalised", CellOrder::Renormalised),
            ("raw", CellOrder::Raw),
            ("static", CellOrder::Static),
            ("box", CellOrder::Box),
        ] {
            let r = reseda(&table(&format!("cell_order = \"{v}\""))).unwrap();
            assert_eq!(r.config().cell_order, want);
        }
        let default = reseda(&toml::Table::new()).unwrap();
        assert_eq!(default.config().cell_order, CellOrder::Renormalised);
        let err = reseda(&table("cell_order = \"diagonal\"")).unwrap_err();
        assert!(err.to_string().contains("cell_order"), "{err}");
    }
}
