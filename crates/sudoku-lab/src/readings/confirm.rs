//! Confirmation of a race's answer at a second master seed.
//!
//! A race looks at a reading many times and keeps it when no look rejects it; its answer is
//! still one draw of runs. The confirmation makes a second, independent draw: the readings
//! that survived the race and those it eliminated in the last round it ran are run again under a
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
use super::procedure::Procedure;
use super::race::Fate;
use super::store::{Job, Record, Store};
use super::{Access, Setup};
use crate::protocol::io::write_atomic_with;
use crate::protocol::Protocol;
use anyhow::{bail, Context, Result};
use std::collections::HashMap;
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

/// The last round the race ran, of its `rounds` planned: the last round with a reading alive
/// at its start. It is the final round when some reading survived; when every reading was
/// eliminated before the final round, it is the round of the last eliminations (the rounds
/// after it ran no run), so those eliminations are the ones the confirmation checks.
pub fn last_round(fates: &[Fate], rounds: usize) -> usize {
    if fates.iter().any(|f| f.eliminated.is_none()) {
        return rounds;
    }
    (fates.iter())
        .filter_map(|f| f.eliminated.as_ref().map(|e| e.round))
        .max()
        .unwrap_or(rounds)
}

/// The readings a confirmation reruns: the race's survivors and the readings eliminated in
/// the last round it ran ([`last_round`] of its `rounds` planned), in reading order.
pub fn chosen(fates: &[Fate], rounds: usize) -> Vec<usize> {
    let last = last_round(fates, rounds);
    (0..fates.len())
        .filter(|&r| match &fates[r].eliminated {
            None => true,
            Some(e) => e.round == last,
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
    /// The last round the race ran ([`last_round`], 1-based) and the number it planned: the
    /// confirmed eliminations are that round's.
    pub last_round: (usize, usize),
    /// The runs and generations the confirmation needed (shared runs counted once).
    pub spent: (u64, u64),
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

/// Check `dir`'s [`RUNS`], if any, before the race runs: a file that is not the
/// confirmation's (a row edited, duplicated, of another seed) is refused, naming the file
/// and line, before any run is made or any file written.
pub fn check(setup: &Setup, seed: u64, dir: &Path) -> Result<()> {
    if seed == setup.spec.master_seed {
        bail!("--confirm-seed must differ from the race's master seed");
    }
    let path = dir.join(RUNS);
    if std::fs::symlink_metadata(&path).is_err() {
        return Ok(());
    }
    let (spec, loaded) = confirm_spec(setup, seed);
    let protocol = Protocol::new(&spec, &loaded, None, None)?;
    Store::read_only(&path, &protocol, setup.full()).map(|_| ())
}

/// Run (or resume) the confirmation into `dir`'s [`RUNS`] on `threads` threads and judge it.
pub fn run(plan: &Plan, dir: &Path, threads: usize) -> Result<Confirmation> {
    let setup = plan.setup;
    if plan.seed == setup.spec.master_seed {
        bail!("--confirm-seed must differ from the race's master seed");
    }
    let (spec, loaded) = confirm_spec(setup, plan.seed);
    let protocol = Protocol::new(&spec, &loaded, None, None)?;
    let mut store = setup.store(&dir.join(RUNS), &protocol, Access::Append)?;
    let readings = chosen(plan.fates, plan.rounds);
    store
        .execute(Some(&protocol), &jobs(plan, &readings), threads)?
        .done()?;
    store.finish(&protocol)?;
    Ok(judge(plan, &store, &readings))
}

/// The confirmation's runs that `dir`'s [`RUNS`] does not hold yet (as the readings whose
/// runs they read, each once), under `protocol` (of [`confirm_spec`]): what a round of shards
/// makes on a cluster. Empty when the confirmation has every run.
pub fn missing(plan: &Plan, dir: &Path, protocol: &Protocol) -> Result<Vec<Job>> {
    let setup = plan.setup;
    let store = stored(setup, dir, protocol)?;
    Ok(store.missing(&jobs(plan, &chosen(plan.fates, plan.rounds))))
}

/// `dir`'s [`RUNS`] read back under `protocol` (nothing written), its readings sharing runs
/// as the race does, or an empty store when the folder has none yet.
pub fn stored(setup: &Setup, dir: &Path, protocol: &Protocol) -> Result<Store> {
    let path = dir.join(RUNS);
    match std::fs::symlink_metadata(&path) {
        Ok(_) => setup.store(&path, protocol, Access::Read),
        Err(_) => Ok(Store::memory(setup.full(), [])),
    }
}

/// Take the confirmation's runs that shards made (`pool`, checked by
/// [`super::shard::read`]) into `dir`'s [`RUNS`]: every run it lacks, or, when the pool does
/// not hold them all, an error saying how many no shard made (nothing written then).
pub fn take(
    plan: &Plan,
    dir: &Path,
    protocol: &Protocol,
    pool: HashMap<Job, Record>,
) -> Result<()> {
    let setup = plan.setup;
    let mut store = setup.store(&dir.join(RUNS), protocol, Access::Append)?;
    store.set_pool(pool);
    store
        .execute(
            Some(protocol),
            &jobs(plan, &chosen(plan.fates, plan.rounds)),
            1,
        )?
        .done()?;
    store.finish(protocol)
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
    let cells = plan
        .targets
        .iter()
        .map(super::cells::cells_of)
        .sum::<usize>();
    let verdicts = (readings.iter())
        .map(|&r| {
            let mut found: Vec<(Test, (String, String))> = Vec::new();
            for t in plan.targets {
                let x = tally(setup, store, r, t);
                let mut tests = Vec::new();
                capped_tests(request.procedure, t, &x, &mut tests);
                super::cells::full_tests(request.procedure, t, &x, &mut tests);
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
        last_round: (last_round(plan.fates, plan.rounds), plan.rounds),
        spent: (
            store.spent().len() as u64,
            store.spent().iter().map(|r| r.generations).sum(),
        ),
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::readings::race::{Elimination, Stage};
    use crate::readings::store::Record;
    use crate::readings::Request;

    /// A race of four readings (Ret-GA's `elitism` x `crossover_rows`) on one puzzle, Easy,
    /// against a row every run of the paper solved, 10 runs per puzzle.
    fn setup() -> Setup {
        let spec = crate::spec::Spec::parse(
            r#"id = "confirm-test"
title = "t"
master_seed = 5
runs = 10
quick_runs = 2
quick_max_generations = 100
puzzles = [{ id = "mk_easy", label = "Easy" }]

[[algorithms]]
label = "ret"
algorithm = "ret-ga"
paper_label = "Ret-GA"
max_generations = 3000
readings = { elitism = ["alternate", "best"], crossover_rows = ["alternate", "uniform-random"] }
"#,
            "t.toml",
        )
        .unwrap();
        let rows = crate::reports::groups::parse_published(
            "level,algorithm,runs,count,minimum,maximum,average,median,sd\nEasy,Ret-GA,100,100,27,305,70.34,52,55.70\n",
            "p",
        )
        .unwrap();
        Setup::new(Request {
            spec,
            base: None,
            algorithm: "ret".into(),
            published: Some(rows),
            options: Vec::new(),
            max_runs: None,
            rounds: vec![5, 10],
            cap_factor: Some(2.0),
            mean_cap_factor: Some(20.0),
            curtail: true,
            share: true,
            alpha: 0.05,
            procedure: Procedure::V2,
            margins: crate::readings::verdicts::Margins::DEFAULT,
            confirm_seed: Some(9),
        })
        .unwrap()
    }

    fn eliminated(round: usize) -> Fate {
        Fate {
            eliminated: Some(Elimination {
                round,
                runs: 5,
                stage: Stage::Capped,
                cell: "Easy/solved_by_max".into(),
                p_holm: 0.001,
            }),
            ..Fate::default()
        }
    }

    /// The survivors and the readings eliminated in the last round are confirmed; those
    /// eliminated earlier are not.
    #[test]
    fn survivors_and_the_last_rounds_eliminations_are_chosen() {
        let fates = [
            eliminated(1),
            Fate::default(),
            eliminated(2),
            eliminated(3),
            Fate::default(),
        ];
        assert_eq!(chosen(&fates, 3), vec![1, 3, 4]);
        assert_eq!(chosen(&fates, 2), vec![1, 2, 4]);
    }

    /// A race that eliminated every reading before its final round confirms the eliminations
    /// of the last round it ran, not nothing; a race with a survivor keeps its final round.
    #[test]
    fn a_race_that_ended_early_confirms_its_last_eliminations() {
        let all_gone = [eliminated(1), eliminated(4), eliminated(2), eliminated(4)];
        assert_eq!(last_round(&all_gone, 5), 4);
        assert_eq!(chosen(&all_gone, 5), vec![1, 3]);
        let one_left = [eliminated(1), eliminated(4), Fate::default()];
        assert_eq!(last_round(&one_left, 5), 5);
        assert_eq!(chosen(&one_left, 5), vec![2]);
        assert_eq!(last_round(&[], 5), 5);
    }

    /// Ten runs of `reading` on Easy: each solved at `generations`, or none solved.
    fn runs(reading: u32, generations: Option<u64>) -> Vec<Record> {
        (0..10)
            .map(|run| Record {
                reading,
                puzzle: 0,
                run,
                cap: 3000,
                seed: 0,
                solved: generations.is_some(),
                generations: generations.unwrap_or(3000),
                evaluations: 0,
                counter: None,
            })
            .collect()
    }

    /// A reading is consistent only when it survived the race and the confirmation: a
    /// survivor whose runs at the second seed fit the row is consistent; a survivor whose
    /// runs there never solve is not (survived the race, not confirmed); a reading
    /// eliminated in the last round is not, even when its runs there fit.
    #[test]
    fn consistent_needs_the_race_and_the_confirmation() {
        let setup = setup();
        let targets = setup.targets(&setup.rows).unwrap();
        let fates = [
            Fate::default(),
            Fate::default(),
            eliminated(2),
            eliminated(1),
        ];
        let plan = Plan {
            setup: &setup,
            targets: &targets,
            fates: &fates,
            rounds: 2,
            seed: 9,
        };
        // Solved at 40 or 60 generations alternately: by the maximum, half by the median.
        let fits = |r: u32| {
            let mut v = runs(r, Some(40));
            for x in v.iter_mut().skip(1).step_by(2) {
                x.generations = 60;
            }
            v
        };
        let records = [fits(0), runs(1, None), fits(2)].concat();
        let store = Store::memory(3000, records);
        let readings = chosen(&fates, 2);
        assert_eq!(readings, vec![0, 1, 2]);
        let c = judge(&plan, &store, &readings);
        assert_eq!(c.cells, 4);
        let got: Vec<(bool, bool, bool)> = (c.verdicts.iter())
            .map(|v| (v.survived, v.confirmed, v.consistent()))
            .collect();
        assert_eq!(
            got,
            vec![
                (true, true, true),
                (true, false, false),
                (false, true, false)
            ]
        );
        let worst = c.verdicts[1].worst().unwrap();
        assert!(worst.p_holm <= 0.05, "{worst:?}");
        assert_eq!(worst.ours, "0/10 by 305");
        assert_eq!(worst.published, "100/100");
        assert!(c.verdicts[0].cells.iter().all(|x| x.p_holm > 0.05));
        let text = crate::readings::confirm_report::section(&setup, &c);
        assert!(
            text.contains("1 of the race's 2 survivors are confirmed"),
            "{text}"
        );
        assert!(text.contains("survived the race, not confirmed"), "{text}");
    }

    /// The default seed is a hash of the master seed with a label: deterministic, and never
    /// one of the seeds it must avoid.
    #[test]
    fn the_default_seed_is_derived_and_differs() {
        let s = default_seed(5, &[5]);
        assert_eq!(s, default_seed(5, &[5, 6]));
        assert_ne!(s, 5);
        assert_ne!(default_seed(6, &[6]), s);
        let next = default_seed(5, &[5, s]);
        assert_ne!(next, s);
        assert_eq!(next, sudoku_core::seed::splitmix64(s));
    }

    /// A hostile confirm.csv is refused naming the file and line.
    #[test]
    fn a_hostile_confirm_csv_is_refused() {
        let dir = std::env::temp_dir().join(format!("confirm-csv-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let head = "reading,elitism,race,confirm_seed,cell,p_holm,confirmation,consistent\n";
        let write = |body: &str| std::fs::write(dir.join(CSV), format!("{head}{body}")).unwrap();
        write("r1,best,survived,9,Easy/count,1e0,confirmed,yes\nr2,alternate,eliminated,9,,,rejected,no\n");
        let v = read_verdicts(&dir).unwrap().unwrap();
        assert_eq!(
            v,
            vec![("r1".into(), true, true), ("r2".into(), false, false)]
        );
        assert_eq!(
            survivor_marks(&dir, 1).unwrap(),
            vec!["consistent (both seeds)"]
        );
        assert!(survivor_marks(&dir, 2).is_err());
        for (body, want) in [
            (
                "r1,best,eliminated,9,,,confirmed,yes\n",
                ":2: consistent, but eliminated",
            ),
            (
                "r1,best,survived,9,,,confirmed,maybe\n",
                ":2: consistent 'maybe'",
            ),
            ("r1,best,survived,9,,confirmed,yes\n", ":2: 7 fields"),
        ] {
            write(body);
            let e = read_verdicts(&dir).unwrap_err().to_string();
            assert!(e.contains("confirm.csv") && e.contains(want), "{e}");
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
