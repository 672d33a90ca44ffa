//! `sudoku-lab merge OUT SHARD...`: shard folders joined ([`crate::protocol::merge`]) into the
//! folder one machine would have written, finished as a `--resume` of the whole protocol (every
//! report and chart).

use super::args::ProtocolFlags;
use anyhow::Result;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn merge(out: &Path, dirs: &[PathBuf], threads: Option<usize>) -> Result<ExitCode> {
    // A bad flag is refused before OUT is touched (it was found only after the merge).
    super::reproduce::threads_flag(threads)?;
    let merged = crate::protocol::merge::merge(out, dirs)?;
    let s = &merged.settings;
    let flags = ProtocolFlags {
        quick: s.quick,
        runs: s.forced_runs,
        threads,
        out: Some(out.to_path_buf()),
        resume: true,
        fresh: false,
        seed: Some(s.master_seed),
        shard: None,
    };
    super::reproduce::finish_merged(merged.spec, &flags)?;
    eprintln!("merged {} shards into {}", merged.shards, out.display());
    Ok(ExitCode::SUCCESS)
}
