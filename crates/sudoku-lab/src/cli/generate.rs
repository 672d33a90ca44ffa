//! `sudoku-lab generate`: puzzles with a unique solution from solved boards.

use anyhow::{bail, Context, Result};
use std::path::Path;
use std::process::ExitCode;
use sudoku_core::exact::{guesses, random_solution, reduce_to_unique_within};
use sudoku_core::parse::parse_puzzles;
use sudoku_core::{rng_from_seed, run_seed, Budget, Geometry, Grid, NoObserver};

/// Where `generate` takes its solved grids from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GridSource {
    /// Boards found by one gen-ga run (Benbassat's generator; 9x9 only).
    GenGa,
    /// Random full grids from the exact solver (any order).
    Random,
}

/// Removal orders tried per puzzle before `generate` gives up on the target.
const REDUCE_ATTEMPTS: u64 = 100;

/// The default of `--node-limit`: search nodes of the exact solver's uniqueness checks per
/// puzzle, over all its removal orders. 20 times the exact solver's limit for one search
/// ([`sudoku_core::exact::NODE_LIMIT`]): about 20 s of one core on a 25x25 grid (where a
/// request for 10 givens once searched for hours), and 100 times what any puzzle of the
/// committed sets (experiments/puzzles/cso, the Ret-GA journal pools) needs (each is made
/// again identically with --node-limit 200000).
pub const DEFAULT_NODE_LIMIT: u64 = 20 * sudoku_core::exact::NODE_LIMIT;

/// The most puzzles one `generate` makes (each is held until the output is written).
pub const MAX_COUNT: usize = 1_000_000;

/// Seconds between two progress lines on stderr while a puzzle is being reduced.
const PROGRESS_EVERY: f64 = 5.0;

pub struct GenerateArgs<'a> {
    pub seed: u64,
    pub count: usize,
    pub givens: usize,
    pub size: usize,
    pub grids: Option<GridSource>,
    pub boards: Option<&'a Path>,
    pub out: Option<&'a Path>,
    /// Search nodes of the uniqueness checks per puzzle ([`DEFAULT_NODE_LIMIT`]).
    pub node_limit: u64,
}

/// The solved grids' origin once the flags are resolved: `--boards` names a file, else
/// `--grids`, else gen-ga for 9x9 and random grids for other orders.
enum Source<'p> {
    GenGa,
    Random,
    File(&'p Path),
}

/// `sudoku-lab generate`: check the flags, take `--count` solved grids, reduce each to a
/// puzzle with `--givens` givens and a unique solution, print a line per puzzle and write
/// the puzzles (to `--out`, else standard output).
pub fn generate(a: &GenerateArgs) -> Result<ExitCode> {
    let (count, givens) = (a.count, a.givens);
    if count == 0 {
        bail!("--count must be at least 1");
    }
    if count > MAX_COUNT {
        bail!("--count {count} is over the limit of {MAX_COUNT}");
    }
    if a.node_limit == 0 {
        bail!("--node-limit must be at least 1");
    }
    let geom =
        Geometry::for_order(a.size).map_err(|e| anyhow::anyhow!("--size {}: {e}", a.size))?;
    if givens > geom.cells() {
        bail!("--givens must be at most {}", geom.cells());
    }
    let source = grid_source(a)?;
    // Random grids are made one at a time (a large --count holds no grid in advance).
    let solved = match source {
        Source::Random => None,
        _ => Some(solved_grids(&source, a, geom)?),
    };
    if let Some(s) = solved.as_ref().filter(|s| s.len() < count) {
        bail!("only {} solved boards available, {count} asked", s.len());
    }
    let mut text = header_line(a, &source);
    println!(
        "{:<6} {:>6} {:>8} {:>8}",
        "puzzle", "givens", "guesses", "attempt"
    );
    for k in 0..count {
        let board = match &solved {
            Some(s) => s[k].clone(),
            None => random_grid(a.seed, k, geom),
        };
        let Some((p, attempt)) = reduce_one(&board, k, a, givens) else {
            return Ok(ExitCode::from(1));
        };
        let r = guesses(&p);
        println!("{:<6} {:>6} {:>8} {:>8}", k + 1, p.filled(), r, attempt);
        text.push_str(&puzzle_text(k, &p, r, attempt));
    }
    match a.out {
        Some(path) => crate::protocol::io::write_output(path, text.as_bytes())?,
        // The header names the --boards file: escaped on a terminal (plain names unchanged).
        None => print!("{}", sudoku_core::error::shown_lines(&text)),
    }
    Ok(ExitCode::SUCCESS)
}

/// Resolve `--grids` and `--boards` into one source, refusing both at once and gen-ga boards
/// of an order other than 9.
fn grid_source<'p>(a: &GenerateArgs<'p>) -> Result<Source<'p>> {
    let source = match (a.grids, a.boards) {
        (Some(_), Some(_)) => bail!("--grids and --boards exclude each other"),
        (None, Some(path)) => Source::File(path),
        (Some(GridSource::GenGa), None) => Source::GenGa,
        (Some(GridSource::Random), None) => Source::Random,
        (None, None) if a.size == 9 => Source::GenGa,
        (None, None) => Source::Random,
    };
    if matches!(source, Source::GenGa) && a.size != 9 {
        bail!(
            "--grids gen-ga makes 9x9 boards only; use --grids random for --size {}",
            a.size
        );
    }
    Ok(source)
}

