//! What a race writes: readings.csv (one row per reading), published.csv (the rows raced
//! against, in the published layout), report.md, and the specification-curve chart.

use super::cells::Target;
use super::race::{Fate, Race};
use super::store::Store;
use super::Setup;
use crate::protocol::io::write_atomic_with;
use crate::reports::groups::PublishedRow;
use anyhow::Result;
use std::io::Write;
use std::path::Path;

/// The readings from the best fit to the worst: survivors first (largest smallest adjusted
/// p-value first), then the eliminated by their last look (latest first) and p-value; ties in
/// reading order.
pub fn fit_order(fates: &[Fate]) -> Vec<usize> {
    let mut order: Vec<usize> = (0..fates.len()).collect();
    let key = |f: &Fate| (f.eliminated.is_none(), f.last_look, f.min_p.unwrap_or(1.0));
    order.sort_by(|&a, &b| {
        let (ka, kb) = (key(&fates[a]), key(&fates[b]));
        (kb.0.cmp(&ka.0))
            .then(kb.1.cmp(&ka.1))
            .then(kb.2.total_cmp(&ka.2))
            .then(a.cmp(&b))
    });
    order
}

/// Generations and evaluations spent per reading: every run the race needed, capped runs and
/// their reruns included, on every raced entry ([`Store::spent`]: runs of the folder that
/// the race did not ask for are not counted).
pub fn spent(store: &Store, readings: usize, entries: usize) -> Vec<(u64, u64, u64)> {
    let mut out = vec![(0u64, 0u64, 0u64); readings];
    for r in store.spent() {
        let o = &mut out[r.reading as usize / entries.max(1)];
        (o.0, o.1, o.2) = (o.0 + r.generations, o.1 + r.evaluations, o.2 + 1);
    }
    out
}

/// readings.csv: the reading, its option values, status, when and by which cell it was
/// eliminated with the Holm-adjusted p-value, its smallest adjusted p-value at its last look,
/// and the generations, evaluations and runs spent on it.
pub fn write_readings(path: &Path, setup: &Setup, fates: &[Fate], store: &Store) -> Result<()> {
    let spent = spent(store, fates.len(), setup.entries.len());
    write_atomic_with(path, |out| {
        let keys = setup.space.keys.join(",");
        writeln!(out, "reading,{keys},status,round,runs,stage,cell,p_holm,min_p_holm,generations,evaluations,runs_executed")?;
        for (r, f) in fates.iter().enumerate() {
            let e = f.eliminated.as_ref();
            writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{},{},{}",
                setup.space.id(r),
                setup.space.texts(r).join(","),
                if e.is_some() {
                    "eliminated"
                } else {
                    "survived"
                },
                e.map(|e| e.round.to_string()).unwrap_or_default(),
                e.map(|e| e.runs.to_string()).unwrap_or_default(),
                e.map(|e| e.stage.name()).unwrap_or_default(),
                e.map(|e| csv_text(&e.cell)).unwrap_or_default(),
                e.map(|e| format!("{:.3e}", e.p_holm)).unwrap_or_default(),
                f.min_p.map(|p| format!("{p:.3e}")).unwrap_or_default(),
                spent[r].0,
                spent[r].1,
                spent[r].2,
            )?;
        }
        Ok(())
    })
}

