//! What is compiled into the binary, so that `reproduce` works from any folder without the
//! repository: the specs of `experiments/`, the puzzle files they name, and the published
//! tables.

use super::Spec;
use anyhow::{Context, Result};
use std::path::Path;

/// One file of experiments/puzzles/lewis/ as an entry of [`EMBEDDED_PUZZLE_FILES`].
macro_rules! lewis {
    ($name:literal) => {
        (
            concat!("puzzles/lewis/", $name),
            include_str!(concat!("../../../../experiments/puzzles/lewis/", $name)),
        )
    };
}

/// Puzzle files used by the embedded specs, embedded as well so `reproduce` works anywhere.
pub const EMBEDDED_PUZZLE_FILES: &[(&str, &str)] = &[
    (
        "puzzles/benbassat-first-row.txt",
        include_str!("../../../../experiments/puzzles/benbassat-first-row.txt"),
    ),
    (
        "puzzles/kennett/very-easy.txt",
        include_str!("../../../../experiments/puzzles/kennett/very-easy.txt"),
    ),
    (
        "puzzles/kennett/easy.txt",
        include_str!("../../../../experiments/puzzles/kennett/easy.txt"),
    ),
    (
        "puzzles/kennett/medium.txt",
        include_str!("../../../../experiments/puzzles/kennett/medium.txt"),
    ),
    (
        "puzzles/kennett/hard.txt",
        include_str!("../../../../experiments/puzzles/kennett/hard.txt"),
    ),
    (
        "puzzles/kennett/fiendish.txt",
        include_str!("../../../../experiments/puzzles/kennett/fiendish.txt"),
    ),
    (
        "puzzles/cso/6x6-easy.txt",
        include_str!("../../../../experiments/puzzles/cso/6x6-easy.txt"),
    ),
    (
        "puzzles/cso/6x6-medium.txt",
        include_str!("../../../../experiments/puzzles/cso/6x6-medium.txt"),
    ),
    (
        "puzzles/cso/6x6-hard.txt",
        include_str!("../../../../experiments/puzzles/cso/6x6-hard.txt"),
    ),
    (
        "puzzles/cso/9x9-easy.txt",
        include_str!("../../../../experiments/puzzles/cso/9x9-easy.txt"),
    ),
    (
        "puzzles/cso/9x9-medium.txt",
        include_str!("../../../../experiments/puzzles/cso/9x9-medium.txt"),
    ),
    (
        "puzzles/cso/9x9-hard.txt",
        include_str!("../../../../experiments/puzzles/cso/9x9-hard.txt"),
    ),
    (
        "puzzles/cso/12x12-easy.txt",
        include_str!("../../../../experiments/puzzles/cso/12x12-easy.txt"),
    ),
    (
        "puzzles/cso/12x12-medium.txt",
        include_str!("../../../../experiments/puzzles/cso/12x12-medium.txt"),
    ),
    (
        "puzzles/cso/12x12-hard.txt",
        include_str!("../../../../experiments/puzzles/cso/12x12-hard.txt"),
    ),
    (
        "puzzles/retga-journal/easy.txt",
        include_str!("../../../../experiments/puzzles/retga-journal/easy.txt"),
    ),
    (
        "puzzles/retga-journal/medium.txt",
        include_str!("../../../../experiments/puzzles/retga-journal/medium.txt"),
    ),
    (
        "puzzles/retga-journal/hard.txt",
        include_str!("../../../../experiments/puzzles/retga-journal/hard.txt"),
    ),
    // The sets of the phase-transition benchmark (the fractions its specs use).
    lewis!("9x9-0.00.txt"),
    lewis!("9x9-0.10.txt"),
    lewis!("9x9-0.20.txt"),
    lewis!("9x9-0.25.txt"),
    lewis!("9x9-0.30.txt"),
    lewis!("9x9-0.35.txt"),
    lewis!("9x9-0.40.txt"),
    lewis!("9x9-0.45.txt"),
    lewis!("9x9-0.50.txt"),
    lewis!("9x9-0.55.txt"),
    lewis!("9x9-0.60.txt"),
    lewis!("9x9-0.70.txt"),
    lewis!("9x9-0.80.txt"),
    lewis!("9x9-0.90.txt"),
    lewis!("16x16-0.00.txt"),
    lewis!("16x16-0.10.txt"),
    lewis!("16x16-0.20.txt"),
    lewis!("16x16-0.25.txt"),
    lewis!("16x16-0.30.txt"),
    lewis!("16x16-0.35.txt"),
    lewis!("16x16-0.40.txt"),
    lewis!("16x16-0.45.txt"),
    lewis!("16x16-0.50.txt"),
    lewis!("16x16-0.55.txt"),
    lewis!("16x16-0.60.txt"),
    lewis!("16x16-0.70.txt"),
    lewis!("16x16-0.80.txt"),
    lewis!("16x16-0.90.txt"),
    lewis!("25x25-0.00.txt"),
    lewis!("25x25-0.10.txt"),
    lewis!("25x25-0.20.txt"),
    lewis!("25x25-0.25.txt"),
    lewis!("25x25-0.30.txt"),
    lewis!("25x25-0.35.txt"),
    lewis!("25x25-0.40.txt"),
    lewis!("25x25-0.45.txt"),
    lewis!("25x25-0.50.txt"),
    lewis!("25x25-0.55.txt"),
    lewis!("25x25-0.60.txt"),
    lewis!("25x25-0.70.txt"),
    lewis!("25x25-0.80.txt"),
    lewis!("25x25-0.90.txt"),
];

