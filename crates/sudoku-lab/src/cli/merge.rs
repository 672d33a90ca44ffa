//! `sudoku-lab merge OUT SHARD...`: shard folders joined ([`crate::protocol::merge`]) into the
//! folder one machine would have written, finished as a `--resume` of the whole protocol (every
//! report and chart). The folder is built beside OUT and moved to OUT only when complete: a
//! failed merge writes nothing to OUT, and the same command can be run again.

use super::args::ProtocolFlags;
use crate::protocol::merge;
use anyhow::Result;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn merge(out: &Path, dirs: &[PathBuf], threads: Option<usize>) -> Result<ExitCode> {
    // A bad flag is refused before OUT is touched (it was found only after the merge).
    super::reproduce::threads_flag(threads)?;
    let merged = merge::merge(out, dirs)?;
    let s = &merged.settings;
    let flags = ProtocolFlags {
        quick: s.quick,
        runs: s.forced_runs,
        threads,
        out: Some(merged.staging.clone()),
        resume: true,
        fresh: false,
        seed: Some(s.master_seed),
        shard: None,
    };
    let finished = super::reproduce::finish_merged(
        merged.spec.clone(),
        merged.spec_dir.as_deref(),
        &flags,
        out,
    )
    .and_then(|()| merge::publish(&merged, out));
    if let Err(e) = finished {
        merge::abandon(&merged.staging);
        return Err(e);
    }
    eprintln!("merged {} shards into {}", merged.shards, out.display());
    Ok(ExitCode::SUCCESS)
}