/// At most `--count` solved grids from `source` (possibly fewer: a file or a gen-ga run may
/// hold fewer boards, which the caller reports).
fn solved_grids(source: &Source, a: &GenerateArgs, geom: Geometry) -> Result<Vec<Grid>> {
    let (seed, count) = (a.seed, a.count);
    Ok(match source {
        Source::File(path) => boards_from_file(path, geom, a.size, count)?,
        Source::Random => (0..count).map(|k| random_grid(seed, k, geom)).collect(),
        Source::GenGa => {
            let start = gen_ga::first_row_puzzle();
            let ga = gen_ga::GenGa::new(gen_ga::GenGaConfig::default())?;
            let mut rng = rng_from_seed(run_seed(seed, "generate", "gen-ga", 0));
            let (_, found) = ga.generate(
                &start,
                &Budget::generations(2000),
                &mut rng,
                &mut NoObserver,
            );
            found.into_iter().take(count).collect()
        }
    })
}

/// The `k`-th random full grid (0-based) of `--seed`.
fn random_grid(seed: u64, k: usize, geom: Geometry) -> Grid {
    let mut rng = rng_from_seed(run_seed(seed, "generate", "grid", k as u64));
    random_solution(geom, &mut rng)
}

/// The first `count` boards of a `--boards` file, each checked to be a solved grid of
/// order `size` (`geom`).
fn boards_from_file(path: &Path, geom: Geometry, size: usize, count: usize) -> Result<Vec<Grid>> {
    let text = crate::spec::read_regular(path)
        .with_context(|| format!("cannot read {}", path.display()))?;
    let ps = parse_puzzles(&text, &path.display().to_string())?;
    if let Some(p) = ps.iter().find(|p| !p.grid.is_solved()) {
        bail!("{}: board {} is not a solved grid", path.display(), p.id);
    }
    if let Some(p) = ps.iter().find(|p| p.grid.geometry() != geom) {
        bail!(
            "{}: board {} is not of order {} (set --size)",
            path.display(),
            p.id,
            size
        );
    }
    Ok(ps.into_iter().map(|p| p.grid).take(count).collect())
}

/// The puzzle of the `k`-th board (0-based) with at most `givens` givens and a unique
/// solution, and the removal order (attempt) that reached it. Attempt 0 keeps the seeds of
/// earlier versions; further removal orders are tried only when the target was not reached.
/// All of them share `--node-limit` search nodes; a progress line goes to stderr every
/// [`PROGRESS_EVERY`] seconds. None, after saying why on stderr, when no puzzle was made.
fn reduce_one(board: &Grid, k: usize, a: &GenerateArgs, givens: usize) -> Option<(Grid, u64)> {
    let started = std::time::Instant::now();
    let mut last = 0.0;
    let mut nodes = a.node_limit;
    let mut least = board.filled();
    for attempt in 0..REDUCE_ATTEMPTS {
        let stream = match attempt {
            0 => "reduce".to_string(),
            t => format!("reduce-{t}"),
        };
        let mut rng = rng_from_seed(run_seed(a.seed, "generate", &stream, k as u64));
        let before = a.node_limit - nodes;
        let mut progress = |left: usize, spent: u64| {
            least = least.min(left);
            let t = started.elapsed().as_secs_f64();
            if t - last >= PROGRESS_EVERY {
                last = t;
                eprintln!(
                    "generate: puzzle {}, removal order {attempt}: {left} givens left (target {givens}), {} of {} search nodes, {t:.0} s",
                    k + 1,
                    before + spent,
                    a.node_limit
                );
            }
        };
        let Some(p) = reduce_to_unique_within(board, givens, &mut rng, &mut nodes, &mut progress)
        else {
            eprintln!(
                "error: could not make a unique puzzle with {givens} givens within the limit of {} search nodes (puzzle {}, removal orders tried: {}, {least} givens at best): ask for more givens or raise --node-limit",
                a.node_limit,
                k + 1,
                attempt + 1
            );
            return None;
        };
        if p.filled() <= givens {
            return Some((p, attempt));
        }
    }
    eprintln!(
        "error: could not make a unique puzzle with {givens} givens: no removal order of {REDUCE_ATTEMPTS} reached it (puzzle {}, {least} givens at best); ask for more givens",
        k + 1
    );
    None
}

/// The first line of the output: the command that makes the same puzzles again.
fn header_line(a: &GenerateArgs, source: &Source) -> String {
    let grids = match source {
        Source::Random => " --grids random".to_string(),
        Source::File(path) => format!(" --boards {}", path.display()),
        Source::GenGa => String::new(),
    };
    format!(
        "# sudoku-lab generate --seed {} --count {} --givens {} --size {}{grids}\n",
        a.seed, a.count, a.givens, a.size
    )
}

/// The output lines of the `k`-th puzzle (0-based): a comment with its givens, the guesses of
/// the exact solver (`guesses`) and the removal order, then the puzzle as one line (orders up
/// to 9) or as rows of tokens (larger orders, whose symbols take more than one character).
fn puzzle_text(k: usize, p: &Grid, guesses: u64, attempt: u64) -> String {
    let body = if p.geometry().n() > 9 {
        format!("{}\n", p.to_tokens().trim_end())
    } else {
        p.to_line()
    };
    format!(
        "# puzzle {}: {} givens, {guesses} guesses, removal order {attempt}\n{body}\n",
        k + 1,
        p.filled(),
    )
}