/// The specs shipped with sudoku-lab (`experiments/*.toml`), embedded.
pub const EMBEDDED: &[(&str, &str)] = &[
    (
        "ret-ga-table1",
        include_str!("../../../../experiments/ret-ga-table1.toml"),
    ),
    (
        "ret-ga-ablation",
        include_str!("../../../../experiments/ret-ga-ablation.toml"),
    ),
    (
        "mk-ga-ablation",
        include_str!("../../../../experiments/mk-ga-ablation.toml"),
    ),
    (
        "reseda-table1",
        include_str!("../../../../experiments/reseda-table1.toml"),
    ),
    (
        "reseda-table2",
        include_str!("../../../../experiments/reseda-table2.toml"),
    ),
    (
        "reseda-table3",
        include_str!("../../../../experiments/reseda-table3.toml"),
    ),
    (
        "reseda-table5",
        include_str!("../../../../experiments/reseda-table5.toml"),
    ),
    (
        "reseda-ablation",
        include_str!("../../../../experiments/reseda-ablation.toml"),
    ),
    (
        "reseda-cell-order-easy",
        include_str!("../../../../experiments/reseda-cell-order-easy.toml"),
    ),
    (
        "reseda-cell-order-medium",
        include_str!("../../../../experiments/reseda-cell-order-medium.toml"),
    ),
    (
        "reseda-cell-order-hard",
        include_str!("../../../../experiments/reseda-cell-order-hard.toml"),
    ),
    (
        "reseda-table4",
        include_str!("../../../../experiments/reseda-table4.toml"),
    ),
    (
        "reseda-fig4",
        include_str!("../../../../experiments/reseda-fig4.toml"),
    ),
    (
        "reseda-coupling",
        include_str!("../../../../experiments/reseda-coupling.toml"),
    ),
    (
        "benbassat",
        include_str!("../../../../experiments/benbassat.toml"),
    ),
    (
        "cso-sizes",
        include_str!("../../../../experiments/cso-sizes.toml"),
    ),
    (
        "cso-sensitivity",
        include_str!("../../../../experiments/cso-sensitivity.toml"),
    ),
    (
        "cso-vs",
        include_str!("../../../../experiments/cso-vs.toml"),
    ),
    (
        "benchmark-9x9",
        include_str!("../../../../experiments/benchmark-9x9.toml"),
    ),
    (
        "lewis-sa-reheat",
        include_str!("../../../../experiments/lewis-sa-reheat.toml"),
    ),
    (
        "cso-ablation",
        include_str!("../../../../experiments/cso-ablation.toml"),
    ),
    (
        "ret-ga-tables234",
        include_str!("../../../../experiments/ret-ga-tables234.toml"),
    ),
    (
        "phase-9x9",
        include_str!("../../../../experiments/phase-9x9.toml"),
    ),
    (
        "phase-16x16",
        include_str!("../../../../experiments/phase-16x16.toml"),
    ),
    (
        "phase-25x25",
        include_str!("../../../../experiments/phase-25x25.toml"),
    ),
];

