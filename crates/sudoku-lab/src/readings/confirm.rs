//! Confirmation of a race's answer at a second master seed.
//!
//! A race looks at a reading many times and keeps it when no look rejects it; its answer is
//! still one draw of runs. The confirmation makes a second, independent draw: the readings
//! that survived the race and those it eliminated in its last round are run again under a
//! second master seed (`--confirm-seed`, by default [`default_seed`] of the race's), at the
//! full protocol (every published row, the protocol's runs per puzzle, not `--max-runs`, at
//! the full budget), into `confirm-runs.csv` of the race folder (the row format and seeding
//! rule of `runs.csv`, appended as runs finish, read back on `--resume`; readings that make
//! the same runs share them as in the race). Each reading is then tested once against the
//! table with the race procedure's cell tests, Holm over the cells a reading can have at the
//! race's alpha. A reading is *consistent with the published table* only when it survived
//! the race and the confirmation.
//!
//! No alpha is spent over looks: the confirmation is one look at a number of runs fixed in
//! advance, on runs independent of the race's (another master seed), which only chose the
//! readings to confirm. So a reading whose runs follow the paper's distribution is rejected
//! by the confirmation with probability at most alpha (Holm over its cells, whatever their
//! dependence; the mean cells at their measured size), and declared not consistent, by the
//! race or the confirmation, with probability at most 1 - (1 - alpha)^2 < 2 alpha.

use super::cells::{capped_tests, Tally, Target, Test};
use super::procedure::{self, Procedure};
use super::race::Fate;
use super::store::{Job, Store};
use super::Setup;
use crate::protocol::io::write_atomic_with;
use crate::protocol::Protocol;
use anyhow::{bail, Context, Result};
use std::io::Write;
use std::path::Path;

/// The confirmation's run file in the race folder.
pub const RUNS: &str = "confirm-runs.csv";

/// The confirmation's verdicts in the race folder, one row per confirmed reading.
pub const CSV: &str = "confirm.csv";

/// The label hashed with the master seed into the default confirmation seed.
const LABEL: &str = "sudoku-lab readings confirmation";

/// The default master seed of a race's confirmation: a hash of the race's master seed with a
/// label ([`sudoku_core::seed::run_seed`] of (master seed, the label, "", 0)), hashed again
/// while it equals one of `avoid` (the race's master seed, the synthetic table's seed).
pub fn default_seed(master: u64, avoid: &[u64]) -> u64 {
    let mut s = sudoku_core::seed::run_seed(master, LABEL, "", 0);
    while avoid.contains(&s) {
        s = sudoku_core::seed::splitmix64(s);
    }
    s
}

/// The readings a confirmation reruns: the race's survivors and the readings eliminated in
/// its last round (`rounds` rounds), in reading order.
pub fn chosen(fates: &[Fate], rounds: usize) -> Vec<usize> {
    (0..fates.len())
        .filter(|&r| match &fates[r].eliminated {
            None => true,
            Some(e) => e.round == rounds,
        })
        .collect()
}

/// One cell of a confirmed reading: ours at the confirmation seed against the published
/// value, its p-value and its Holm-adjusted p-value.
#[derive(Debug, Clone, PartialEq)]
pub struct Cell {
    pub cell: String,
    pub ours: String,
    pub published: String,
    pub p: f64,
    pub p_holm: f64,
}

/// The confirmation of one reading.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    pub reading: usize,
    /// It survived the race (else it was eliminated in the race's last round).
    pub survived: bool,
    pub cells: Vec<Cell>,
    /// No cell's Holm-adjusted p-value is at most alpha.
    pub confirmed: bool,
}

impl Verdict {
    /// Consistent with the published table: survived the race and the confirmation.
    pub fn consistent(&self) -> bool {
        self.survived && self.confirmed
    }

    /// The cell with the smallest adjusted p-value (the first among ties).
    pub fn worst(&self) -> Option<&Cell> {
        (self.cells.iter()).fold(None, |best: Option<&Cell>, c| match best {
            Some(b) if b.p_holm <= c.p_holm => Some(b),
            _ => Some(c),
        })
    }
}

