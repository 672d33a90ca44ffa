//! The anytime data of a results folder in the IOHprofiler format.
//!
//! # The format
//!
//! The format is the one IOHexperimenter's `Analyzer` logger writes (its JSON meta-data
//! variant, IOHexperimenter 0.3.x) and that IOHanalyzer and iohinspector read. Sources:
//!
//! - IOHanalyzer's data-format page, "IOHprofiler data format"
//!   (<https://iohprofiler.github.io/IOHanalyzer/data/>): raw data grouped in
//!   `data_f<function id>_<function name>/` folders, files `IOHprofiler_f<id>_DIM<d>.dat` (the
//!   page's pattern reads `_DIM_<d>`, its examples and every writer `_DIM<d>`), one block a
//!   run, each headed by a separation line; the target-based `.dat` gets a line when the
//!   best-so-far value improves, and "a block of records ... MUST end with the last function
//!   evaluation, if the target value is not reached in this run" (needed for ERT).
//! - IOHexperimenter's `include/ioh/logger/analyzer.hpp` (the `v2` Analyzer, JSON meta-data)
//!   and the files `ioh` 0.3.22 writes (checked: `scripts/ioh-check.sh` runs the maintained
//!   reader on this output): one `IOHprofiler_f<id>_<name>.json` per function with `version`,
//!   `suite`, `function_id`, `function_name`, `maximization`, `algorithm {name, info}`,
//!   optional `experiment_attributes` (a list of one-key objects) and `run_attributes`,
//!   `attributes` (the `.dat` columns: `["evaluations", "raw_y"]`) and `scenarios`: one per
//!   dimension with `dimension`, `path` (of the `.dat`, relative to the json) and `runs`, each
//!   `{instance, evals, best: {evals, y, x}}`; the `.dat` blocks start with the header line
//!   `evaluations raw_y` and hold `<evaluations> <raw_y>` rows, raw_y with ten decimals.
//! - iohinspector 0.0.8 (`iohinspector/data.py`, the reader pinned by `scripts/ioh-check.sh`):
//!   requires every key above but the attribute lists, builds `best` as `Solution(evals, x, y)`
//!   (so `x` is required), pairs the n-th json run of a scenario with the n-th `.dat` block,
//!   and starts a new block at each row whose `evaluations` is 1, as IOHexperimenter's
//!   files always do (the first evaluation is always an improvement).
//!
//! # Mapping
//!
//! - Suite: the results folder, `suite` = the experiment id (one IOH experiment = one folder).
//! - Algorithm: the algorithm label of runs.csv, one output sub-folder per label as
//!   IOHexperimenter makes one folder per logger; `algorithm.info` = the spec's algorithm name,
//!   options and budget from meta.json.
//! - Function: the puzzle. Function ids 1, 2, ... in order of first appearance in runs.csv,
//!   the same id for every algorithm (IOHanalyzer compares algorithms on equal ids), function
//!   name = puzzle id. Minimisation (`maximization: false`): raw_y is the penalty, the values
//!   missing from rows, columns and boxes, 0 = solved.
//! - Dimension: the number of cells (81 for 9x9). IOH's dimension is the length of the search
//!   point `x` (`n_variables`); the algorithms search over whole grids (givens fixed), and
//!   `best.x` here is that grid, so its length must be the dimension. It is also the same for
//!   every puzzle of one order, so IOHanalyzer's per-dimension views separate grid orders
//!   (6x6, 9x9, 12x12), whereas the number of free cells would differ from puzzle to puzzle and
//!   say no more than the function id (one puzzle per function).
//! - Instance: 1. An IOH instance is a transformed variant of a function (BBOB shifts and
//!   rotations, PBO offsets); a puzzle has none, and the runs of a puzzle are independent
//!   repetitions on one problem, which IOHexperimenter records as runs of one instance.
//! - Runs: in runs.csv order, in the json's `runs` and as `.dat` blocks alike; `evals` = the
//!   run's evaluations in runs.csv (the budget used); `best` = the block's first row with its
//!   smallest raw_y (`evals`, `y`: the last improvement) and `x` = the run's final grid
//!   (runs.csv `grid`, symbols as numbers, 0 blank) when that grid has penalty `y`, else `[]`
//!   (the trajectory keeps penalties, not grids). Run attribute `run` = the run index of
//!   runs.csv, to find a run's row (and seed) again.
//!
//! # The `.dat` rows of a run
//!
//! The rows of trajectories.csv (each a strict improvement of the best penalty so far), with
//! two additions the format needs, neither claiming more than the data show:
//!
//! - A first row at evaluation 1 when the trajectory starts later (the runner records the best
//!   grid after each generation, so the first row comes after a whole population). Its raw_y is
//!   `3 n^2` for an n x n grid (every unit missing every symbol), the largest penalty any grid
//!   can have, an upper bound of the unknown value, so that each row's evaluation count stays
//!   an upper bound of the true time to reach its value, as for every later row logged once a
//!   generation.
//! - A last row at the run's final evaluation count when it is past the last improvement
//!   (IOHanalyzer: a block must end with the last evaluation). Its raw_y is the best penalty so
//!   far: the smaller of the trajectory's last and the penalty of the final grid of runs.csv.
//!   IOHexperimenter writes the current (last evaluated) value there, which the runner does not
//!   record; readers take the running minimum, on which both agree.
//!
//! So in every block evaluations strictly increase and raw_y strictly decreases, except that
//! the last row may repeat the previous value.

