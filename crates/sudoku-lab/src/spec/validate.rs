//! The checks of a parsed spec: names, sizes, the report and chart keys and what each report
//! needs, the algorithms' options (each is built once), all before the first run.

use super::{check_name, Spec};
use anyhow::{bail, Context, Result};

/// The values of the key `report`.
const REPORTS: [&str; 10] = [
    "none", "table1", "ablation", "grades", "counter", "effort", "versus", "levels", "compare",
    "phase",
];

/// The values of the key `chart`.
const CHARTS: [&str; 4] = [
    "alpha",
    "success-by-variant",
    "success-by-puzzle",
    "sensitivity",
];

impl Spec {
    /// Every check, one concern at a time. The order is part of the behaviour: a spec with
    /// several faults is refused with the message of the first check it fails.
    pub(super) fn validate(&self) -> Result<()> {
        self.check_id()?;
        self.check_budgets()?;
        self.check_runs_set_once()?;
        self.check_paths()?;
        self.check_names()?;
        self.check_not_empty()?;
        self.check_puzzle_ids_unique()?;
        self.check_algorithms()?;
        self.check_take()?;
        self.check_report_key()?;
        self.check_published_levels()?;
        self.check_counter_key()?;
        self.check_published()?;
        self.check_counter_emitted()?;
        self.check_trajectory()?;
        self.check_chart()?;
        self.check_compare()?;
        self.check_ropes()?;
        self.check_versus()?;
        self.check_sensitivity()?;
        self.check_grades()
    }

