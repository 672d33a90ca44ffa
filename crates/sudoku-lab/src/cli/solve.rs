//! `sudoku-lab solve`: one run of one algorithm on one puzzle (a bank id, a file's first puzzle,
//! or a grid on the command line), checked by the exact solver.

use crate::algos;
use anyhow::{bail, Context, Result};
use clap::Args;
use std::path::Path;
use std::process::ExitCode;
use std::time::Instant;
use sudoku_core::parse::{parse_first, parse_puzzles};
use sudoku_core::{bank_puzzle, rng_from_seed, Budget, NoObserver, Puzzle, RunOutcome};

/// A puzzle named on the command line: bank id, file, or the puzzle itself.
fn resolve_puzzle(arg: &str) -> Result<Puzzle> {
    // A trailing or leading space around a bank id is harmless.
    if let Ok(p) = bank_puzzle(arg.trim()) {
        return Ok(p.clone());
    }
    let path = Path::new(arg);
    // The argument as messages show it: control and invisible characters escaped.
    let shown = sudoku_core::error::shown(arg);
    // Something that names a path but is no readable puzzle file: say why, instead of parsing
    // the path as a grid.
    let looks_like_path = arg.contains('/') || arg.contains('\\') || arg.ends_with(".txt");
    if !path.is_file() && (looks_like_path || path.symlink_metadata().is_ok()) {
        match path.symlink_metadata() {
            Err(_) => bail!("{shown}: no such file (nor a bank id or a grid)"),
            Ok(m) if m.file_type().is_symlink() && !path.exists() => {
                bail!("{shown}: a link to a file that does not exist")
            }
            Ok(m) if m.is_dir() => bail!("{shown} is a folder, not a puzzle file"),
            Ok(_) => bail!("{shown} is not a regular file (a FIFO, socket or device?)"),
        }
    }
    if path.is_file() {
        // Only the first puzzle is needed: what follows it is not parsed.
        let text = crate::spec::read_capped(path)?;
        return Ok(parse_first(&text, arg)?);
    }
    if arg.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && arg.chars().any(|c| c.is_ascii_alphabetic() && c != 'x')
        && arg.len() < 16
    {
        bail!("'{shown}' is not a bank puzzle id (see `sudoku-lab list`) nor a file");
    }
    let mut ps = parse_puzzles(arg, "<argument>")?;
    let mut p = ps.remove(0);
    p.id = "argument".into();
    Ok(p)
}

/// One `--param key=value`: the value as TOML (`0.5`, `true`, `[1, 2, 3]`), else as a string
/// (`strategy=both`).
fn param(kv: &str) -> Result<(String, toml::Value)> {
    let (k, v) = kv.split_once('=').with_context(|| {
        format!(
            "--param '{}' is not key=value",
            sudoku_core::error::shown(kv)
        )
    })?;
    let k = k.trim();
    if k.is_empty()
        || !k
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        bail!(
            "--param '{}': the key must be letters, digits, '_' or '-'",
            sudoku_core::error::shown(kv)
        );
    }
    let value = toml::from_str::<toml::Table>(&format!("v = {v}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(v.to_string()));
    Ok((k.to_string(), value))
}

/// `solve`'s generation cap when `--max-generations` is not given (shown in its help): the
/// algorithm's own ([`sudoku_core::Algorithm::default_max_generations`]).
pub fn default_max_generations(algo: &str) -> u64 {
    algos::default_max_generations(algo)
}

/// `solve`'s arguments.
#[derive(Args, Clone, Debug)]
pub struct SolveArgs {
    // Help generated from the algorithm registry (see `algo_help`).
    #[arg(long, help = "The algorithm (see `list`)", long_help = algo_help())]
    pub algo: String,
    /// Seed of the run's random numbers: the same seed gives the same run.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    // Help generated from the per-algorithm defaults (see `max_generations_help`).
    #[arg(
        long,
        help = "Stop after this many generations (default per algorithm)",
        long_help = max_generations_help()
    )]
    pub max_generations: Option<u64>,
    /// Stop once this many fitness evaluations are spent (default: no limit).
    #[arg(long)]
    pub max_evaluations: Option<u64>,
    /// With --algo external: the solver's program and arguments.
    ///
    /// With --algo external: the solver's program and arguments, split at spaces (no
    /// quoting), run in the current folder, e.g. --command "python3 solver.py".
    #[arg(long)]
    pub command: Option<String>,
    /// With --algo external: the run's wall-clock limit in seconds.
    #[arg(long, default_value_t = 60.0)]
    pub wall_seconds: f64,
    /// Algorithm option as key=value (TOML value), repeatable: --param reset_rule=never.
    #[arg(long = "param")]
    pub params: Vec<String>,
    /// The puzzle: a bank id, a file or the grid itself.
    ///
    /// The puzzle: a bank id (see `list`), a file (its first puzzle, any format `puzzles
    /// check` reads), or the grid itself (81 characters, '.' or '0' for blanks).
    pub puzzle: String,
}

