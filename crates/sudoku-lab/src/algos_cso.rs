//! Options of Cat Swarm Optimization (see the cso crate docs: which values come from the
//! thesis and which are the canonical CSO values).

use anyhow::Result;
use cso::{Cso, CsoConfig, Rounding};
use serde::Deserialize;

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
}

pub fn cso(params: &toml::Table) -> Result<Cso> {
    let p: CsoParams = toml::Value::Table(params.clone()).try_into()?;
    let d = CsoConfig::default();
    let rounding = match &p.rounding {
        Some(r) => crate::algos::choose(
            "rounding",
            r,
            &[("truncate", Rounding::Truncate), ("round", Rounding::Round)],
        )?,
        None => d.rounding,
    };
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
    })?)
}
