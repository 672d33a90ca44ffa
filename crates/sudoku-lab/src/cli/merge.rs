//! `sudoku-lab merge OUT SHARD...`: shard folders joined ([`crate::protocol::merge`]) into the
//! folder one machine would have written, finished as a `--resume` of the whole protocol (every
//! report and chart). The folder is built beside OUT and moved to OUT only when complete: a
//! failed merge writes nothing to OUT, and the same command can be run again.

use super::args::ProtocolFlags;
use crate::protocol::merge;
use anyhow::Result;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

pub fn merge(
    out: &Path,
    dirs: &[PathBuf],
    threads: Option<usize>,
    check: bool,
    verify: Option<usize>,
) -> Result<ExitCode> {
    // A bad flag is refused before OUT is touched (it was found only after the merge).
    super::reproduce::threads_flag(threads)?;
    if verify == Some(0) {
        anyhow::bail!("--verify 0: K must be at least 1 (every K-th row is re-run)");
    }
    let checked = merge::check(out, dirs, !check)?;
    let s = checked.settings();
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
    // What the finishing resume checks before it writes (the spec's published table, memory,
    // ...), here too: `--check` refuses whatever the merge would.
    super::reproduce::check_merged(checked.spec.clone(), checked.spec_dir.as_deref(), &flags)?;
    if let Some(k) = verify {
        eprintln!("{}", merge::verify(dirs, k)?.said());
    }
    if check {
        let shown = sudoku_core::error::shown(&out.display().to_string());
        let n = checked.count();
        match merge::check_out(out) {
            Ok(_) => eprintln!("the {n} shards can be merged into {shown}"),
            // A finished OUT, say: the shards pass, and a merge would need another folder.
            Err(e) => eprintln!(
                "the {n} shards pass every check of a merge; a merge would refuse its OUT: {}",
                sudoku_core::error::shown(&e.to_string())
            ),
        }
        return Ok(ExitCode::SUCCESS);
    }
    let merged = merge::merge(out, checked)?;
    let flags = ProtocolFlags {
        out: Some(merged.staging.clone()),
        ..flags
    };
    let finished = super::reproduce::finish_merged(
        merged.spec.clone(),
        merged.spec_dir.as_deref(),
        &flags,
        out,
    )
    .and_then(|valid| merge::publish(&merged, out).map(|()| valid));
    let all_valid = match finished {
        Ok(v) => v,
        Err(e) => {
            merge::abandon(&merged.staging);
            return Err(e);
        }
    };
    eprintln!(
        "{}",
        sudoku_core::error::shown(&format!(
            "merged {} shards into {}",
            merged.shards,
            out.display()
        ))
    );
    Ok(match all_valid {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(super::reproduce::NO_VALID_RUN),
    })
}
