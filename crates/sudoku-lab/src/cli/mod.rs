//! The command layer: clap's definitions ([`args`]), one file per command, and [`run`], which
//! parses the arguments, dispatches, and turns every error into one line on stderr and exit
//! code 2 (`report` is the site's own entry point, [`crate::site::run`]).
//!
//! Each command validates all of its input before it writes anything.

pub mod args;
mod bench;
mod bench_protocols;
mod bench_stops;
mod check_tables;
mod compare;
mod export;
mod generate;
mod instances;
mod list;
mod merge;
mod new_solver;
mod outcome;
mod plan_runs;
mod puzzles;
mod readings;
mod replay;
pub mod reproduce;
mod solve;

use clap::Parser;
use std::process::ExitCode;
use sudoku_core::error::shown;

/// Parse the command line and run the command.
pub fn run() -> ExitCode {
    // Usage errors in one line (all of clap's error: what is missing, the "did you mean" tip;
    // without the usage and help footers), exit 2; --help and --version as usual.
    let cli = match args::Cli::try_parse() {
        Ok(c) => c,
        Err(e) if e.use_stderr() => {
            eprintln!("{}", shown(&one_line_usage_error(&e.to_string())));
            return ExitCode::from(2);
        }
        Err(e) => {
            let _ = e.print();
            return ExitCode::SUCCESS;
        }
    };
    match dispatch(cli.command) {
        Ok(code) => code,
        Err(e) => {
            // Every message may quote input (file names, fields, option keys): its control,
            // invisible and bidirectional characters are escaped, as puzzle text is, so none
            // reaches the terminal raw.
            let chain: Vec<String> = e.chain().map(|c| c.to_string().trim_end().into()).collect();
            eprintln!("error: {}", shown(&chain.join(": ")));
            ExitCode::from(2)
        }
    }
}

/// Run one parsed command.
fn dispatch(command: args::Command) -> anyhow::Result<ExitCode> {
    match command {
        args::Command::Reproduce { experiment, flags } => reproduce::reproduce(&experiment, &flags),
        args::Command::Run { spec, flags } => reproduce::run_spec(&spec, &flags),
        args::Command::Solve(a) => solve::solve(&a),
        args::Command::Puzzles {
            command: args::PuzzlesCommand::Check { file },
        } => puzzles::check(&file),
        args::Command::Merge {
            out,
            shards,
            threads,
            check,
            verify,
        } => merge::merge(&out, &shards, threads, check, verify),
        args::Command::Replay {
            dir,
            every,
            solved_only,
            run_external,
        } => replay::replay(&dir, every, solved_only, run_external),
        args::Command::Generate {
            seed,
            count,
            givens,
            size,
            grids,
            boards,
            out,
            node_limit,
        } => generate::generate(&generate::GenerateArgs {
            seed,
            count,
            givens,
            size,
            grids,
            boards: boards.as_deref(),
            out: out.as_deref(),
            node_limit,
        }),
        args::Command::Instances(a) => instances::instances(&a),
        args::Command::Readings(a) => readings::readings(&a),
        args::Command::ReadingsSummary(a) => readings::summary(&a.dir),
        args::Command::ReadingsCalibration(a) => readings::calibration(&a),
        args::Command::List => list::list(),
        args::Command::NewSolver { name, dir } => new_solver::new_solver(&name, &dir),
        cmd @ args::Command::Bench { .. } => bench_command(cmd),
        args::Command::Export { format, dir, out } => export::run(format, &dir, out.as_deref()),
        args::Command::PlanRuns(a) => plan_runs::plan_runs(&a),
        args::Command::Compare(a) => compare::compare(&a),
        args::Command::CheckTables { paper, out } => check_tables::run(&paper, &out),
        args::Command::ConfirmSeed { first, second } => confirm_seed(&first, &second),
        args::Command::Report { results, out } => crate::site::run(Some(&results), out.as_deref()),
    }
}

/// `sudoku-lab bench`: the kernels, or `--time-limits`, or `--protocols`.
fn bench_command(cmd: args::Command) -> anyhow::Result<ExitCode> {
    let args::Command::Bench {
        quick,
        time_limits,
        protocols,
        results,
        only,
        full,
        sample_cpu_seconds,
        out,
    } = cmd
    else {
        anyhow::bail!("bench: not the bench command");
    };
    match (time_limits, protocols, out) {
        (true, _, out) => bench_stops::run(out.as_deref()),
        (_, true, out) => bench_protocols::run(&bench_protocols::Request {
            results: &results,
            only: &only,
            full: &full,
            sample_cpu_seconds,
            out: out.as_deref(),
        }),
        (false, false, Some(_)) => anyhow::bail!("bench: --out needs --time-limits or --protocols"),
        (false, false, None) => bench::run(quick),
    }
}

/// clap's error text in one line: its lines joined, without the `Usage:` line and the
/// "For more information" footer.
fn one_line_usage_error(text: &str) -> String {
    let parts: Vec<&str> = text
        .lines()
        .map(str::trim)
        .filter(|l| {
            !l.is_empty() && !l.starts_with("Usage:") && !l.starts_with("For more information")
        })
        .collect();
    let mut out = String::new();
    for p in parts {
        if !out.is_empty() {
            out.push_str(if out.ends_with(':') { " " } else { "; " });
        }
        out.push_str(p);
    }
    if out.is_empty() {
        out.push_str("error: bad arguments");
    }
    out
}

/// `sudoku-lab confirm-seed FIRST SECOND`: the answers of FIRST checked at SECOND's master
/// seed ([`crate::reports::seeds`]); prints the answer in one sentence.
fn confirm_seed(first: &std::path::Path, second: &std::path::Path) -> anyhow::Result<ExitCode> {
    let c = crate::reports::seeds::confirm(first, second)?;
    println!("{}", shown(&c.sentence()));
    println!(
        "{}",
        sudoku_core::error::shown(&format!(
            "{}: confirmation.csv, confirmation.md",
            second.display()
        ))
    );
    Ok(ExitCode::SUCCESS)
}
