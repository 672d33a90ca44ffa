//! The bounds of every count and budget of a spec: each key that sizes the
//! work of an experiment has a least value (a budget of 0 would end every run at once, and
//! was once accepted for `max_evaluations` while refused for `max_generations`) and a largest
//! one (a spec is written back as TOML into meta.json and spec.toml, whose integers end at
//! [`MAX_TOML_INT`]; a larger value once passed the checks and failed at the first write with
//! "out-of-range value for u64 type", naming nothing). One table, [`Spec::budget_keys`],
//! lists them; the command line's `--seed` and `--runs` use the same bounds.

use super::{Spec, MAX_RUNS};
use anyhow::{bail, Result};

/// The largest integer TOML holds (and so the largest value a spec key may take).
pub const MAX_TOML_INT: u64 = i64::MAX as u64;

/// One count or budget of a spec: where it is (`algorithm 'x': `, `puzzle 'y': ` or empty),
/// its key, its value, and its bounds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BudgetKey {
    pub place: String,
    pub key: &'static str,
    pub value: u64,
    pub min: u64,
    pub max: u64,
}

/// Refuse `value` for `key` outside `min..=max`, naming the key (with `place` before it).
pub fn check_bounds(place: &str, key: &str, value: u64, min: u64, max: u64) -> Result<()> {
    if value < min {
        bail!("{place}{key} must be at least {min} (got {value})");
    }
    if value > max {
        bail!("{place}{key} = {value} is over the limit of {max}");
    }
    Ok(())
}

impl Spec {
    /// Every count and budget the spec sets, with its bounds, in spec order: the spec's keys,
    /// then each puzzle entry's, then each algorithm's. Optional keys appear when set.
    pub fn budget_keys(&self) -> Vec<BudgetKey> {
        let key = |place: &str, key, value, min, max| BudgetKey {
            place: place.to_string(),
            key,
            value,
            min,
            max,
        };
        let mut out = vec![
            key("", "master_seed", self.master_seed, 0, MAX_TOML_INT),
            key("", "runs", self.runs, 1, MAX_RUNS),
            key("", "quick_runs", self.quick_runs, 1, MAX_RUNS),
            key(
                "",
                "quick_max_generations",
                self.quick_max_generations,
                1,
                MAX_TOML_INT,
            ),
        ];
        if let Some(s) = self.quick_set_size {
            out.push(key("", "quick_set_size", s as u64, 1, MAX_TOML_INT));
        }
        for p in &self.puzzles {
            let place = format!("puzzle '{}': ", p.id);
            out.push(key(&place, "index", p.index as u64, 0, MAX_TOML_INT));
            let optional = [
                ("runs", p.runs, 1, MAX_RUNS),
                ("take", p.take.map(|v| v as u64), 1, MAX_TOML_INT),
                (
                    "fix_box_from_solution",
                    p.fix_box_from_solution.map(|v| v as u64),
                    0,
                    MAX_TOML_INT,
                ),
                (
                    "box_fillings",
                    p.box_fillings.map(|v| v as u64),
                    0,
                    MAX_TOML_INT,
                ),
            ];
            for (k, v, min, max) in optional {
                if let Some(v) = v {
                    out.push(key(&place, k, v, min, max));
                }
            }
        }
        for a in &self.algorithms {
            let place = format!("algorithm '{}': ", a.label);
            if let Some(g) = a.max_generations {
                out.push(key(&place, "max_generations", g, 1, MAX_TOML_INT));
            }
            if let Some(e) = a.max_evaluations {
                out.push(key(&place, "max_evaluations", e, 1, MAX_TOML_INT));
            }
            if let Some(r) = a.runs {
                out.push(key(&place, "runs", r, 1, MAX_RUNS));
            }
        }
        out
    }

    /// Every key of [`Spec::budget_keys`] within its bounds.
    pub(super) fn check_budgets(&self) -> Result<()> {
        for k in self.budget_keys() {
            check_bounds(&k.place, k.key, k.value, k.min, k.max)?;
        }
        for a in &self.algorithms {
            let place = format!("algorithm '{}': ", a.label);
            for (key, v) in [
                ("max_cpu_seconds", a.max_cpu_seconds),
                ("max_wall_seconds", a.max_wall_seconds),
            ] {
                if let Some(v) = v.filter(|v| !(*v > 0.0 && *v <= MAX_SECONDS)) {
                    anyhow::bail!(
                        "{place}{key} = {v}: must be above 0 and at most {MAX_SECONDS} (a week)"
                    );
                }
            }
            let limits = [
                a.max_generations.is_some(),
                a.max_evaluations.is_some(),
                a.max_cpu_seconds.is_some(),
                a.max_wall_seconds.is_some(),
            ];
            // An external solver's runs end at its hard deadline `wall_seconds` anyway.
            if !limits.contains(&true) && !a.is_external() {
                anyhow::bail!(
                    "{place}no budget: set max_generations, max_evaluations, max_cpu_seconds or max_wall_seconds"
                );
            }
        }
        Ok(())
    }
}

/// The longest time budget of one run (a week), in seconds.
pub const MAX_SECONDS: f64 = 7.0 * 86_400.0;

