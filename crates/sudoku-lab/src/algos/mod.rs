//! The algorithm registry: a name and a table of options -> a configured [`Solver`]. The only
//! place where the binary knows algorithm configs; unknown option keys are errors.

use anyhow::{bail, Result};
use sudoku_core::{Budget, Solver};

mod cso;
pub mod external;
mod gen_ga;
mod lewis_sa;
mod mk_ga;
mod options;
mod reseda;
mod ret_ga;

/// Algorithms the runner knows, with a one-line description.
pub const ALGORITHMS: &[(&str, &str)] = &[
    ("ret-ga", "Retrievable GA (Das, Bhatia, Puri, Deep)"),
    ("mk-ga", "GA of Mantere & Koljonen (2006/2007)"),
    ("reseda", "RESEDA, restarted EDA (Maire & Prissette)"),
    ("gen-ga", "Benbassat's GA that generates solved boards"),
    ("cso", "Cat Swarm Optimization (CSO thesis)"),
    ("lewis-sa", "Simulated annealing of Lewis (2007)"),
];

/// Build a solver by name with options. Errors fit on one line (the TOML deserializer puts the
/// key on a second one).
pub fn solver(name: &str, params: &toml::Table) -> Result<Box<dyn Solver>> {
    build_solver(name, params)
        .map_err(|e| anyhow::anyhow!("{}", format!("{e:#}").trim().replace('\n', " ")))
}

fn build_solver(name: &str, params: &toml::Table) -> Result<Box<dyn Solver>> {
    Ok(match name {
        "ret-ga" => Box::new(ret_ga::ret_ga(params)?),
        "mk-ga" => Box::new(mk_ga::mk_ga(params)?),
        "reseda" => Box::new(reseda::reseda(params)?),
        "gen-ga" => Box::new(gen_ga::gen_ga(params)?),
        "cso" => Box::new(cso::cso(params)?),
        "lewis-sa" => Box::new(lewis_sa::lewis_sa(params)?),
        "external" => bail!("algorithm \"external\" needs its command (spec key `command`, or `solve --command`): see docs/external-solvers.md"),
        other => {
            let names: Vec<&str> = ALGORITHMS.iter().map(|a| a.0).collect();
            bail!("unknown algorithm '{other}' (known: {})", names.join(", "))
        }
    })
}

/// The options of an algorithm that are a paper's ambiguity, from the algorithm's own crate
/// (see [`sudoku_core::Ambiguity`]): what `sudoku-lab readings` varies by default. Empty for
/// an algorithm without such a table (Lewis's SA) or an unknown name.
pub fn ambiguities(name: &str) -> &'static [sudoku_core::Ambiguity] {
    match name {
        "ret-ga" => ::ret_ga::AMBIGUITIES,
        "mk-ga" => ::mk_ga::AMBIGUITIES,
        "reseda" => ::reseda::AMBIGUITIES,
        "gen-ga" => ::gen_ga::AMBIGUITIES,
        "cso" => ::cso::AMBIGUITIES,
        _ => &[],
    }
}

/// Whether a run of the algorithm stops at its first solution, so that a run under a smaller
/// generation budget is the full run cut short (tested for each algorithm): what lets
/// `readings` stop runs at a cap and count them as censored. Benbassat's generator GA runs to
/// its budget whatever it finds (it collects solved boards), so its runs cannot be capped.
pub fn cappable(name: &str) -> bool {
    name != "gen-ga"
}

/// An option value as the spec would write it, from its spelling in an ambiguity table or on
/// the command line: `true`/`false` are booleans, integers are integers, anything else a
/// string (no option of a table is a word that reads as a number).
pub fn option_value(text: &str) -> toml::Value {
    match text {
        "true" => toml::Value::Boolean(true),
        "false" => toml::Value::Boolean(false),
        t => t
            .parse::<i64>()
            .map_or_else(|_| toml::Value::String(t.to_string()), toml::Value::Integer),
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
                ::ret_ga::RetGaConfig::default().population_factor,
            )
            .saturating_mul(n as u64),
        ),
        "mk-ga" => (
            "population",
            int("population", ::mk_ga::MkGaConfig::default().population),
        ),
        "gen-ga" => (
            "population",
            int("population", ::gen_ga::GenGaConfig::default().population),
        ),
        "reseda" => (
            "samples",
            int("samples", ::reseda::ResedaConfig::default().samples),
        ),
        "cso" => {
            let d = ::cso::CsoConfig::default();
            (
                "cats",
                int("cats", d.cats).saturating_mul(int("smp", d.smp) + 1),
            )
        }
        _ => return None,
    })
}