use crate::protocol::io::{for_each_row, write_atomic, Row};
use anyhow::{bail, Context, Result};
use serde::{Deserialize, Serialize};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use sudoku_core::fitness::missing_symbols_cost;
use sudoku_core::{Geometry, Grid, Units};

/// The header trajectories.csv must have.
pub const TRAJECTORY_HEADER: &str = "experiment,algorithm,puzzle,run,evaluations,penalty";

/// The IOHexperimenter release whose Analyzer output this reproduces (the `version` field).
const IOH_VERSION: &str = "0.3.22";

/// The header line of each `.dat` block.
const DAT_HEADER: &str = "evaluations raw_y";

/// A file that marks a folder as written by this export, so that a later export may replace
/// it whole (readers load every json below a folder: stale files must not survive).
const MARKER: &str = "sudoku-lab-export.txt";

#[derive(Debug, Deserialize)]
struct TrajectoryRow {
    experiment: String,
    algorithm: String,
    puzzle: String,
    run: u64,
    evaluations: u64,
    penalty: u64,
}

/// One run: its runs.csv row and its `.dat` rows (evaluations, raw_y).
struct Run {
    row: Row,
    /// 1-based line in runs.csv (for messages).
    line: usize,
    geom: Geometry,
    points: Vec<(u64, u64)>,
    best_x: Vec<u8>,
}

#[derive(Serialize)]
struct BestJson<'a> {
    evals: u64,
    y: f64,
    x: &'a [u8],
}

#[derive(Serialize)]
struct RunJson<'a> {
    instance: u32,
    evals: u64,
    best: BestJson<'a>,
    run: u64,
}

/// A file or folder name from a label or puzzle id: characters other than ASCII letters,
/// digits, `.`, `_`, `+` and `-` become `_` (the json keeps the real names).
fn file_name(s: &str) -> String {
    let s: String = s
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '.' | '_' | '+' | '-') {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with('.') {
        format!("_{s}")
    } else {
        s
    }
}

/// `algorithm.info`: the spec entry of a label in meta.json (algorithm, options, budget).
fn algorithm_info(meta: &serde_json::Value, label: &str) -> String {
    let Some(a) = meta["spec"]["algorithms"]
        .as_array()
        .and_then(|v| v.iter().find(|a| a["label"] == label))
    else {
        return String::new();
    };
    let mut parts = vec![a["algorithm"].as_str().unwrap_or(label).to_string()];
    if let Some(params) = a["params"].as_object() {
        parts.extend(params.iter().map(|(k, v)| format!("{k}={v}")));
    }
    for key in ["max_generations", "max_evaluations"] {
        if let Some(v) = a[key].as_u64() {
            parts.push(format!("{key}={v}"));
        }
    }
    parts.join("; ")
}

