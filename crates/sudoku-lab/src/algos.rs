//! The algorithm registry: a name and a table of options -> a configured [`Solver`]. The only
//! place where the binary knows algorithm configs; unknown option keys are errors.

use anyhow::{bail, Result};
use serde::Deserialize;
use sudoku_core::{Budget, Solver};

use crate::spec::AlgorithmSpec;

/// Algorithms the runner knows, with a one-line description.
pub const ALGORITHMS: &[(&str, &str)] = &[
    ("ret-ga", "Retrievable GA (Das, Bhatia, Puri, Deep)"),
    ("mk-ga", "GA of Mantere & Koljonen (2006/2007)"),
    ("reseda", "RESEDA, restarted EDA (Maire & Prissette)"),
    ("gen-ga", "Benbassat's GA that generates solved boards"),
    ("cso", "Cat Swarm Optimization (CSO thesis)"),
    ("lewis-sa", "Simulated annealing of Lewis (2007)"),
];

#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct RetGaParams {
    population_factor: Option<usize>,
    crossover_probability: Option<f64>,
    mutation_probability: Option<f64>,
    reset_point: Option<u64>,
    /// "stagnation" | "fixed-period" | "never"
    reset_rule: Option<String>,
    /// "present-in-unit" | "givens-of-unit"
    repetition_set: Option<String>,
    /// "consecutive" | "random"
    pairing: Option<String>,
    /// "best-first" | "ascending-literal" | "ascending"
    elite_order: Option<String>,
    /// "alternate" | "best"
    elitism: Option<String>,
    /// "alternate" | "uniform-random"
    crossover_rows: Option<String>,
    /// "givens" | "all"
    repetition_scope: Option<String>,
    /// "current" | "completed"
    success_generation: Option<String>,
}

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

fn ret_ga(params: &toml::Table) -> Result<ret_ga::RetGa> {
    use ret_ga::*;
    let p: RetGaParams = toml::Value::Table(params.clone()).try_into()?;
    // Population = factor x N: 10^5 x 9 is already ~10^6 individuals.
    at_most(
        "population_factor",
        p.population_factor,
        MAX_INDIVIDUALS / 10,
    )?;
    let mut c = RetGaConfig::default();
    if let Some(v) = p.population_factor {
        c.population_factor = v;
    }
    if let Some(v) = p.crossover_probability {
        c.crossover_probability = v;
    }
    if let Some(v) = p.mutation_probability {
        c.mutation_probability = v;
    }
    c.reset_point = p.reset_point.or(c.reset_point);
    if let Some(v) = &p.reset_rule {
        c.reset_rule = choose(
            "reset_rule",
            v,
            &[
                ("stagnation", ResetRule::Stagnation),
                ("fixed-period", ResetRule::FixedPeriod),
                ("never", ResetRule::Never),
            ],
        )?;
    }
    if let Some(v) = &p.repetition_set {
        c.repetition_set = choose(
            "repetition_set",
            v,
            &[
                ("present-in-unit", RepetitionSet::PresentInUnit),
                ("givens-of-unit", RepetitionSet::GivensOfUnit),
            ],
        )?;
    }
    if let Some(v) = &p.pairing {
        c.pairing = choose(
            "pairing",
            v,
            &[
                ("consecutive", Pairing::Consecutive),
                ("random", Pairing::Random),
            ],
        )?;
    }
    if let Some(v) = &p.elite_order {
        c.elite_order = choose(
            "elite_order",
            v,
            &[
                ("best-first", EliteOrder::BestFirst),
                ("ascending-literal", EliteOrder::AscendingLiteral),
                ("ascending", EliteOrder::Ascending),
            ],
        )?;
    }
    c.elitism = choose_or(
        "elitism",
        p.elitism.as_deref(),
        &[("alternate", Elitism::Alternate), ("best", Elitism::Best)],
        c.elitism,
    )?;
    c.crossover_rows = choose_or(
        "crossover_rows",
        p.crossover_rows.as_deref(),
        &[
            ("alternate", CrossoverRows::Alternate),
            ("uniform-random", CrossoverRows::UniformRandom),
        ],
        c.crossover_rows,
    )?;
    c.repetition_scope = choose_or(
        "repetition_scope",
        p.repetition_scope.as_deref(),
        &[
            ("givens", RepetitionScope::Givens),
            ("all", RepetitionScope::All),
        ],
        c.repetition_scope,
    )?;
    if let Some(v) = &p.success_generation {
        c.success_generation = choose(
            "success_generation",
            v,
            &[
                ("current", SuccessGeneration::Current),
                ("completed", SuccessGeneration::Completed),
            ],
        )?;
    }
    Ok(RetGa::new(c)?)
}

