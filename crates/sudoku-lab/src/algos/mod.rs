//! The algorithm registry: a name and a table of options -> a configured [`Solver`], and what
//! else the runner asks of an algorithm, each answered by the algorithm's
//! [`sudoku_core::Algorithm`] entry ([`REGISTRY`], one line per algorithm in `registry.rs`).
//! The built-in algorithms' entries and option parsers are the files beside this one; a new
//! crate brings its own (docs/adding-a-solver.md). Unknown option keys are errors.

use anyhow::{bail, Result};
use sudoku_core::{Algorithm, Budget, Solver};

mod cso;
pub mod external;
mod gen_ga;
mod lewis_sa;
mod mk_ga;
mod options;
mod registry;
mod reseda;
mod ret_ga;

pub use registry::REGISTRY;

/// The registry entry named `name`, or an error listing the known names.
pub fn find(name: &str) -> Result<&'static dyn Algorithm> {
    match REGISTRY.iter().find(|a| a.name() == name) {
        Some(a) => Ok(*a),
        None => {
            let hint =
                sudoku_core::error::unknown_name_hint(name, REGISTRY.iter().map(|a| a.name()));
            bail!(
                "unknown algorithm '{}'{hint}",
                sudoku_core::error::shown(name)
            )
        }
    }
}

/// Build a solver by name with options. Errors fit on one line (the TOML deserializer puts the
/// key on a second one).
pub fn solver(name: &str, params: &toml::Table) -> Result<Box<dyn Solver>> {
    let one_line = |e: String| anyhow::anyhow!("{}", e.trim().replace('\n', " "));
    let algorithm = find(name).map_err(|e| one_line(format!("{e:#}")))?;
    algorithm.build(params).map_err(|e| one_line(e.to_string()))
}

/// A refusal of the runner's option parsers, with its whole chain, as the contract's error.
fn option_error(e: anyhow::Error) -> sudoku_core::OptionError {
    sudoku_core::OptionError::new(format!("{e:#}"))
}

/// An integer option as a count (negative values count as 0), or `default` when it is unset
/// or not an integer (the option parser refuses those; the memory check only guesses).
fn int_option(options: &toml::Table, key: &str, default: usize) -> u64 {
    options
        .get(key)
        .and_then(toml::Value::as_integer)
        .map_or(default as u64, |v| v.max(0) as u64)
}

/// The options of an algorithm that are a paper's ambiguity, from the algorithm's own crate
/// (see [`sudoku_core::Ambiguity`]): what `sudoku-lab readings` varies by default. Empty for
/// an algorithm without such a table (Lewis's SA) or an unknown name.
pub fn ambiguities(name: &str) -> &'static [sudoku_core::Ambiguity] {
    find(name).map_or(&[], |a| a.ambiguities())
}

/// The options whose runs are those of `options` (see [`sudoku_core::SameRun`]), if the
/// algorithm knows any.
pub fn same_run(name: &str, options: &toml::Table) -> Option<sudoku_core::SameRun> {
    find(name).ok()?.same_run(options)
}

/// Whether a run of the algorithm stops at its first solution, so that a run under a smaller
/// generation budget is the full run cut short (tested for each algorithm): what lets
/// `readings` stop runs at a cap and count them as censored. Benbassat's generator GA runs to
/// its budget whatever it finds (it collects solved boards), so its runs cannot be capped.
pub fn cappable(name: &str) -> bool {
    find(name).map_or(true, |a| a.cappable())
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
    find(algorithm).ok()?.individuals(params, n)
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
    find(algorithm)
        .ok()?
        .own_stopping_rule(params, max_evaluations)
}

