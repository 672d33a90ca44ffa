//! A race as it is asked for: the arguments of `sudoku-lab readings` in the engine's terms,
//! before any file is read. The command parses its flags into an [`Order`] and hands it to
//! the engine ([`super::engine`]), which settles what the order leaves to the race's folder
//! (its procedure, its confirmation), validates it into a [`super::Setup`] once, and owns the
//! race from there to its outputs. The order also writes itself back as the command that
//! makes the race (command.json).

use super::procedure::Procedure;
use super::verdicts::Margins;
use super::Request;
use crate::spec;
use anyhow::{bail, Result};
use std::path::{Path, PathBuf};

/// What happens to earlier race files in the output folder.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Folder {
    /// A folder holding a race is refused.
    New,
    /// `--resume`: the race in the folder goes on (with the same settings).
    Resume,
    /// `--fresh`: the race's earlier files are removed first.
    Fresh,
}

/// The confirmation at a second master seed, as asked for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Confirm {
    /// Neither `--confirm-seed` nor `--no-confirm`: the folder's own, else the procedure's
    /// default ([`super::engine`] settles it).
    Default,
    /// `--confirm-seed S`.
    Seed(u64),
    /// `--no-confirm`.
    Off,
}

/// A race as asked for (the flags of `readings`; see its `--help` for each).
#[derive(Debug, Clone)]
pub struct Order {
    /// An embedded experiment id or a spec file.
    pub experiment: String,
    /// The raced label(s), joined by commas, or `all`.
    pub algorithm: String,
    pub published: Option<PathBuf>,
    pub options: Vec<String>,
    pub max_runs: Option<u64>,
    pub rounds: Vec<u64>,
    /// `--cap` (0: no caps).
    pub cap: f64,
    /// `--mean-cap` (0: no mean caps).
    pub mean_cap: f64,
    pub alpha: f64,
    pub margins: Margins,
    /// `--procedure` (None: the folder's own, else v3).
    pub procedure: Option<Procedure>,
    /// `--out` (None: [`super::default_out`]).
    pub out: Option<PathBuf>,
    /// Worker threads, at least 1.
    pub threads: usize,
    pub folder: Folder,
    /// Not `--no-curtail`.
    pub curtail: bool,
    /// Not `--no-shared-runs`.
    pub share: bool,
    /// `--synthetic KEY=V,...`: the hidden reading of a synthetic race.
    pub synthetic: Option<String>,
    pub synthetic_seed: Option<u64>,
    /// `--seed`: the race's master seed, replacing the spec's.
    pub seed: Option<u64>,
    pub confirm: Confirm,
}

impl Order {
    /// The numeric flags in range.
    pub fn check(&self) -> Result<()> {
        if !(self.alpha > 0.0 && self.alpha < 1.0) {
            bail!("--alpha {} is not between 0 and 1", self.alpha);
        }
        if !(self.cap == 0.0 || (self.cap >= 1.0 && self.cap <= 1e6)) {
            bail!("--cap {} must be 0 (no caps) or between 1 and 10^6 (a cap below the published maximum would censor successes the paper counts)", self.cap);
        }
        if !(self.mean_cap == 0.0 || (self.mean_cap >= 2.0 && self.mean_cap <= 1e6)) {
            bail!("--mean-cap {} must be 0 (no mean caps) or between 2 and 10^6 (the Markov bound of a cap k x mean is 1 - 1/k of the successes)", self.mean_cap);
        }
        for (flag, m) in [
            ("--margin-success", self.margins.success),
            ("--margin-mean", self.margins.mean),
        ] {
            if !(m > 0.0 && m < 1.0) {
                bail!("{flag} {m} must be between 0 and 1 (a share)");
            }
        }
        if self.max_runs == Some(0) {
            bail!("--max-runs must be at least 1");
        }
        if self.rounds.is_empty() || self.rounds.contains(&0) {
            bail!("--rounds needs run counts of at least 1");
        }
        // The race's master seed replaces the spec's, whose bound a spec file's seed meets.
        if let Some(s) = self.seed.filter(|&s| s > spec::MAX_TOML_INT) {
            bail!(
                "--seed {s} is above the largest master seed, {}",
                spec::MAX_TOML_INT
            );
        }
        Ok(())
    }

    /// Whether the order names a spec file (else an embedded experiment).
    pub fn is_spec_file(&self) -> bool {
        is_spec_file(&self.experiment)
    }