/// A cell name quoted when it holds a comma or a quote.
fn csv_text(s: &str) -> String {
    if s.contains([',', '"']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// published.csv: the rows raced against, in the layout of `experiments/paper/*.csv`.
pub fn write_published(path: &Path, rows: &[PublishedRow]) -> Result<()> {
    let text = published_text(rows);
    write_atomic_with(path, |out| Ok(out.write_all(text.as_bytes())?))
}

/// The text of published.csv.
fn published_text(rows: &[PublishedRow]) -> String {
    use std::fmt::Write as _;
    let num = |v: Option<f64>| v.map(|x| format!("{x}")).unwrap_or_default();
    let mut out =
        String::from("level,givens,algorithm,runs,count,minimum,maximum,average,median,sd\n");
    {
        for r in rows {
            let _ = writeln!(
                out,
                "{},{},{},{},{},{},{},{},{},{}",
                csv_text(&r.level),
                r.givens.map(|g| g.to_string()).unwrap_or_default(),
                csv_text(&r.algorithm),
                r.runs.map(|g| g.to_string()).unwrap_or_default(),
                r.count.map(|g| g.to_string()).unwrap_or_default(),
                num(r.minimum),
                num(r.maximum),
                num(r.average),
                num(r.median),
                num(r.sd),
            );
        }
    }
    out
}

/// The section of report.md on the raced table's own arithmetic
/// ([`crate::reports::table_checks`]): empty when every check of the rows is ok.
fn arithmetic_text(f: &Findings) -> String {
    use crate::reports::table_checks::{check_table, race_section};
    let mut rows: Vec<PublishedRow> = Vec::new();
    for t in f.race.targets {
        if !rows
            .iter()
            .any(|r| (&r.level, &r.algorithm) == (&t.row.level, &t.row.algorithm))
        {
            rows.push(t.row.clone());
        }
    }
    let Ok(cells) = check_table(&published_text(&rows), "published.csv", "published") else {
        return String::new();
    };
    let bad: Vec<_> = cells.iter().filter(|c| c.impossible()).collect();
    let eliminated: Vec<String> = (f.fates.iter())
        .filter_map(|x| x.eliminated.as_ref().map(|e| e.cell.clone()))
        .collect();
    race_section(&bad, &eliminated, f.fates.len(), None)
}

/// The effort of the race against the full factorial at the full protocol.
#[derive(Debug, Clone, PartialEq)]
pub struct Cost {
    /// Generations and runs the race needed ([`Store::spent`]).
    pub generations: u64,
    pub runs: u64,
    /// Runs and generations the run file holds: more than the race needed where an earlier
    /// binary made runs this race does not ask for.
    pub held: (u64, u64),
    /// Runs of the full factorial at the full protocol: readings x the protocol's runs of
    /// every race puzzle.
    pub factorial_runs: u64,
    /// An estimate of the full factorial's generations at the full protocol (see [`cost`]).
    pub factorial_generations: f64,
    /// The same at the race's runs per puzzle (`--max-runs`).
    pub factorial_generations_race: f64,
    /// An upper bound of the full factorial's generations: every run the race made counts its
    /// generations, except a capped run that did not solve, which counts the full budget (no
    /// run costs more); a run the race did not make counts the full budget.
    pub factorial_generations_max: f64,
    /// Generations of the runs of the readings that survived: the part of the cost no
    /// elimination can save (a survivor has the full protocol).
    pub survivor_generations: u64,
}

/// The race's cost, and an estimate of the full factorial's: per reading and puzzle, its
/// runs times the mean generations of the reading's runs there that ran to their end; where
/// a reading has only capped runs on a puzzle, the mean of those (censored at the cap, so an
/// underestimate); where it has none, the mean over the readings that ran to their end there
/// (0 where none did). The full factorial itself is never run, so this is an estimate, biased
/// low where runs were capped.
pub fn cost(setup: &Setup, targets: &[Target], store: &Store, fates: &[Fate]) -> Cost {
    let readings = setup.space.len();
    // The (entry, puzzle) pairs the race tests: the full factorial runs each for every reading.
    let mut pairs: Vec<(usize, usize)> = targets.iter().map(|t| (t.entry, t.puzzle)).collect();
    pairs.sort_unstable();
    pairs.dedup();
    let mut seen = Vec::with_capacity(readings * pairs.len());
    for &(e, p) in &pairs {
        for r in 0..readings {
            seen.push(mean_of(setup, store, setup.solver(r, e), p));
        }
    }
    let (mut factorial, mut at_race, mut high) = (0f64, 0f64, 0f64);
    for (i, &(_, p)) in pairs.iter().enumerate() {
        let cells = &seen[i * readings..(i + 1) * readings];
        let ended: Vec<f64> = (cells.iter())
            .filter(|c| c.ended && c.n > 0)
            .map(|c| c.sum / c.n as f64)
            .collect();
        let fallback = if ended.is_empty() {
            0.0
        } else {
            ended.iter().sum::<f64>() / ended.len() as f64
        };
        for c in cells {
            let mean = if c.n > 0 {
                c.sum / c.n as f64
            } else {
                fallback
            };
            factorial += mean * setup.protocol_runs[p] as f64;
            at_race += mean * setup.loaded.runs[p] as f64;
            let unmade = setup.protocol_runs[p].saturating_sub(c.high.1);
            high += c.high.0 + (unmade * setup.full()) as f64;
        }
    }
    let per_reading: u64 = pairs.iter().map(|&(_, p)| setup.protocol_runs[p]).sum();
    Cost {
        generations: store.spent().iter().map(|r| r.generations).sum(),
        runs: store.spent().len() as u64,
        held: (
            store.records().len() as u64,
            store.records().iter().map(|r| r.generations).sum(),
        ),
        factorial_runs: readings as u64 * per_reading,
        factorial_generations: factorial,
        factorial_generations_race: at_race,
        factorial_generations_max: high,
        survivor_generations: (store.spent().iter())
            .filter(|r| {
                let reading = r.reading as usize / setup.entries.len().max(1);
                fates.get(reading).is_some_and(|f| f.eliminated.is_none())
            })
            .map(|r| r.generations)
            .sum(),
    }
}

/// The generations of the runs of `solver` on puzzle `p`: (sum, count, ended) over the runs
/// that ran to their end, else over its capped runs (ended false).
fn mean_of(setup: &Setup, store: &Store, solver: usize, p: usize) -> Seen {
    let (mut ended, mut censored, mut high) = ((0f64, 0u64), (0f64, 0u64), (0f64, 0u64));
    for run in 0..setup.loaded.runs[p] {
        let (s, pz) = (solver as u32, p as u32);
        match (store.seen(s, pz, run, setup.full()), store.best(s, pz, run)) {
            (Some(x), _) => {
                ended = (ended.0 + x.generations as f64, ended.1 + 1);
                high = (high.0 + x.generations as f64, high.1 + 1);
            }
            (None, Some(b)) => {
                censored = (censored.0 + b.generations as f64, censored.1 + 1);
                let g = if b.solved {
                    b.generations
                } else {
                    setup.full()
                };
                high = (high.0 + g as f64, high.1 + 1);
            }
            _ => {}
        }
    }
    let (sum, n, ended) = if ended.1 > 0 {
        (ended.0, ended.1, true)
    } else {
        (censored.0, censored.1, false)
    };
    Seen {
        sum,
        n,
        ended,
        high,
    }
}

/// What a reading's runs on one puzzle cost: the sum and number of the runs [`mean_of`]
/// counts (`ended`: run to their end), and the sum and number of every run the race made,
/// a capped failure at the full budget.
#[derive(Debug, Clone, Copy)]
struct Seen {
    sum: f64,
    n: u64,
    ended: bool,
    high: (f64, u64),
}

/// The header of race.csv.
pub const RACE_HEADER: &str = "experiment,entries,readings,survived,eliminated,hidden,hidden_status,others_eliminated,others_eliminated_share,runs,generations,factorial_runs,factorial_generations,share_of_factorial,factorial_generations_max,share_of_factorial_min";

/// race.csv: the race in one row (what a summary of several races, and the site, read): the
/// experiment, the raced entries, readings, survivors, the hidden reading's fate and the
/// share of the others eliminated (synthetic races), and the cost against the full factorial.
pub fn write_race(path: &Path, f: &Findings) -> Result<()> {
    let n = f.fates.len();
    let survived = f.fates.iter().filter(|x| x.eliminated.is_none()).count();
    let (hidden, status, out, share) = match f.hidden {
        Some((h, _)) => {
            let others = n.saturating_sub(1);
            let out = (0..n)
                .filter(|&r| r != h && f.fates[r].eliminated.is_some())
                .count();
            let kept = f.fates[h].eliminated.is_none();
            (
                f.setup.space.id(h),
                if kept { "survived" } else { "eliminated" }.to_string(),
                out.to_string(),
                format!("{:.4}", out as f64 / others.max(1) as f64),
            )
        }
        None => Default::default(),
    };
    let c = &f.cost;
    let entries: Vec<&str> = f.setup.entries.iter().map(|a| a.label.as_str()).collect();
    let line = format!(
        "{},{},{n},{survived},{},{hidden},{status},{out},{share},{},{},{},{:.0},{:.4},{:.0},{:.4}",
        csv_text(&f.setup.request.spec.id),
        csv_text(&entries.join(" ")),
        n - survived,
        c.runs,
        c.generations,
        c.factorial_runs,
        c.factorial_generations,
        c.generations as f64 / c.factorial_generations.max(1.0),
        c.factorial_generations_max,
        c.generations as f64 / c.factorial_generations_max.max(1.0),
    );
    write_atomic_with(path, |out| {
        writeln!(out, "{RACE_HEADER}")?;
        writeln!(out, "{line}")?;
        Ok(())
    })
}

/// The cells raced, one line each, for the report.
fn cells_text(setup: &Setup, targets: &[Target]) -> String {
    let mut s = String::new();
    for t in targets {
        let r = &t.row;
        let v = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x}"));
        s.push_str(&format!(
            "| {} | {} | {}/{} | {} | {} | {} | {} | {} |\n",
            super::md::text(&t.level),
            setup.loaded.puzzles[t.puzzle].id,
            r.count.map_or("-".into(), |c| c.to_string()),
            r.runs.map_or("-".into(), |c| c.to_string()),
            v(r.median),
            v(r.maximum),
            v(r.average),
            t.cap.map_or("none".into(), |c| c.to_string()),
            setup.loaded.runs[t.puzzle],
        ));
    }
    s
}

/// What the race found, for report.md.
pub struct Findings<'a> {
    pub setup: &'a Setup,
    pub race: &'a Race<'a>,
    pub fates: &'a [Fate],
    pub cost: Cost,
    /// With `--synthetic`: the hidden reading and the master seed of its table.
    pub hidden: Option<(usize, u64)>,
    /// Where the published rows came from, in words.
    pub source: String,
    /// The survivors' verdicts ([`super::verdicts`]).
    pub verdicts: Vec<super::verdicts::Reading>,
    /// Where every reading stands at its last look ([`super::closest`]).
    pub standings: Vec<super::closest::Standing>,
    /// The readings the confirmation judged, and whether it confirmed each (empty without
    /// a confirmation).
    pub confirmed: Vec<(usize, bool)>,
}