/// A warning phrase when `max_evaluations` is below the evaluations the algorithm's own
/// schedule takes ([`sudoku_core::Algorithm::schedule_evaluations`]) on some of `puzzles`:
/// on how many, what the schedule needs there and what it is. None when the budget covers it
/// on every puzzle, or the algorithm has no schedule.
pub fn short_budget(
    algorithm: &str,
    params: &toml::Table,
    max_evaluations: u64,
    puzzles: &[sudoku_core::Puzzle],
) -> Option<String> {
    let a = find(algorithm).ok()?;
    let (mut short, mut low, mut high, mut what) = (0usize, u64::MAX, 0u64, None);
    for p in puzzles {
        let free = p.grid.cells().len().saturating_sub(p.givens()) as u64;
        if let Some((need, phrase)) = a.schedule_evaluations(params, free) {
            if need > max_evaluations {
                short += 1;
                (low, high) = (low.min(need), high.max(need));
                what.get_or_insert(phrase);
            }
        }
    }
    let what = what?;
    let range = match low == high {
        true => low.to_string(),
        false => format!("{low} to {high}"),
    };
    Some(format!(
        "max_evaluations = {max_evaluations} is below the length of its own schedule on {short} of {} puzzles ({range} evaluations: {what}): its runs stop before the schedule has run its course, so a low success rate says little about the algorithm; raise max_evaluations to at least {high}",
        puzzles.len()
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
    find(name).ok()?.orders()
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
    find(algorithm).map_or_else(|_| Vec::new(), |a| a.counters(params))
}

/// What one fitness evaluation is, per algorithm (the unit of every budget and ERT of the
/// reports).
pub fn evaluation_unit(algorithm: &str) -> &'static str {
    match algorithm {
        "external" => "what the external solver counts and reports (its own unit: the runner checks the count against the budget, not what it counts)",
        _ => find(algorithm).map_or("see the algorithm's crate docs", |a| a.evaluation_unit()),
    }
}

/// What to change so that an algorithm's runs use the budget, by why they stopped early.
pub fn early_stop_hint(algorithm: &str, termination: &str) -> &'static str {
    let own = find(algorithm)
        .ok()
        .and_then(|a| a.early_stop_hint(termination));
    match (own, termination) {
        (Some(hint), _) => hint,
        (None, "generation_limit") => "raise `max_generations` to use the budget",
        _ => "its own stopping rule ends them",
    }
}

/// `solve`'s generation cap when `--max-generations` is not given (shown in its help).
pub fn default_max_generations(algorithm: &str) -> u64 {
    find(algorithm).map_or(50_000, |a| a.default_max_generations())
}