/// Published-value files (`experiments/paper/*.csv`), embedded.
pub const PAPER_FILES: &[(&str, &str)] = &[
    (
        "paper/ret-ga-table1.csv",
        include_str!("../../../../experiments/paper/ret-ga-table1.csv"),
    ),
    (
        "paper/reseda-table1.csv",
        include_str!("../../../../experiments/paper/reseda-table1.csv"),
    ),
    (
        "paper/reseda-table2.csv",
        include_str!("../../../../experiments/paper/reseda-table2.csv"),
    ),
    (
        "paper/reseda-table3.csv",
        include_str!("../../../../experiments/paper/reseda-table3.csv"),
    ),
    (
        "paper/reseda-table5.csv",
        include_str!("../../../../experiments/paper/reseda-table5.csv"),
    ),
    (
        "paper/reseda-table4.csv",
        include_str!("../../../../experiments/paper/reseda-table4.csv"),
    ),
    (
        "paper/reseda-fig4.txt",
        include_str!("../../../../experiments/paper/reseda-fig4.txt"),
    ),
    (
        "paper/reseda-coupling.csv",
        include_str!("../../../../experiments/paper/reseda-coupling.csv"),
    ),
    (
        "paper/benbassat.csv",
        include_str!("../../../../experiments/paper/benbassat.csv"),
    ),
    (
        "paper/ret-ga-table2.csv",
        include_str!("../../../../experiments/paper/ret-ga-table2.csv"),
    ),
    (
        "paper/ret-ga-table3.csv",
        include_str!("../../../../experiments/paper/ret-ga-table3.csv"),
    ),
    (
        "paper/ret-ga-table4.csv",
        include_str!("../../../../experiments/paper/ret-ga-table4.csv"),
    ),
];

pub fn embedded(id: &str) -> Result<Spec> {
    let (_, text) = EMBEDDED.iter().find(|(k, _)| *k == id).with_context(|| {
        let hint = sudoku_core::error::unknown_name_hint(id, EMBEDDED.iter().map(|e| e.0));
        format!(
            "unknown experiment '{}'{hint}",
            sudoku_core::error::shown(id)
        )
    })?;
    Spec::parse(text, &format!("experiments/{id}.toml"))
}

/// Published values for a spec (key `published`): embedded file, or a file next to a user's
/// spec.
pub fn published_text(spec: &Spec, base: Option<&Path>) -> Result<Option<String>> {
    let Some(name) = &spec.published else {
        return Ok(None);
    };
    paper_text("published", name, base).map(Some)
}

/// Largest published-values file read (the committed ones are under 10 kB).
pub const MAX_PAPER_FILE: u64 = 1 << 20;

/// A published-values file named by spec key `key`: next to a user's spec (`base`), else
/// embedded. The name was checked when the spec was parsed ([`super::check_spec_path`]);
/// errors name the key and the file, never its content.
pub fn paper_text(key: &str, name: &str, base: Option<&Path>) -> Result<String> {
    super::check_spec_path(key, name)?;
    if let Some(b) = base {
        let p = b.join(name);
        if p.symlink_metadata().is_ok() {
            return super::read_spec_file(key, &p, MAX_PAPER_FILE);
        }
    }
    PAPER_FILES
        .iter()
        .find(|(k, _)| *k == name)
        .map(|(_, t)| t.to_string())
        .with_context(|| {
            format!(
                "{key} = \"{}\": no such file beside the spec nor among the embedded published tables",
                name.escape_debug()
            )
        })
}
