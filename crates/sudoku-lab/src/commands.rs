//! The commands. Each validates all of its input before it writes anything.

use crate::meta::{Meta, Settings};
use crate::protocol::Protocol;
use crate::report::{self, parse_published, PublishedRow};
use crate::spec::{self, Spec};
use crate::{algos, compare, table1, ProtocolFlags};
use anyhow::{bail, Context, Result};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Instant;
use sudoku_core::exact::search;
use sudoku_core::parse::{parse_first, parse_lenient, parse_puzzles};
use sudoku_core::{bank, bank_puzzle, rng_from_seed, Budget, NoObserver, Puzzle};

/// The most threads a protocol may start.
const MAX_THREADS: usize = 1024;

/// Everything validated for one protocol.
struct Prepared {
    spec: Spec,
    forced_runs: Option<u64>,
    loaded: crate::spec::Loaded,
    published: Option<Vec<PublishedRow>>,
    grades: Option<Vec<char>>,
    levels: Option<Vec<crate::levels::PublishedLevel>>,
    out: PathBuf,
    runs: u64,
    threads: usize,
    quick: bool,
    /// `--shard k/n`: k from 1.
    shard: Option<(usize, usize)>,
    /// The folder of a user spec (None for an embedded one).
    base: Option<PathBuf>,
    /// The default folder of a `--quick` run (`results/quick/<id>`): scratch, replaced by the
    /// next quick run unless `--resume` is given.
    scratch: bool,
}

