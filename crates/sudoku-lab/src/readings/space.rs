//! The readings a race varies: options and their values (from `--options`, the spec's
//! `readings` table, or the algorithm's ambiguity table), and every combination of them, each
//! numbered and named `r001`, `r002`, ... in a fixed order (the last option varies fastest).

use crate::spec::AlgorithmSpec;
use anyhow::{bail, Context, Result};

/// The most readings one race may hold (the product of the numbers of values).
pub const MAX_READINGS: u64 = 100_000;

/// The options a race varies, in order, and their values.
#[derive(Debug, Clone, PartialEq)]
pub struct Space {
    pub keys: Vec<String>,
    pub values: Vec<Vec<toml::Value>>,
    /// The algorithm's own options the readings are added to (the spec entry's `params`).
    pub base: toml::Table,
    pub algorithm: String,
}

impl Space {
    /// The space of `alg`: `--options KEY=V1,V2` when given, else the entry's `readings`, else
    /// every option of the algorithm's ambiguity table. Every value is checked to build a
    /// solver with the entry's other options.
    pub fn of(alg: &AlgorithmSpec, options: &[String]) -> Result<Space> {
        let (keys, values) = if !options.is_empty() {
            parse_options(options)?
        } else if let Some(r) = &alg.readings {
            // The ambiguity table's order first (the spec's table is sorted by name).
            let table = crate::algos::ambiguities(&alg.algorithm);
            let rank = |k: &str| table.iter().position(|a| a.key == k).unwrap_or(usize::MAX);
            let mut entries: Vec<(String, Vec<toml::Value>)> =
                r.iter().map(|(k, v)| (k.clone(), v.clone())).collect();
            entries.sort_by_key(|(k, _)| rank(k));
            entries.into_iter().unzip()
        } else {
            let table = crate::algos::ambiguities(&alg.algorithm);
            if table.is_empty() {
                bail!(
                    "algorithm '{}' ({}) has no ambiguity table: name the options to vary with --options or the spec's readings",
                    alg.label,
                    alg.algorithm
                );
            }
            table
                .iter()
                .map(|a| {
                    let v = a.values.iter().map(|v| crate::algos::option_value(v));
                    (a.key.to_string(), v.collect())
                })
                .unzip()
        };
        let space = Space {
            keys,
            values,
            base: alg.params.clone(),
            algorithm: alg.algorithm.clone(),
        };
        space.check()?;
        Ok(space)
    }

    /// Every value a printable word and a solver built with it; the product within limits.
    fn check(&self) -> Result<()> {
        for (key, values) in self.keys.iter().zip(&self.values) {
            for v in values {
                let text = value_text(v);
                if text.is_empty()
                    || !text
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || "._+-".contains(c))
                {
                    bail!("option {key}: value {v} is not a plain word or number");
                }
                let mut params = self.base.clone();
                params.insert(key.clone(), v.clone());
                crate::algos::solver(&self.algorithm, &params)
                    .with_context(|| format!("option {key} = {text}"))?;
            }
        }
        let n = self
            .values
            .iter()
            .map(|v| v.len() as u64)
            .fold(1u64, u64::saturating_mul);
        if n > MAX_READINGS {
            bail!("{n} readings are more than the limit of {MAX_READINGS}: vary fewer options");
        }
        Ok(())
    }

    /// The number of readings.
    pub fn len(&self) -> usize {
        self.values.iter().map(Vec::len).product()
    }

    /// The value index of each option in reading `r` (the last option varies fastest).
    pub fn choice(&self, r: usize) -> Vec<usize> {
        let mut out = vec![0; self.keys.len()];
        let mut rest = r;
        for (k, values) in self.values.iter().enumerate().rev() {
            out[k] = rest % values.len();
            rest /= values.len();
        }
        out
    }

    /// The reading with these value indices.
    pub fn index(&self, choice: &[usize]) -> usize {
        (self.values.iter().zip(choice)).fold(0, |acc, (values, &c)| acc * values.len() + c)
    }

    /// The options of reading `r`: the entry's params with the reading's values set.
    pub fn params(&self, r: usize) -> toml::Table {
        let mut params = self.base.clone();
        for (k, c) in self.choice(r).into_iter().enumerate() {
            params.insert(self.keys[k].clone(), self.values[k][c].clone());
        }
        params
    }

    /// The name of reading `r`: `r` and its number from 1, zero-padded to the same width.
    pub fn id(&self, r: usize) -> String {
        let width = self.len().to_string().len();
        format!("r{:0width$}", r + 1)
    }

    /// The values of reading `r`, as text, in the order of the keys.
    pub fn texts(&self, r: usize) -> Vec<String> {
        (self.choice(r).into_iter().enumerate())
            .map(|(k, c)| value_text(&self.values[k][c]))
            .collect()
    }

    /// The reading `KEY=V,KEY=V` names (`--synthetic`); options left out take their first
    /// value.
    pub fn find(&self, assignments: &str) -> Result<usize> {
        let mut choice = vec![0; self.keys.len()];
        for part in assignments.split(',').filter(|p| !p.trim().is_empty()) {
            let (key, value) = part
                .split_once('=')
                .with_context(|| format!("--synthetic: '{part}' is not KEY=VALUE"))?;
            let k = (self.keys.iter().position(|x| x == key.trim())).with_context(|| {
                format!(
                    "--synthetic: '{key}' is not an option of the race ({})",
                    self.keys.join(", ")
                )
            })?;
            let wanted = crate::algos::option_value(value.trim());
            choice[k] = (self.values[k].iter().position(|v| *v == wanted))
                .with_context(|| format!("--synthetic: {key} = {value} is not among its values"))?;
        }
        Ok(self.index(&choice))
    }
}