    /// The id names the results folder: letters, digits, '-' and '_' only.
    fn check_id(&self) -> Result<()> {
        if self.id.is_empty()
            || !self
                .id
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            bail!(
                "id '{}' must be non-empty letters, digits, '-' or '_'",
                self.id
            );
        }
        Ok(())
    }

    /// Runs set per puzzle or per algorithm, not both: which would win is no rule a reader
    /// could guess.
    fn check_runs_set_once(&self) -> Result<()> {
        let puzzle = self.puzzles.iter().find(|p| p.runs.is_some());
        let algorithm = self.algorithms.iter().find(|a| a.runs.is_some());
        if let (Some(p), Some(a)) = (puzzle, algorithm) {
            bail!(
                "runs is set on puzzle '{}' and on algorithm '{}': set runs per puzzle or per algorithm, not both",
                p.id,
                a.label
            );
        }
        Ok(())
    }

    /// Every file name the spec gives (a puzzle's `file`, `published`, `published_levels`)
    /// stays in the spec's folder ([`super::check_spec_path`]).
    fn check_paths(&self) -> Result<()> {
        for p in &self.puzzles {
            if let Some(f) = &p.file {
                super::check_spec_path(&format!("puzzle '{}': file", p.id), f)?;
            }
        }
        if let Some(f) = &self.published {
            super::check_spec_path("published", f)?;
        }
        for (label, f) in self.published_levels.iter().flatten() {
            super::check_spec_path(&format!("published_levels '{label}'"), f)?;
        }
        Ok(())
    }

    /// The puzzle ids and labels, the algorithm labels and paper labels (see [`check_name`]).
    fn check_names(&self) -> Result<()> {
        for p in &self.puzzles {
            check_name("puzzle id", &p.id, false)?;
            if let Some(l) = &p.label {
                check_name("puzzle label", l, false)?;
            }
        }
        for a in &self.algorithms {
            check_name("algorithm label", &a.label, false)?;
            check_plain_label(&a.label)?;
            if let Some(l) = &a.paper_label {
                check_name("paper_label", l, true)?;
            }
        }
        Ok(())
    }

    /// At least one puzzle and one algorithm.
    fn check_not_empty(&self) -> Result<()> {
        if self.puzzles.is_empty() || self.algorithms.is_empty() {
            bail!("a spec needs at least one puzzle and one algorithm");
        }
        Ok(())
    }

    /// No puzzle id twice.
    fn check_puzzle_ids_unique(&self) -> Result<()> {
        let mut seen = std::collections::HashSet::new();
        for p in &self.puzzles {
            if !seen.insert(&p.id) {
                bail!("puzzle id '{}' appears twice", p.id);
            }
        }
        Ok(())
    }

    /// Per algorithm, in spec order: a label not seen before (its budgets are checked with
    /// the others, [`Spec::budget_keys`]), and options its solver accepts (the solver is built once here, so a bad
    /// option is refused before the first run).
    fn check_algorithms(&self) -> Result<()> {
        let mut seen = std::collections::HashSet::new();
        for a in &self.algorithms {
            if !seen.insert(&a.label) {
                bail!("algorithm label '{}' appears twice", a.label);
            }
            a.check_external_keys()
                .with_context(|| format!("algorithm '{}'", a.label))?;
            if a.is_external() {
                continue;
            }
            crate::algos::solver(&a.algorithm, &a.params)
                .with_context(|| format!("algorithm '{}'", a.label))?;
            check_readings(a)?;
        }
        Ok(())
    }

    /// A puzzle's `take` (at least 1, [`Spec::budget_keys`]) applies to whole sets (`all = true`) only.
    fn check_take(&self) -> Result<()> {
        for p in &self.puzzles {
            if p.take.is_some() && !p.all {
                bail!("puzzle '{}': take needs all = true", p.id);
            }
        }
        Ok(())
    }

    /// `report` is one of [`REPORTS`].
    fn check_report_key(&self) -> Result<()> {
        if !REPORTS.contains(&self.report.as_str()) {
            bail!(
                "report '{}' is not one of: {}",
                self.report,
                REPORTS.join(", ")
            );
        }
        Ok(())
    }

    /// `report = "levels"` and `published_levels` go together; the levels report needs one
    /// puzzle per entry and exactly one published file per puzzle label.
    fn check_published_levels(&self) -> Result<()> {
        match (self.report == "levels", &self.published_levels) {
            (true, None) => bail!(
                "report = \"levels\" needs published_levels (puzzle label -> published per-puzzle CSV)"
            ),
            (false, Some(_)) => bail!("published_levels needs report = \"levels\""),
            (true, Some(files)) => {
                let mut labels: Vec<&str> = Vec::new();
                for p in &self.puzzles {
                    if p.all || p.box_fillings.is_some() {
                        bail!(
                            "report \"levels\" needs one puzzle per entry: '{}' is a set",
                            p.id
                        );
                    }
                    if !labels.contains(&p.label()) {
                        labels.push(p.label());
                    }
                }
                if let Some(k) = files.keys().find(|k| !labels.contains(&k.as_str())) {
                    bail!(
                        "published_levels: '{k}' is the label of no puzzle (labels: {})",
                        labels.join(", ")
                    );
                }
                if let Some(l) = labels.iter().find(|l| !files.contains_key(**l)) {
                    bail!("published_levels: puzzle label '{l}' has no file");
                }
            }
            (false, None) => {}
        }
        Ok(())
    }

    /// `report = "counter"` and the key `counter` go together.
    fn check_counter_key(&self) -> Result<()> {
        if (self.report == "counter") != self.counter.is_some() {
            bail!("report = \"counter\" and the key `counter` go together");
        }
        Ok(())
    }

    /// The reports that compare with the paper's values need them (`published`).
    fn check_published(&self) -> Result<()> {
        if matches!(self.report.as_str(), "table1" | "ablation" | "counter")
            && self.published.is_none()
        {
            bail!(
                "report \"{}\" needs published (a CSV of the paper's values)",
                self.report
            );
        }
        Ok(())
    }

    /// The counter of the counter report is emitted by every algorithm of the spec.
    fn check_counter_emitted(&self) -> Result<()> {
        if let Some(name) = &self.counter {
            for a in &self.algorithms {
                let emitted = crate::algos::counters(&a.algorithm, &a.params);
                if !emitted.contains(&name.as_str()) {
                    bail!(
                        "counter '{name}': algorithm '{}' ({}) does not emit it (it emits: {})",
                        a.label,
                        a.algorithm,
                        emitted.join(", ")
                    );
                }
            }
        }
        Ok(())
    }

    /// `trajectory` needs the counter report and a counter prefix some algorithm emits.
    fn check_trajectory(&self) -> Result<()> {
        match (&self.trajectory, &self.counter) {
            (Some(_), None) => bail!("trajectory needs report = \"counter\""),
            (Some(prefix), Some(_))
                if !self.algorithms.iter().any(|a| {
                    crate::algos::counters(&a.algorithm, &a.params)
                        .iter()
                        .any(|c| c.starts_with(prefix.as_str()))
                }) =>
            {
                bail!("trajectory: no algorithm emits counters named {prefix}<generation>")
            }
            _ => {}
        }
        Ok(())
    }

    /// `chart` is one of [`CHARTS`] and drawn by the spec's report.
    fn check_chart(&self) -> Result<()> {
        if let Some(c) = self.chart.as_deref().filter(|c| !CHARTS.contains(c)) {
            bail!("chart '{c}' is not one of: {}", CHARTS.join(", "));
        }
        // A chart is drawn by one kind of report only: anything else would be silently ignored.
        match (self.chart.as_deref(), self.report.as_str()) {
            (None, _)
            | (Some("alpha" | "success-by-variant" | "success-by-puzzle"), "ablation")
            | (Some("sensitivity"), "effort" | "versus") => {}
            (Some(c @ ("alpha" | "success-by-variant" | "success-by-puzzle")), r) => {
                bail!("chart \"{c}\" is drawn by report \"ablation\" only, not \"{r}\"")
            }
            (Some(c), r) => bail!(
                "chart \"{c}\" cannot be drawn by report \"{r}\" (report \"compare\" draws its own charts; \"sensitivity\" needs \"effort\" or \"versus\")"
            ),
        }
        Ok(())
    }

    /// The compare report compares algorithms in pairs: at least two.
    fn check_compare(&self) -> Result<()> {
        if matches!(self.report.as_str(), "compare" | "phase") && self.algorithms.len() < 2 {
            bail!("report \"{}\" needs at least two algorithms", self.report);
        }
        Ok(())
    }

    /// `versus` is "all" or "baseline", with the versus report only.
    fn check_versus(&self) -> Result<()> {
        match self.versus.as_deref() {
            None => {}
            Some("all" | "baseline") if self.report == "versus" => {}
            Some(v) => {
                bail!("versus = \"{v}\" needs report \"versus\" and is \"all\" or \"baseline\"")
            }
        }
        Ok(())
    }

    /// The sensitivity chart: its report, and panels it can draw from the spec's algorithms.
    fn check_sensitivity(&self) -> Result<()> {
        if self.chart.as_deref() == Some("sensitivity") {
            if !matches!(self.report.as_str(), "effort" | "versus") {
                bail!("chart \"sensitivity\" needs report \"effort\" or \"versus\"");
            }
            super::sensitivity_panels(self)?;
        }
        Ok(())
    }

    /// The grades report is of one algorithm on one puzzle.
    fn check_grades(&self) -> Result<()> {
        if self.report == "grades" && (self.puzzles.len() != 1 || self.algorithms.len() != 1) {
            bail!("report 'grades' needs exactly one puzzle and one algorithm");
        }
        Ok(())
    }
}

