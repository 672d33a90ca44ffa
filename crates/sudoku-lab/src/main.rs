//! `sudoku-lab`: reproduce published experiments of stochastic Sudoku solvers, run studies of
//! your own, and compare algorithms with proper statistics.
//!
//! The runner by role, one folder a room:
//! - [`cli`] - the command line, one file per command (clap's definitions in `cli/args.rs`);
//! - [`spec`] - experiment specs: parsing, validation, puzzle loading, the embedded files;
//! - [`algos`] - the algorithm registry: a name and options -> a configured solver;
//! - [`protocol`] - the plan, its runs in parallel, runs.csv and meta.json, resume, the folder
//!   lock, progress, shards and their merge, replay;
//! - [`reports`] - every report and chart written from runs.csv, behind one dispatcher;
//! - [`export`] - results in other tools' formats (LaTeX, Markdown, IOHprofiler);
//! - [`readings`] - `sudoku-lab readings`: a paper's readings raced against its table;
//! - [`site`] - the static HTML site of every results folder (`sudoku-lab report`).
//!
//! Dependencies point one way: `cli` -> `site`, `reports` -> `export`, `protocol` -> `spec`
//! -> `algos` (a test, `layers_import_downwards_only`, checks it).

mod algos;
mod cli;
mod export;
#[cfg(test)]
mod fuzz;
mod protocol;
mod readings;
mod reports;
mod site;
mod spec;

use std::process::ExitCode;

fn main() -> ExitCode {
    // Output piped into `head` and the like: end quietly when the reader goes away, as Unix
    // tools do, instead of panicking on a failed print (Rust ignores SIGPIPE by default).
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE at start-up, before any thread or
    // I/O exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    cli::run()
}
