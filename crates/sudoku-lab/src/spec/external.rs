//! The keys of `algorithm = "external"` (docs/external-solvers.md): checked with the spec, so
//! that a bad key is refused before anything runs, and turned into the solver with the spec's
//! folder.

use super::{check_spec_path, AlgorithmSpec};
use crate::algos::external::{ExternalSolver, Keys};
use anyhow::{bail, Result};
use std::path::Path;

impl AlgorithmSpec {
    /// True for `algorithm = "external"`.
    pub fn is_external(&self) -> bool {
        self.algorithm == "external"
    }

    /// The external keys, when this is an external solver with a command.
    fn keys(&self) -> Option<Keys<'_>> {
        Some(Keys {
            command: self.command.as_deref()?,
            env: self.env.as_ref(),
            mode: self.mode.as_deref(),
            wall_seconds: self.wall_seconds,
            handshake_seconds: self.handshake_seconds,
            params: &self.params,
        })
    }

    /// An external solver's keys are complete and valid, and the files its command names stay
    /// in the spec's folder; the other algorithms have none of them.
    pub fn check_external_keys(&self) -> Result<()> {
        if !self.is_external() {
            let set = [
                ("command", self.command.is_some()),
                ("env", self.env.is_some()),
                ("mode", self.mode.is_some()),
                ("wall_seconds", self.wall_seconds.is_some()),
                ("handshake_seconds", self.handshake_seconds.is_some()),
                ("evaluation_unit", self.evaluation_unit.is_some()),
            ];
            if let Some((key, _)) = set.iter().find(|s| s.1) {
                bail!("{key}: a key of algorithm = \"external\" only");
            }
            return Ok(());
        }
        let Some(keys) = self.keys() else {
            bail!("command: missing (algorithm = \"external\" needs the program and its arguments, e.g. command = [\"python3\", \"solver.py\"])");
        };
        crate::algos::external::check(&keys)?;
        if let Some(u) = &self.evaluation_unit {
            let ok = !u.is_empty()
                && u.len() <= 64
                && u.chars()
                    .all(|c| c.is_ascii_alphanumeric() || "-_.+".contains(c));
            if !ok {
                bail!("evaluation_unit: '{u}' is not a name (1 to 64 letters, digits, '-', '_', '.', '+')");
            }
        }
        if self.readings.is_some() {
            bail!("readings: an external solver has no ambiguity table to vary");
        }
        let program = &keys.command[0];
        if program.contains('/') {
            check_spec_path("command", program)?;
        }
        // Arguments that are not options may name files: they stay in the folder too.
        for arg in keys.command[1..].iter().filter(|a| !a.starts_with('-')) {
            check_spec_path("command", arg)?;
        }
        Ok(())
    }

    /// The external solver of this entry, run in `dir` (the spec's folder).
    pub fn external_solver(&self, dir: Option<&Path>) -> Result<ExternalSolver> {
        match self.keys() {
            Some(k) => crate::algos::external::external(&k, dir),
            None => bail!("algorithm '{}': command: missing", self.label),
        }
    }
}
