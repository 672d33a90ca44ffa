//! The command line as clap parses it: [`Cli`], its commands and their flags. What each command
//! does is in the file of the same name beside this one.

use clap::{Args, Parser, Subcommand};
use std::path::PathBuf;

#[derive(Parser)]
#[command(
    name = "sudoku-lab",
    version,
    about = "Reproduce and compare stochastic Sudoku solvers"
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Args, Clone, Debug)]
pub struct ProtocolFlags {
    /// Fewer runs and a generation cap (set in the spec): the same code in under a minute.
    #[arg(long)]
    pub quick: bool,
    /// Runs per (algorithm, puzzle), overriding the spec.
    #[arg(long)]
    pub runs: Option<u64>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Output folder (default `results/<experiment-id>/`, or `results/quick/<id>/` with --quick).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Continue an interrupted protocol: runs already in runs.csv are skipped.
    #[arg(long, conflicts_with = "fresh")]
    pub resume: bool,
    /// Discard an existing runs.csv in the output folder and start over.
    #[arg(long)]
    pub fresh: bool,
    /// Master seed, overriding the spec.
    #[arg(long)]
    pub seed: Option<u64>,
    /// Run only the k-th of n disjoint slices of the plan (K/N).
    ///
    /// Run only the k-th of n disjoint slices of the plan (balanced by expected cost), e.g.
    /// `--shard 2/4`, into its own folder; `merge` joins the n folders.
    #[arg(long, value_name = "K/N")]
    pub shard: Option<String>,
}