impl Findings<'_> {
    /// The race's answer in one sentence ([`super::closest::sentence`]).
    pub fn answer(&self) -> String {
        super::closest::sentence(&super::closest::Answer {
            setup: self.setup,
            standings: &self.standings,
            confirmed: &self.confirmed,
            hidden: self.hidden.map(|h| h.0),
        })
    }
}

/// report.md: what was raced, which readings survive, the cost, the statistics.
/// `tail`: sections other modules write, appended (the confirmation's).
pub fn write_report(path: &Path, f: &Findings, tail: &str) -> Result<()> {
    let text = report_text(f) + tail;
    write_atomic_with(path, |out| Ok(out.write_all(text.as_bytes())?))
}

fn report_text(f: &Findings) -> String {
    let (setup, space) = (f.setup, &f.setup.space);
    let survivors: Vec<usize> = (0..f.fates.len())
        .filter(|&r| f.fates[r].eliminated.is_none())
        .collect();
    let plural = if setup.entries.len() > 1 { "s" } else { "" };
    let mut s = format!(
        "{}\n\n# Readings of {}: {} against the published column{plural}\n\n",
        f.answer(),
        super::md::text(&setup.request.spec.id),
        setup.names(),
    );
    if setup.entries.len() > 1 {
        s += "A reading is one combination of the options below applied to every raced entry (each keeps its own parameters); it survives only if it fits the rows of every column.\n\n";
    }
    s += &format!(
        "{} readings of {} raced: every combination of {}. Published rows: {}.\n\n",
        space.len(),
        setup.algorithm.algorithm,
        (space.keys.iter().zip(&space.values))
            .map(|(k, v)| format!(
                "`{k}` ({})",
                v.iter()
                    .map(super::space::value_text)
                    .collect::<Vec<_>>()
                    .join(", ")
            ))
            .collect::<Vec<_>>()
            .join(", "),
        f.source
    );
    s += &format!(
        "| row | puzzle | successes | median | maximum | mean | cap (generations) | runs |\n|---|---|---|---|---|---|---|---|\n{}\n",
        cells_text(setup, f.race.targets)
    );
    s += &synthetic_text(f);
    s += &arithmetic_text(f);
    s += &match survivors.len() {
        0 => format!(
            "## Survivors\n\nNone of the {} readings survives: every one is contradicted by some cell of the published table at the tests below.\n\n",
            space.len()
        ),
        n if setup.request.confirm_seed.is_some() => format!(
            "## Survivors\n\n{n} of {} readings survive the race (none of the table's cells rejects them at the tests below); those the confirmation at a second seed confirms (section Confirmation) are **consistent with the published table**: this says which readings the table does not contradict, not what the authors did.\n\n",
            space.len()
        ),
        n => format!(
            "## Survivors\n\n{n} of {} readings survive: they are **consistent with the published table** (none of its cells rejects them at the tests below); this says which readings the table does not contradict, not what the authors did.\n\n",
            space.len()
        ),
    };
    s += &survivors_table(f, &survivors);
    s += &super::closest::section(f.setup, &f.standings, &f.confirmed, f.race);
    let id = |r: usize| space.id(r);
    let margins = setup.request.margins;
    s += &super::verdicts::section(&f.verdicts, &fit_order(f.fates), &id, margins, f.race);
    s += &eliminations_text(f);
    s += &cost_text(&f.cost);
    s += &statistics_text(f);
    s
}

