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
/// fresh clone), and the index is one of the files this script's rerun depends on, so the
/// next build (the first `submit.sh` after a clone and build, for one) would run the script
/// again and rebuild sudoku-lab although nothing changed.
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