/// The known rule by which an algorithm ends a run on its own before `max_evaluations`, as a
/// phrase for a warning; None when the rule cannot end runs early. Only RESEDA has one that
/// binds in practice: each of its `attempts` ends when its sampling distribution has converged
/// (Lewis SA's "no move exists" only ends a run whose fill is forced). A round costs `samples`
/// evaluations, so the budget lasts `max_evaluations / samples` rounds; the warning is given
/// when there are fewer attempts than that, i.e. when the runs use the budget only if an
/// attempt lasts `max_evaluations / (samples x attempts)` rounds or more (the paper's attempts
/// end within some tens of rounds; the compare report states the evaluations actually used).
/// Generation caps are not guessed here: evaluations per generation differ between
/// algorithms and runs, so the compare report states them from the runs instead.
pub fn own_stopping_rule(
    algorithm: &str,
    params: &toml::Table,
    max_evaluations: u64,
) -> Option<String> {
    if algorithm != "reseda" {
        return None;
    }
    let d = ::reseda::ResedaConfig::default();
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

/// Bytes per cell and individual assumed by the memory check (cells, fitness bookkeeping,
/// the next generation).
pub const BYTES_PER_CELL: u64 = 4;

/// Memory available to this process: the least of `MemAvailable` (`/proc/meminfo`), what the
/// process's cgroup may still use (its limit minus its usage, as a Slurm job or a container
/// sets it; cgroup v2 or v1; "max" and absent limits count as none) and `SUDOKU_LAB_MEMORY_MB`
/// when set. None where none can be read.
pub fn available_memory() -> Option<u64> {
    let meminfo = || {
        let text = std::fs::read_to_string("/proc/meminfo").ok()?;
        let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
        let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
        Some(kb * 1024)
    };
    let cgroup = || {
        // cgroup v2 (`0::/path`: memory.max) or v1 (`N:memory:/path`: memory.limit_in_bytes).
        let own = std::fs::read_to_string("/proc/self/cgroup").ok()?;
        let (dir, limit, usage) = own.lines().find_map(|l| {
            let (_, rest) = l.split_once(':')?;
            let (controllers, path) = rest.split_once(':')?;
            let path = path.trim_start_matches('/');
            match controllers {
                "" => Some((
                    format!("/sys/fs/cgroup/{path}"),
                    "memory.max",
                    "memory.current",
                )),
                c if c.split(',').any(|c| c == "memory") => Some((
                    format!("/sys/fs/cgroup/memory/{path}"),
                    "memory.limit_in_bytes",
                    "memory.usage_in_bytes",
                )),
                _ => None,
            }
        })?;
        let read = |f: &str| -> Option<u64> {
            std::fs::read_to_string(std::path::Path::new(&dir).join(f))
                .ok()?
                .trim()
                .parse()
                .ok()
        };
        Some(read(limit)?.saturating_sub(read(usage).unwrap_or(0)))
    };
    let setting = || {
        let mb: u64 = std::env::var("SUDOKU_LAB_MEMORY_MB")
            .ok()?
            .trim()
            .parse()
            .ok()?;
        Some(mb << 20)
    };
    [meminfo(), cgroup(), setting()].into_iter().flatten().min()
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
pub fn counters(algorithm: &str, params: &toml::Table) -> Vec<&'static str> {
    match algorithm {
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
            v.extend(::gen_ga::CHECKPOINTS);
            v
        }
        "cso" => match params.get("tracing_selection").and_then(|v| v.as_str()) {
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
                let table: toml::Table = toml::from_str(params).unwrap();
                let s = solver(name, &table).unwrap();
                let mut rng = sudoku_core::rng_from_seed(1);
                let out = s.solve(
                    puzzle,
                    &Budget::generations(3),
                    &mut rng,
                    &mut sudoku_core::NoObserver,
                );
                // gen-ga's checkpoint counters appear from generation 100 on.
                let got: Vec<&str> = out.counters.iter().map(|c| c.0).collect();
                let want: Vec<&str> = counters(name, &table)
                    .into_iter()
                    .filter(|c| !::gen_ga::CHECKPOINTS.contains(c))
                    .collect();
                assert_eq!(got, want, "{name} {params}");
            }
        }
    }

    /// Every value of every ambiguity table builds a solver through this registry, the
    /// default is one of the values, and the values are the registry's own choices for the
    /// key (read from the error a bogus value gets), save the exceptions named here.
    #[test]
    fn ambiguity_tables_match_the_registry() {
        // Values of the registry that are no reading of the paper (an ablation switch).
        let not_readings = [("mk-ga", "restart_rule", "never")];
        for (name, _) in ALGORITHMS {
            for a in ambiguities(name) {
                assert!(a.values.contains(&a.default), "{name} {}", a.key);
                for v in a.values {
                    let mut t = toml::Table::new();
                    t.insert(a.key.to_string(), option_value(v));
                    solver(name, &t).unwrap_or_else(|e| panic!("{name} {}={v}: {e}", a.key));
                }
                if a.values.iter().any(|v| option_value(v).is_bool()) {
                    continue;
                }
                let mut t = toml::Table::new();
                t.insert(a.key.to_string(), option_value("bogus-value"));
                let err = solver(name, &t)
                    .err()
                    .expect("a bogus value is refused")
                    .to_string();
                let listed = err
                    .split("is not one of: ")
                    .nth(1)
                    .unwrap_or_else(|| panic!("{err}"));
                let mut want: Vec<&str> = listed.split(", ").collect();
                want.retain(|v| !not_readings.contains(&(*name, a.key, *v)));
                let mut got = a.values.to_vec();
                want.sort();
                got.sort();
                assert_eq!(got, want, "{name} {}", a.key);
            }
        }
        assert_eq!(
            sudoku_core::Ambiguity::combinations(ambiguities("ret-ga")),
            576
        );
    }

    /// The prefix property `readings` relies on to stop runs at a cap: a run with a smaller
    /// generation budget is the same run cut short. A run that solves by generation g under a
    /// budget G gives the same outcome under any budget of at least g generations; one that
    /// does not solve by a budget g stops there unsolved.
    #[test]
    fn a_capped_run_is_a_prefix_of_the_full_run() {
        let puzzle = sudoku_core::bank_puzzle("mk_easy").unwrap();
        for (name, _) in ALGORITHMS {
            let s = solver(name, &toml::Table::new()).unwrap();
            if !cappable(name) {
                // gen-ga runs to its budget whatever it finds (it collects boards).
                let mut rng = sudoku_core::rng_from_seed(1);
                let out = s.solve(
                    puzzle,
                    &Budget::generations(50),
                    &mut rng,
                    &mut sudoku_core::NoObserver,
                );
                assert_eq!(out.generations, 50, "{name}");
                continue;
            }
            for seed in 1..=4u64 {
                let run = |g: u64| {
                    let mut rng = sudoku_core::rng_from_seed(seed);
                    s.solve(
                        puzzle,
                        &Budget::generations(g),
                        &mut rng,
                        &mut sudoku_core::NoObserver,
                    )
                };
                let full = run(400);
                for cap in [1u64, 3, 10, 40, 150] {
                    let capped = run(cap);
                    if full.solved && full.generations <= cap {
                        assert!(capped.solved, "{name} seed {seed} cap {cap}");
                        assert_eq!(capped.generations, full.generations, "{name} {seed} {cap}");
                        assert_eq!(capped.evaluations, full.evaluations, "{name} {seed} {cap}");
                        assert_eq!(capped.grid.to_line(), full.grid.to_line());
                    } else {
                        assert!(!capped.solved, "{name} seed {seed} cap {cap}");
                        assert_eq!(capped.generations, cap, "{name} seed {seed} cap {cap}");
                    }
                }
            }
        }
    }
}