/// An algorithm label names a folder of the results folder (an external solver's logs go to
/// `external-logs/<label>/`): a plain file name, never `.`, `..` or a path with `/`, which
/// would put the logs in the results folder itself or in another one.
fn check_plain_label(label: &str) -> Result<()> {
    if label == "." || label == ".." || label.contains('/') {
        bail!(
            "algorithm label '{}': not a plain file name (no '/', not '.' or '..'): the label names a folder of the results",
            label.escape_default()
        );
    }
    Ok(())
}

/// An algorithm's `readings`: every option named has at least one value, no value twice, and
/// each value builds a solver with the algorithm's other options.
fn check_readings(a: &super::AlgorithmSpec) -> Result<()> {
    let Some(readings) = &a.readings else {
        return Ok(());
    };
    for (key, values) in readings {
        let at = || format!("algorithm '{}': readings.{key}", a.label);
        if values.is_empty() {
            bail!("{}: no values", at());
        }
        for (i, v) in values.iter().enumerate() {
            if values[..i].contains(v) {
                bail!("{}: value {v} appears twice", at());
            }
            let mut params = a.params.clone();
            params.insert(key.clone(), v.clone());
            crate::algos::solver(&a.algorithm, &params).with_context(at)?;
        }
    }
    Ok(())
}