/// A race's confirmation: its seed, level, cells per reading, runs per puzzle and verdicts.
#[derive(Debug, Clone, PartialEq)]
pub struct Confirmation {
    pub seed: u64,
    pub alpha: f64,
    pub procedure: Procedure,
    /// The cells a reading can have (Holm's number of hypotheses; cells without data count
    /// as p = 1).
    pub cells: usize,
    /// Runs per race puzzle.
    pub runs: Vec<u64>,
    pub verdicts: Vec<Verdict>,
}

/// What a confirmation needs of its race.
pub struct Plan<'a> {
    pub setup: &'a Setup,
    pub targets: &'a [Target],
    pub fates: &'a [Fate],
    /// The race's number of rounds.
    pub rounds: usize,
    pub seed: u64,
}

/// Run (or resume) the confirmation into `dir`'s [`RUNS`] on `threads` threads and judge it.
pub fn run(plan: &Plan, dir: &Path, threads: usize) -> Result<Confirmation> {
    let setup = plan.setup;
    if plan.seed == setup.spec.master_seed {
        bail!("--confirm-seed must differ from the race's master seed");
    }
    let (spec, loaded) = confirm_spec(setup, plan.seed);
    let protocol = Protocol::new(&spec, &loaded, None, None)?;
    let mut store = Store::open(&dir.join(RUNS), &protocol, setup.full(), true)?;
    if setup.request.share {
        store.share(setup.shared_runs());
    }
    let readings = chosen(plan.fates, plan.rounds);
    store.execute(Some(&protocol), &jobs(plan, &readings), threads)?;
    store.finish(&protocol)?;
    Ok(judge(plan, &store, &readings))
}

/// The confirmation's spec and puzzles: the race's readings under the confirmation's master
/// seed, the protocol's runs per puzzle (not `--max-runs`).
pub fn confirm_spec(setup: &Setup, seed: u64) -> (crate::spec::Spec, crate::spec::Loaded) {
    let mut spec = setup.spec.clone();
    spec.master_seed = seed;
    let loaded = super::loaded(&spec, &setup.loaded.puzzles, setup.protocol_runs.clone());
    (spec, loaded)
}

/// Every full-budget run of `readings` on every (entry, puzzle) a target tests.
fn jobs(plan: &Plan, readings: &[usize]) -> Vec<Job> {
    let setup = plan.setup;
    let mut pairs: Vec<(usize, usize)> = plan.targets.iter().map(|t| (t.entry, t.puzzle)).collect();
    pairs.sort_unstable();
    pairs.dedup();
    let mut jobs = Vec::new();
    for &r in readings {
        for &(e, p) in &pairs {
            for run in 0..setup.protocol_runs[p] {
                jobs.push((setup.solver(r, e) as u32, p as u32, run, setup.full()));
            }
        }
    }
    jobs
}

/// The verdicts of `readings` from their runs in `store`: every cell of every target, as
/// the race's full stage tests it, Holm over the cells a reading can have at alpha.
pub fn judge(plan: &Plan, store: &Store, readings: &[usize]) -> Confirmation {
    let setup = plan.setup;
    let request = &setup.request;
    let cells = plan.targets.iter().map(procedure::cells_of).sum::<usize>();
    let verdicts = (readings.iter())
        .map(|&r| {
            let mut found: Vec<(Test, (String, String))> = Vec::new();
            for t in plan.targets {
                let x = tally(setup, store, r, t);
                let mut tests = Vec::new();
                capped_tests(t, &x, &mut tests);
                match request.procedure {
                    Procedure::V1 => super::cells::full_tests(t, &x, &mut tests),
                    Procedure::V2 => procedure::full_tests(t, &x, &mut tests),
                }
                found.extend(tests.into_iter().map(|test| {
                    let shown = describe(t, &x, &test.cell);
                    (test, shown)
                }));
            }
            verdict(
                r,
                plan.fates[r].eliminated.is_none(),
                found,
                cells,
                request.alpha,
            )
        })
        .collect();
    Confirmation {
        seed: plan.seed,
        alpha: request.alpha,
        procedure: request.procedure,
        cells: cells.max(1),
        runs: setup.protocol_runs.clone(),
        verdicts,
    }
}