#[derive(Subcommand)]
pub enum Command {
    /// Reproduce a published experiment (see `list`), or `all` of them.
    // `--runs -1` says the value is invalid (not "unexpected argument '-1'").
    #[command(allow_negative_numbers = true)]
    Reproduce {
        // Help generated from the embedded specs (see `experiment_help`).
        #[arg(help = "The experiment: `all` or an id of `list`", long_help = experiment_help())]
        experiment: String,
        #[command(flatten)]
        flags: ProtocolFlags,
    },
    /// Run an experiment spec of your own (TOML, same format as experiments/*.toml).
    // `--runs -1` says the value is invalid (not "unexpected argument '-1'").
    #[command(allow_negative_numbers = true)]
    Run {
        /// The spec file (TOML). Puzzle and published files it names are read from its folder
        /// (or below it).
        spec: PathBuf,
        #[command(flatten)]
        flags: ProtocolFlags,
    },
    /// Solve one puzzle: an 81-character string, a bank id or a file (its first puzzle).
    ///
    /// Exit 0 when solved, 1 when the budget ran out, 2 on bad input.
    // `--runs -1` says the value is invalid (not "unexpected argument '-1'").
    #[command(allow_negative_numbers = true)]
    Solve(super::solve::SolveArgs),
    /// Puzzle files.
    Puzzles {
        #[command(subcommand)]
        command: PuzzlesCommand,
    },
    /// Join the shard folders of one plan into the folder one machine would have written.
    ///
    /// Join the folders of `--shard 1/n` ... `--shard n/n` into OUT, the folder one machine
    /// would have written: checks that they share spec, seeds and revision and cover the plan
    /// exactly once, then writes runs.csv (and trajectories.csv) in plan order and every report.
    // `--runs -1` says the value is invalid (not "unexpected argument '-1'").
    #[command(allow_negative_numbers = true)]
    Merge {
        /// The folder to write the merged results into.
        out: PathBuf,
        /// The shard folders, one per `--shard k/n` of the same plan, in any order.
        #[arg(required = true)]
        shards: Vec<PathBuf>,
        /// Threads for the reports (default: all cores).
        #[arg(long)]
        threads: Option<usize>,
        /// Only check the shards and write nothing.
        ///
        /// Only check the shards, as the merge does before writing, and write nothing: exit 0
        /// when they can be merged into OUT, 2 naming what is wrong.
        #[arg(long)]
        check: bool,
        /// Also re-run every K-th row of every shard.
        ///
        /// Also re-run every K-th row of every shard (K >= 1; 1 re-runs them all) and refuse
        /// a shard with a row that is not reproduced (an edited value the checks cannot see).
        #[arg(long, value_name = "K")]
        verify: Option<usize>,
    },
    /// Re-execute the runs of a results folder and check that they are reproduced.
    ///
    /// Re-execute the runs of a results folder from their runs.csv rows and check that every
    /// field but wall_ms and cpu_ms is reproduced. Exit 0 when all are identical, 1 otherwise.
    // `--runs -1` says the value is invalid (not "unexpected argument '-1'").
    #[command(allow_negative_numbers = true)]
    Replay {
        /// A results folder (with runs.csv and meta.json).
        dir: PathBuf,
        /// Replay every k-th row only.
        #[arg(long, default_value_t = 1)]
        every: usize,
        /// Replay only solved runs (fast: failed runs use the whole budget).
        #[arg(long)]
        solved_only: bool,
        /// Also replay the runs of external solvers (runs their recorded command).
        ///
        /// Also replay the runs of external solvers, running the command recorded in the
        /// folder's meta.json (shown first). Without it their rows are skipped with a notice
        /// naming the command: verifying a folder someone hands over runs none of its code.
        #[arg(long)]
        run_external: bool,
    },
    /// Puzzles with a unique solution, made from solved boards.
    ///
    /// Puzzles from solved boards: the boards of a seeded gen-ga run (Benbassat's GA, first
    /// row 1..9), random full grids of any order from the exact solver, or a file; then givens
    /// removed in a seeded random order while the exact solver still finds exactly one
    /// solution, down to exactly --givens (up to 100 removal orders per puzzle, sharing
    /// --node-limit search nodes). Each puzzle is rated by the guesses the exact solver needs
    /// (0 = singles suffice). Progress on stderr every 5 s. Exit 0 when every puzzle was made,
    /// 1 when one could not be (no removal order reached --givens, or the search nodes ran
    /// out; nothing is written), 2 on bad input.
    // `--runs -1` says the value is invalid (not "unexpected argument '-1'").
    #[command(allow_negative_numbers = true)]
    Generate {
        /// Seed of the boards and of the removal orders: the same seed gives the same puzzles.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Number of puzzles.
        #[arg(long, default_value_t = 5)]
        count: usize,
        /// Target number of givens.
        #[arg(long, default_value_t = 28)]
        givens: usize,
        /// Order of the grid: 6 (2x3 boxes), 9, 12 (3x4 boxes), 16, ...
        #[arg(long, default_value_t = 9)]
        size: usize,
        /// Where the solved grids come from.
        ///
        /// Solved grids: a gen-ga run (default for 9x9) or random full grids from the exact
        /// solver (default for other sizes).
        #[arg(long, value_enum)]
        grids: Option<super::generate::GridSource>,
        /// A file of solved boards to use instead.
        #[arg(long)]
        boards: Option<PathBuf>,
        /// Write the puzzles here (atomically) instead of to standard output.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Search nodes the uniqueness checks may spend per puzzle.
        ///
        /// Search nodes the exact solver's uniqueness checks may spend per puzzle, over all
        /// its removal orders; when they run out, generate stops with exit code 1.
        #[arg(long, default_value_t = super::generate::DEFAULT_NODE_LIMIT)]
        node_limit: u64,
    },
    /// Instances of the phase-transition family (random grids with a fraction of givens).
    ///
    /// Instances of the phase-transition family of Lewis (2007) and Lloyd & Amos (2020): a
    /// random complete grid with a fraction of its cells kept, the rest blank (no uniqueness
    /// required). Instance k of a --seed uses the same complete grid at every fraction. Each
    /// instance's comment line gives its order, fraction, seed, index, givens and whether its
    /// solution is unique (the exact solver, within its node limit: unique, multiple or
    /// unknown). Exit 0, or 2 on bad input (nothing written).
    Instances(InstancesArgs),
    /// Race the readings of a paper's ambiguities against its published table.
    ///
    /// Race every combination of a paper's named ambiguities (the algorithm's ambiguity
    /// options, or those named) against its published table: rounds of runs with the
    /// protocol's seeds, capped runs tested first on the published quantiles, and a reading
    /// eliminated when a cell rejects it (Holm within the reading; procedures v2 and v3 spend
    /// alpha over rounds, v1 splits it by Bonferroni over every look); survivors and the last
    /// round's eliminations rerun at a second master seed. Writes readings.csv, report.md,
    /// power.csv, verdicts.csv, confirm.csv and spec-curve.svg/png.
    Readings(Box<ReadingsArgs>),
    /// The races of a folder in one table (summary.csv and summary.md).
    ///
    /// The races of a folder in one table: summary.csv and summary.md (from each race
    /// folder's race.csv), with how often a synthetic race kept its hidden reading.
    ReadingsSummary(ReadingsSummaryArgs),
    /// The race engine's error rates, measured by simulation.
    ///
    /// The race engine's error rates measured by simulation: error-rates.csv, a chart and
    /// report.md (false elimination of a reading that follows the paper's distribution, and
    /// power, under procedures v1, v2 and v3, on tables shaped like the papers').
    ReadingsCalibration(ReadingsCalibrationArgs),
    /// Experiments, algorithms and bank puzzles.
    List,
    /// A new algorithm crate NAME, copied from the template crate hill-climb.
    ///
    /// The template is a stochastic hill climber with its options, ambiguity table and tests,
    /// copied under the new name; prints the two lines that register it and a checklist of
    /// what to change (docs/adding-a-solver.md).
    NewSolver {
        /// The algorithm's name (lowercase words joined by '-').
        ///
        /// The algorithm's name: lowercase words of letters and digits joined by '-' (e.g.
        /// tabu-search); the crate's folder, the spec's `algorithm` and the runs' label.
        name: String,
        /// The folder to write the crate into (the workspace's crates/ makes it a member).
        #[arg(long, default_value = "crates")]
        dir: PathBuf,
    },
    /// Benchmarks: fitness functions against the plain paper formulas, generations per second.
    Bench {
        /// Shorter measurement.
        #[arg(long)]
        quick: bool,
        /// Instead: measure what a CPU-seconds limit costs (CSV on stdout).
        ///
        /// Instead: what a CPU-seconds limit costs each algorithm's runs (budget checks and
        /// clock reads) and how far past the limit its runs go (CSV on stdout).
        #[arg(long)]
        time_limits: bool,
        /// Instead: every experiment's protocol time at today's kernels (CSV on stdout).
        ///
        /// Estimated from a sample of its committed runs, re-executed (docs/performance.md,
        /// "Every protocol").
        #[arg(long, conflicts_with = "time_limits")]
        protocols: bool,
        /// With --protocols: the results folder with one committed folder per experiment.
        #[arg(long, default_value = "results", requires = "protocols")]
        results: PathBuf,
        /// With --protocols: only this experiment (repeatable).
        #[arg(long, requires = "protocols")]
        only: Vec<String>,
        /// With --protocols: run this experiment in full on 2 threads (repeatable).
        #[arg(long, requires = "protocols")]
        full: Vec<String>,
        /// With --protocols: about the CPU seconds each sample costs (at the recorded speed).
        #[arg(long, default_value_t = 20.0, requires = "protocols")]
        sample_cpu_seconds: f64,
        /// With --time-limits or --protocols: also write the CSV to this file.
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// A results folder as LaTeX or Markdown tables, or as IOHprofiler data.
    ///
    /// A results folder for other tools: its report tables as LaTeX (booktabs) or Markdown
    /// tables, or its anytime data (trajectories.csv) as IOHprofiler data for IOHanalyzer and
    /// iohinspector.
    Export {
        /// The format to write.
        #[arg(long, value_enum)]
        format: crate::export::Format,
        /// A results folder.
        dir: PathBuf,
        /// Output folder (default: under exports/).
        ///
        /// Output folder (default `exports/<id>/` in the current folder for latex and markdown,
        /// `exports/<id>/ioh/` for ioh: never inside the results folder).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// How many runs per puzzle a comparison needs, from a pilot's runs.csv.
    ///
    /// How many runs per puzzle a comparison needs, from a pilot's runs.csv, before a
    /// protocol is run: for every pair of algorithms over all the pilot's puzzles, the runs per
    /// puzzle that give the compare report's tests the asked power to detect a success
    /// difference (Fisher's exact test, its exact power) and an algorithm that many times
    /// slower than the pair's faster one (Mann-Whitney U with its ties), each at --alpha
    /// divided by the number of pairwise tests (Holm's first step). Prints the method and a
    /// Markdown table; --csv also writes it as CSV.
    // `--power -1` says the value is invalid (not "unexpected argument '-1'").
    #[command(allow_negative_numbers = true)]
    PlanRuns(PlanRunsArgs),
    /// One pair of algorithms of a compare report, in one paragraph.
    ///
    /// One pair of algorithms of a compare report's results folder, in one paragraph: success
    /// with Wilson intervals, time to solve in CPU (or, in older folders, wall) seconds, and one
    /// verdict that reconciles the report's tests (from its compare-answers.csv).
    #[command(alias = "pair")]
    Compare(CompareArgs),
    /// Check a compare report's answers at a second master seed.
    ///
    /// Check the answers of a compare (or phase) results folder, FIRST, against the same
    /// protocol run at another master seed, SECOND (`reproduce ID --seed S --out SECOND`):
    /// each answer held, not found again or reversed, and the answers only SECOND gives.
    /// Writes SECOND/confirmation.csv and confirmation.md.
    ConfirmSeed {
        /// The results folder whose answers are checked.
        first: PathBuf,
        /// The same protocol at another master seed.
        second: PathBuf,
    },
    /// Check the published tables' own arithmetic (checks.csv, report.md).
    ///
    /// Check the published tables' own arithmetic (can any sample have what a row prints: the
    /// mean's bounds from the count, minimum, median and maximum, the SD's from the extremes
    /// and the mean, GRIM and GRIMMER, counts, ETS) and write checks.csv and report.md.
    CheckTables {
        /// The folder of published tables (*.csv).
        #[arg(long, default_value = "experiments/paper")]
        paper: PathBuf,
        /// Output folder.
        #[arg(long, default_value = "results/table-checks")]
        out: PathBuf,
    },
    /// A static HTML site of every results folder, and the findings generated from them.
    ///
    /// A static HTML site of every results folder: index.html (with each experiment's counts
    /// of published cells that differ or not), one page per experiment (the paper against ours
    /// coloured by verdict, report, statistics tables with filters, charts with captions,
    /// files, meta.json facts, options), and the findings generated from the results:
    /// findings.html, findings.md and findings-summary.md (also written into README.md
    /// between `<!-- findings-summary -->` markers, when the README beside the results folder
    /// has them and --out is the default). Opens from the file system; exit 1 when an image
    /// of a report is missing.
    Report {
        /// The folder of results folders.
        #[arg(long, default_value = "results")]
        results: PathBuf,
        /// Output folder (default: `docs/` beside the results folder).
        #[arg(long)]
        out: Option<PathBuf>,
    },
}

#[derive(Subcommand)]
pub enum PuzzlesCommand {
    /// Givens, conflicts and number of solutions (0, 1, many) of every puzzle in a file.
    ///
    /// Exit 0 when every puzzle has a unique solution, 1 otherwise, 2 on unreadable input.
    Check {
        /// A puzzle file (any format the project reads).
        ///
        /// A puzzle file: one puzzle per line, grids (N lines of N cells, with or without
        /// separators), Kennett's compact format, or the bank's TSV.
        file: PathBuf,
    },
}

/// The help of `reproduce`'s EXPERIMENT: the ids of the experiments compiled into the binary.
fn experiment_help() -> String {
    let ids: Vec<&str> = crate::spec::EMBEDDED.iter().map(|e| e.0).collect();
    format!(
        "The experiment: `all`, or one of {} (titles: `list`)",
        ids.join(", ")
    )
}

#[cfg(test)]
mod tests {
    use super::Cli;
    use clap::CommandFactory;

    /// Every argument of every command, down the whole tree, has help text
    /// (`solve --algo`, `--seed` and `--max-generations` once had none).
    #[test]
    fn every_argument_has_help() {
        fn walk(cmd: &clap::Command, path: &str, missing: &mut Vec<String>, seen: &mut usize) {
            let path = format!("{path} {}", cmd.get_name());
            if cmd.get_about().is_none() && cmd.get_long_about().is_none() {
                missing.push(format!("{path}: the command"));
            }
            for arg in cmd.get_arguments() {
                let builtin = matches!(arg.get_id().as_str(), "help" | "version");
                *seen += usize::from(!builtin);
                if !builtin && arg.get_help().is_none() && arg.get_long_help().is_none() {
                    missing.push(format!("{path}: {}", arg.get_id()));
                }
            }
            for sub in cmd.get_subcommands() {
                walk(sub, &path, missing, seen);
            }
        }
        let mut cmd = Cli::command();
        cmd.build();
        let (mut missing, mut seen) = (Vec::new(), 0);
        walk(&cmd, "", &mut missing, &mut seen);
        // The walk reaches the flattened protocol flags and the nested `puzzles check`.
        assert!(seen > 40, "only {seen} arguments seen");
        assert!(missing.is_empty(), "without help:\n{}", missing.join("\n"));
    }

    /// `sudoku-lab --help` shows one short line per command, and `CMD -h` one short line per
    /// option: the first paragraph of each doc comment is short, the detail follows it (in
    /// `CMD --help`).
    #[test]
    fn short_help_is_one_short_line() {
        fn walk(cmd: &clap::Command, path: &str, long: &mut Vec<String>) {
            let path = format!("{path} {}", cmd.get_name());
            let about = cmd.get_about().map(|a| a.to_string()).unwrap_or_default();
            if about.len() > 90 || about.contains('\n') {
                long.push(format!("{path}: {about}"));
            }
            for arg in cmd.get_arguments() {
                let help = arg.get_help().map(|a| a.to_string()).unwrap_or_default();
                if help.len() > 100 || help.contains('\n') {
                    long.push(format!("{path} {}: {help}", arg.get_id()));
                }
            }
            for sub in cmd.get_subcommands() {
                walk(sub, &path, long);
            }
        }
        let mut cmd = Cli::command();
        cmd.build();
        let mut long = Vec::new();
        walk(&cmd, "", &mut long);
        assert!(long.is_empty(), "long short help:\n{}", long.join("\n"));
        // The detail is kept for `CMD --help`.
        let report = cmd.find_subcommand("report").unwrap();
        assert!(report
            .get_long_about()
            .unwrap()
            .to_string()
            .contains("findings-summary"));
    }

    /// The lists in the help come from the registry and the embedded specs.
    #[test]
    fn help_lists_the_algorithms_and_the_experiments() {
        let algo = super::super::solve::algo_help();
        for name in crate::algos::REGISTRY.iter().map(|a| a.name()) {
            assert!(algo.contains(name), "{name}");
            assert!(
                super::super::solve::max_generations_help().contains(name),
                "{name}"
            );
        }
        let ids = super::experiment_help();
        for (id, _) in crate::spec::EMBEDDED {
            assert!(ids.contains(id), "{id}");
        }
    }
}

#[derive(Args, Clone, Debug)]
pub struct ReadingsCalibrationArgs {
    /// Replicates per scenario (each races three readings under each procedure).
    #[arg(long, default_value_t = 1000)]
    pub replicates: u64,
    /// The study's seed (replicate k of scenario i has a seed derived from it, i and k).
    #[arg(long, default_value_t = 20261127)]
    pub seed: u64,
    /// The race's alpha.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// Only these scenarios (comma-separated names; default: all).
    #[arg(long, value_delimiter = ',')]
    pub scenarios: Vec<String>,
    /// Output folder.
    #[arg(long, default_value = "results/readings-calibration")]
    pub out: PathBuf,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
}

#[derive(Args, Clone, Debug)]
pub struct ReadingsSummaryArgs {
    /// A folder whose subfolders are races (each with its race.csv).
    pub dir: PathBuf,
}

#[derive(Args, Clone, Debug)]
pub struct CompareArgs {
    /// A results folder of `report = "compare"` (with compare-answers.csv).
    pub dir: PathBuf,
    /// An algorithm's label in the folder.
    pub a: String,
    /// Another algorithm's label.
    pub b: String,
    /// The puzzle set (a puzzle entry's `label`); all puzzles when not given.
    #[arg(long, default_value = "all")]
    pub scope: String,
}

#[derive(Args, Clone, Debug)]
pub struct PlanRunsArgs {
    /// The pilot: a runs.csv, or a results folder holding one.
    pub pilot: PathBuf,
    /// The ERT ratio to detect.
    ///
    /// The ERT ratio to detect: the slower algorithm needs this many times the evaluations
    /// of the faster one on every run (above 1, at most 1000).
    #[arg(long, default_value_t = 2.0)]
    pub ert_ratio: f64,
    /// The success-rate difference to detect (between 0 and 1, exclusive; 0.1 = 10 points).
    #[arg(long, default_value_t = 0.1)]
    pub success_difference: f64,
    /// The power asked for (above --alpha, below 1).
    #[arg(long, default_value_t = 0.8)]
    pub power: f64,
    /// The two-sided level of the family of pairwise tests, before Holm (between 0 and 0.5,
    /// exclusive).
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The evaluation budget of the planned runs.
    ///
    /// The evaluation budget of the planned runs: a slowed run that passes it fails
    /// (default: the most evaluations any pilot run spent).
    #[arg(long)]
    pub budget: Option<u64>,
    /// Also answer for each puzzle on its own.
    ///
    /// Also answer for each puzzle on its own (a comparison per puzzle, as in tables of
    /// per-puzzle success): the CSV gets a row per puzzle and pair, the printed table the
    /// median and the largest answer over the puzzles.
    #[arg(long)]
    pub by_puzzle: bool,
    /// Also write the table as CSV to this file.
    #[arg(long)]
    pub csv: Option<PathBuf>,
}

#[derive(Args, Clone, Debug)]
pub struct ReadingsArgs {
    /// An embedded experiment id (see `list`) or a spec file (.toml).
    pub experiment: String,
    /// The spec's algorithm label(s) whose published column is raced.
    ///
    /// The spec's algorithm label whose published column is raced (its options are the base);
    /// several labels joined by commas, or `all` (every entry with a paper_label), race one
    /// set of readings against all their columns.
    #[arg(long, value_name = "LABEL[,LABEL...]|all")]
    pub algorithm: String,
    /// A published table replacing the spec's.
    ///
    /// A published table replacing the spec's (layout of experiments/paper/*.csv); cells it
    /// does not hold are not tested.
    #[arg(long)]
    pub published: Option<PathBuf>,
    /// An option to vary and its values, KEY=V1,V2 (repeatable).
    ///
    /// An option to vary and its values, KEY=V1,V2 (repeatable); default: the spec's
    /// `readings`, else every ambiguity option of the algorithm.
    #[arg(long = "options", value_name = "KEY=V1,V2")]
    pub options: Vec<String>,
    /// At most this many runs per puzzle (default: the protocol's runs).
    #[arg(long)]
    pub max_runs: Option<u64>,
    /// Cumulative runs per puzzle of the rounds, comma-separated.
    #[arg(long, default_value = "5,10,20,50,100", value_delimiter = ',')]
    pub rounds: Vec<u64>,
    /// Capped runs stop at this multiple of the published maximum generations (0: no caps).
    #[arg(long, default_value_t = 2.0)]
    pub cap: f64,
    /// The mean cap: a multiple of the published mean generations.
    ///
    /// On rows that print a mean but no maximum, capped runs stop at this multiple of the
    /// published mean generations of successes, tested against Markov's bound (0: no mean caps).
    #[arg(long, default_value_t = 20.0)]
    pub mean_cap: f64,
    /// Family-wise error rate of a reading's elimination over the whole race.
    #[arg(long, default_value_t = 0.05)]
    pub alpha: f64,
    /// The success-rate margin of a survivor.
    ///
    /// A survivor's success rate is within margins when it lies within this difference of the
    /// published rate (0.10: ten points), by two one-sided tests at --alpha.
    #[arg(long, default_value_t = 0.10)]
    pub margin_success: f64,
    /// The mean margin of a survivor (a share of the published mean).
    ///
    /// A survivor's mean is within margins when it lies within this share of the published
    /// mean (0.25: a quarter), by two one-sided tests at --alpha.
    #[arg(long, default_value_t = 0.25)]
    pub margin_mean: f64,
    /// The statistical procedure: v3, v2 or v1.
    ///
    /// The statistical procedure: v3 (v2 with a median cell that allows runs tied at the
    /// published median; the default of a new race), v2 (alpha spent over rounds, the guarded
    /// mean test) or v1 (Bonferroni over every look, Welch). Default: a resumed folder's own
    /// (v1 where its settings.json names none), else v3.
    #[arg(long, value_name = "v1|v2|v3")]
    pub procedure: Option<String>,
    /// Output folder (default `results/readings-<id>-<label>/`).
    #[arg(long)]
    pub out: Option<PathBuf>,
    /// Worker threads (default: all cores). Results do not depend on it.
    #[arg(long)]
    pub threads: Option<usize>,
    /// Continue an interrupted race: runs already in its runs.csv are not redone.
    #[arg(long, conflicts_with = "fresh")]
    pub resume: bool,
    /// Discard the race's earlier files in the output folder and start over.
    #[arg(long)]
    pub fresh: bool,
    /// Give every reading all its capped runs of a round.
    ///
    /// Give every reading all its capped runs of a round, even once its elimination is
    /// decided (the same eliminations; more runs; to check curtailment).
    #[arg(long)]
    pub no_curtail: bool,
    /// Give every reading its own runs (no sharing).
    ///
    /// Give every reading its own runs, even where the algorithm knows that two readings make
    /// the same runs (the same eliminations; more runs; to check the sharing).
    #[arg(long)]
    pub no_shared_runs: bool,
    /// Race against a table made from this hidden reading.
    ///
    /// Race against a table made from this hidden reading (KEY=V,...; options left out take
    /// their first value) instead of the published one.
    #[arg(long, value_name = "KEY=V,...")]
    pub synthetic: Option<String>,
    /// The master seed of the synthetic table's runs (default: the race's plus one).
    #[arg(long)]
    pub synthetic_seed: Option<u64>,
    /// The master seed of the confirmation.
    ///
    /// The master seed of the confirmation: the survivors and the last round's eliminations
    /// rerun at the full protocol and tested once. Default: a v2 or v3 race's is a hash of its
    /// master seed; a resumed folder keeps its own (none where its settings.json names none).
    #[arg(long, conflicts_with = "no_confirm")]
    pub confirm_seed: Option<u64>,
    /// No confirmation at a second seed.
    #[arg(long)]
    pub no_confirm: bool,
    /// On a cluster: make the K-th of N shares of the runs the race needs next.
    ///
    /// On a cluster: make the K-th of N shares of the runs the race in --out needs next, into
    /// SHARD-DIR/shard-K.csv (docs/cluster.md).
    #[arg(long, value_name = "K/N", requires = "shard_dir", conflicts_with_all = ["merge_shards", "fresh"])]
    pub shard: Option<String>,
    /// On a cluster: take the runs of N shard files into the race.
    ///
    /// On a cluster: take the runs of the N shard files in SHARD-DIR into the race in --out
    /// and go on with it; exit 0 when it has ended (its outputs written), 3 when it needs
    /// another round of shards.
    #[arg(
        long,
        value_name = "N",
        requires = "shard_dir",
        conflicts_with = "fresh"
    )]
    pub merge_shards: Option<usize>,
    /// The folder of one round's shard files (with --shard or --merge-shards).
    #[arg(long, value_name = "SHARD-DIR")]
    pub shard_dir: Option<PathBuf>,
    /// The master seed of the race's runs (default: the spec's).
    ///
    /// The master seed of the race's runs (default: the spec's), so that races of one spec
    /// at several seeds are independent.
    #[arg(long)]
    pub seed: Option<u64>,
}