/// `--options KEY=V1,V2` (repeatable) as keys and values, each key once.
fn parse_options(options: &[String]) -> Result<(Vec<String>, Vec<Vec<toml::Value>>)> {
    let mut keys: Vec<String> = Vec::new();
    let mut values = Vec::new();
    for o in options {
        let (key, list) = o
            .split_once('=')
            .with_context(|| format!("--options '{o}': expected KEY=V1,V2,..."))?;
        let key = key.trim().to_string();
        if key.is_empty() || keys.contains(&key) {
            bail!("--options '{o}': the key is empty or named twice");
        }
        let mut vs: Vec<toml::Value> = Vec::new();
        for v in list.split(',').map(str::trim) {
            let v = crate::algos::option_value(v);
            if vs.contains(&v) {
                bail!("--options '{o}': value {v} appears twice");
            }
            vs.push(v);
        }
        keys.push(key);
        values.push(vs);
    }
    Ok((keys, values))
}

/// A value as readings.csv and the report print it: a string without its quotes.
pub fn value_text(v: &toml::Value) -> String {
    match v {
        toml::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ret_ga() -> AlgorithmSpec {
        toml::from_str("label = \"x\"\nalgorithm = \"ret-ga\"\nmax_generations = 10").unwrap()
    }

    #[test]
    fn the_default_space_is_the_ambiguity_table() {
        let s = Space::of(&ret_ga(), &[]).unwrap();
        assert_eq!(s.len(), 384);
        assert_eq!(s.keys[0], "elitism");
        assert_eq!(s.id(0), "r001");
        for r in [0, 1, 17, 383] {
            assert_eq!(s.index(&s.choice(r)), r);
        }
        let last = s.params(383);
        assert_eq!(last["elitism"].as_str(), Some("best"));
        assert_eq!(last["success_generation"].as_str(), Some("completed"));
        assert_eq!(
            s.find("elitism=best,success_generation=completed").unwrap(),
            192 + 1
        );
    }

    #[test]
    fn options_are_checked() {
        let alg = ret_ga();
        let o = |v: &[&str]| v.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        let s = Space::of(&alg, &o(&["elitism=alternate,best", "pairing=random"])).unwrap();
        assert_eq!(s.len(), 2);
        for bad in [
            o(&["elitism=alternate,bogus"]),
            o(&["elitism"]),
            o(&["elitism=best,best"]),
            o(&["nokey=1"]),
            o(&["elitism=best", "elitism=alternate"]),
        ] {
            assert!(Space::of(&alg, &bad).is_err(), "{bad:?}");
        }
        assert!(s.find("elitism=nope").is_err());
        assert!(s.find("pairing").is_err());
    }
}
