//! Helpers shared by the end-to-end tests of the `sudoku-lab` binary.
#![allow(dead_code)] // each test file uses a part

use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

/// The binary under test.
pub fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-lab"))
}

/// A fresh, empty temporary folder, unique per process and call.
pub fn tmpdir(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!(
        "sudoku-lab-test-{}-{name}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

pub fn run(cmd: &mut Command) -> Output {
    cmd.output().expect("binary runs")
}

pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Runs `cmd` and requires success (stderr in the failure message).
pub fn ok(cmd: &mut Command) -> Output {
    let o = run(cmd);
    assert!(o.status.success(), "{}", stderr(&o));
    o
}

/// Copy the committed puzzle file `experiments/<rel>` to `d/<rel>`: a user spec reads files of
/// its own folder only (absolute names and '..' are refused), so a test spec in `d` that uses
/// a committed set gets its own copy.
#[allow(dead_code)]
pub fn copy_puzzles(d: &std::path::Path, rel: &str) {
    let from = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../experiments")
        .join(rel);
    let to = d.join(rel);
    std::fs::create_dir_all(to.parent().unwrap()).unwrap();
    std::fs::copy(&from, &to).unwrap();
}
