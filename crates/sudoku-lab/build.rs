//! Records the git revision and the versions of the result-relevant dependencies for meta.json.
use std::process::Command;

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let rev = Command::new("git")
        .args(["rev-parse", "--short=12", "HEAD"])
        .current_dir(&root)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .unwrap_or_else(|| "unknown".into());
    // Dirty: uncommitted changes to anything but results/ (committed outputs are not code).
    let dirty = Command::new("git")
        .args([
            "status",
            "--porcelain",
            "--untracked-files=no",
            "--",
            ".",
            ":(exclude)results",
        ])
        .current_dir(&root)
        .output()
        .ok()
        .is_some_and(|o| o.status.success() && !o.stdout.is_empty());
    println!(
        "cargo:rustc-env=SUDOKU_LAB_GIT={rev}{}",
        if dirty { "-dirty" } else { "" }
    );
    let lock = std::fs::read_to_string(root.join("Cargo.lock")).unwrap_or_default();
    let mut versions = Vec::new();
    let mut name = String::new();
    for line in lock.lines() {
        if let Some(n) = line.strip_prefix("name = ") {
            name = n.trim_matches('"').to_string();
        } else if let Some(v) = line.strip_prefix("version = ") {
            if [
                "rand",
                "rand_pcg",
                "rand_core",
                "rayon",
                "statrs",
                "plotters",
            ]
            .contains(&name.as_str())
            {
                versions.push(format!("{name}={}", v.trim_matches('"')));
            }
        }
    }
    println!("cargo:rustc-env=SUDOKU_LAB_DEPS={}", versions.join(" "));
    println!("cargo:rerun-if-changed=../../Cargo.lock");
    // The "-dirty" mark follows edits to the code and the embedded specs (not results/).
    for dir in [
        "build.rs",
        "../../crates",
        "../../experiments",
        "../../Cargo.toml",
    ] {
        println!("cargo:rerun-if-changed={dir}");
    }
    // Where git keeps HEAD, the branch's ref and the index: `.git/...` in a clone, elsewhere in
    // a worktree (where `.git` is a file). A path that does not exist would make cargo rerun
    // this script, and relink the binary, on every build.
    let branch = git(&root, &["symbolic-ref", "-q", "HEAD"]);
    for name in ["HEAD", "index", "packed-refs"]
        .into_iter()
        .chain(branch.as_deref())
    {
        if let Some(path) = git(&root, &["rev-parse", "--git-path", name]) {
            let path = root.join(path);
            if path.exists() {
                println!("cargo:rerun-if-changed={}", path.display());
            }
        }
    }
}

/// The trimmed output of `git ARGS` in `root`, when git runs and succeeds.
fn git(root: &std::path::Path, args: &[&str]) -> Option<String> {
    Command::new("git")
        .args(args)
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}
