//! The design of a one-parameter-at-a-time study (`chart = "sensitivity"`): the first algorithm
//! is the baseline, every other sets exactly one numeric option that the baseline sets too.
//! Checked when the spec loads; drawn by the effort report.

use super::Spec;
use anyhow::{bail, Result};

/// One panel of the sensitivity figures: the option, and its points (algorithm index, value)
/// in increasing value, the baseline (index 0) among them.
pub type Panel = (String, Vec<(usize, f64)>);

/// The panels, one per option that some algorithm varies against the baseline (the first).
pub fn sensitivity_panels(spec: &Spec) -> Result<Vec<Panel>> {
    let Some(base) = spec.algorithms.first() else {
        bail!("no algorithms");
    };
    let number = |v: &toml::Value| match v {
        toml::Value::Integer(i) => Some(*i as f64),
        toml::Value::Float(x) => Some(*x),
        _ => None,
    };
    let mut panels: Vec<Panel> = Vec::new();
    for (i, alg) in spec.algorithms.iter().enumerate().skip(1) {
        let mut keys = alg.params.iter();
        let (Some((key, value)), None) = (keys.next(), keys.next()) else {
            bail!(
                "chart sensitivity: algorithm '{}' must set exactly one option",
                alg.label
            );
        };
        let (Some(x), Some(x0)) = (number(value), base.params.get(key).and_then(number)) else {
            bail!(
                "chart sensitivity: option '{key}' of '{}' must be a number that the baseline '{}' sets too",
                alg.label,
                base.label
            );
        };
        match panels.iter_mut().find(|(k, _)| k == key) {
            Some((_, pts)) => pts.push((i, x)),
            None => panels.push((key.clone(), vec![(0, x0), (i, x)])),
        }
    }
    if panels.is_empty() {
        bail!("chart sensitivity: no algorithm varies an option of the baseline");
    }
    for (_, pts) in &mut panels {
        pts.sort_by(|a, b| a.1.total_cmp(&b.1));
    }
    Ok(panels)
}