/// Runs by (algorithm, puzzle, run index): their position in runs.csv order.
type RunIndex = HashMap<(String, String, u64), usize>;

/// Read runs.csv: the runs in file order and their index.
fn read_runs(path: &Path) -> Result<(Vec<Run>, RunIndex)> {
    let mut runs = Vec::new();
    let mut index = HashMap::new();
    let mut line = 1;
    for_each_row(path, |row| {
        line += 1;
        let geom = Geometry::for_cell_count(row.grid.chars().count())
            .and_then(|g| Grid::from_line(g, &row.grid).map(|_| g))
            .with_context(|| format!("{}:{line}: grid is not a Sudoku grid", path.display()))?;
        let key = (row.algorithm.clone(), row.puzzle.clone(), row.run);
        if index.insert(key, runs.len()).is_some() {
            bail!(
                "{}:{line}: run {} of {} on {} appears twice",
                path.display(),
                row.run,
                row.algorithm,
                row.puzzle
            );
        }
        runs.push(Run {
            row,
            line,
            geom,
            points: Vec::new(),
            best_x: Vec::new(),
        });
        Ok(())
    })?;
    if runs.is_empty() {
        bail!("{}: no runs", path.display());
    }
    Ok((runs, index))
}

/// Read trajectories.csv into the runs' points, checking the header, that every row belongs
/// to a run of runs.csv, and that each run's rows improve in increasing evaluations.
fn read_trajectories(path: &Path, runs: &mut [Run], index: &RunIndex) -> Result<()> {
    let mut reader = csv::ReaderBuilder::new().has_headers(true).from_reader(
        crate::spec::open_regular(path)
            .with_context(|| format!("cannot open {}", path.display()))?,
    );
    let header = reader
        .headers()
        .map_err(|e| anyhow::anyhow!("{}: malformed CSV: {e}", path.display()))?;
    let header: Vec<&str> = header.iter().collect();
    if header.join(",") != TRAJECTORY_HEADER {
        bail!(
            "{}: unexpected header (expected {TRAJECTORY_HEADER})",
            path.display()
        );
    }
    for record in reader.deserialize::<TrajectoryRow>() {
        let t = record.map_err(|e| anyhow::anyhow!("{}: malformed row: {e}", path.display()))?;
        let at = || {
            format!(
                "{}: run {} of {} on {}",
                path.display(),
                t.run,
                t.algorithm,
                t.puzzle
            )
        };
        let Some(&i) = index.get(&(t.algorithm.clone(), t.puzzle.clone(), t.run)) else {
            bail!("{} has no row in runs.csv", at());
        };
        let run = &mut runs[i];
        if t.experiment != run.row.experiment {
            bail!(
                "{}: experiment {} here, {} in runs.csv",
                at(),
                t.experiment,
                run.row.experiment
            );
        }
        let n = run.geom.n() as u64;
        if t.penalty > 3 * n * n {
            bail!(
                "{}: penalty {} above the largest possible, {}",
                at(),
                t.penalty,
                3 * n * n
            );
        }
        if t.evaluations == 0 {
            bail!("{}: evaluations must be at least 1", at());
        }
        if t.evaluations > run.row.evaluations {
            bail!(
                "{}: {} evaluations, past the run's {} in runs.csv",
                at(),
                t.evaluations,
                run.row.evaluations
            );
        }
        if let Some(&(e, p)) = run.points.last() {
            if t.evaluations <= e {
                bail!(
                    "{}: rows not in increasing evaluations ({} after {e})",
                    at(),
                    t.evaluations
                );
            }
            if t.penalty >= p {
                bail!(
                    "{}: penalty {} at {} evaluations is no improvement on {p}",
                    at(),
                    t.penalty,
                    t.evaluations
                );
            }
        }
        run.points.push((t.evaluations, t.penalty));
    }
    Ok(())
}

