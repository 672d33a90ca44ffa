//! What `reproduce` (and `run`, `merge`) says when it ends: the files it wrote, and how many
//! published cells the comparison it just wrote finds in agreement.

use std::collections::HashMap;
use std::path::Path;

/// The files of a folder as they were before a protocol: (inode, modification time, length)
/// by name. Every file sudoku-lab replaces gets a new inode (atomic rename), and an appended
/// one a new length and time, so a file is "written" when any of the three changed.
pub struct Snapshot(HashMap<String, (u64, Option<std::time::SystemTime>, u64)>);

impl Snapshot {
    /// The regular files of `dir` now (none when it does not exist yet).
    pub fn of(dir: &Path) -> Snapshot {
        Snapshot(files(dir).collect())
    }
}

fn files(dir: &Path) -> impl Iterator<Item = (String, (u64, Option<std::time::SystemTime>, u64))> {
    std::fs::read_dir(dir)
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            let m = std::fs::symlink_metadata(e.path()).ok()?;
            if !m.is_file() || name.starts_with('.') {
                return None;
            }
            #[cfg(unix)]
            let inode = std::os::unix::fs::MetadataExt::ino(&m);
            #[cfg(not(unix))]
            let inode = 0;
            Some((name, (inode, m.modified().ok(), m.len())))
        })
}

/// Print (stdout) the files of `dir` written since `before`, sorted, and the agreement line
/// of its comparison with published values when it has one. `shown` names the folder.
pub fn print(dir: &Path, shown: &Path, before: &Snapshot) {
    let mut written: Vec<String> = files(dir)
        .filter(|(name, now)| before.0.get(name) != Some(now))
        .map(|(name, _)| name)
        .collect();
    written.sort();
    println!(
        "{}",
        sudoku_core::error::shown(&format!(
            "wrote {} files in {}: {}",
            written.len(),
            shown.display(),
            written.join(", ")
        ))
    );
    for name in ["comparison.csv", "levels.csv"] {
        if written.iter().any(|w| w == name) {
            if let Some(line) = agreement(&dir.join(name)) {
                println!("{}", sudoku_core::error::shown(&line));
            }
        }
    }
}

/// One line counting the `verdict` column of a comparison with published values: cells with
/// no significant difference (or a claimed trend confirmed), cells that differ (ours higher,
/// ours lower), and cells without a test (descriptive, n/a). None when the file has no
/// `verdict` column or no rows.
pub fn agreement(path: &Path) -> Option<String> {
    let mut r = csv::Reader::from_path(path).ok()?;
    let col = r.headers().ok()?.iter().position(|h| h == "verdict")?;
    let (mut same, mut low_power, mut higher, mut lower, mut differ, mut untested) =
        (0, 0, 0, 0, 0, 0);
    for rec in r.records() {
        let rec = rec.ok()?;
        let v = rec.get(col)?;
        if v.starts_with("no significant difference")
            || v.starts_with("no difference")
            || v.ends_with("as claimed")
        {
            same += 1;
            low_power += usize::from(v.contains("low power"));
        } else if v.starts_with("differs") {
            differ += 1;
            higher += usize::from(v.contains("ours higher"));
            lower += usize::from(v.contains("ours lower"));
        } else {
            untested += 1;
        }
    }
    let tested = same + differ;
    if tested + untested == 0 {
        return None;
    }
    let name = path.file_name()?.to_string_lossy();
    let mut s = format!(
        "{same} of {tested} tested published cells: no significant difference ({low_power} with low power), {differ} differ ({higher} ours higher, {lower} ours lower)"
    );
    if untested > 0 {
        s.push_str(&format!(
            "; {untested} more without a test (descriptive or n/a)"
        ));
    }
    s.push_str(&format!("; from {name}"));
    Some(s)
}
