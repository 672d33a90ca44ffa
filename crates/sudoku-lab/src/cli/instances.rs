//! `sudoku-lab instances`: a set of the phase-transition instance family of Lewis (2007) and
//! Lloyd & Amos (2020), a random complete grid with a fraction of its cells kept
//! ([`sudoku_core::instances`], where the papers' words and what is uniform are documented).

use super::args::InstancesArgs;
use anyhow::{bail, Result};
use std::process::ExitCode;
use sudoku_core::instances::{
    lewis_set_instance, uniqueness, GivenRule, GridMethod, LewisOptions, Uniqueness,
    UNIQUENESS_NODE_LIMIT,
};
use sudoku_core::{Geometry, Grid};

/// How the complete grid is made (the flag's values; [`GridMethod`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GridFlag {
    /// The exact solver's randomised grid, then a uniformly random symmetry (relabelling,
    /// rows within bands, bands, columns within stacks, stacks, transposition): uniform
    /// within each class of equivalent grids, not between classes.
    #[value(name = "solver+symmetries")]
    SolverSymmetries,
    /// The exact solver's randomised grid alone.
    Solver,
    /// One pattern grid, then the random symmetry: every solution in one class.
    #[value(name = "pattern+symmetries")]
    PatternSymmetries,
}

/// Which cells are kept (the flag's values; [`GivenRule`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GivensFlag {
    /// Exactly ceil(fraction x cells) cells, a uniformly random subset (as Lloyd & Amos's
    /// instance files have them).
    Ceil,
    /// Exactly round(fraction x cells) cells, halves up.
    Round,
    /// Each cell independently with probability fraction.
    Bernoulli,
}

impl GridFlag {
    fn method(self) -> GridMethod {
        match self {
            GridFlag::SolverSymmetries => GridMethod::SolverSymmetries,
            GridFlag::Solver => GridMethod::Solver,
            GridFlag::PatternSymmetries => GridMethod::PatternSymmetries,
        }
    }
}

impl GivensFlag {
    fn rule(self) -> GivenRule {
        match self {
            GivensFlag::Ceil => GivenRule::Ceil,
            GivensFlag::Round => GivenRule::Round,
            GivensFlag::Bernoulli => GivenRule::Bernoulli,
        }
    }
}

/// The most instances one `instances` makes (each is held until the output is written).
pub const MAX_COUNT: u64 = 100_000;

/// One made instance with the exact solver's verdict.
struct Made {
    index: u64,
    puzzle: Grid,
    unique: Uniqueness,
}

/// `sudoku-lab instances`: check the flags, make `--count` instances (index 1..=count) of
/// the set of `--seed`, say per instance whether its solution is unique, and write the file
/// (to `--out`, else standard output; the table then goes to stderr).
pub fn instances(a: &InstancesArgs) -> Result<ExitCode> {
    if a.count == 0 || a.count > MAX_COUNT {
        bail!("--count must be from 1 to {MAX_COUNT}");
    }
    let geom =
        Geometry::for_order(a.size).map_err(|e| anyhow::anyhow!("--size {}: {e}", a.size))?;
    let options = LewisOptions {
        grid: a.grid.method(),
        givens: a.keep.rule(),
    };
    let mut table = format!("{:<8} {:>6} {:>9}\n", "instance", "givens", "solution");
    let mut made = Vec::new();
    for index in 1..=a.count {
        let inst = lewis_set_instance(a.seed, geom, a.fraction, index, &options);
        let unique = uniqueness(&inst.puzzle);
        table.push_str(&format!(
            "{index:<8} {:>6} {:>9}\n",
            inst.puzzle.filled(),
            unique.word()
        ));
        made.push(Made {
            index,
            puzzle: inst.puzzle,
            unique,
        });
    }
    table.push_str(&summary(&made));
    let mut text = header(a, geom, &options);
    for m in &made {
        text.push_str(&instance_text(a, geom, m));
    }
    match a.out.as_deref() {
        Some(path) => {
            crate::protocol::io::write_output(path, text.as_bytes())?;
            print!("{table}");
        }
        None => {
            eprint!("{table}");
            print!("{text}");
        }
    }
    Ok(ExitCode::SUCCESS)
}

/// The last line of the table: how many instances are unique, multiple and unknown.
fn summary(made: &[Made]) -> String {
    let n = |u: Uniqueness| made.iter().filter(|m| m.unique == u).count();
    format!(
        "{} instances: {} unique, {} multiple, {} unknown within {UNIQUENESS_NODE_LIMIT} search nodes\n",
        made.len(),
        n(Uniqueness::Unique),
        n(Uniqueness::Multiple),
        n(Uniqueness::Unknown)
    )
}

/// The file's first lines: the command that makes it again (every flag written out), what
/// the family is, and what the uniqueness verdicts mean.
fn header(a: &InstancesArgs, geom: Geometry, options: &LewisOptions) -> String {
    let cells = geom.cells();
    let kept = match options.givens.exact_count(a.fraction, cells) {
        Some(k) => format!(
            "exactly {}({} x {cells}) = {k} cells kept, a uniformly random subset",
            options.givens.name(),
            a.fraction
        ),
        None => format!("each cell kept with probability {}", a.fraction),
    };
    format!(
        "# sudoku-lab instances --size {} --fraction {} --count {} --seed {} --grid {} --keep {}\n\
         # Lewis (2007) / Lloyd & Amos (2020) family: a complete grid ({}), {kept}; the rest blank\n\
         # solution: unique, multiple or unknown, as the exact solver counts solutions up to 2 within {UNIQUENESS_NODE_LIMIT} search nodes\n",
        a.size,
        a.fraction,
        a.count,
        a.seed,
        options.grid.name(),
        options.givens.name(),
        options.grid.name(),
    )
}

/// One instance: a comment with its order, fraction, seed, index, givens and uniqueness, then
/// the puzzle as one line (orders up to 9) or as rows of tokens (larger orders).
fn instance_text(a: &InstancesArgs, geom: Geometry, m: &Made) -> String {
    let n = geom.n();
    let body = if n > 9 {
        format!("{}\n", m.puzzle.to_tokens().trim_end())
    } else {
        m.puzzle.to_line()
    };
    let order = match geom.box_rows() == geom.box_cols() {
        true => format!("order {}", geom.box_rows()),
        false => format!("boxes {}x{}", geom.box_rows(), geom.box_cols()),
    };
    format!(
        "# instance {}: {order} ({n}x{n}), fraction {}, seed {}, index {}, {} givens, solution {}\n{body}\n",
        m.index,
        a.fraction,
        a.seed,
        m.index,
        m.puzzle.filled(),
        m.unique.word(),
    )
}
