//! The Slurm array job of `scripts/slurm/` on a real Slurm (issue 11): a `--quick`
//! reproduction in two shards plus the dependent merge job, compared with the single-machine
//! folder by `scripts/slurm/compare.py`. Runs when `sbatch` is on the PATH and a controller
//! answers (`scripts/slurm/setup-local-cluster.sh` makes a one-node cluster); says skipped
//! otherwise.

mod common;

use common::{bin, ok, tmpdir};
use std::path::Path;
use std::process::Command;

fn cluster_up() -> bool {
    let answers = |cmd: &str| {
        Command::new("sh")
            .args(["-c", cmd])
            .output()
            .map(|o| o.status.success())
            .unwrap_or(false)
    };
    answers("command -v sbatch") && answers("sinfo -h >/dev/null 2>&1")
}

#[test]
fn an_array_job_and_its_merge_give_the_single_machine_folder() {
    if !cluster_up() {
        println!("skipped: no Slurm here (sbatch not on the PATH or no controller answering)");
        return;
    }
    let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../scripts/slurm");
    let dir = tmpdir("slurm");
    let out = dir.join("cluster");
    let submit = |out: &Path| {
        Command::new("bash")
            .arg(scripts.join("submit.sh"))
            .args(["reseda-table2", "2"])
            .arg(out)
            .args(["--quick", "--wait"])
            .env("LAB_BIN", env!("CARGO_BIN_EXE_sudoku-lab"))
            .output()
            .unwrap()
    };
    let o = submit(&out);
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{text}");
    assert!(text.contains("submitted array job") && text.contains("submitted merge job"));
    let logs: Vec<_> = std::fs::read_dir(dir.join("cluster.shards/logs"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(logs.len(), 3, "two shard logs and a merge log: {logs:?}");

    let reference = dir.join("single");
    ok(bin()
        .args(["reproduce", "reseda-table2", "--quick", "--out"])
        .arg(&reference));
    let o = Command::new("python3")
        .arg(scripts.join("compare.py"))
        .arg(&reference)
        .arg(&out)
        .output()
        .unwrap();
    let report = String::from_utf8_lossy(&o.stdout);
    assert!(o.status.success(), "{report}");
    assert!(
        report.contains("RESULT: identical but wall times"),
        "{report}"
    );

    // An existing output folder is refused before anything is submitted.
    let o = submit(&out);
    assert_eq!(o.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&o.stderr).contains("exists"));
}