/// Build the solver of an algorithm spec.
pub fn build(a: &AlgorithmSpec) -> Result<Box<dyn Solver>> {
    solver(&a.algorithm, &a.params)
}

/// Build a solver by name with options. Errors fit on one line (the TOML deserializer puts the
/// key on a second one).
pub fn solver(name: &str, params: &toml::Table) -> Result<Box<dyn Solver>> {
    build_solver(name, params)
        .map_err(|e| anyhow::anyhow!("{}", format!("{e:#}").trim().replace('\n', " ")))
}

fn build_solver(name: &str, params: &toml::Table) -> Result<Box<dyn Solver>> {
    Ok(match name {
        "ret-ga" => Box::new(ret_ga(params)?),
        "mk-ga" => Box::new(crate::algos_mk::mk_ga(params)?),
        "reseda" => Box::new(crate::algos_reseda::reseda(params)?),
        "gen-ga" => Box::new(crate::algos_gen::gen_ga(params)?),
        "cso" => Box::new(crate::algos_cso::cso(params)?),
        "lewis-sa" => Box::new(crate::algos_lewis::lewis_sa(params)?),
        other => {
            let names: Vec<&str> = ALGORITHMS.iter().map(|a| a.0).collect();
            bail!("unknown algorithm '{other}' (known: {})", names.join(", "))
        }
    })
}

/// The budget of an algorithm spec, with the `--quick` cap when asked.
pub fn budget(a: &AlgorithmSpec, quick_cap: Option<u64>) -> Budget {
    Budget {
        max_generations: Some(quick_cap.map_or(a.max_generations, |q| q.min(a.max_generations))),
        max_evaluations: a.max_evaluations,
    }
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

/// The option that sizes an algorithm's population (individuals, samples, cats and their
/// seeking copies) and the number of grids it holds at once on order `n` (a guess of the
/// memory of a run, not an exact count); None for single-solution algorithms.
pub fn individuals(algorithm: &str, params: &toml::Table, n: usize) -> Option<(&'static str, u64)> {
    let int = |key: &str, default: usize| {
        params
            .get(key)
            .and_then(toml::Value::as_integer)
            .map_or(default as u64, |v| v.max(0) as u64)
    };
    Some(match algorithm {
        "ret-ga" => (
            "population_factor",
            int(
                "population_factor",
                ret_ga::RetGaConfig::default().population_factor,
            )
            .saturating_mul(n as u64),
        ),
        "mk-ga" => (
            "population",
            int("population", mk_ga::MkGaConfig::default().population),
        ),
        "gen-ga" => (
            "population",
            int("population", gen_ga::GenGaConfig::default().population),
        ),
        "reseda" => (
            "samples",
            int("samples", reseda::ResedaConfig::default().samples),
        ),
        "cso" => {
            let d = cso::CsoConfig::default();
            (
                "cats",
                int("cats", d.cats).saturating_mul(int("smp", d.smp) + 1),
            )
        }
        _ => return None,
    })
}

/// Bytes per cell and individual assumed by the memory check (cells, fitness bookkeeping,
/// the next generation).
pub const BYTES_PER_CELL: u64 = 4;

/// Memory available to this process, from `/proc/meminfo` (None where it cannot be read).
pub fn available_memory() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// Refuse an algorithm whose populations on grids of order `n`, on `threads` threads at once,
/// would need more memory than the machine has available.
pub fn check_memory(
    algorithm: &str,
    params: &toml::Table,
    n: usize,
    threads: usize,
    available: u64,
) -> Result<()> {
    let Some((key, count)) = individuals(algorithm, params, n) else {
        return Ok(());
    };
    let bytes = count
        .saturating_mul((n * n) as u64)
        .saturating_mul(BYTES_PER_CELL)
        .saturating_mul(threads as u64);
    if bytes > available {
        bail!(
            "{key}: {count} grids of {n}x{n} per run on {threads} threads need about {} MB, more than the {} MB of memory available",
            bytes >> 20,
            available >> 20
        );
    }
    Ok(())
}

/// The grid orders an algorithm handles (None: any). gen-ga's board encoding is 9x9 only.
pub fn orders(name: &str) -> Option<&'static [usize]> {
    match name {
        "gen-ga" => Some(&[9]),
        _ => None,
    }
}

