//! The race's statistical procedure, versioned so that a committed race replays as it was
//! made (a folder whose settings name no procedure is procedure 1).
//!
//! - **v1** (races made before the versions): every look tested at alpha / L (L = rounds x
//!   stages x rows, Bonferroni across looks) on the smallest Holm-adjusted p-value; the mean
//!   generations of successes (and a counter's mean) tested with Welch's t-test.
//! - **v2**: alpha spent over the *rounds* with a Pocock-type
//!   Lan-DeMets spending function of the rounds' run counts ([`lab_stats::round_alphas`]),
//!   and within a round a Bonferroni-Holm bound over the round's *cells*. A cell's p-value is
//!   the same at every look of a round (the looks of a round add cells; a capped run and its
//!   full-budget run agree on every quantile cell, by the prefix property), so the reading is
//!   eliminated in round k exactly when some cell of the round has p <= alpha_k / C, C the
//!   number of cells a reading can have: probability at most alpha_k per round and alpha over
//!   the race, whatever the dependence between rounds and cells. The mean cells use
//!   [`lab_stats::guarded_mean_test`], whose size at these levels is measured by simulation
//!   (`readings-calibration`). Both procedures' cell tests are in [`super::cells`].
//!
//! - **v3** (the default of new races): v2 with the median cell that holds its level when
//!   runs tie at the published median ([`super::cells::median_p`]). Under v1 and v2 the
//!   median cell tests our count solved by the median against ceil(s/2), the least count the
//!   table allows the paper; generations are whole numbers, so where the paper's runs tie at
//!   its median its true count is larger, and a true reading is eliminated more often than
//!   alpha (measured in `readings-calibration`'s geometric scenarios). v3 tests against the
//!   paper count the table allows nearest ours. It never rejects where v2 does not at a level
//!   below 0.01 (a suite test; see [`super::cells::median_p`]'s tests), and gives
//!   v2's p-value wherever none of our runs is exactly at the median.
//!
//! The p-value a v2 or v3 look reports is Holm-adjusted over the round's C cells (cells without
//! data count as p = 1) and scaled by alpha / alpha_k, so that every round eliminates at the
//! same threshold, alpha.

/// The statistical procedure of a race.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Procedure {
    /// Bonferroni over every look, Welch's t-test on means (races made before v2).
    V1,
    /// Alpha spent over rounds, Holm over a round's cells, the guarded mean test.
    V2,
    /// v2 with the tie-aware median cell.
    #[default]
    V3,
}

impl Procedure {
    pub fn name(self) -> &'static str {
        match self {
            Procedure::V1 => "v1",
            Procedure::V2 => "v2",
            Procedure::V3 => "v3",
        }
    }

    /// `v1`, `v2` or `v3`; None otherwise.
    pub fn parse(s: &str) -> Option<Procedure> {
        match s {
            "v1" => Some(Procedure::V1),
            "v2" => Some(Procedure::V2),
            "v3" => Some(Procedure::V3),
            _ => None,
        }
    }

    /// Whether alpha is spent over the rounds with the guarded mean test (v2 and v3), rather
    /// than v1's Bonferroni over every look with Welch's test.
    pub fn spends_alpha(self) -> bool {
        self != Procedure::V1
    }

    /// Whether the median cell allows ties at the published median (v3).
    pub fn tie_aware_median(self) -> bool {
        self == Procedure::V3
    }
}
