//! `sudoku-lab new-solver NAME`: a new algorithm crate, copied from the template under the new
//! name. The template is the committed crate `crates/hill-climb` itself (a real, tested hill
//! climber, compiled into this binary with `include_str!`), so it builds and passes its tests
//! in every CI run and cannot rot; a test checks that `new-solver hill-climb` writes it back
//! byte for byte. Only the three spellings of the name change: `hill-climb` (crate, algorithm),
//! `hill_climb` (Rust path) and `HillClimb` (type names).
//!
//! The crate is written into a staging folder beside its place and renamed into place at the
//! end, so an error never leaves half a crate.

use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// The template's files (path inside the crate, text).
pub const TEMPLATE: &[(&str, &str)] = &[
    ("Cargo.toml", include_str!("../../../hill-climb/Cargo.toml")),
    ("src/lib.rs", include_str!("../../../hill-climb/src/lib.rs")),
    ("src/ops.rs", include_str!("../../../hill-climb/src/ops.rs")),
    (
        "src/tests.rs",
        include_str!("../../../hill-climb/src/tests.rs"),
    ),
];

/// The template's name in its three spellings.
const TEMPLATE_NAME: &str = "hill-climb";

/// Names a new crate may not take: the workspace's crates and dependencies (a crate of the same
/// name would shadow them), the runner's reserved algorithm names and Rust's own crates.
const RESERVED: &[&str] = &[
    "sudoku-core",
    "sudoku-lab",
    "lab-stats",
    "lab-charts",
    "rand",
    "rand-pcg",
    "rayon",
    "clap",
    "csv",
    "serde",
    "serde-json",
    "toml",
    "statrs",
    "libm",
    "plotters",
    "thiserror",
    "anyhow",
    "indicatif",
    "libc",
    "proptest",
    "pulldown-cmark",
    "external",
    "std",
    "core",
    "alloc",
    "test",
    "proc-macro",
];

/// Rust keywords (strict and reserved): not a crate name.
const KEYWORDS: &[&str] = &[
    "abstract", "as", "async", "await", "become", "box", "break", "const", "continue", "crate",
    "do", "dyn", "else", "enum", "extern", "false", "final", "fn", "for", "gen", "if", "impl",
    "in", "let", "loop", "macro", "match", "mod", "move", "mut", "override", "priv", "pub", "ref",
    "return", "self", "static", "struct", "super", "trait", "true", "try", "type", "typeof",
    "unsafe", "unsized", "use", "virtual", "where", "while", "yield",
];

/// The three spellings of a name: `tabu-demo`, `tabu_demo`, `TabuDemo`.
pub fn spellings(name: &str) -> [String; 3] {
    let camel: String = name
        .split('-')
        .map(|w| {
            let mut c = w.chars();
            c.next()
                .map(|f| f.to_ascii_uppercase().to_string() + c.as_str())
                .unwrap_or_default()
        })
        .collect();
    [name.to_string(), name.replace('-', "_"), camel]
}

/// The template's text with its name replaced by `name` (all three spellings).
pub fn rename(text: &str, name: &str) -> String {
    let [from_crate, from_path, from_type] = spellings(TEMPLATE_NAME);
    let [to_crate, to_path, to_type] = spellings(name);
    text.replace(&from_crate, &to_crate)
        .replace(&from_path, &to_path)
        .replace(&from_type, &to_type)
}

/// Refuse a name that is not lowercase words of letters and digits joined by single `-`
/// (starting with a letter, at most 40 characters), a reserved one or a registered algorithm.
pub fn check_name(name: &str) -> Result<()> {
    let shown = sudoku_core::error::shown(name);
    let well_formed = (1..=40).contains(&name.len())
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name.split('-').all(|w| {
            !w.is_empty()
                && w.chars()
                    .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit())
        });
    if !well_formed {
        bail!("new-solver: '{shown}' is not a valid name: lowercase letters and digits, words joined by single '-', starting with a letter, at most 40 characters (e.g. tabu-search)");
    }
    if RESERVED.contains(&name) || KEYWORDS.contains(&name.replace('-', "_").as_str()) {
        bail!("new-solver: '{name}' is reserved (a crate or dependency of the workspace, or a Rust name): choose another");
    }
    if crate::algos::REGISTRY.iter().any(|a| a.name() == name) {
        bail!("new-solver: '{name}' is already a registered algorithm (see `sudoku-lab list`)");
    }
    Ok(())
}

