//! Loading a spec's puzzles: bank puzzles, files (a user spec's own, else the embedded ones),
//! whole sets, and RESEDA's box options; and reading spec and puzzle files with size limits.

use super::embedded::EMBEDDED_PUZZLE_FILES;
use super::{Entry, Loaded, PuzzleRef, Spec, MAX_RUNS};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use sudoku_core::parse::parse_puzzles;
use sudoku_core::{bank_puzzle, Puzzle};

impl Spec {
    /// Load every puzzle; `base` is the spec's folder for relative files. Files named by the
    /// embedded specs are embedded too (see [`EMBEDDED_PUZZLE_FILES`]).
    /// `runs`: the runs of every puzzle when forced (`--quick`, `--runs`), else each entry's
    /// own `runs` or the spec's.
    pub fn load_puzzles(
        &self,
        base: Option<&Path>,
        quick: bool,
        runs: Option<u64>,
    ) -> Result<Loaded> {
        let mut loaded = Loaded {
            spec_dir: base.map(Path::to_path_buf),
            ..Loaded::default()
        };
        for (e, r) in self.puzzles.iter().enumerate() {
            let ps = expand_boxes(r, self.entry_puzzles(r, base, quick)?)?;
            if ps.is_empty() {
                bail!(
                    "puzzle '{}': the entry expands to no puzzle{}",
                    r.id,
                    match r.box_fillings {
                        Some(b) => format!(" (box {b} has no admissible filling)"),
                        None => String::new(),
                    }
                );
            }
            self.check_orders(&ps)?;
            let givens: Vec<usize> = ps.iter().map(Puzzle::givens).collect();
            loaded.entries.push(Entry {
                id: r.id.clone(),
                givens: givens.iter().all(|&g| g == givens[0]).then_some(givens[0]),
                puzzles: ps.len(),
            });
            let entry_runs = runs.unwrap_or(r.runs.unwrap_or(self.runs));
            if entry_runs == 0 {
                bail!("{}: runs must be at least 1", r.id);
            }
            for p in ps {
                loaded.runs.push(entry_runs);
                if loaded.entry_of.insert(p.id.clone(), e).is_some() {
                    bail!("puzzle id '{}' appears twice", p.id);
                }
                loaded.puzzles.push(p);
            }
        }
        loaded.algorithm_runs = (self.algorithms.iter())
            .map(|a| if runs.is_some() { None } else { a.runs })
            .collect();
        self.check_plan_size(&loaded)?;
        Ok(loaded)
    }

    /// The puzzles of entry `r` before its box options: a bank puzzle (by `bank`, else by
    /// its id), one puzzle of a file (`index`), or the first of a whole set (`all`; `take`,
    /// and `quick_set_size` under `--quick`, limit how many), each set member numbered.
    fn entry_puzzles(
        &self,
        r: &PuzzleRef,
        base: Option<&Path>,
        quick: bool,
    ) -> Result<Vec<Puzzle>> {
        let Some(f) = &r.file else {
            let mut p = bank_puzzle(r.bank.as_deref().unwrap_or(&r.id))?.clone();
            p.id = r.id.clone();
            return Ok(vec![p]);
        };
        let (text, name) =
            read_puzzle_file(f, base).with_context(|| format!("puzzle '{}'", r.id))?;
        let all = parse_puzzles(&text, &name)?;
        if r.all {
            let keep = match (quick, self.quick_set_size) {
                (true, Some(k)) => k,
                _ => usize::MAX,
            }
            .min(r.take.unwrap_or(usize::MAX));
            return Ok(all
                .into_iter()
                .take(keep)
                .enumerate()
                .map(|(k, mut p)| {
                    p.id = format!("{}-{:04}", r.id, k + 1);
                    p
                })
                .collect());
        }
        let mut p = all.get(r.index).cloned().with_context(|| {
            format!("{name}: has {} puzzles, index {} asked", all.len(), r.index)
        })?;
        p.id = r.id.clone();
        Ok(vec![p])
    }

    /// Every algorithm of the spec solves grids of the order of every puzzle in `ps`.
    fn check_orders(&self, ps: &[Puzzle]) -> Result<()> {
        for p in ps {
            for a in &self.algorithms {
                crate::algos::check_order(&a.algorithm, p.geometry().n())
                    .with_context(|| format!("algorithm '{}', puzzle '{}'", a.label, p.id))?;
            }
        }
        Ok(())
    }

    /// The whole plan (algorithms x puzzles x runs) stays within [`MAX_RUNS`] runs, and its
    /// index within the memory available ([`super::check_plan_memory`]).
    fn check_plan_size(&self, loaded: &Loaded) -> Result<()> {
        let total = loaded.total_runs();
        if total > MAX_RUNS as u128 {
            bail!(
                "runs: the plan has {total} runs (algorithms x puzzles x runs), over the limit of {MAX_RUNS}"
            );
        }
        super::check_plan_memory(total)
    }
}