/// Complete a run's points into its `.dat` block (see the module docs) and set `best_x`.
fn complete(run: &mut Run, runs_csv: &Path) -> Result<()> {
    let (first_e, _) = *run.points.first().with_context(|| {
        format!(
            "trajectories.csv has no rows for run {} of {} on {} ({}:{}); rerun the experiment \
             with `anytime = true`",
            run.row.run,
            run.row.algorithm,
            run.row.puzzle,
            runs_csv.display(),
            run.line
        )
    })?;
    let n = run.geom.n() as u64;
    let grid = Grid::from_line(run.geom, &run.row.grid).expect("checked when read");
    let final_penalty = u64::from(missing_symbols_cost(&Units::new(run.geom), grid.cells()));
    let (best_e, best_y) = *run.points.last().expect("not empty");
    if final_penalty == best_y {
        run.best_x = grid.cells().to_vec();
    }
    if first_e > 1 {
        if run.points[0].1 < 3 * n * n {
            run.points.insert(0, (1, 3 * n * n));
        } else {
            run.points[0].0 = 1;
        }
    }
    let end = run.row.evaluations;
    let last_y = best_y.min(final_penalty);
    if end > best_e {
        run.points.push((end, last_y));
    } else if let Some(last) = run.points.last_mut() {
        last.1 = last_y;
    }
    if final_penalty < best_y {
        // The final grid beats the trajectory: the best is the final grid at the end.
        run.best_x = grid.cells().to_vec();
    }
    Ok(())
}

/// One function (puzzle) of one algorithm: the json text and the `.dat` text.
fn function_files(
    meta: &serde_json::Value,
    experiment: &str,
    algorithm: &str,
    fid: usize,
    puzzle: &str,
    runs: &[&Run],
) -> Result<(String, String, String)> {
    let dimension = runs[0].geom.cells();
    if let Some(r) = runs.iter().find(|r| r.geom.cells() != dimension) {
        bail!(
            "runs.csv:{}: puzzle {puzzle} has grids of {} and {} cells",
            r.line,
            dimension,
            r.geom.cells()
        );
    }
    let dat_dir = format!("data_f{fid}_{}", file_name(puzzle));
    let dat_path = format!("{dat_dir}/IOHprofiler_f{fid}_DIM{dimension}.dat");
    let mut dat = String::new();
    for r in runs {
        dat.push_str(DAT_HEADER);
        dat.push('\n');
        for (e, y) in &r.points {
            dat.push_str(&format!("{e} {y}.0000000000\n"));
        }
    }
    let runs_json = runs
        .iter()
        .map(|r| {
            let (e, y) = best_point(&r.points);
            serde_json::to_string(&RunJson {
                instance: 1,
                evals: r.row.evaluations,
                best: BestJson {
                    evals: e,
                    y: y as f64,
                    x: &r.best_x,
                },
                run: r.row.run,
            })
        })
        .collect::<serde_json::Result<Vec<_>>>()?;
    // Laid out as IOHexperimenter lays it out: a key a line, a run a line.
    let str = |s: &str| serde_json::Value::from(s).to_string();
    let json = format!(
        "{{\n\t\"version\": {},\n\t\"suite\": {},\n\t\"function_id\": {fid},\n\t\"function_name\": {},\n\t\"maximization\": false,\n\t\"algorithm\": {{\"name\": {}, \"info\": {}}},\n\t\"experiment_attributes\": [{{\"experiment\": {}}}],\n\t\"run_attributes\": [\"run\"],\n\t\"attributes\": [\"evaluations\", \"raw_y\"],\n\t\"scenarios\": [\n\t\t{{\"dimension\": {dimension},\n\t\t\"path\": {},\n\t\t\"runs\": [\n\t\t\t{}\n\t\t]}}\n\t]\n}}\n",
        str(IOH_VERSION),
        str(experiment),
        str(puzzle),
        str(algorithm),
        str(&algorithm_info(meta, algorithm)),
        str(experiment),
        str(&dat_path),
        runs_json.join(",\n\t\t\t"),
    );
    Ok((json, dat_path, dat))
}