/// The survivors (at most 50, best fit first) with their option values.
fn survivors_table(f: &Findings, survivors: &[usize]) -> String {
    if survivors.is_empty() {
        return "No reading fits the published table.\n\n".into();
    }
    let space = &f.setup.space;
    let mut s = format!(
        "| reading | {} | smallest adjusted p |\n|---|{}---|\n",
        space.keys.join(" | "),
        "---|".repeat(space.keys.len())
    );
    for &r in fit_order(f.fates)
        .iter()
        .filter(|r| survivors.contains(r))
        .take(50)
    {
        let p = crate::reports::format::p_value(f.fates[r].min_p);
        s += &format!(
            "| {} | {} | {p} |\n",
            space.id(r),
            space.texts(r).join(" | ")
        );
    }
    if survivors.len() > 50 {
        s += &format!("\n({} more in readings.csv.)\n", survivors.len() - 50);
    }
    s + "\n"
}

/// How many readings each round and stage eliminated, and by which cells.
fn eliminations_text(f: &Findings) -> String {
    let mut by_when = std::collections::BTreeMap::new();
    let mut by_cell = std::collections::BTreeMap::new();
    for e in f.fates.iter().filter_map(|x| x.eliminated.as_ref()) {
        *by_when
            .entry((e.round, e.runs, e.stage.name()))
            .or_insert(0u64) += 1;
        *by_cell.entry(e.cell.clone()).or_insert(0u64) += 1;
    }
    let mut s = "## Eliminations\n\n| round | runs per puzzle | stage | readings eliminated |\n|---|---|---|---|\n".to_string();
    for ((round, runs, stage), n) in &by_when {
        s += &format!("| {round} | {runs} | {stage} | {n} |\n");
    }
    s += "\n| cell (smallest adjusted p at elimination) | readings |\n|---|---|\n";
    for (cell, n) in &by_cell {
        s += &format!("| {} | {n} |\n", super::md::text(cell));
    }
    s + "\n"
}