/// The dependency line for the runner's Cargo.toml: `../NAME` when the crate is in the
/// runner's sibling folder `crates/`, else the crate's absolute path.
fn dependency_line(dir: &Path, name: &str) -> String {
    let canonical = dir.canonicalize().unwrap_or_else(|_| dir.to_path_buf());
    let path = if canonical.join("sudoku-lab").join("Cargo.toml").is_file() {
        format!("../{name}")
    } else {
        canonical.join(name).display().to_string()
    };
    format!("{name} = {{ path = \"{}\" }}", path.replace('\\', "/"))
}

/// Write the crate's files into `staging` (created here).
fn write_files(staging: &Path, name: &str) -> Result<()> {
    for (file, text) in TEMPLATE {
        let path = staging.join(file);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .with_context(|| format!("creating {}", parent.display()))?;
        }
        std::fs::write(&path, rename(text, name))
            .with_context(|| format!("writing {}", path.display()))?;
    }
    Ok(())
}

/// Write the crate `dir/NAME` (staged beside it, then renamed into place) and return its
/// folder; `name` is not checked here.
fn write_crate(dir: &Path, name: &str) -> Result<PathBuf> {
    if !dir.is_dir() {
        bail!("new-solver: --dir {}: not a folder", dir.display());
    }
    let target = dir.join(name);
    if target.symlink_metadata().is_ok() {
        bail!("new-solver: {} already exists", target.display());
    }
    let staging: PathBuf = dir.join(format!(".{name}.new-solver-{}", std::process::id()));
    let written = write_files(&staging, name).and_then(|()| {
        std::fs::rename(&staging, &target)
            .with_context(|| format!("moving {} into place", staging.display()))
    });
    if let Err(e) = written {
        let _ = std::fs::remove_dir_all(&staging);
        return Err(e.context(format!("new-solver: {}", target.display())));
    }
    Ok(target)
}

/// Write the crate `dir/NAME` and print the two lines that register it.
pub fn new_solver(name: &str, dir: &Path) -> Result<ExitCode> {
    check_name(name)?;
    let target = write_crate(dir, name)?;
    let files: Vec<&str> = TEMPLATE.iter().map(|f| f.0).collect();
    println!(
        "{}",
        sudoku_core::error::shown(&format!(
            "wrote {} ({})",
            target.display(),
            files.join(", ")
        ))
    );
    println!("Register it with two lines (docs/adding-a-solver.md):");
    println!("  crates/sudoku-lab/Cargo.toml, [dependencies]:");
    println!(
        "{}",
        sudoku_core::error::shown(&format!("    {}", dependency_line(dir, name)))
    );
    println!("  crates/sudoku-lab/src/algos/registry.rs, REGISTRY:");
    println!("    {}::ALGORITHM,", spellings(name)[1]);
    for line in checklist(name) {
        println!("{}", sudoku_core::error::shown(&line));
    }
    Ok(ExitCode::SUCCESS)
}