/// The first point with the block's smallest raw_y (where the best was found).
fn best_point(points: &[(u64, u64)]) -> (u64, u64) {
    let y = points.iter().map(|p| p.1).min().expect("not empty");
    *points.iter().find(|p| p.1 == y).expect("present")
}

/// Export `dir` (runs.csv, trajectories.csv, meta.json) as IOHprofiler data into `out`.
pub fn export(dir: &Path, experiment: &str, out: &Path) -> Result<()> {
    let (meta, runs) = read_results(dir)?;
    let groups = group_runs(&runs);
    check_folders(&groups.algorithms)?;
    // Everything is built in memory first, then written to a fresh folder swapped in whole.
    let mut files = function_files_of(&meta, experiment, &groups)?;
    files.push((PathBuf::from(MARKER), marker_text(experiment, dir)));
    write_folder(out, &files)?;
    let text = format!(
        "{} runs ({} algorithms x {} puzzles) of {} as IOHprofiler data in {}",
        runs.len(),
        groups.algorithms.len(),
        groups.functions.len(),
        dir.display(),
        out.display()
    );
    println!("{}", sudoku_core::error::shown(&text));
    let names: Vec<PathBuf> = files.iter().map(|(rel, _)| rel.clone()).collect();
    super::print_written(out, &names);
    Ok(())
}

/// meta.json and the runs of results folder `dir`, each run completed into its `.dat` block
/// (trajectories.csv is checked first: without it there is nothing to export).
fn read_results(dir: &Path) -> Result<(serde_json::Value, Vec<Run>)> {
    let traj_path = dir.join("trajectories.csv");
    if !traj_path.is_file() {
        bail!(
            "{}: no trajectories.csv (the anytime data the IOH format needs); rerun the \
             experiment with `anytime = true` in its spec",
            dir.display()
        );
    }
    let runs_path = dir.join("runs.csv");
    let meta_path = dir.join("meta.json");
    if !meta_path.is_file() {
        bail!("{}: no meta.json", dir.display());
    }
    let meta = crate::protocol::meta::read_json(&meta_path)?;
    let (mut runs, index) = read_runs(&runs_path)?;
    read_trajectories(&traj_path, &mut runs, &index)?;
    for run in &mut runs {
        complete(run, &runs_path)?;
    }
    Ok((meta, runs))
}

/// The runs as the output lays them out.
struct Groups<'a> {
    /// Functions (puzzle ids) in order of first appearance; function id = position + 1.
    functions: Vec<&'a str>,
    /// Algorithm labels in order of first appearance.
    algorithms: Vec<&'a str>,
    /// Per algorithm, per function, the runs in runs.csv order (trailing functions an
    /// algorithm has no run of are absent, others empty).
    runs: Vec<Vec<Vec<&'a Run>>>,
}

/// Group `runs` by algorithm and function (see [`Groups`]).
fn group_runs(runs: &[Run]) -> Groups<'_> {
    let mut functions: Vec<&str> = Vec::new();
    let mut algorithms: Vec<&str> = Vec::new();
    let mut fid_of: HashMap<&str, usize> = HashMap::new();
    let mut alg_of: HashMap<&str, usize> = HashMap::new();
    let mut groups: Vec<Vec<Vec<&Run>>> = Vec::new();
    for r in runs {
        let f = *fid_of.entry(&r.row.puzzle).or_insert_with(|| {
            functions.push(&r.row.puzzle);
            functions.len() - 1
        });
        let a = *alg_of.entry(&r.row.algorithm).or_insert_with(|| {
            algorithms.push(&r.row.algorithm);
            groups.push(Vec::new());
            algorithms.len() - 1
        });
        if groups[a].len() <= f {
            groups[a].resize_with(f + 1, Vec::new);
        }
        groups[a][f].push(r);
    }
    Groups {
        functions,
        algorithms,
        runs: groups,
    }
}