/// The race's generations against the full factorial's estimate.
fn cost_text(c: &Cost) -> String {
    let share = |of: f64| {
        if of > 0.0 {
            100.0 * c.generations as f64 / of
        } else {
            f64::NAN
        }
    };
    format!(
        "## Cost\n\nThe race needed {} runs and {} generations{}. The full factorial at the full protocol is {} runs; its generations are estimated at {:.0} (per reading and puzzle, the mean generations of its runs that ran to their end; of its capped runs, censored at the cap, where it has only those; of the other readings where it has none; so an underestimate where runs were capped): the race spent {:.2} % of it ({:.1} % of the full factorial at the race's own runs per puzzle, {:.0} generations). An upper bound of the full factorial's generations, {:.0}, counts every run the race made at its generations but a capped run that did not solve, and every run it did not make, at the full budget: against it the race spent {:.2} %, so its share lies between {:.2} % and about {:.2} %. The survivors' own runs took {} generations ({:.2} % of the estimate): a survivor gets the full protocol, so no order of elimination brings the share below that.\n\n",
        c.runs,
        c.generations,
        held_text(c),
        c.factorial_runs,
        c.factorial_generations,
        share(c.factorial_generations),
        share(c.factorial_generations_race),
        c.factorial_generations_race,
        c.factorial_generations_max,
        share(c.factorial_generations_max),
        share(c.factorial_generations_max),
        share(c.factorial_generations),
        c.survivor_generations,
        100.0 * c.survivor_generations as f64 / c.factorial_generations.max(1.0),
    )
}

/// Where the run file holds more than the race needed (runs an earlier binary made), what
/// it holds; the cost counts only what the race needed.
fn held_text(c: &Cost) -> String {
    if c.held == (c.runs, c.generations) {
        return String::new();
    }
    format!(
        " (counted as it would have made them in an empty folder: its run file holds {} runs and {} generations, made in part by an earlier binary that gave readings runs the race no longer asks for, or larger budgets than it asks; those are not counted)",
        c.held.0, c.held.1
    )
}