/// Refuse a puzzle whose order the algorithm does not handle.
pub fn check_order(name: &str, n: usize) -> Result<()> {
    match orders(name) {
        Some(ok) if !ok.contains(&n) => {
            let sizes: Vec<String> = ok.iter().map(|k| format!("{k}x{k}")).collect();
            bail!("{name} solves {} grids only, not {n}x{n}", sizes.join(", "))
        }
        _ => Ok(()),
    }
}

/// The names of the counters an algorithm configuration emits in `RunOutcome::counters` (kept
/// beside each crate's `counters: vec![...]`; a unit test checks them against a run).
pub fn counters(a: &AlgorithmSpec) -> Vec<&'static str> {
    match a.algorithm.as_str() {
        "ret-ga" => vec![
            "crossovers",
            "cells_redrawn",
            "repetitions_removed",
            "reset_point",
        ],
        "mk-ga" => vec![
            "mutations",
            "mutations_illegal",
            "mutations_abandoned",
            "elite_aged_out",
        ],
        "reseda" => vec![
            "resolutions",
            "zones_tried",
            "zones_skipped",
            "solved_by_zone",
        ],
        "gen-ga" => {
            let mut v = vec!["distinct_boards", "cleared"];
            v.extend(gen_ga::CHECKPOINTS);
            v
        }
        "cso" => match a.params.get("tracing_selection").and_then(|v| v.as_str()) {
            Some("per-cat") => vec!["tracing_moves"],
            _ => vec!["tracing_cats_per_cycle"],
        },
        "lewis-sa" => vec!["reheats", "accepted_moves", "improving_moves", "t0_x1000"],
        _ => Vec::new(),
    }
}

/// A deterministic guess of a run's cost under `budget`, in fitness evaluations, used only to
/// start the longest runs first: the evaluation limit, else the generation limit times a
/// typical population.
pub fn expected_cost(budget: &Budget) -> u64 {
    const EVALUATIONS_PER_GENERATION: u64 = 100;
    let by_generations = budget
        .max_generations
        .map_or(u64::MAX, |g| g.saturating_mul(EVALUATIONS_PER_GENERATION));
    budget
        .max_evaluations
        .unwrap_or(u64::MAX)
        .min(by_generations)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every algorithm's declared counters are exactly those of a run.
    #[test]
    fn declared_counters_match_a_run() {
        let puzzle = sudoku_core::bank_puzzle("mk_easy").unwrap();
        for (name, _) in ALGORITHMS {
            for params in ["", "tracing_selection = \"per-cat\""] {
                if !params.is_empty() && *name != "cso" {
                    continue;
                }
                let a = AlgorithmSpec {
                    label: "x".into(),
                    algorithm: name.to_string(),
                    paper_label: None,
                    max_generations: 3,
                    max_evaluations: None,
                    params: toml::from_str(params).unwrap(),
                };
                let s = build(&a).unwrap();
                let mut rng = sudoku_core::rng_from_seed(1);
                let out = s.solve(
                    puzzle,
                    &budget(&a, None),
                    &mut rng,
                    &mut sudoku_core::NoObserver,
                );
                // gen-ga's checkpoint counters appear from generation 100 on.
                let got: Vec<&str> = out.counters.iter().map(|c| c.0).collect();
                let want: Vec<&str> = counters(&a)
                    .into_iter()
                    .filter(|c| !gen_ga::CHECKPOINTS.contains(c))
                    .collect();
                assert_eq!(got, want, "{name} {params}");
            }
        }
    }
}