/// Apply an entry's box options (see [`PuzzleRef::fix_box_from_solution`] and
/// [`PuzzleRef::box_fillings`]).
fn expand_boxes(r: &PuzzleRef, ps: Vec<Puzzle>) -> Result<Vec<Puzzle>> {
    use sudoku_core::exact::{admissible_box_fillings, unique_solution};
    let mut out = Vec::new();
    for mut p in ps {
        let n = p.geometry().n();
        if let Some(b) = r.fix_box_from_solution {
            if b >= n {
                bail!(
                    "{}: fix_box_from_solution = {b}, but boxes are 0..{}",
                    r.id,
                    n - 1
                );
            }
            let sol = match &p.solution {
                Some(s) => s.clone(),
                None => unique_solution(&p.grid).with_context(|| {
                    format!("{}: no unique solution to take box {b} from", p.id)
                })?,
            };
            let geom = p.geometry();
            for c in geom.box_cells(b) {
                p.grid.cells_mut()[c] = sol.cells()[c];
            }
            p.solution = Some(sol);
        }
        match r.box_fillings {
            None => out.push(p),
            Some(b) if b >= n => bail!("{}: box_fillings = {b}, but boxes are 0..{}", r.id, n - 1),
            Some(b) => {
                for (k, g) in admissible_box_fillings(&p.grid, b).into_iter().enumerate() {
                    let mut q = Puzzle::new(format!("{}-{:02}", p.id, k + 1), g);
                    q.solution = unique_solution(&q.grid);
                    out.push(q);
                }
            }
        }
    }
    Ok(out)
}

/// Largest puzzle file read (a million 25x25 puzzles would be ~1.3 GB; the committed sets are
/// about 1 MB each): parsing holds several times the text, so a larger file is refused
/// before it is read rather than after it has filled the memory.
pub const MAX_PUZZLE_FILE: u64 = 64 << 20;

/// The text of a puzzle file, at most [`MAX_PUZZLE_FILE`] bytes, of a regular file only.
pub fn read_capped(path: &Path) -> Result<String> {
    use std::io::Read;
    let meta = std::fs::metadata(path)
        .with_context(|| format!("cannot read puzzle file {}", path.display()))?;
    if !meta.is_file() {
        bail!("{} is not a regular file", path.display());
    }
    if meta.len() > MAX_PUZZLE_FILE {
        bail!(
            "{}: {} bytes, larger than the {} MB a puzzle file may have",
            path.display(),
            meta.len(),
            MAX_PUZZLE_FILE >> 20
        );
    }
    let mut text = String::new();
    super::open_regular(path)
        .and_then(|f| f.take(MAX_PUZZLE_FILE).read_to_string(&mut text))
        .with_context(|| {
            format!(
                "cannot read puzzle file {} (not UTF-8 text?)",
                path.display()
            )
        })?;
    Ok(text)
}

/// Largest spec file read (the committed ones are under 10 kB): `run /dev/zero` stops here
/// instead of filling the memory.
pub const MAX_SPEC_FILE: u64 = 1 << 20;

/// The text of a spec file, at most [`MAX_SPEC_FILE`] bytes.
pub fn read_spec(path: &Path) -> Result<String> {
    use std::io::Read;
    let mut bytes = Vec::new();
    super::open_regular(path)
        .and_then(|f| f.take(MAX_SPEC_FILE + 1).read_to_end(&mut bytes))
        .with_context(|| format!("cannot read {}", path.display()))?;
    if bytes.len() as u64 > MAX_SPEC_FILE {
        bail!(
            "{}: larger than the {} MB a spec may have",
            path.display(),
            MAX_SPEC_FILE >> 20
        );
    }
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "cannot read {}: not UTF-8 text (byte {})",
            path.display(),
            e.utf8_error().valid_up_to()
        )
    })
}

/// A user spec (`base` = its folder) reads its own files only; an embedded spec (or a replay
/// without a recorded folder) reads the embedded file of that name, else the path as given.
fn read_puzzle_file(f: &str, base: Option<&Path>) -> Result<(String, String)> {
    super::check_spec_path("file", f)?;
    if let Some(b) = base {
        let path = b.join(f);
        return Ok((read_capped(&path)?, path.display().to_string()));
    }
    if let Some((_, text)) = EMBEDDED_PUZZLE_FILES.iter().find(|(k, _)| *k == f) {
        return Ok((text.to_string(), format!("experiments/{f}")));
    }
    let path = PathBuf::from(f);
    Ok((read_capped(&path)?, path.display().to_string()))
}