/// With `--synthetic`: whether the hidden reading survived, and the share of the others
/// eliminated.
fn synthetic_text(f: &Findings) -> String {
    let Some((hidden, seed)) = f.hidden else {
        return String::new();
    };
    let space = &f.setup.space;
    let others = f.fates.len().saturating_sub(1);
    let out = (0..f.fates.len())
        .filter(|&r| r != hidden && f.fates[r].eliminated.is_some())
        .count();
    let kept = f.fates[hidden].eliminated.is_none();
    format!(
        "## Synthetic validation\n\nThe published rows were made from the hidden reading {} ({}) run under master seed {seed}. The hidden reading {}. {out} of the {others} other readings were eliminated ({:.1} %).\n\n",
        space.id(hidden),
        (space.keys.iter().zip(space.texts(hidden))).map(|(k, v)| format!("{k} = {v}")).collect::<Vec<_>>().join(", "),
        if kept { "survived" } else { "was eliminated" },
        if others > 0 { 100.0 * out as f64 / others as f64 } else { 0.0 },
    )
}

/// The statistics, named.
fn statistics_text(f: &Findings) -> String {
    let r = f.race;
    format!(
        "## Statistics\n\n\
        - Runs: a reading's run r on a puzzle has the seed the protocol gives run r of that puzzle (master seed {}, experiment `{}`), whichever round computes it. Rounds of {} cumulative runs per puzzle.{}\n\
        - Capped runs: on a row with a published maximum, runs first stop at {} x that maximum (at most the full budget of {} generations). {} Only readings that survive the capped tests of every row get full-budget runs (a capped run that solved is the same run under the full budget, and is not rerun).\n\
{}{}{}{}- Survival means that no cell contradicts the reading at this level with these runs; with few runs a reading may survive for lack of power.\n",
        f.setup.spec.master_seed,
        f.setup.spec.id,
        r.rounds.iter().map(u64::to_string).collect::<Vec<_>>().join(", "),
        max_runs_text(f),
        f.setup.request.cap_factor.map_or("no cap: ".to_string() + "", |c| format!("{c}")),
        r.full,
        quantile_text(r.procedure),
        mean_cap_text(f),
        looks_text(f),
        curtail_text(f),
        shared_text(f),
    )
}

/// How the capped stage tests the published quantiles, by the race's procedure (v3: the
/// tie-aware median cell).
fn quantile_text(procedure: crate::readings::procedure::Procedure) -> &'static str {
    if procedure.tie_aware_median() {
        return "The paper's successful runs all solved by its maximum, at least ceil(successes / 2) of them by its median and at most that many before it (more by it where runs tie at the median, which the table does not print), so the proportion solved by the maximum (paper: its successes) is compared with Fisher's exact test, and the median cell with the same test against the paper count the table allows that is nearest ours: our runs solved by the median against ceil(successes / 2) when fewer, our runs solved before it when more, p = 1 otherwise; a capped run censored at the cap has solved by neither.";
    }
    "The paper's successful runs all solved by its maximum and at least half by its median, so the proportions solved by the maximum (paper: its successes) and by the median (paper: ceil(successes / 2)) are compared with Fisher's exact test; a capped run censored at the cap has solved by neither."
}

/// The bullets on the full-budget tests and the looks, by the race's procedure.
fn looks_text(f: &Findings) -> String {
    let r = f.race;
    if r.procedure == crate::readings::procedure::Procedure::V1 {
        return format!("- Full-budget tests, as comparison.csv: successes with Fisher's exact test; the mean generations of the successful runs with Welch's t-test from the published mean, SD and count (at least two successes on each side).\n\
        - A look is the test of a reading after one row of one stage of one round, on every cell it has data for so far. The p-values of a look are Holm-adjusted within the reading; the reading is eliminated when the smallest is at most alpha / L = {} / {} = {:.2e}, L being the number of looks (rounds x stages x rows): Bonferroni across the repeated looks, so a reading whose runs follow the paper's distribution is eliminated with probability at most {} over the whole race (the Welch test is approximate).\n",
        r.alpha,
        r.looks(),
        r.threshold(),
        r.alpha);
    }
    let levels = r.levels();
    let spent: Vec<String> = levels.rounds.iter().map(|a| format!("{a:.2e}")).collect();
    format!("- Procedure {}. Full-budget tests: successes with Fisher's exact test; the mean generations of the successful runs (a counter's mean over every run) with the guarded mean test: the difference of means over sqrt(max(our variance, the published one) x (1 / our n + 1 / its n)), against Student's t with min(n) - 1 degrees of freedom (at least two on each side); unlike Welch's test it keeps its level with few skewed successes of ours (measured: results/readings-calibration).\n\
        - Alpha is spent over the rounds (Pocock-type Lan-DeMets spending of the rounds' run counts): the rounds get {} of alpha = {}. Within a round, a cell's p-value is the same at every look (looks only add cells), and the reading is eliminated in round k when some cell has p at most alpha_k / C, C = {} being the cells a reading can have: probability at most alpha_k per round, {} over the race, for a reading whose runs follow the paper's distribution ({}). The p-value reported (`p_holm`, the curve) is Holm-adjusted over the round's C cells and scaled by alpha / alpha_k, so every round eliminates at {}.\n",
        r.procedure.name(),
        spent.join(", "),
        r.alpha,
        levels.cells,
        r.alpha,
        match r.procedure.tie_aware_median() {
            true => "the count and maximum cells exact; the median cell, whose paper count the table only bounds when runs tie at the median, and the mean cells as measured in the calibration study",
            false => "Fisher cells exact; the mean cells as measured",
        },
        r.alpha)
}