/// Runs 0..the protocol's runs of reading `r` on target `t`, at the full budget.
fn tally(setup: &Setup, store: &Store, r: usize, t: &Target) -> Tally {
    let mut x = Tally::default();
    let solver = setup.solver(r, t.entry) as u32;
    for run in 0..setup.protocol_runs[t.puzzle] {
        if let Some(s) = store.seen(solver, t.puzzle as u32, run, setup.full()) {
            x.add(t, s.solved, s.generations, s.counter);
        }
    }
    x
}

/// A reading's verdict from its tests: Holm over `cells` hypotheses (the tests, and p = 1
/// for the cells without data), confirmed when no adjusted p-value is at most `alpha`.
fn verdict(
    reading: usize,
    survived: bool,
    found: Vec<(Test, (String, String))>,
    cells: usize,
    alpha: f64,
) -> Verdict {
    let mut ps: Vec<f64> = found.iter().map(|(t, _)| t.p).collect();
    let n = ps.len();
    ps.resize(n.max(cells), 1.0);
    let adjusted = lab_stats::holm_adjust(&ps);
    let cells: Vec<Cell> = (found.into_iter().zip(adjusted))
        .map(|((t, (ours, published)), q)| Cell {
            cell: t.cell,
            ours,
            published,
            p: t.p,
            p_holm: q,
        })
        .collect();
    let confirmed = cells.iter().all(|c| c.p_holm > alpha);
    Verdict {
        reading,
        survived,
        cells,
        confirmed,
    }
}

/// A cell's values in words: ours (from the tally) and the published one (from the row).
fn describe(t: &Target, x: &Tally, cell: &str) -> (String, String) {
    let r = &t.row;
    let (s, n) = (r.count.unwrap_or(0), r.runs.unwrap_or(0));
    let mean =
        |v: &[f64]| lab_stats::summarize(v).map_or("-".to_string(), |m| format!("{:.2}", m.mean));
    let num = |v: Option<f64>| v.map_or("-".to_string(), |v| format!("{v}"));
    match cell.rsplit('/').next().unwrap_or("") {
        "solved_by_cap" => (
            format!("{}/{} within {}", x.by_cap, x.runs, t.cap.unwrap_or(0)),
            format!("at least {}/{n}", t.by_cap_bound.unwrap_or(0)),
        ),
        "solved_by_max" => (
            format!("{}/{} by {}", x.by_max, x.runs, num(r.maximum)),
            format!("{s}/{n}"),
        ),
        "solved_by_median" => (
            format!("{}/{} by {}", x.by_median, x.runs, num(r.median)),
            format!("at least {}/{n}", s.div_ceil(2)),
        ),
        "count" => (format!("{}/{}", x.solved, x.runs), format!("{s}/{n}")),
        "mean" => (
            format!("mean {} of {}", mean(&x.values), x.values.len()),
            format!("mean {} (SD {}) of {n}", num(r.average), num(r.sd)),
        ),
        _ => (
            format!("mean {} of {}", mean(&x.generations), x.generations.len()),
            format!("mean {} (SD {}) of {s}", num(r.average), num(r.sd)),
        ),
    }
}