/// No two algorithm labels may map to the same folder name (see [`file_name`]).
fn check_folders(algorithms: &[&str]) -> Result<()> {
    let mut folders: HashMap<String, &str> = HashMap::new();
    for a in algorithms {
        if let Some(other) = folders.insert(file_name(a), a) {
            bail!(
                "algorithms {other} and {a} would share the folder {}",
                file_name(a)
            );
        }
    }
    Ok(())
}

/// The json and `.dat` files of every (algorithm, function) with runs, as paths relative to
/// the output folder: one folder per algorithm.
fn function_files_of(
    meta: &serde_json::Value,
    experiment: &str,
    groups: &Groups,
) -> Result<Vec<(PathBuf, String)>> {
    let mut files: Vec<(PathBuf, String)> = Vec::new();
    for (a, by_function) in groups.algorithms.iter().zip(&groups.runs) {
        let folder = PathBuf::from(file_name(a));
        for (i, of) in by_function.iter().enumerate() {
            if of.is_empty() {
                continue;
            }
            let (fid, f) = (i + 1, groups.functions[i]);
            let (json, dat_path, dat) = function_files(meta, experiment, a, fid, f, of)?;
            let json_name = format!("IOHprofiler_f{fid}_{}.json", file_name(f));
            files.push((folder.join(json_name), json));
            files.push((folder.join(dat_path), dat));
        }
    }
    Ok(files)
}

/// The text of the [`MARKER`] file: what the folder holds and that a later export replaces it.
fn marker_text(experiment: &str, dir: &Path) -> String {
    format!(
        "IOHprofiler data of experiment {experiment}, written by `sudoku-lab export --format \
         ioh` from {}.\nOne folder per algorithm; load this folder with iohinspector \
         (DataManager().add_folder) or IOHanalyzer.\nA later export replaces this folder \
         whole.\n",
        dir.display()
    )
}

/// Write `files` (relative paths) into a new folder beside `out`, then put it in place of
/// `out`: a folder of an earlier export (with the marker) or an empty one is replaced,
/// anything else is left alone with an error.
fn write_folder(out: &Path, files: &[(PathBuf, String)]) -> Result<()> {
    if out.exists() {
        let empty = std::fs::read_dir(out)
            .map(|mut d| d.next().is_none())
            .unwrap_or(false);
        if !out.is_dir() || !(empty || out.join(MARKER).is_file()) {
            bail!(
                "{}: exists and is not an earlier IOH export (no {MARKER}); remove it or give \
                 another --out",
                out.display()
            );
        }
    }
    let parent = match out.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&parent)
        .with_context(|| format!("cannot create {}", parent.display()))?;
    let name = out
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or("ioh")
        .to_string();
    let tmp = parent.join(format!(".{name}.tmp-{}", std::process::id()));
    let old = parent.join(format!(".{name}.old-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&tmp);
    let result = (|| -> Result<()> {
        for (rel, text) in files {
            let path = tmp.join(rel);
            let folder = path.parent().expect("inside tmp");
            std::fs::create_dir_all(folder)
                .with_context(|| format!("cannot create {}", folder.display()))?;
            write_atomic(&path, text.as_bytes())?;
        }
        if out.exists() {
            std::fs::rename(out, &old)
                .with_context(|| format!("cannot replace {}", out.display()))?;
        }
        std::fs::rename(&tmp, out).with_context(|| format!("cannot create {}", out.display()))?;
        let _ = std::fs::remove_dir_all(&old);
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
        if old.exists() && !out.exists() {
            let _ = std::fs::rename(&old, out);
        }
    }
    result
}
