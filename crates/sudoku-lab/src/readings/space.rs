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
            parse_options(alg, options)?
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
            let wanted = raced_value(value.trim(), self.values[k].first())
                .map_err(|e| anyhow::anyhow!("--synthetic: {key} = {value}: {e}"))?;
            choice[k] = (self.values[k].iter().position(|v| *v == wanted))
                .with_context(|| format!("--synthetic: {key} = {value} is not among its values"))?;
        }
        Ok(self.index(&choice))
    }
}

/// `--options KEY=V1,V2` (repeatable) as keys and values, each key once, each value read as
/// the option's TOML type ([`raced_value`], [`known_value`]).
fn parse_options(
    alg: &AlgorithmSpec,
    options: &[String],
) -> Result<(Vec<String>, Vec<Vec<toml::Value>>)> {
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
        let texts: Vec<&str> = list.split(',').map(str::trim).collect();
        let literals: Vec<toml::Value> = texts.iter().map(|t| literal(t)).collect();
        // Without a known value, a float among the values makes the option a float one.
        let like = known_value(alg, &key).or_else(|| {
            (literals.iter())
                .find(|v| v.is_float())
                .cloned()
                .or_else(|| literals.first().cloned())
        });
        let mut vs: Vec<toml::Value> = Vec::new();
        for t in texts {
            let v = raced_value(t, like.as_ref())
                .map_err(|e| anyhow::anyhow!("--options '{o}': value {t}: {e}"))?;
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

/// The value an option of `alg` is known to take, whose TOML type raced values take: the
/// entry's own (its `params`), else the first of the algorithm's ambiguity table.
pub fn known_value(alg: &AlgorithmSpec, key: &str) -> Option<toml::Value> {
    let table = crate::algos::ambiguities(&alg.algorithm);
    (alg.params.get(key).cloned()).or_else(|| {
        (table.iter().find(|a| a.key == key))
            .and_then(|a| a.values.first())
            .map(|v| crate::algos::option_value(v))
    })
}

/// A value's text as a TOML scalar: an integer, float, boolean or quoted string as TOML
/// reads it (`0.5`, `1e-3`, `true`, `"a b"`), anything else (a bare word; `nan` and `inf`,
/// which no option takes) the word as a string.
fn literal(text: &str) -> toml::Value {
    let word = || toml::Value::String(text.to_string());
    let Ok(mut table) = toml::from_str::<toml::Table>(&format!("v = {text}")) else {
        return word();
    };
    match table.remove("v") {
        Some(v @ (toml::Value::Integer(_) | toml::Value::Boolean(_) | toml::Value::String(_)))
            if table.is_empty() =>
        {
            v
        }
        Some(toml::Value::Float(f)) if table.is_empty() && f.is_finite() => toml::Value::Float(f),
        _ => word(),
    }
}

/// A raced value `text` as the TOML type of `like` (the option's known value; without one,
/// as TOML reads it): a whole number for a float option is that float, any text for a string
/// option is that text; a value of another type is refused (its type named).
pub fn raced_value(text: &str, like: Option<&toml::Value>) -> Result<toml::Value, String> {
    let v = literal(text);
    let Some(like) = like else {
        return Ok(v);
    };
    Ok(match (like, v) {
        (toml::Value::String(_), toml::Value::String(s)) => toml::Value::String(s),
        (toml::Value::String(_), _) => toml::Value::String(text.to_string()),
        (toml::Value::Float(_), toml::Value::Integer(i)) => toml::Value::Float(i as f64),
        // A spec may write a float option's value as a whole number (`alpha = 1`): a raced
        // float is left to the option's parser, which refuses it for an integer option.
        (toml::Value::Integer(_), v @ toml::Value::Float(_)) => v,
        (like, v) if like.same_type(&v) || !is_scalar(like) => v,
        (like, _) => return Err(format!("not of the option's type ({})", like.type_str())),
    })
}

/// Whether `v` is a TOML scalar an option value may be (not an array, table or date).
fn is_scalar(v: &toml::Value) -> bool {
    v.is_str() || v.is_integer() || v.is_float() || v.is_bool()
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

    /// Raced values take the option's TOML type: floats (RESEDA's `alpha`, a float of the
    /// entry's params or not set at all), integers, booleans, and strings of the ambiguity
    /// table even where they read as numbers; a value of another type is refused.
    #[test]
    fn raced_values_take_the_options_type() {
        let reseda = |params: &str| -> AlgorithmSpec {
            toml::from_str(&format!(
                "label = \"x\"\nalgorithm = \"reseda\"\nmax_generations = 10\nparams = {{ {params} }}"
            ))
            .unwrap()
        };
        let o = |v: &str| vec![v.to_string()];
        let f = toml::Value::Float;
        for params in ["", "alpha = 0.9", "alpha = 1"] {
            let s = Space::of(&reseda(params), &o("alpha=0.5,0.9")).unwrap();
            assert_eq!(s.values[0], [f(0.5), f(0.9)], "{params}");
            assert_eq!(s.params(1)["alpha"], f(0.9));
            assert_eq!(s.texts(0), ["0.5"]);
            assert_eq!(s.find("alpha=0.9").unwrap(), 1);
        }
        let s = Space::of(&reseda("alpha = 0.9"), &o("alpha=1,0.25")).unwrap();
        assert_eq!(s.values[0], [f(1.0), f(0.25)]);
        assert_eq!(s.find("alpha=1").unwrap(), 0);
        let s = Space::of(&reseda(""), &o("alpha=1,1e-1")).unwrap();
        assert_eq!(s.values[0], [f(1.0), f(0.1)]);
        let s = Space::of(&reseda(""), &o("samples=10,20")).unwrap();
        assert_eq!(
            s.values[0],
            [toml::Value::Integer(10), toml::Value::Integer(20)]
        );
        let s = Space::of(&reseda(""), &o("zones=0,3")).unwrap();
        assert_eq!(s.len(), 2);
        for bad in [
            "samples=1.5",
            "alpha=0.5,best",
            "alpha=nan",
            "alpha=0.5,0.50",
            "strategy=1",
        ] {
            assert!(Space::of(&reseda(""), &o(bad)).is_err(), "{bad}");
        }
        assert!(Space::of(&reseda("samples = 10"), &o("samples=1.5")).is_err());
        let e = Space::of(&reseda("samples = 10"), &o("samples=true")).unwrap_err();
        assert!(
            e.to_string().contains("not of the option's type (integer)"),
            "{e}"
        );
        // A string option keeps its words, numbers included.
        let s = Space::of(&ret_ga(), &o("elitism=alternate,best")).unwrap();
        assert_eq!(s.texts(1), ["best"]);
        assert_eq!(raced_value("1.5", Some(&"a".into())), Ok("1.5".into()));
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
