//! Helpers of the option tables: a named choice among fixed values, and size limits.

use anyhow::{bail, Result};

/// The option named `value` among `options`, or an error listing them.
pub(crate) fn choose<T: Copy>(key: &str, value: &str, options: &[(&str, T)]) -> Result<T> {
    options
        .iter()
        .find(|(k, _)| *k == value)
        .map(|(_, v)| *v)
        .ok_or_else(|| {
            let names: Vec<&str> = options.iter().map(|o| o.0).collect();
            anyhow::anyhow!("{key} = '{value}' is not one of: {}", names.join(", "))
        })
}

/// [`choose`] for an optional option: `default` when it is not set.
pub(crate) fn choose_or<T: Copy>(
    key: &str,
    value: Option<&str>,
    options: &[(&str, T)],
    default: T,
) -> Result<T> {
    value.map_or(Ok(default), |v| choose(key, v, options))
}

/// The largest population-like size (individuals, samples, cats, seeking copies, ...) an
/// option may ask for: each individual holds a grid, so 10^9 would take gigabytes per thread.
/// The published experiments use at most 2000.
pub const MAX_INDIVIDUALS: usize = 1_000_000;

/// Refuse an option above [`MAX_INDIVIDUALS`] (or `max`), naming the key.
pub(crate) fn at_most(key: &str, value: Option<usize>, max: usize) -> Result<()> {
    match value {
        Some(v) if v > max => {
            bail!("{key} = {v} is over the limit of {max} (memory per run grows with it)")
        }
        _ => Ok(()),
    }
}
