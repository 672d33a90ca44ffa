// Records the git revision and the versions of the result-relevant dependencies for meta.json.
// (Plain comments, not `//!`: tests/slurm.rs includes this file to check `revision`.)
use std::process::Command;

fn main() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    println!("cargo:rustc-env=SUDOKU_LAB_GIT={}", revision(&root));
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
    for path in watched(&root) {
        println!("cargo:rerun-if-changed={}", path.display());
    }
}

/// The git files that identify the revision: HEAD, the branch's ref and `packed-refs`, where
/// git keeps them (`.git/...` in a clone, elsewhere in a worktree, where `.git` is a file).
/// Not the index: a plain `git status` rewrites it, and watching it relinked sudoku-lab after
/// every `git status` although nothing changed (the "-dirty" mark follows the code itself,
/// watched above). A branch whose ref is only in `packed-refs` gets a loose ref file at its
/// next commit: its folder is watched instead, so that the new file is seen. A path that does
/// not exist would make cargo rerun this script, and relink the binary, on every build.
pub fn watched(root: &std::path::Path) -> Vec<std::path::PathBuf> {
    let at = |name: &str| git(root, &["rev-parse", "--git-path", name]).map(|p| root.join(p));
    let mut paths: Vec<std::path::PathBuf> = ["HEAD", "packed-refs"]
        .into_iter()
        .filter_map(at)
        .filter(|p| p.exists())
        .collect();
    if let Some(branch) = git(root, &["symbolic-ref", "-q", "HEAD"]).and_then(|b| at(&b)) {
        match branch.exists() {
            true => paths.push(branch),
            false => paths.extend(
                branch
                    .ancestors()
                    .skip(1)
                    .find(|d| d.is_dir())
                    .map(Into::into),
            ),
        }
    }
    paths
}

/// The short revision of HEAD in `root`, with `-dirty` when anything but results/ has
/// uncommitted changes (committed outputs are not code); `unknown` without git.
pub fn revision(root: &std::path::Path) -> String {
    let Some(rev) = git(root, &["rev-parse", "--short=12", "HEAD"]) else {
        return "unknown".into();
    };
    let status = [
        "status",
        "--porcelain",
        "--untracked-files=no",
        "--",
        ".",
        ":(exclude)results",
    ];
    match git(root, &status) {
        Some(_) => format!("{rev}-dirty"),
        None => rev,
    }
}

/// The trimmed output of `git ARGS` in `root`, when git runs and succeeds. Never with git's
/// optional locks: a plain `git status` refreshes the index and rewrites it (always so on a
/// fresh clone); a build has no business writing the repository's files (and, while another
/// git command holds the index's lock, the refresh would make that command fail).
fn git(root: &std::path::Path, args: &[&str]) -> Option<String> {
    Command::new("git")
        .arg("--no-optional-locks")
        .args(args)
        .current_dir(root)
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string())
        .filter(|s| !s.is_empty())
}