fn prepare(spec: Spec, base: Option<&Path>, flags: &ProtocolFlags) -> Result<Prepared> {
    let mut spec = spec;
    if let Some(s) = flags.seed {
        spec.master_seed = s;
    }
    if flags.runs == Some(0) {
        bail!("--runs must be at least 1");
    }
    let forced = flags.runs.or(flags.quick.then_some(spec.quick_runs));
    let loaded = spec.load_puzzles(base, flags.quick, forced)?;
    let published_text = spec::published_text(&spec, base)?;
    let (published, grades) = if spec.report == "grades" {
        let n = loaded.puzzles[0].geometry().n();
        let t = published_text.context("report grades needs published grades")?;
        (None, Some(crate::grades::parse_grades(&t, n)?))
    } else {
        (
            published_text.map(|t| parse_published(&t)).transpose()?,
            None,
        )
    };
    let levels = crate::levels::load(&spec, base, &loaded)?;
    let runs = flags.runs.unwrap_or(if flags.quick {
        spec.quick_runs
    } else {
        spec.runs
    });
    if runs == 0 {
        bail!("--runs must be at least 1");
    }
    let threads = match flags.threads {
        Some(0) => bail!("--threads must be at least 1"),
        Some(t) if t > MAX_THREADS => bail!("--threads {t} is over the limit of {MAX_THREADS}"),
        Some(t) => t,
        None => std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    if let Some(available) = algos::available_memory() {
        let n = loaded
            .puzzles
            .iter()
            .map(|p| p.geometry().n())
            .max()
            .unwrap_or(9);
        for a in &spec.algorithms {
            algos::check_memory(&a.algorithm, &a.params, n, threads, available)
                .with_context(|| format!("algorithm '{}'", a.label))?;
        }
    }
    let shard_name = flags
        .shard
        .as_deref()
        .map(|s| format!("-shard-{}", s.replace('/', "-of-")))
        .unwrap_or_default();
    let out = flags.out.clone().unwrap_or_else(|| {
        if !shard_name.is_empty() {
            PathBuf::from("results").join(format!("{}{shard_name}", spec.id))
        } else if flags.quick {
            PathBuf::from("results/quick").join(&spec.id)
        } else {
            PathBuf::from("results").join(&spec.id)
        }
    });
    if out.exists() && !out.is_dir() {
        bail!("--out {} exists and is not a folder", out.display());
    }
    Ok(Prepared {
        spec,
        forced_runs: forced,
        loaded,
        published,
        grades,
        levels,
        out,
        runs,
        threads,
        quick: flags.quick,
        scratch: flags.quick && flags.out.is_none() && !flags.resume && flags.shard.is_none(),
        shard: flags.shard.as_deref().map(parse_shard).transpose()?,
        base: base.map(Path::to_path_buf),
    })
}

/// Runs the protocol of `spec` (from a shard's `meta.json`) on a folder `merge` prepared, as
/// `--resume`: nothing to run, runs.csv in plan order, every report and chart.
pub fn finish_merged(spec: Spec, flags: &ProtocolFlags) -> Result<()> {
    let p = prepare(spec, None, flags)?;
    execute(&p, flags)
}

pub fn reproduce(id: &str, flags: &ProtocolFlags) -> Result<ExitCode> {
    let specs: Vec<Spec> = if id == "all" {
        spec::EMBEDDED
            .iter()
            .map(|(k, _)| spec::embedded(k))
            .collect::<Result<_>>()?
    } else {
        vec![spec::embedded(id)?]
    };
    if id == "all" && flags.out.is_some() && specs.len() > 1 {
        bail!("--out cannot be used with `reproduce all` (one folder per experiment)");
    }
    let prepared: Vec<Prepared> = specs
        .into_iter()
        .map(|s| prepare(s, None, flags))
        .collect::<Result<_>>()?;
    for p in &prepared {
        execute(p, flags)?;
    }
    Ok(ExitCode::SUCCESS)
}

pub fn run_spec(path: &Path, flags: &ProtocolFlags) -> Result<ExitCode> {
    let text = spec::read_spec(path)?;
    let spec = Spec::parse(&text, &path.display().to_string())?;
    let base = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let p = prepare(spec, Some(&base), flags)?;
    execute(&p, flags)?;
    Ok(ExitCode::SUCCESS)
}

fn execute(p: &Prepared, flags: &ProtocolFlags) -> Result<()> {
    let spec = &p.spec;
    let cap = p.quick.then_some(spec.quick_max_generations);
    let solvers = spec
        .algorithms
        .iter()
        .map(algos::build)
        .collect::<Result<Vec<_>>>()?;
    let budgets = spec
        .algorithms
        .iter()
        .map(|a| algos::budget(a, cap))
        .collect();
    let settings = Settings {
        experiment: spec.id.clone(),
        master_seed: spec.master_seed,
        runs: p.runs,
        forced_runs: p.forced_runs,
        quick: p.quick,
        spec_toml: toml::to_string(spec)?,
        shard: p.shard.map(|(k, n)| format!("{k}/{n}")),
    };
    let runs_path = p.out.join("runs.csv");
    let meta_path = p.out.join("meta.json");
    // One process per folder, from before the first look at its files to the last write.
    std::fs::create_dir_all(&p.out)
        .with_context(|| format!("cannot create {}", p.out.display()))?;
    let _lock = crate::lock::Lock::take(&p.out)?;
    if flags.resume && runs_path.exists() {
        match Meta::read_settings(&meta_path)? {
            Some(_) if spec.anytime && !p.out.join(crate::trajectory::FILE).exists() => bail!(
                "{}: trajectories.csv is missing beside runs.csv (anytime = true): the anytime data of the finished runs is lost; use --fresh",
                p.out.display()
            ),
            Some(old) if same_settings(&old, &settings) => {}
            Some(_) => bail!(
                "{}: the runs in this folder were made with other settings (spec, seed, runs or --quick); use --fresh or another --out",
                p.out.display()
            ),
            None => bail!("{}: no readable meta.json beside runs.csv; cannot check it belongs to this spec", p.out.display()),
        }
    } else if runs_path.exists() && !(flags.fresh || p.scratch) {
        bail!(
            "{} exists: pass --resume to continue it, or --fresh to start over",
            runs_path.display()
        );
    }
    crate::lock::remove_stale_temps(&p.out);
    if flags.fresh || p.scratch {
        for stale in [&runs_path, &p.out.join(crate::trajectory::FILE)] {
            if stale.exists() {
                std::fs::remove_file(stale)
                    .with_context(|| format!("cannot remove {}", stale.display()))?;
            }
        }
    }
    let prior_wall = if flags.resume {
        match Meta::read_wall(&meta_path) {
            // No session recorded its time (the ones that ran were killed): estimate theirs
            // from the runs they left, run time over threads, rather than count nothing.
            w if w == 0.0 && runs_path.exists() => {
                let mut ms = 0.0;
                let _ = crate::io::for_each_row(&runs_path, |r| {
                    ms += r.wall_ms;
                    Ok(())
                });
                let threads = Meta::read_sessions(&meta_path)
                    .last()
                    .map_or(p.threads, |s| s.threads)
                    .max(1);
                ms / 1e3 / threads as f64
            }
            w => w,
        }
    } else {
        0.0
    };
    let mut meta = Meta::new(settings, spec, p.threads);
    meta.spec_dir = p
        .base
        .as_ref()
        .map(|b| std::fs::canonicalize(b).unwrap_or_else(|_| b.clone()))
        .map(|b| b.display().to_string());
    if flags.resume {
        meta.sessions = Meta::read_sessions(&meta_path);
        // Carried over at once, so that a session killed before its end keeps the earlier ones.
        meta.wall_seconds = (prior_wall > 0.0).then_some(prior_wall);
    }
    meta.sessions.push(crate::meta::Session {
        git_revision: meta.git_revision.clone(),
        started_utc: meta.started_utc.clone(),
        finished_utc: None,
        threads: p.threads,
        runs_executed: None,
    });
    meta.write(&meta_path)?;
    // Whatever fails from here on, meta.json says so (and why) instead of "running".
    let outcome = (|| -> Result<_> {
        let protocol = Protocol {
            spec,
            puzzles: &p.loaded.puzzles,
            solvers,
            budgets,
            runs: p.loaded.runs.clone(),
            anytime: spec.anytime,
            shard: p.shard,
        };
        let start = Instant::now();
        eprintln!(
            "{}: {} algorithms x {} puzzles x {} runs on {} threads -> {}",
            spec.id,
            spec.algorithms.len(),
            p.loaded.puzzles.len(),
            p.runs,
            p.threads,
            p.out.display()
        );
        let (executed, resumed) = protocol.run(&runs_path, flags.resume, p.threads)?;
        // Protocol wall time: sessions that ran no run (a resume that only rebuilds the reports)
        // add nothing.
        let wall = prior_wall
            + if executed > 0 {
                start.elapsed().as_secs_f64()
            } else {
                0.0
            };
        // Recorded at once: a kill while the reports are written keeps this session's time.
        meta.wall_seconds = Some(wall);
        meta.write(&meta_path)?;
        let groups = report::groups(spec, &p.loaded, &runs_path)?;
        report::write_summary(&p.out.join("summary.csv"), spec, &p.loaded.entries, &groups)?;
        if p.shard.is_some() {
            // A shard holds part of the plan: the reports are written by `merge`.
            let invalid = std::fs::read_to_string(&runs_path)?
                .matches(",invalid_claim,")
                .count();
            return Ok((executed, resumed, wall, groups, invalid));
        }
        // Every chart of a quick run says so in its title.
        let _quick = cap.map(|g| crate::quick::mark(p.runs, g));
        if let Some(paper) = &p.grades {
            let md = crate::grades::report(spec, &p.loaded.puzzles[0], &runs_path, paper, &p.out)?;
            crate::io::write_atomic(&p.out.join("report.md"), md.as_bytes())?;
        }
        if let (Some(name), Some(published)) = (&spec.counter, p.published.as_deref()) {
            let md =
                crate::counter::report(spec, &p.loaded, &runs_path, published, name, &p.out, wall)?;
            crate::io::write_atomic(&p.out.join("report.md"), md.as_bytes())?;
            if let Some(prefix) = &spec.trajectory {
                crate::counter::trajectory(spec, &runs_path, prefix, &p.out)?;
            }
        }
        if matches!(spec.report.as_str(), "effort" | "versus") {
            let md = crate::effort::report(spec, &p.loaded, &runs_path, &p.out, wall, p.threads)?;
            crate::io::write_atomic(&p.out.join("report.md"), md.as_bytes())?;
        }
        if spec.report == "compare" {
            let data = crate::compare_data::Data::load(spec, &p.loaded, &p.out)?;
            let note = compare_note(spec, p, cap, wall);
            let md = crate::compare_report::report(spec, &data, &p.out, &note)?;
            crate::io::write_atomic(&p.out.join("report.md"), md.as_bytes())?;
        }
        if let Some(levels) = &p.levels {
            let note = crate::levels::RunNote {
                runs: p.runs,
                quick_cap: cap,
                wall,
                threads: p.threads,
            };
            let md = crate::levels::report(spec, &p.loaded, &groups, levels, &p.out, &note)?;
            crate::io::write_atomic(&p.out.join("report.md"), md.as_bytes())?;
        }
        if spec.report == "ablation" {
            let published = p
                .published
                .as_deref()
                .context("report ablation needs published values")?;
            let cells = compare::comparison(spec, &p.loaded.entries, &groups, published);
            compare::write_comparison(&p.out.join("comparison.csv"), spec, &cells)?;
            match spec.chart.as_deref() {
                Some("alpha") => crate::alpha_chart::draw(spec, &groups, published, &p.out)?,
                Some(c @ ("success-by-variant" | "success-by-puzzle")) => {
                    crate::alpha_chart::draw_success(
                        spec,
                        &groups,
                        published,
                        c == "success-by-variant",
                        &p.out,
                    )?
                }
                _ => {}
            }
            let md = compare::ablation_markdown(
                spec,
                &p.loaded.entries,
                &groups,
                &cells,
                published,
                wall,
                p.threads,
            );
            crate::io::write_atomic(&p.out.join("report.md"), md.as_bytes())?;
        }
        if spec.report == "table1" {
            let published = p
                .published
                .as_deref()
                .context("report table1 needs published values")?;
            table1::report(
                spec,
                &p.loaded.entries,
                &groups,
                published,
                &p.out,
                wall,
                p.threads,
            )?;
        }
        if let Some(g) = cap {
            mark_quick(&p.out.join("report.md"), p.runs, g)?;
        }
        let invalid = std::fs::read_to_string(&runs_path)?
            .matches(",invalid_claim,")
            .count();
        Ok((executed, resumed, wall, groups, invalid))
    })();
    let (executed, resumed, wall, groups, invalid) = match outcome {
        Ok(o) => o,
        Err(e) => {
            meta.status = "failed".into();
            meta.error = Some(
                e.chain()
                    .map(|c| c.to_string())
                    .collect::<Vec<_>>()
                    .join(": "),
            );
            let _ = meta.write(&meta_path);
            return Err(e);
        }
    };
    meta.finished_utc = Some(crate::meta::utc_now());
    meta.wall_seconds = Some(wall);
    meta.runs_executed_this_session = Some(executed);
    meta.runs_resumed = Some(resumed);
    if let Some(last) = meta.sessions.last_mut() {
        last.finished_utc = meta.finished_utc.clone();
        last.runs_executed = Some(executed);
    }
    meta.status = if invalid == 0 {
        "complete"
    } else {
        "complete-with-invalid-claims"
    }
    .into();
    meta.write(&meta_path)?;
    print_summary(spec, &p.loaded.entries, &groups);
    eprintln!(
        "{}: {executed} runs, {wall:.1} s of protocol wall time ({resumed} runs resumed); results in {}",
        spec.id,
        p.out.display()
    );
    if invalid > 0 {
        bail!("{invalid} runs claimed a solution the exact checker rejects (rows marked invalid_claim): this is a bug");
    }
    Ok(())
}

/// The first lines of a compare report: how it was made, and whether it is a quick run.
fn compare_note(spec: &Spec, p: &Prepared, cap: Option<u64>, wall: f64) -> String {
    let budgets: Vec<String> = spec
        .algorithms
        .iter()
        .filter_map(|a| a.max_evaluations)
        .map(|e| e.to_string())
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    let quick = match cap {
        Some(g) => format!(
            "**QUICK RUN (`--quick`: {} runs per puzzle, at most {g} generations, sets cut to {} puzzles): it checks the code path, it is not a result.**\n\n",
            p.runs,
            spec.quick_set_size.map_or("all".to_string(), |k| k.to_string())
        ),
        None => String::new(),
    };
    format!(
        "{quick}Generated by sudoku-lab from the spec of experiment `{}` ({wall:.0} s of protocol wall time, {} threads): {} algorithms, {} puzzles, {} runs per puzzle, a budget of {} fitness evaluations per run. Success with its Wilson 95 % interval; ERT = all evaluations (seconds) of all runs / successes.",
        spec.id,
        p.threads,
        spec.algorithms.len(),
        p.loaded.puzzles.len(),
        p.runs,
        if budgets.is_empty() { "no".to_string() } else { budgets.join(" / ") }
    )
}

/// A `--quick` report says so on its first line, so that a copied quick report cannot pass
/// for a result (the compare report writes its own banner).
fn mark_quick(report: &Path, runs: u64, cap: u64) -> Result<()> {
    let Ok(text) = std::fs::read_to_string(report) else {
        return Ok(());
    };
    // Reports that already say so at their top (compare, levels) are left as they are.
    let top: String = text.lines().take(5).collect::<Vec<_>>().join(" ");
    if top.to_lowercase().contains("quick run") {
        return Ok(());
    }
    let banner = format!(
        "**QUICK RUN (`--quick`: {runs} runs per puzzle, at most {cap} generations): it checks the code path, it is not a result; its verdicts mean nothing.**\n\n"
    );
    crate::io::write_atomic(report, format!("{banner}{text}").as_bytes())
}

/// `k/n` with 1 <= k <= n <= 100 000.
fn parse_shard(s: &str) -> Result<(usize, usize)> {
    let parsed = s.split_once('/').and_then(|(k, n)| {
        Some((
            k.trim().parse::<usize>().ok()?,
            n.trim().parse::<usize>().ok()?,
        ))
    });
    match parsed {
        Some((k, n)) if k >= 1 && k <= n && n <= 100_000 => Ok((k, n)),
        _ => bail!("--shard {s}: expected k/n with 1 <= k <= n (e.g. 2/4)"),
    }
}

/// Settings equal for `--resume`: the spec is compared as the current version of sudoku-lab
/// reads it (options added since with their defaults), not as text, and without the keys that
/// only shape the reports (title, paper, published values, report, chart), and, for a full
/// protocol, without the `--quick` settings it does not use.
fn same_settings(old: &Settings, new: &Settings) -> bool {
    let normal = |t: &str| {
        toml::from_str::<Spec>(t).ok().and_then(|mut s| {
            if !new.quick {
                s.quick_runs = 1;
                s.quick_max_generations = 1;
                s.quick_set_size = None;
            }
            s.title.clear();
            s.paper.clear();
            s.published = None;
            s.published_levels = None;
            s.report = "none".into();
            s.chart = None;
            s.versus = None;
            toml::to_string(&s).ok()
        })
    };
    let spec_same = old.spec_toml == new.spec_toml
        || matches!((normal(&old.spec_toml), normal(&new.spec_toml)), (Some(a), Some(b)) if a == b);
    spec_same
        && old.experiment == new.experiment
        && old.master_seed == new.master_seed
        && old.runs == new.runs
        && old.quick == new.quick
        && old.forced_runs == new.forced_runs
        && old.shard == new.shard
}

fn print_summary(spec: &Spec, puzzles: &[crate::spec::Entry], g: &[Vec<report::Group>]) {
    println!(
        "{:<12} {:<24} {:>9} {:>10} {:>10}",
        "algorithm", "puzzle", "success", "mean gen", "sd gen"
    );
    for (a, alg) in spec.algorithms.iter().enumerate() {
        for (i, p) in puzzles.iter().enumerate() {
            let x = &g[a][i];
            let s = x.generations();
            println!(
                "{:<12} {:<24} {:>4}/{:<4} {:>10} {:>10}",
                alg.label,
                p.id,
                x.successes,
                x.runs,
                s.map_or("-".into(), |s| format!("{:.1}", s.mean)),
                s.filter(|s| s.n >= 2)
                    .map_or("-".into(), |s| format!("{:.1}", s.sd)),
            );
        }
    }
}

/// A puzzle named on the command line: bank id, file, or the puzzle itself.
fn resolve_puzzle(arg: &str) -> Result<Puzzle> {
    // A trailing or leading space around a bank id is harmless.
    if let Ok(p) = bank_puzzle(arg.trim()) {
        return Ok(p.clone());
    }
    let path = Path::new(arg);
    // Something that names a path but is no readable puzzle file: say why, instead of parsing
    // the path as a grid.
    let looks_like_path = arg.contains('/') || arg.contains('\\') || arg.ends_with(".txt");
    if !path.is_file() && (looks_like_path || path.symlink_metadata().is_ok()) {
        match path.symlink_metadata() {
            Err(_) => bail!("{arg}: no such file (nor a bank id or a grid)"),
            Ok(m) if m.file_type().is_symlink() && !path.exists() => {
                bail!("{arg}: a link to a file that does not exist")
            }
            Ok(m) if m.is_dir() => bail!("{arg} is a folder, not a puzzle file"),
            Ok(_) => bail!("{arg} is not a regular file (a FIFO, socket or device?)"),
        }
    }
    if path.is_file() {
        // Only the first puzzle is needed: what follows it is not parsed.
        let text = crate::spec::read_capped(path)?;
        return Ok(parse_first(&text, arg)?);
    }
    if arg.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        && arg.chars().any(|c| c.is_ascii_alphabetic() && c != 'x')
        && arg.len() < 16
    {
        bail!("'{arg}' is not a bank puzzle id (see `sudoku-lab list`) nor a file");
    }
    let mut ps = parse_puzzles(arg, "<argument>")?;
    let mut p = ps.remove(0);
    p.id = "argument".into();
    Ok(p)
}

/// One `--param key=value`: the value as TOML (`0.5`, `true`, `[1, 2, 3]`), else as a string
/// (`strategy=both`).
fn param(kv: &str) -> Result<(String, toml::Value)> {
    let (k, v) = kv
        .split_once('=')
        .with_context(|| format!("--param '{kv}' is not key=value"))?;
    let k = k.trim();
    if k.is_empty()
        || !k
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        bail!("--param '{kv}': the key must be letters, digits, '_' or '-'");
    }
    let value = toml::from_str::<toml::Table>(&format!("v = {v}"))
        .ok()
        .and_then(|mut t| t.remove("v"))
        .unwrap_or_else(|| toml::Value::String(v.to_string()));
    Ok((k.to_string(), value))
}

