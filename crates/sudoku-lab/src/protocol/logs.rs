//! External solvers' per-run logs (`external-logs/` beside runs.csv, docs/external-solvers.md):
//! a failed run's reason and the run's stderr, capped by the `external` crate.

use anyhow::{bail, Result};
use std::path::Path;

/// Keep an external solver's run log (`<logs>/<label>/<puzzle>-<run>.log`: the failure's
/// reason and detail, then the run's stderr, capped) when there is something to keep. A log
/// that cannot be written is a warning, never a lost run. Names are reduced to `[A-Za-z0-9._-]`
/// so that a label's `/` makes no folder; a link or special file in the way is refused like
/// every file the protocol writes.
pub fn write_run_log(
    logs: &Path,
    label: &str,
    puzzle: &sudoku_core::Puzzle,
    job: &crate::protocol::plan::Job,
    done: &crate::algos::external::Job,
) {
    if done.stderr.is_empty() && done.failure.is_none() {
        return;
    }
    let safe = |s: &str| -> String {
        s.chars()
            .map(|c| match c.is_ascii_alphanumeric() || "._-".contains(c) {
                true => c,
                false => '_',
            })
            .collect()
    };
    let dir = logs.join(safe(label));
    let path = dir.join(format!("{}-{}.log", safe(&puzzle.id), job.run));
    let mut text = format!(
        "run {label} / {} / {} (seed {})\n",
        puzzle.id, job.run, job.seed
    );
    if let Some(reason) = done.failure {
        text.push_str(&format!("failed: {reason}: {}\n", done.detail));
    }
    text.push_str("--- stderr ---\n");
    let written = (|| -> Result<()> {
        for d in [logs, dir.as_path()] {
            if std::fs::symlink_metadata(d).is_ok_and(|m| !m.is_dir()) {
                bail!("{}: not a folder", d.display());
            }
        }
        std::fs::create_dir_all(&dir)?;
        super::io::check_regular(&path)?;
        let mut bytes = text.into_bytes();
        bytes.extend_from_slice(&done.stderr);
        super::io::write_atomic(&path, &bytes)
    })();
    if let Err(e) = written {
        let text = format!("warning: cannot keep the log {}: {e:#}", path.display());
        eprintln!("{}", sudoku_core::error::shown(&text));
    }
}