/// The crate name and source files of an algorithm (lib.rs first), for the site's quotes of
/// its options' doc comments.
pub fn sources(algorithm: &str) -> Option<(&'static str, &'static [&'static str])> {
    Some(find(algorithm).ok()?.sources())
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
        for name in REGISTRY.iter().map(|a| a.name()) {
            for params in ["", "tracing_selection = \"per-cat\""] {
                if !params.is_empty() && name != "cso" {
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

    /// A run a time limit stopped replays exactly: for every algorithm (and the options that
    /// add restarts), a stop at its k-th budget check with new counts (what a CPU limit does,
    /// without a clock), then a replay stopped at the outcome's generations and evaluations
    /// ([`sudoku_core::halt::Stop::At`], what `replay` does) gives the same outcome, field by
    /// field. Each algorithm must be stopped by the time limit at least once.
    #[test]
    fn time_stopped_runs_replay_exactly() {
        use sudoku_core::halt::{with_stop, Stop};
        use sudoku_core::Termination::CpuLimit;
        // A 16x16 puzzle of the phase-transition family at 40 % givens: no algorithm solves
        // it in the few steps before each stop (a 9x9 puzzle can fall to ACS's propagation).
        let text = include_str!("../../../../experiments/puzzles/lewis/16x16-0.40.txt");
        let puzzles = sudoku_core::parse::parse_puzzles(text, "16x16-0.40.txt").unwrap();
        let hard9 = sudoku_core::bank_puzzle("mk_5star").unwrap();
        let text = include_str!("../../../../experiments/puzzles/lewis/25x25-0.40.txt");
        let big = sudoku_core::parse::parse_puzzles(text, "25x25-0.40.txt").unwrap();
        let budget = Budget::generations(400);
        let cases = REGISTRY.iter().map(|a| (a.name(), "")).chain([
            (
                "mk-ga",
                "restart_rule = \"fixed-period\"\nrestart_generations = 3",
            ),
            ("reseda", "attempts = 3"),
        ]);
        for (name, params) in cases {
            let table: toml::Table = toml::from_str(params).unwrap();
            let s = solver(name, &table).unwrap();
            // gen-ga handles 9x9 only, and never solves mk_5star in these few generations;
            // ACS solves many 16x16 puzzles within a few iterations: a 25x25 one for it.
            let puzzle = match name {
                _ if orders(name).is_some_and(|o| !o.contains(&16)) => hard9,
                "acs" => &big[0],
                _ => &puzzles[0],
            };
            let run = |stop: Stop, seed: u64| {
                let mut rng = sudoku_core::rng_from_seed(seed);
                let solve = || s.solve(puzzle, &budget, &mut rng, &mut sudoku_core::NoObserver);
                with_stop(stop, solve).0
            };
            let mut stopped = 0;
            for (seed, check) in [(1, 1), (2, 2), (3, 5), (4, 13), (5, 40)] {
                let live = run(
                    Stop::AtCheck {
                        check,
                        termination: CpuLimit,
                    },
                    seed,
                );
                if live.termination != CpuLimit {
                    continue;
                }
                stopped += 1;
                let at = Stop::At {
                    generations: live.generations,
                    evaluations: live.evaluations,
                    termination: CpuLimit,
                };
                assert_eq!(run(at, seed), live, "{name} {params} check {check}");
            }
            assert!(
                stopped >= 3,
                "{name} {params}: only {stopped} runs stopped by time"
            );
        }
    }

    /// Every claim of `same_run` holds: on a sample of every algorithm's readings (every
    /// 7th of the product of its ambiguity table), a reading the algorithm names as making
    /// the same runs as another ends each run as that one does, with the same seed: solved,
    /// evaluations and counters equal, generations equal or, for a solved run, shifted as
    /// declared; and the other reading is canonical (it names no other itself).
    #[test]
    fn same_run_claims_hold() {
        let puzzle = sudoku_core::bank_puzzle("mk_easy").unwrap();
        let (mut claims, mut solved) = (std::collections::BTreeMap::new(), 0);
        // Each algorithm as its ambiguity table leaves it, and the bases under which a claim
        // holds (RESEDA's without partial restarts, with one and with several attempts).
        let bases = REGISTRY.iter().map(|a| (*a, "")).chain([
            (find("reseda").unwrap(), "zones = 0"),
            (find("reseda").unwrap(), "zones = 0\nattempts = 3"),
        ]);
        for (a, base) in bases {
            let table = a.ambiguities();
            let total: usize = table.iter().map(|x| x.values.len()).product();
            for k in (0..total).step_by(7) {
                let mut options: toml::Table = toml::from_str(base).unwrap();
                let mut rest = k;
                for x in table.iter().rev() {
                    let v = x.values[rest % x.values.len()];
                    rest /= x.values.len();
                    options.insert(x.key.into(), option_value(v));
                }
                let Some(same) = a.same_run(&options) else {
                    continue;
                };
                assert!(
                    a.same_run(&same.options).is_none(),
                    "{} {options}",
                    a.name()
                );
                *claims.entry(a.name()).or_insert(0) += 1;
                for seed in [1, 2] {
                    let run = |o: &toml::Table| {
                        let mut rng = sudoku_core::rng_from_seed(seed);
                        (a.build(o).unwrap()).solve(
                            puzzle,
                            &Budget::generations(400),
                            &mut rng,
                            &mut sudoku_core::NoObserver,
                        )
                    };
                    let (mine, theirs) = (run(&options), run(&same.options));
                    let what = format!("{} {options} seed {seed}", a.name());
                    assert_eq!(mine.solved, theirs.solved, "{what}");
                    assert_eq!(mine.evaluations, theirs.evaluations, "{what}");
                    assert_eq!(mine.counters, theirs.counters, "{what}");
                    let shift = if theirs.solved { same.solved_shift } else { 0 };
                    assert_eq!(
                        mine.generations,
                        theirs.generations.saturating_sub(shift),
                        "{what}"
                    );
                    solved += usize::from(mine.solved);
                }
            }
        }
        // The sample holds claims of both algorithms that make them, and solved runs (where
        // a shift shows).
        let many = |name| claims.get(name).is_some_and(|&n| n >= 5);
        assert!(
            many("ret-ga") && many("reseda") && solved >= 5,
            "{claims:?}, {solved} solved runs"
        );
    }

    /// Every value of every ambiguity table builds a solver through this registry, the
    /// default is one of the values, and the values are the registry's own choices for the
    /// key (read from the error a bogus value gets), save the exceptions named here.
    #[test]
    fn ambiguity_tables_match_the_registry() {
        // Values of the registry that are no reading of the paper (an ablation switch).
        // Values that switch off a mechanism the paper states: ablations, not readings.
        let not_readings = [
            ("mk-ga", "restart_rule", "never"),
            ("ret-ga", "reset_rule", "never"),
        ];
        for name in REGISTRY.iter().map(|a| a.name()) {
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
                want.retain(|v| !not_readings.contains(&(name, a.key, *v)));
                let mut got = a.values.to_vec();
                want.sort();
                got.sort();
                assert_eq!(got, want, "{name} {}", a.key);
            }
        }
        assert_eq!(
            sudoku_core::Ambiguity::combinations(ambiguities("ret-ga")),
            384
        );
    }

    /// The prefix property `readings` relies on to stop runs at a cap: a run with a smaller
    /// generation budget is the same run cut short. A run that solves by generation g under a
    /// budget G gives the same outcome under any budget of at least g generations; one that
    /// does not solve by a budget g stops there unsolved.
    #[test]
    fn a_capped_run_is_a_prefix_of_the_full_run() {
        let puzzle = sudoku_core::bank_puzzle("mk_easy").unwrap();
        for name in REGISTRY.iter().map(|a| a.name()) {
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