#[derive(Args, Clone, Debug)]
pub struct InstancesArgs {
    /// Order of the grid: 9, 16 or 25 (the papers' 3x3, 4x4 and 5x5 boxes); 4, 6 and 12 also.
    #[arg(long)]
    pub size: usize,
    /// Fraction of the cells kept as givens, from 0 to below 1.
    ///
    /// Fraction of the cells kept as givens, from 0 (an empty grid) to below 1, read exactly
    /// (at most 6 decimals): the papers sweep 0.00 to 0.95 in steps of 0.05.
    #[arg(long)]
    pub fraction: sudoku_core::instances::Fraction,
    /// Number of instances (index 1..=count).
    #[arg(long, default_value_t = 10)]
    pub count: u64,
    /// Seed of the set: the same seed, size, fraction and options give the same file.
    #[arg(long, default_value_t = 1)]
    pub seed: u64,
    /// How the complete grid is made (neither paper says; see the sudoku_core::instances docs).
    #[arg(long, value_enum, default_value = "solver+symmetries")]
    pub grid: super::instances::GridFlag,
    /// Which cells are kept.
    #[arg(long, value_enum, default_value = "ceil")]
    pub keep: super::instances::GivensFlag,
    /// Write the instances here (atomically) instead of to standard output.
    #[arg(long)]
    pub out: Option<PathBuf>,
}
