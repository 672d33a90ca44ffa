//! The protocol: a spec's plan of runs (algorithm x puzzle x run, each with its own seed),
//! executed in parallel into `runs.csv`, and everything around it: the folder's `meta.json`,
//! resume after an interruption, the folder lock, progress, shards and their merge, replay.
//!
//! - [`plan`] - the jobs and their seeds, and the shard rule;
//! - [`run`] - [`Protocol`]: one run, and every pending run in parallel, appended as they finish;
//! - [`io`] - runs.csv rows (the one reader: header, malformed and duplicated rows refused),
//!   atomic file writes, and the check that every file written is a regular one;
//! - [`meta`] - meta.json;
//! - [`trajectory`] - anytime data (`trajectories.csv`);
//! - [`progress`] - the progress bar and log lines, by effort;
//! - [`lock`] - one process per results folder;
//! - [`logs`] - external solvers' per-run logs;
//! - [`merge`] - shard folders joined into one;
//! - [`replay`] - re-execute recorded runs.

pub mod io;
#[cfg(unix)]
pub mod lock;
#[cfg(not(unix))]
#[path = "lock_other.rs"]
pub mod lock;
pub mod logs;
pub mod merge;
pub mod meta;
pub mod plan;
pub mod progress;
pub mod replay;
pub mod run;
pub mod trajectory;

pub use run::Protocol;
