//! The regions of practical equivalence (ROPE) of the compare report's Bayesian signed-rank
//! tests: spec keys `rope_ert_ratio` and `rope_success`, their defaults and bounds.
//!
//! Why these defaults. ERT: two algorithms whose ERTs on a puzzle are within 10 % of each
//! other (ratio 1.1) are practically equivalent: a difference that size is below what changes a
//! choice of solver and within what an evaluation's cost varies between the algorithms (the
//! report's "What one evaluation is"); the test works on ln ERT, where a ratio is a difference,
//! so the ROPE is +-ln 1.1 whatever a puzzle's scale (an easy puzzle's 10^3 evaluations and a
//! hard one's 10^6 weigh alike). Success rate: 5 points, half the 10-point difference the
//! report's power analysis (runs needed) asks to detect, so that an effect of that size lies
//! clearly outside the ROPE; it is also one run in 20 (benchmark-9x9's runs per puzzle).

use super::Spec;
use anyhow::{bail, Result};

/// Default of `rope_ert_ratio`.
pub const DEFAULT_ROPE_ERT_RATIO: f64 = 1.1;
/// Default of `rope_success`.
pub const DEFAULT_ROPE_SUCCESS: f64 = 0.05;

/// Bounds of the keys: (key, least, largest).
pub const ROPE_BOUNDS: [(&str, f64, f64); 2] =
    [("rope_ert_ratio", 1.0, 10.0), ("rope_success", 0.0, 0.5)];

impl Spec {
    /// The ROPE on ln ERT: ln of `rope_ert_ratio` (or its default).
    pub fn rope_log_ert(&self) -> f64 {
        self.rope_ert_ratio.unwrap_or(DEFAULT_ROPE_ERT_RATIO).ln()
    }

    /// The ROPE on success rates.
    pub fn rope_success_rate(&self) -> f64 {
        self.rope_success.unwrap_or(DEFAULT_ROPE_SUCCESS)
    }

    /// The ROPE keys are set with `report = "compare"` only, and within [`ROPE_BOUNDS`]
    /// (a NaN is refused too).
    pub(super) fn check_ropes(&self) -> Result<()> {
        let keys = [self.rope_ert_ratio, self.rope_success];
        for ((key, min, max), value) in ROPE_BOUNDS.iter().zip(keys) {
            let Some(v) = value else { continue };
            if !matches!(self.report.as_str(), "compare" | "phase") {
                bail!("{key} needs report \"compare\"");
            }
            if !(v >= *min && v <= *max) {
                bail!("{key} = {v} is outside {min}..={max}");
            }
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(extra: &str) -> Result<Spec> {
        let text = format!(
            "id = \"x\"\ntitle = \"x\"\nmaster_seed = 1\nruns = 2\nquick_runs = 1\nquick_max_generations = 1\nreport = \"compare\"\n{extra}\npuzzles = [{{ id = \"mk_easy\" }}]\n[[algorithms]]\nlabel = \"a\"\nalgorithm = \"ret-ga\"\nmax_generations = 10\n[[algorithms]]\nlabel = \"b\"\nalgorithm = \"mk-ga\"\nmax_generations = 10\n"
        );
        let s: Spec = toml::from_str(&text)?;
        s.check_ropes()?;
        Ok(s)
    }

    #[test]
    fn ropes_have_defaults_and_bounds() {
        let s = spec("").unwrap();
        assert_eq!(s.rope_log_ert(), 1.1f64.ln());
        assert_eq!(s.rope_success_rate(), 0.05);
        assert_eq!(
            spec("rope_ert_ratio = 1.5").unwrap().rope_log_ert(),
            1.5f64.ln()
        );
        for (bad, msg) in [
            (
                "rope_ert_ratio = 0.9",
                "rope_ert_ratio = 0.9 is outside 1..=10",
            ),
            (
                "rope_ert_ratio = 11.0",
                "rope_ert_ratio = 11 is outside 1..=10",
            ),
            (
                "rope_success = -0.1",
                "rope_success = -0.1 is outside 0..=0.5",
            ),
            (
                "rope_success = nan",
                "rope_success = NaN is outside 0..=0.5",
            ),
        ] {
            assert_eq!(spec(bad).unwrap_err().to_string(), msg, "{bad}");
        }
        let text = "rope_success = 0.1";
        let s: Spec = toml::from_str(&format!(
            "id = \"x\"\ntitle = \"x\"\nmaster_seed = 1\nruns = 2\nquick_runs = 1\nquick_max_generations = 1\n{text}\npuzzles = []\nalgorithms = []\n"
        ))
        .unwrap();
        assert_eq!(
            s.check_ropes().unwrap_err().to_string(),
            "rope_success needs report \"compare\""
        );
    }
}