/// The bullet on shared runs, where readings share them (or sharing is off).
fn shared_text(f: &Findings) -> String {
    if !f.setup.request.share {
        return "- Shared runs: off (`--no-shared-runs`): every reading made its own runs.\n"
            .into();
    }
    let alias = f.setup.shared_runs();
    let entries = f.setup.entries.len().max(1);
    let (mut sharing, mut shifted) = (0, 0);
    for r in 0..f.fates.len() {
        let mine = &alias[r * entries..(r + 1) * entries];
        let own = |(s, a): (usize, &(u32, u64))| a.0 as usize == r * entries + s;
        if !mine.iter().enumerate().all(own) {
            sharing += 1;
            shifted += usize::from(mine.iter().any(|a| a.1 > 0));
        }
    }
    if sharing == 0 {
        return String::new();
    }
    format!(
        "- Shared runs: {sharing} of the {} readings share the runs of another (on every raced column, or on those where the algorithm's claim holds) that the algorithm names as making the same runs with the same seed (`same_run` of its crate, tested by running both): each such run is made once and read by both; {shifted} of them report a solved run's generations shifted as the algorithm states (e.g. a solution credited to the last completed generation). The tests see the same outcomes either way (`--no-shared-runs` gives the same eliminations, tested); the run file holds the runs once, under the reading that made them, and the cost counts them once.\n",
        f.fates.len()
    )
}

/// Where `--max-runs` stops the race before the protocol's runs, what that leaves untested.
fn max_runs_text(f: &Findings) -> String {
    let (race, protocol) = (
        f.setup.max_runs(),
        f.setup.protocol_runs.iter().copied().max().unwrap_or(0),
    );
    if race >= protocol {
        return String::new();
    }
    format!(" The race stops at {race} runs per puzzle (`--max-runs`), fewer than the protocol's {protocol}: the tests compare our {race} runs with the paper's {protocol}, and a survivor has not had the runs beyond them, so survival here is weaker evidence than after the full protocol.")
}

/// The bullet on curtailment: how a reading stops getting runs within a row once its
/// elimination there is decided, and which p-value it is then given.
fn curtail_text(f: &Findings) -> String {
    if !f.setup.request.curtail {
        return "- Curtailment: off (`--no-curtail`): every reading alive at a look had all its runs of the round on that row before the look.\n".into();
    }
    let outcomes = match f.race.procedure.tie_aware_median() {
        true => "each solved before the median, at it, by the maximum only, or neither",
        false => "each solved by the median, by the maximum only, or neither",
    };
    format!("- Curtailment: capped runs, and full-budget runs on rows whose tests are all proportions (no mean, median or maximum), are made run by run. After run k of a row, a reading gets no more runs there once every outcome of its remaining runs of the round ({outcomes}; for a mean cap, within it or not), with its other cells as they are, leaves its smallest Holm-adjusted p-value at most the threshold above: the look would eliminate it whatever those runs gave. It is eliminated with the largest such p-value over the outcomes, so the p-value reported is the worst case, never a lucky one. Only runs 0..k count, so a decision does not depend on runs a folder holds from an earlier binary; `--no-curtail` gives the same eliminations with more runs (tested).\n")
}