/// What to change in the copy, in the order of docs/adding-a-solver.md: the copy is the
/// template's hill climber under a new name until each of these is done.
fn checklist(name: &str) -> Vec<String> {
    let solver = format!("{}Solver::solve", spellings(name)[2]);
    [
        "Then change, in the new crate (docs/adding-a-solver.md):".to_string(),
        "  [ ] src/lib.rs: the crate docs and your paper's citation (and docs/bibliography.md)".to_string(),
        "  [ ] src/lib.rs: the options table, the paper's words in place of the placeholders".to_string(),
        format!("  [ ] src/ops.rs and {solver}: the method (operators, main loop, exact evaluation count)"),
        "  [ ] src/lib.rs: AMBIGUITIES, the options the paper leaves open (what `readings` races)".to_string(),
        "  [ ] src/lib.rs, the registry entry: summary() (it still says hill climber), evaluation_unit(), counters()".to_string(),
        "  [ ] src/tests.rs and src/ops.rs: the tests, adapted to the method".to_string(),
        format!("  [ ] run it: cargo run --release -p sudoku-lab -- solve --algo {name} <PUZZLE>"),
        "  [ ] cargo fmt --all, cargo clippy --workspace --all-targets -- -D warnings, cargo test --workspace".to_string(),
    ]
    .to_vec()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_checked() {
        for ok in ["tabu-demo", "ga2", "my-sa-2007", "x"] {
            check_name(ok).unwrap_or_else(|e| panic!("{ok}: {e}"));
        }
        for bad in [
            "",
            "Tabu",
            "tabu_demo",
            "-tabu",
            "tabu-",
            "tabu--demo",
            "2opt",
            "tabu demo",
            "tabu/../x",
            "r\u{e9}seda",
            "self",
            "rand",
            "external",
            "lewis-sa",
            "hill-climb",
        ] {
            let e = check_name(bad).unwrap_err().to_string();
            assert!(
                e.starts_with("new-solver: ") && !e.contains('\n'),
                "{bad}: {e}"
            );
        }
        assert!(check_name(&"a".repeat(41)).is_err());
    }

    #[test]
    fn spellings_of_a_name() {
        assert_eq!(
            spellings("tabu-demo"),
            ["tabu-demo", "tabu_demo", "TabuDemo"]
        );
        assert_eq!(spellings("ga2"), ["ga2", "ga2", "Ga2"]);
    }

    /// The template names itself only in its three spellings, so that a renamed copy differs
    /// from it in the names alone (the CLI test compares whole crates).
    #[test]
    fn renaming_back_gives_the_template() {
        for (file, text) in TEMPLATE {
            let other = rename(text, "tabu-demo");
            for s in spellings(TEMPLATE_NAME) {
                assert!(!other.contains(&s), "{file}: {s} left");
            }
            let back = other
                .replace("tabu-demo", "hill-climb")
                .replace("tabu_demo", "hill_climb")
                .replace("TabuDemo", "HillClimb");
            assert_eq!(&back, text, "{file}");
            assert_eq!(&rename(text, TEMPLATE_NAME), text, "{file}");
        }
    }

    /// The files the command writes for the template's own name are the committed crate,
    /// byte for byte, and the committed crate has no file the template leaves out.
    #[test]
    fn the_template_is_the_committed_crate() {
        let committed = Path::new(env!("CARGO_MANIFEST_DIR")).join("../hill-climb");
        let tmp = std::env::temp_dir().join(format!("new-solver-test-{}", std::process::id()));
        std::fs::create_dir_all(&tmp).unwrap();
        let written = write_crate(&tmp, TEMPLATE_NAME).unwrap();
        fn files(root: &Path, dir: &Path, out: &mut Vec<String>) {
            for e in std::fs::read_dir(dir).unwrap() {
                let p = e.unwrap().path();
                if p.is_dir() && p.file_name().is_some_and(|n| n != "target") {
                    files(root, &p, out);
                } else if p.is_file() {
                    out.push(p.strip_prefix(root).unwrap().display().to_string());
                }
            }
        }
        let (mut want, mut got) = (Vec::new(), Vec::new());
        files(&committed, &committed, &mut want);
        files(&written, &written, &mut got);
        want.sort();
        got.sort();
        assert_eq!(got, want);
        for f in &want {
            let a = std::fs::read(committed.join(f)).unwrap();
            let b = std::fs::read(written.join(f)).unwrap();
            assert!(a == b, "{f} differs from the committed crate");
        }
        // A second write is refused and leaves the first alone.
        assert!(write_crate(&tmp, TEMPLATE_NAME).is_err());
        std::fs::remove_dir_all(&tmp).unwrap();
    }
}