#[cfg(test)]
mod tests {
    use super::*;

    /// A spec with every count and budget key set, `KEY = VALUE` pairs substituted in.
    fn spec_with(key: &str, value: &str) -> String {
        let mut vals = std::collections::BTreeMap::from([
            ("master_seed", "1"),
            ("runs", "2"),
            ("quick_runs", "1"),
            ("quick_max_generations", "5"),
            ("quick_set_size", "2"),
            ("index", "0"),
            ("take", "2"),
            ("puzzle_runs", "3"),
            ("fix_box_from_solution", "0"),
            ("box_fillings", "0"),
            ("max_generations", "50"),
            ("max_evaluations", "1000"),
        ]);
        vals.insert(key, value);
        format!(
            "id = \"b\"\ntitle = \"t\"\nmaster_seed = {}\nruns = {}\nquick_runs = {}\nquick_max_generations = {}\nquick_set_size = {}\npuzzles = [\n {{ id = \"s\", file = \"f.txt\", all = true, take = {} }},\n {{ id = \"p\", file = \"f.txt\", index = {}, runs = {}, fix_box_from_solution = {} }},\n {{ id = \"q\", bank = \"mk_easy\", box_fillings = {} }},\n]\n[[algorithms]]\nlabel = \"mk\"\nalgorithm = \"mk-ga\"\nmax_generations = {}\nmax_evaluations = {}\n",
            vals["master_seed"],
            vals["runs"],
            vals["quick_runs"],
            vals["quick_max_generations"],
            vals["quick_set_size"],
            vals["take"],
            vals["index"],
            vals["puzzle_runs"],
            vals["fix_box_from_solution"],
            vals["box_fillings"],
            vals["max_generations"],
            vals["max_evaluations"],
        )
    }

    /// Every count and budget key of a spec, with its least and largest value: below or above
    /// them it is refused naming the key (and its puzzle or algorithm); at them it passes.
    /// `max_evaluations = 0` was accepted (every run ended at once), and a value above what
    /// TOML holds passed until the first write.
    #[test]
    fn every_budget_key_is_bounded() {
        let big = (MAX_TOML_INT + 1).to_string();
        let over_runs = (MAX_RUNS + 1).to_string();
        // (key, too small, too large, the place its message names)
        let cases: [(&str, Option<&str>, &str, &str); 12] = [
            ("master_seed", None, &big, "master_seed"),
            ("runs", Some("0"), &over_runs, "runs"),
            ("quick_runs", Some("0"), &over_runs, "quick_runs"),
            (
                "quick_max_generations",
                Some("0"),
                &big,
                "quick_max_generations",
            ),
            ("quick_set_size", Some("0"), &big, "quick_set_size"),
            ("take", Some("0"), &big, "puzzle 's': take"),
            ("index", None, &big, "puzzle 'p': index"),
            ("puzzle_runs", Some("0"), &over_runs, "puzzle 'p': runs"),
            (
                "fix_box_from_solution",
                None,
                &big,
                "puzzle 'p': fix_box_from_solution",
            ),
            ("box_fillings", None, &big, "puzzle 'q': box_fillings"),
            (
                "max_generations",
                Some("0"),
                &big,
                "algorithm 'mk': max_generations",
            ),
            (
                "max_evaluations",
                Some("0"),
                &big,
                "algorithm 'mk': max_evaluations",
            ),
        ];
        Spec::parse(&spec_with("runs", "2"), "s.toml").unwrap();
        let listed = Spec::parse(&spec_with("runs", "2"), "s.toml")
            .unwrap()
            .budget_keys();
        // The table covers every key the spec lists, and lists every key of the table.
        let names: std::collections::BTreeSet<&str> = listed.iter().map(|k| k.key).collect();
        for name in &names {
            assert!(
                cases.iter().any(|c| c.3.ends_with(name)),
                "{name} not tested"
            );
        }
        for c in &cases {
            assert!(
                listed
                    .iter()
                    .any(|k| format!("{}{}", k.place, k.key) == c.3),
                "{} not listed",
                c.3
            );
        }
        for (key, small, large, place) in cases {
            if let Some(v) = small {
                let e = Spec::parse(&spec_with(key, v), "s.toml").unwrap_err();
                let e = format!("{e:#}");
                assert!(
                    e.contains(&format!("{place} must be at least")),
                    "{key}: {e}"
                );
            }
            let e = Spec::parse(&spec_with(key, large), "s.toml").unwrap_err();
            let e = format!("{e:#}");
            assert!(
                e.contains(&format!("{place} = {large} is over the limit")),
                "{key}: {e}"
            );
            assert_eq!(e.lines().count(), 1, "{e}");
        }
    }

    /// The bounds themselves pass.
    #[test]
    fn budget_bounds_are_inclusive() {
        for (key, v) in [
            ("master_seed", MAX_TOML_INT.to_string()),
            ("max_evaluations", "1".to_string()),
            ("max_generations", MAX_TOML_INT.to_string()),
            ("runs", MAX_RUNS.to_string()),
        ] {
            Spec::parse(&spec_with(key, &v), "s.toml").unwrap_or_else(|e| panic!("{key}: {e:#}"));
        }
    }
}