pub fn solve(
    algo: &str,
    seed: u64,
    max_generations: Option<u64>,
    params: &[String],
    puzzle: &str,
) -> Result<ExitCode> {
    let puzzle = resolve_puzzle(puzzle)?;
    let mut table = toml::Table::new();
    for kv in params {
        let (k, v) = param(kv)?;
        table.insert(k, v);
    }
    let solver = algos::solver(algo, &table).with_context(|| format!("--algo {algo}"))?;
    algos::check_order(algo, puzzle.geometry().n())?;
    if let Some(available) = algos::available_memory() {
        algos::check_memory(algo, &table, puzzle.geometry().n(), 1, available)?;
    }
    if max_generations == Some(0) {
        bail!("--max-generations must be at least 1");
    }
    let default_max = match algo {
        "mk-ga" => 100_000,
        // RESEDA stops by its own rule (rho > beta); the cap is a safety net only.
        "reseda" => 1_000_000,
        "gen-ga" => 2_000,
        "cso" => 10_000,
        _ => 50_000,
    };
    let budget = Budget::generations(max_generations.unwrap_or(default_max));
    let mut rng = rng_from_seed(seed);
    let start = Instant::now();
    let out = solver.solve(&puzzle, &budget, &mut rng, &mut NoObserver);
    let ms = start.elapsed().as_secs_f64() * 1e3;
    let ok = out.solved && out.grid.is_solved() && out.grid.keeps_givens_of(&puzzle.grid);
    println!("{}", out.grid);
    println!(
        "{}: {} after {} generations, {} fitness evaluations, {} restarts, best fitness {}, {ms:.1} ms",
        solver.name(),
        if ok { "solved" } else { "not solved" },
        out.generations,
        out.evaluations,
        out.restarts,
        out.best_fitness
    );
    if out.solved && !ok {
        bail!("the algorithm claimed a solution the exact checker rejects (a bug)");
    }
    Ok(if ok {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

pub fn check(file: &Path) -> Result<ExitCode> {
    let text = crate::spec::read_capped(file)?;
    let parsed = parse_lenient(&text, &file.display().to_string())?;
    let mut all_unique = true;
    println!(
        "{:<32} {:>6} {:>6} {:>9} {:>12}",
        "puzzle", "line", "givens", "conflicts", "solutions"
    );
    for p in &parsed {
        let solutions = if p.conflicts.is_empty() {
            let s = search(&p.puzzle.grid, 2);
            match (s.complete, s.count) {
                (true, 0) => "0",
                (true, 1) => "1",
                (_, c) if c >= 2 => "many",
                // Stopped at the exact solver's node limit: not known.
                _ => "undetermined",
            }
        } else {
            "0"
        };
        all_unique &= solutions == "1";
        println!(
            "{:<32} {:>6} {:>6} {:>9} {:>12}",
            p.puzzle.id,
            p.line,
            p.puzzle.givens(),
            p.conflicts.len(),
            solutions
        );
        for c in &p.conflicts {
            println!("  {c}");
        }
    }
    println!(
        "{} puzzles, {}",
        parsed.len(),
        if all_unique {
            "all with a unique solution"
        } else {
            "NOT all with a unique solution"
        }
    );
    Ok(if all_unique {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

pub fn list() -> Result<ExitCode> {
    println!("Experiments (sudoku-lab reproduce <id>):");
    for (id, _) in spec::EMBEDDED {
        let s = spec::embedded(id)?;
        println!("  {id:<20} {}", s.title);
    }
    println!("\nAlgorithms (--algo):");
    for (name, what) in algos::ALGORITHMS {
        println!("  {name:<20} {what}");
    }
    println!("\nBank puzzles (experiments/puzzles/published.tsv, embedded):");
    for p in bank() {
        println!("  {:<24} {:>2} givens  {}", p.id, p.givens(), p.source);
    }
    Ok(ExitCode::SUCCESS)
}

/// Re-execute runs of a results folder from their rows (the spec and settings come from its
/// meta.json) and check every field but `wall_ms` is reproduced. `every`: replay every k-th row.
pub fn replay(dir: &Path, every: usize, only_solved: bool) -> Result<ExitCode> {
    if every == 0 {
        bail!("--every must be at least 1");
    }
    let meta_path = dir.join("meta.json");
    let text = std::fs::read_to_string(&meta_path)
        .with_context(|| format!("cannot read {}", meta_path.display()))?;
    let v: serde_json::Value = serde_json::from_str(&text)
        .with_context(|| format!("{}: not JSON", meta_path.display()))?;
    let spec: Spec = serde_json::from_value(v["spec"].clone())
        .with_context(|| format!("{}: no spec", meta_path.display()))?;
    let settings: Settings = serde_json::from_value(v["settings"].clone())
        .with_context(|| format!("{}: no settings", meta_path.display()))?;
    let forced = settings
        .quick
        .then_some(settings.runs)
        .or(settings.forced_runs);
    let spec_dir = v["spec_dir"].as_str().map(PathBuf::from);
    let loaded = spec.load_puzzles(spec_dir.as_deref(), settings.quick, forced)?;
    let puzzles = &loaded.puzzles;
    let cap = settings.quick.then_some(spec.quick_max_generations);
    let protocol = Protocol {
        spec: &spec,
        puzzles,
        solvers: spec
            .algorithms
            .iter()
            .map(algos::build)
            .collect::<Result<Vec<_>>>()?,
        budgets: spec
            .algorithms
            .iter()
            .map(|a| algos::budget(a, cap))
            .collect(),
        runs: loaded.runs.clone(),
        anytime: spec.anytime,
        shard: None,
    };
    let blocks = if spec.anytime {
        recorded_blocks(&dir.join(crate::trajectory::FILE))?
    } else {
        Default::default()
    };
    let mut rows = Vec::new();
    let mut k = 0usize;
    crate::io::for_each_row(&dir.join("runs.csv"), |r| {
        if (!only_solved || r.solved == 1) && k.is_multiple_of(every) {
            rows.push(r);
        }
        k += 1;
        Ok(())
    })?;
    let effort: u64 = rows
        .iter()
        .filter_map(|r| spec.algorithms.iter().position(|x| x.label == r.algorithm))
        .map(|a| algos::expected_cost(&protocol.budgets[a]))
        .fold(0u64, u64::saturating_add);
    let progress = crate::progress::Progress::new("replay", effort, rows.len() as u64);
    let stop = std::sync::atomic::AtomicBool::new(false);
    let mismatches: Vec<String> = std::thread::scope(|scope| {
        use rayon::prelude::*;
        scope.spawn(|| progress.report(&stop));
        let found = rows
            .par_iter()
            .filter_map(|r| {
                let key = format!("{}/{}/{}", r.algorithm, r.puzzle, r.run);
                let a = spec.algorithms.iter().position(|x| x.label == r.algorithm);
                let p = puzzles.iter().position(|x| x.id == r.puzzle);
                let (Some(a), Some(p)) = (a, p) else {
                    return Some(format!(
                        "{key}: not in the spec of meta.json, cannot replay"
                    ));
                };
                let job = crate::protocol::Job {
                    algorithm: a,
                    puzzle: p,
                    run: r.run,
                    seed: r.seed,
                };
                let done = protocol.execute_observed(&job, Some(&progress));
                let mut again = done.row;
                again.wall_ms = r.wall_ms;
                if r.counters.is_empty() {
                    // Rows of the first runs.csv format carry no counters.
                    again.counters.clear();
                }
                if again != *r {
                    return Some(format!(
                        "{key}: recorded {} -> replayed {}",
                        r.to_line(),
                        again.to_line()
                    ));
                }
                let recorded = blocks.get(&(r.algorithm.clone(), r.puzzle.clone(), r.run));
                match (done.trajectory, recorded) {
                    (Some(t), Some(b)) if t != *b => Some(format!(
                        "{key}: trajectory differs: recorded {} points -> replayed {}",
                        b.lines().count(),
                        t.lines().count()
                    )),
                    (Some(_), None) => Some(format!("{key}: no recorded trajectory")),
                    _ => None,
                }
            })
            .collect();
        stop.store(true, std::sync::atomic::Ordering::Relaxed);
        found
    });
    for m in &mismatches {
        println!("{m}");
    }
    println!(
        "replayed {} runs of {}: {} identical, {} different",
        rows.len(),
        dir.display(),
        rows.len() - mismatches.len(),
        mismatches.len()
    );
    Ok(if mismatches.is_empty() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
}

/// The recorded trajectory block of every run of a `trajectories.csv`, by (algorithm, puzzle,
/// run).
fn recorded_blocks(
    path: &Path,
) -> Result<std::collections::HashMap<(String, String, u64), String>> {
    let mut blocks: std::collections::HashMap<(String, String, u64), String> = Default::default();
    for p in crate::trajectory::read(path)? {
        let line = format!(
            "{},{},{},{},{},{}\n",
            p.experiment, p.algorithm, p.puzzle, p.run, p.evaluations, p.penalty
        );
        blocks
            .entry((p.algorithm, p.puzzle, p.run))
            .or_default()
            .push_str(&line);
    }
    Ok(blocks)
}

/// Where `generate` takes its solved grids from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum GridSource {
    /// Boards found by one gen-ga run (Benbassat's generator; 9x9 only).
    GenGa,
    /// Random full grids from the exact solver (any order).
    Random,
}

/// Removal orders tried per puzzle before `generate` gives up on the target.
const REDUCE_ATTEMPTS: u64 = 100;

pub struct GenerateArgs<'a> {
    pub seed: u64,
    pub count: usize,
    pub givens: usize,
    pub size: usize,
    pub grids: Option<GridSource>,
    pub boards: Option<&'a Path>,
    pub out: Option<&'a Path>,
}

pub fn generate(a: &GenerateArgs) -> Result<ExitCode> {
    use sudoku_core::exact::{guesses, random_solution, reduce_to_unique};
    use sudoku_core::{run_seed, Geometry, Grid};
    let (seed, count, givens) = (a.seed, a.count, a.givens);
    if count == 0 {
        bail!("--count must be at least 1");
    }
    let geom =
        Geometry::for_order(a.size).map_err(|e| anyhow::anyhow!("--size {}: {e}", a.size))?;
    if givens > geom.cells() {
        bail!("--givens must be at most {}", geom.cells());
    }
    enum Source<'p> {
        GenGa,
        Random,
        File(&'p Path),
    }
    let source = match (a.grids, a.boards) {
        (Some(_), Some(_)) => bail!("--grids and --boards exclude each other"),
        (None, Some(path)) => Source::File(path),
        (Some(GridSource::GenGa), None) => Source::GenGa,
        (Some(GridSource::Random), None) => Source::Random,
        (None, None) if a.size == 9 => Source::GenGa,
        (None, None) => Source::Random,
    };
    if matches!(source, Source::GenGa) && a.size != 9 {
        bail!(
            "--grids gen-ga makes 9x9 boards only; use --grids random for --size {}",
            a.size
        );
    }
    let solved: Vec<Grid> = match source {
        Source::File(path) => {
            let text = std::fs::read_to_string(path)
                .with_context(|| format!("cannot read {}", path.display()))?;
            let ps = parse_puzzles(&text, &path.display().to_string())?;
            if let Some(p) = ps.iter().find(|p| !p.grid.is_solved()) {
                bail!("{}: board {} is not a solved grid", path.display(), p.id);
            }
            if let Some(p) = ps.iter().find(|p| p.grid.geometry() != geom) {
                bail!(
                    "{}: board {} is not of order {} (set --size)",
                    path.display(),
                    p.id,
                    a.size
                );
            }
            ps.into_iter().map(|p| p.grid).take(count).collect()
        }
        Source::Random => (0..count)
            .map(|k| {
                let mut rng = rng_from_seed(run_seed(seed, "generate", "grid", k as u64));
                random_solution(geom, &mut rng)
            })
            .collect(),
        Source::GenGa => {
            let start = gen_ga::first_row_puzzle();
            let ga = gen_ga::GenGa::new(gen_ga::GenGaConfig::default())?;
            let mut rng = rng_from_seed(run_seed(seed, "generate", "gen-ga", 0));
            let (_, found) = ga.generate(
                &start,
                &Budget::generations(2000),
                &mut rng,
                &mut NoObserver,
            );
            found.into_iter().take(count).collect()
        }
    };
    if solved.len() < count {
        bail!(
            "only {} solved boards available, {count} asked",
            solved.len()
        );
    }
    let grids = match source {
        Source::Random => " --grids random".to_string(),
        Source::File(path) => format!(" --boards {}", path.display()),
        Source::GenGa => String::new(),
    };
    let mut text = format!(
        "# sudoku-lab generate --seed {seed} --count {count} --givens {givens} --size {}{grids}\n",
        a.size
    );
    println!(
        "{:<6} {:>6} {:>8} {:>8}",
        "puzzle", "givens", "guesses", "attempt"
    );
    for (k, board) in solved.iter().enumerate() {
        // Attempt 0 keeps the seeds of earlier versions; further removal orders are tried
        // only when the target was not reached.
        let mut reduced = None;
        for attempt in 0..REDUCE_ATTEMPTS {
            let stream = match attempt {
                0 => "reduce".to_string(),
                t => format!("reduce-{t}"),
            };
            let mut rng = rng_from_seed(run_seed(seed, "generate", &stream, k as u64));
            let p = reduce_to_unique(board, givens, &mut rng);
            if p.filled() <= givens {
                reduced = Some((p, attempt));
                break;
            }
        }
        let Some((p, attempt)) = reduced else {
            bail!(
                "puzzle {}: no removal order in {REDUCE_ATTEMPTS} reached {givens} givens with a unique solution; ask for more givens",
                k + 1
            );
        };
        let r = guesses(&p);
        println!("{:<6} {:>6} {:>8} {:>8}", k + 1, p.filled(), r, attempt);
        let body = if geom.n() > 9 {
            format!("{}\n", p.to_tokens().trim_end())
        } else {
            p.to_line()
        };
        text.push_str(&format!(
            "# puzzle {}: {} givens, {r} guesses, removal order {attempt}\n{body}\n",
            k + 1,
            p.filled(),
        ));
    }
    match a.out {
        Some(path) => crate::io::write_atomic(path, text.as_bytes())?,
        None => print!("{text}"),
    }
    Ok(ExitCode::SUCCESS)
}
