//! One protocol per results folder: an exclusive OS lock (`flock`) on `<out>/.sudoku-lab.lock`,
//! held while the protocol runs and released by the kernel when the process ends, however it
//! ends. The file holds the holder's pid, so a second process can name it when it refuses. And
//! the temporary files that killed processes left in the folder, removed under the lock.

use anyhow::{bail, Context, Result};
use std::io::{Read, Seek, Write};
use std::os::unix::fs::MetadataExt;
use std::os::unix::io::AsRawFd;
use std::path::{Path, PathBuf};

/// The lock file's name inside a results folder.
pub const FILE: &str = ".sudoku-lab.lock";

/// The lock of a results folder, held until dropped (the file is removed then).
pub struct Lock {
    file: std::fs::File,
    path: PathBuf,
}

impl Lock {
    /// Take the lock of `dir` (an existing folder), or fail at once naming the holder's pid.
    pub fn take(dir: &Path) -> Result<Lock> {
        Lock::take_file(
            dir,
            FILE,
            "a protocol in this folder; wait for it or use another --out",
        )
    }

    /// Take the lock file `name` in `dir` (an existing folder) for `what` (named, with what
    /// to do, when another process holds it), or fail at once naming the holder's pid. A cluster's shard tasks
    /// share the race's folder, so each locks a file of its own shard.
    pub fn take_file(dir: &Path, name: &str, what: &str) -> Result<Lock> {
        use std::os::unix::fs::OpenOptionsExt;
        let path = dir.join(name);
        loop {
            crate::protocol::io::check_regular(&path)?;
            let mut file = std::fs::OpenOptions::new()
                .read(true)
                .write(true)
                .create(true)
                .truncate(false)
                .custom_flags(libc::O_NOFOLLOW)
                .open(&path)
                .with_context(|| format!("cannot open {}", path.display()))?;
            // SAFETY: flock on a file descriptor this function owns; no memory is involved.
            let rc = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
            if rc != 0 {
                let e = std::io::Error::last_os_error();
                if e.raw_os_error() == Some(libc::EWOULDBLOCK) {
                    let mut pid = String::new();
                    let _ = file.read_to_string(&mut pid);
                    let pid = pid.trim();
                    bail!(
                        "{}: another sudoku-lab process (pid {}) is running {what}",
                        dir.display(),
                        if pid.is_empty() { "unknown" } else { pid }
                    );
                }
                return Err(e).with_context(|| format!("cannot lock {}", path.display()));
            }
            // The holder before us may have removed the file between our open and our lock:
            // then we hold a lock on a file nobody else sees; start again.
            let same = match std::fs::metadata(&path) {
                Ok(m) => {
                    let ours = file.metadata()?;
                    m.ino() == ours.ino() && m.dev() == ours.dev()
                }
                Err(_) => false,
            };
            if !same {
                continue;
            }
            file.set_len(0)?;
            file.rewind()?;
            writeln!(file, "{}", std::process::id())?;
            file.flush()?;
            return Ok(Lock { file, path });
        }
    }
}

impl Drop for Lock {
    fn drop(&mut self) {
        // Remove the file while still holding the lock (a waiting process then sees another
        // inode and starts again); the lock itself goes with the descriptor.
        let _ = std::fs::remove_file(&self.path);
        let _ = self.file.flush();
    }
}

/// The pid in the name of a temporary file of the atomic write (`.<name>.<pid>-<n>.tmp.<ext>`,
/// `sudoku_core::atomic`, for sudoku-lab and lab-charts alike) or of an older sudoku-lab
/// (`.<name>.tmp-<pid>`).
fn temp_pid(name: &str) -> Option<i32> {
    if !name.starts_with('.') {
        return None;
    }
    if let Some((_, pid)) = name.rsplit_once(".tmp-") {
        return pid.parse().ok();
    }
    let (head, _) = name.rsplit_once(".tmp.")?;
    let (_, pid_n) = head.rsplit_once('.')?;
    let (pid, n) = pid_n.split_once('-')?;
    n.parse::<u64>().ok()?;
    pid.parse().ok()
}

/// Whether process `pid` exists.
fn alive(pid: i32) -> bool {
    // SAFETY: signal 0 only checks that the process exists; nothing is sent.
    pid > 0
        && (unsafe { libc::kill(pid, 0) } == 0
            || std::io::Error::last_os_error().raw_os_error() == Some(libc::EPERM))
}

/// Remove the temporary files of dead processes in `dir` and its subfolders (one level): what
/// a process killed while writing a file leaves behind. Returns how many were removed.
pub fn remove_stale_temps(dir: &Path) -> usize {
    let mut removed = 0;
    let mut dirs = vec![dir.to_path_buf()];
    if let Ok(entries) = std::fs::read_dir(dir) {
        dirs.extend(
            entries
                .flatten()
                .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
                .map(|e| e.path()),
        );
    }
    for d in dirs {
        let Ok(entries) = std::fs::read_dir(&d) else {
            continue;
        };
        for e in entries.flatten() {
            let name = e.file_name();
            let Some(pid) = name.to_str().and_then(temp_pid) else {
                continue;
            };
            if pid as u32 != std::process::id()
                && !alive(pid)
                && e.file_type().is_ok_and(|t| t.is_file())
                && std::fs::remove_file(e.path()).is_ok()
            {
                removed += 1;
            }
        }
    }
    removed
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn temp_names() {
        assert_eq!(temp_pid(".runs.csv.tmp-1234"), Some(1234));
        assert_eq!(temp_pid(".chart.png.77-3.tmp.png"), Some(77));
        assert_eq!(temp_pid("runs.csv.tmp-1234"), None);
        assert_eq!(temp_pid(".runs.csv"), None);
        assert_eq!(temp_pid(".x.tmp-abc"), None);
    }
}
