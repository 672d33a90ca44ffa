//! Options of RESEDA (see the reseda crate docs for the paper's words and defaults).

use super::options::choose as pick;
use anyhow::{bail, Result};
use reseda::*;
use serde::Deserialize;

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