/// The help of `solve --algo`: the algorithms of the registry, and `external`.
pub fn algo_help() -> String {
    let names: Vec<String> = crate::algos::REGISTRY
        .iter()
        .map(|a| format!("{}: {}", a.name(), a.summary()))
        .collect();
    format!(
        "The algorithm, one of: {}; external: a solver of yours run as a process (--command; docs/external-solvers.md) (options: --param)",
        names.join("; ")
    )
}

/// The help of `solve --max-generations`: the cap, and each algorithm's default.
pub fn max_generations_help() -> String {
    let defaults: Vec<String> = crate::algos::REGISTRY
        .iter()
        .map(|a| format!("{} {}", a.name(), a.default_max_generations()))
        .collect();
    format!(
        "Stop after this many generations (the algorithm's unit: RESEDA rounds, CSO cycles, SA Markov chains); default per algorithm: {}",
        defaults.join(", ")
    )
}

/// `solve`: one run of `--algo` (a built-in algorithm, or `external` with `--command`).
pub fn solve(req: &SolveArgs) -> Result<ExitCode> {
    let puzzle = resolve_puzzle(&req.puzzle)?;
    let mut table = toml::Table::new();
    for kv in &req.params {
        let (k, v) = param(kv)?;
        table.insert(k, v);
    }
    if req.max_generations == Some(0) {
        bail!("--max-generations must be at least 1");
    }
    if req.max_evaluations == Some(0) {
        bail!("--max-evaluations must be at least 1");
    }
    let budget = Budget {
        max_generations: Some(
            (req.max_generations).unwrap_or_else(|| default_max_generations(&req.algo)),
        ),
        max_evaluations: req.max_evaluations,
    };
    let start = Instant::now();
    let (name, out) = match (req.algo.as_str(), req.command.as_deref()) {
        ("external", Some(cmd)) => (
            "external",
            solve_external(req, cmd, &table, &puzzle, &budget)?,
        ),
        ("external", None) => {
            bail!("--algo external needs --command (the solver's program and arguments)")
        }
        (_, Some(_)) => bail!("--command is for --algo external only"),
        (algo, None) => solve_builtin(algo, req.seed, &table, &puzzle, &budget)?,
    };
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let ok = out.solved && out.grid.is_solved() && out.grid.keeps_givens_of(&puzzle.grid);
    println!("{}", out.grid);
    println!(
        "{name}: {} after {} generations, {} fitness evaluations, {} restarts, best fitness {}, {ms:.1} ms",
        if ok { "solved" } else { "not solved" },
        out.generations,
        out.evaluations,
        out.restarts,
        out.best_fitness
    );
    if out.solved && !ok {
        bail!("the algorithm claimed a solution the exact checker rejects (a bug)");
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// A run of a built-in algorithm.
fn solve_builtin(
    algo: &str,
    seed: u64,
    table: &toml::Table,
    puzzle: &Puzzle,
    budget: &Budget,
) -> Result<(&'static str, RunOutcome)> {
    let solver = algos::solver(algo, table).with_context(|| format!("--algo {algo}"))?;
    algos::check_order(algo, puzzle.geometry().n())?;
    if let Some(available) = algos::available_memory() {
        algos::check_memory(algo, table, puzzle.geometry().n(), 1, available)?;
    }
    let mut rng = rng_from_seed(seed);
    let out = solver.solve(puzzle, budget, &mut rng, &mut NoObserver);
    Ok((solver.name(), out))
}

/// A run of an external solver (`--command`, run in the current folder; `--param`s are its
/// `params`) with the seed as given. A failed run (crash, garbage, silence, a wrong claim) is
/// an unsolved one: its reason and stderr go to stderr.
fn solve_external(
    req: &SolveArgs,
    command: &str,
    table: &toml::Table,
    puzzle: &Puzzle,
    budget: &Budget,
) -> Result<RunOutcome> {
    let command: Vec<String> = command.split_whitespace().map(str::to_string).collect();
    let keys = algos::external::Keys {
        command: &command,
        env: None,
        mode: Some("per-run"),
        wall_seconds: Some(req.wall_seconds),
        handshake_seconds: None,
        params: table,
    };
    let solver = algos::external::external(&keys, Some(Path::new(".")))
        .and_then(|s| s.preflight().map(|_| s))
        .context("--command")?;
    let time = crate::algos::external::TimeBudget::default();
    let job = solver.run_job(puzzle, budget, time, req.seed, &mut NoObserver);
    if let Some(reason) = job.failure {
        eprintln!(
            "{}",
            sudoku_core::error::shown(&format!("failed run: {reason}: {}", job.detail))
        );
    }
    if !job.stderr.is_empty() {
        eprintln!(
            "{}",
            sudoku_core::error::shown_lines(&format!(
                "--- the solver's stderr ---\n{}",
                String::from_utf8_lossy(&job.stderr)
            ))
        );
    }
    Ok(job.outcome)
}