/// The bullet on mean caps, where a row has one (else empty).
fn mean_cap_text(f: &Findings) -> String {
    let (Some(k), true) = (
        f.setup.request.mean_cap_factor,
        f.race.targets.iter().any(|t| t.by_cap_bound.is_some()),
    ) else {
        return String::new();
    };
    format!(
        "- Mean caps: on a row that prints the mean generations of its successes but no maximum, runs first stop at {k} x (that mean + 0.5, for its rounding), at most the full budget. By Markov's inequality fewer than 1/{k} of the paper's successes took that long, so at least successes - floor(successes x (mean + 0.5) / cap) of its runs solved within the cap; the proportion of our runs solved within the cap is compared with that lower bound by a one-sided Fisher test (ours lower). A lower bound can only raise the p-value, so the test is conservative.\n"
    )
}

/// spec-curve.svg and spec-curve.png: the readings ranked as the report's *Last to fall*
/// ([`super::closest::rank`]: survivors first, then how long each lasted, then distance), each
/// at how long it lasted in rounds (a survivor the whole race), the last to fall in a third
/// colour with their failing cells written under the title, and their option values as a
/// dot matrix beneath.
pub fn write_chart(out: &Path, f: &Findings) -> Result<()> {
    use super::closest;
    let (setup, race, fates) = (f.setup, f.race, f.fates);
    let st = &f.standings;
    let order = closest::rank(st);
    let last = closest::last_to_fall(st);
    let per_round = (race.looks() / race.rounds.len().max(1)).max(1);
    let lasted = |r: usize| match fates[r].eliminated {
        None => race.rounds.len() as f64,
        Some(_) => (fates[r].last_look + 1) as f64 / per_round as f64,
    };
    let space = &setup.space;
    let mut rows = Vec::new();
    for (k, key) in space.keys.iter().enumerate() {
        for (v, value) in space.values[k].iter().enumerate() {
            let marks = order
                .iter()
                .map(|&i| space.choice(st[i].reading)[k] == v)
                .collect();
            rows.push((
                format!("{key} = {}", super::space::value_text(value)),
                marks,
            ));
        }
    }
    let survivors = fates.iter().filter(|x| x.eliminated.is_none()).count();
    let status = match survivors {
        0 => "none survives".to_string(),
        n => format!("{n} survive"),
    };
    let against = if setup.entries.len() > 1 {
        format!("{} columns", setup.entries.len())
    } else {
        format!(
            "\"{}\"",
            setup.algorithm.paper_label.as_deref().unwrap_or("")
        )
    };
    let notes = chart_notes(setup, st, &last);
    let curve = lab_charts::SpecCurve {
        title: format!(
            "{}: {} readings of {} against {}: {status}; the closest (survivors, else the last to fall) in green, leftmost",
            setup.request.spec.id,
            space.len(),
            setup.algorithm.algorithm,
            against,
        ),
        y_label: "rounds of the race each reading lasted (ranked: how long, then distance to the table)".into(),
        scores: order.iter().map(|&i| lasted(st[i].reading)).collect(),
        survived: order.iter().map(|&i| st[i].survived()).collect(),
        threshold: Some((race.rounds.len() as f64, "end of race".into())),
        rows,
        highlight: order.iter().map(|i| last.contains(i)).collect(),
        notes,
    };
    let height = lab_charts::spec_curve_height(&curve, 260);
    if height > 8192 {
        eprintln!(
            "spec-curve: {} option values are too many rows to draw; no chart",
            curve.rows.len()
        );
        return Ok(());
    }
    lab_charts::render_spec_curve(
        &curve,
        1200,
        height,
        &out.join("spec-curve.svg"),
        &out.join("spec-curve.png"),
    )?;
    Ok(())
}

/// The chart's lines under its title: the first four of the last to fall, each with its fate
/// and first two failing cells.
fn chart_notes(setup: &Setup, st: &[super::closest::Standing], last: &[usize]) -> Vec<String> {
    let space = &setup.space;
    let mut notes: Vec<String> = Vec::new();
    for &i in last.iter().take(4) {
        let x = &st[i];
        let cells: Vec<String> = (x.failing().into_iter().take(2))
            .map(|c| format!("{} {} against {}", c.cell, c.ours, c.published))
            .collect();
        notes.push(format!(
            "{} ({}): {}",
            space.id(x.reading),
            match x.round {
                None => "survived".to_string(),
                Some(r) => format!("fell in round {r}"),
            },
            if cells.is_empty() {
                "no cell differs at 0.05".into()
            } else {
                cells.join("; ")
            }
        ));
    }
    if last.len() > 4 {
        notes.push(format!(
            "and {} more of the last to fall (report.md)",
            last.len() - 4
        ));
    }
    notes
}