/// confirm.csv: per confirmed reading its options, the race's status, the cell with the
/// smallest adjusted p-value at the confirmation and that p-value, the confirmation's
/// verdict, and whether it is consistent (both).
pub fn write_csv(path: &Path, setup: &Setup, c: &Confirmation) -> Result<()> {
    let space = &setup.space;
    write_atomic_with(path, |out| {
        writeln!(
            out,
            "reading,{},race,confirm_seed,cell,p_holm,confirmation,consistent",
            space.keys.join(",")
        )?;
        for v in &c.verdicts {
            let worst = v.worst();
            writeln!(
                out,
                "{},{},{},{},{},{},{},{}",
                space.id(v.reading),
                space.texts(v.reading).join(","),
                if v.survived { "survived" } else { "eliminated" },
                c.seed,
                worst.map(|w| csv_text(&w.cell)).unwrap_or_default(),
                worst
                    .map(|w| format!("{:.3e}", w.p_holm))
                    .unwrap_or_default(),
                if v.confirmed { "confirmed" } else { "rejected" },
                if v.consistent() { "yes" } else { "no" },
            )?;
        }
        Ok(())
    })
}

/// A field quoted when it holds a comma, a quote or a line break.
fn csv_text(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// The verdicts a race folder's confirm.csv records, in its order: (reading id, survived
/// the race, consistent); None when the folder has no confirm.csv. Hostile like every file
/// the tool reads: a link, a header without `reading` first and `race`, `confirmation` and
/// `consistent` columns, a row of another length or an unknown value is refused, naming the
/// file and line.
pub fn read_verdicts(dir: &Path) -> Result<Option<Vec<(String, bool, bool)>>> {
    let path = dir.join(CSV);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(None);
    }
    crate::protocol::io::check_regular(&path)?;
    let text = crate::spec::read_spec(&path)?;
    let mut rdr = csv::ReaderBuilder::new()
        .has_headers(false)
        .flexible(true)
        .from_reader(text.as_bytes());
    let mut rows = Vec::new();
    for (i, rec) in rdr.records().enumerate() {
        let rec = rec.with_context(|| format!("{}:{}: not CSV", path.display(), i + 1))?;
        rows.push(rec.iter().map(str::to_string).collect::<Vec<_>>());
    }
    let Some((head, body)) = rows.split_first() else {
        bail!("{}: empty", path.display());
    };
    let col = |name: &str| head.iter().position(|h| h == name);
    let (Some(race), Some(consistent)) = (col("race"), col("consistent")) else {
        bail!("{}:1: not the header of a confirm.csv", path.display());
    };
    if head[0] != "reading" || col("confirmation").is_none() {
        bail!("{}:1: not the header of a confirm.csv", path.display());
    }
    let mut out = Vec::new();
    for (i, row) in body.iter().enumerate() {
        let at = || format!("{}:{}", path.display(), i + 2);
        if row.len() != head.len() {
            bail!("{}: {} fields, expected {}", at(), row.len(), head.len());
        }
        let survived = match row[race].as_str() {
            "survived" => true,
            "eliminated" => false,
            o => bail!(
                "{}: race '{}' is not survived or eliminated",
                at(),
                o.escape_debug()
            ),
        };
        let yes = match row[consistent].as_str() {
            "yes" => true,
            "no" => false,
            o => bail!(
                "{}: consistent '{}' is not yes or no",
                at(),
                o.escape_debug()
            ),
        };
        if yes && !survived {
            bail!("{}: consistent, but eliminated in the race", at());
        }
        out.push((row[0].clone(), survived, yes));
    }
    Ok(Some(out))
}

/// Per survivor of a race folder (`survivors` of them, in readings.csv's order), what its
/// confirmation says, for the site and the README: "consistent (both seeds)" or "survived
/// the race, not confirmed"; empty texts when the folder has no confirm.csv. A confirm.csv
/// whose survivors are not the race's is refused, naming it.
pub fn survivor_marks(dir: &Path, survivors: usize) -> Result<Vec<&'static str>> {
    let Some(verdicts) = read_verdicts(dir)? else {
        return Ok(vec![""; survivors]);
    };
    let marks: Vec<&'static str> = (verdicts.iter())
        .filter(|v| v.1)
        .map(|v| match v.2 {
            true => "consistent (both seeds)",
            false => "survived the race, not confirmed",
        })
        .collect();
    if marks.len() != survivors {
        bail!(
            "{}: {} survivors, but readings.csv has {survivors}",
            dir.join(CSV).display(),
            marks.len()
        );
    }
    Ok(marks)
}