    /// command.json: the arguments of `sudoku-lab` that make the race of `request` (the
    /// order's, with its procedure and confirmation settled), without `--out`, `--threads`,
    /// `--resume` and `--fresh`, as a JSON array: replaying them with `--resume` and another
    /// `--out` over a copy of the folder rewrites its outputs from its runs (a test does so
    /// for every committed race, so the committed outputs are the code's).
    pub fn command(&self, request: &Request) -> String {
        let procedure = request.procedure;
        // A spec file and a table by where they are, so that the race replays from any folder.
        let experiment = match self.is_spec_file() {
            true => absolute(Path::new(&self.experiment)),
            false => self.experiment.clone(),
        };
        let mut v: Vec<String> = vec!["readings".into(), experiment];
        let mut arg = |k: &str, x: String| v.extend([k.to_string(), x]);
        arg("--algorithm", self.algorithm.clone());
        if let Some(p) = &self.published {
            arg("--published", absolute(p));
        }
        for o in &self.options {
            arg("--options", o.clone());
        }
        if let Some(m) = self.max_runs {
            arg("--max-runs", m.to_string());
        }
        let rounds = self.rounds.iter().map(u64::to_string).collect::<Vec<_>>();
        arg("--rounds", rounds.join(","));
        arg("--cap", self.cap.to_string());
        arg("--mean-cap", self.mean_cap.to_string());
        arg("--alpha", self.alpha.to_string());
        // Only when not the defaults, so the command of a race made before them is unchanged.
        if self.margins.success != Margins::DEFAULT.success {
            arg("--margin-success", self.margins.success.to_string());
        }
        if self.margins.mean != Margins::DEFAULT.mean {
            arg("--margin-mean", self.margins.mean.to_string());
        }
        // v1 is what a folder without the flag replays as (races made before the versions).
        if procedure != Procedure::V1 {
            arg("--procedure", procedure.name().to_string());
        }
        if let Some(h) = &self.synthetic {
            arg("--synthetic", h.clone());
        }
        if let Some(s) = self.synthetic_seed {
            arg("--synthetic-seed", s.to_string());
        }
        if let Some(s) = self.seed {
            arg("--seed", s.to_string());
        }
        if !self.curtail {
            v.push("--no-curtail".into());
        }
        if !self.share {
            v.push("--no-shared-runs".into());
        }
        // The confirmation, named whenever it differs from a v1 race's default (none).
        match request.confirm_seed {
            Some(s) => v.extend(["--confirm-seed".to_string(), s.to_string()]),
            None if procedure != Procedure::V1 => v.push("--no-confirm".into()),
            None => {}
        }
        serde_json::to_string(&v).unwrap_or_default() + "\n"
    }
}

/// Whether `readings EXPERIMENT` names a spec file (else an embedded experiment).
pub fn is_spec_file(experiment: &str) -> bool {
    experiment.ends_with(".toml") || Path::new(experiment).is_file()
}

/// `path` made absolute against the current folder, without resolving links (a path every
/// node of a cluster sees stays that path).
fn absolute(path: &Path) -> String {
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    abs.display().to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn order() -> Order {
        Order {
            experiment: "ret-ga-table1".into(),
            algorithm: "ret-ga".into(),
            published: None,
            options: vec!["elitism=best,alternate".into()],
            max_runs: None,
            rounds: vec![5, 10],
            cap: 2.0,
            mean_cap: 20.0,
            alpha: 0.05,
            margins: Margins::DEFAULT,
            procedure: None,
            out: None,
            threads: 1,
            folder: Folder::New,
            curtail: true,
            share: true,
            synthetic: None,
            synthetic_seed: None,
            seed: None,
            confirm: Confirm::Default,
        }
    }

    #[test]
    fn every_flag_out_of_range_is_refused_by_name() {
        type Case = (&'static str, fn(&mut Order));
        let cases: [Case; 8] = [
            ("--alpha", |o| o.alpha = 1.0),
            ("--cap", |o| o.cap = 0.5),
            ("--mean-cap", |o| o.mean_cap = 1.5),
            ("--margin-success", |o| o.margins.success = 0.0),
            ("--margin-mean", |o| o.margins.mean = 1.0),
            ("--max-runs", |o| o.max_runs = Some(0)),
            ("--rounds", |o| o.rounds = vec![5, 0]),
            ("--seed", |o| o.seed = Some(u64::MAX)),
        ];
        assert!(order().check().is_ok());
        for (flag, break_it) in cases {
            let mut o = order();
            break_it(&mut o);
            let e = o.check().unwrap_err().to_string();
            assert!(e.starts_with(flag), "{flag}: {e}");
        }
    }
}
