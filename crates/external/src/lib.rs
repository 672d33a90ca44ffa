//! External solvers: a solver written in any language runs as a child process and speaks
//! protocol v2 (line-delimited JSON on stdin/stdout; docs/external-solvers.md). Nothing it says
//! is trusted: a claimed solution is checked with sudoku-core's exact rules, the effort it
//! reports against the budget, every line against the schema and a size cap, and its silence
//! against the wall limit. Every misbehaviour ends the run as a [`Failure`] with a reason,
//! never as a lost run or a hung protocol; the process is then killed (its whole process
//! group) and a fresh one is started for the next run. Every line of a run echoes the run's
//! `run_id`, so that no line of one run is credited to another.
//!
//! - [`process`] - one child process: start, capped lines with a deadline, stderr, kill;
//! - [`message`] - the protocol's messages, written and checked;
//! - [`External`] - a configured solver: a pool of processes (one per thread that uses it, in
//!   `persistent` mode), the pre-flight check, and [`External::run`].

pub mod message;
pub mod process;
mod solver;

pub use message::{Reply, Request, VERSION};
pub use solver::{Config, External, Failure, Mode, Outcome};

/// A setup error: the solver cannot be used at all (found before the first run).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    #[error("command = {command}: {program} is not an executable file")]
    NotExecutable { command: String, program: String },
    #[error("command = {command}: {program} is not found in PATH")]
    NotInPath { command: String, program: String },
    #[error("command = {command}: cannot start it: {source}")]
    Start {
        command: String,
        source: std::io::Error,
    },
    #[error("command = {command}: no protocol handshake: {why}")]
    Handshake { command: String, why: String },
}
