//! The "Confirmation" section of a race's report.md ([`super::confirm`]).

use super::confirm::{Confirmation, Verdict};
use super::md;
use super::procedure::Procedure;
use super::Setup;

/// The most readings whose cells the section lists one by one (the others are in
/// confirm.csv).
const LISTED: usize = 20;

/// The report's Confirmation section: what was rerun and how it is tested, the consistent
/// readings, a table of every confirmed reading, and per reading its cells.
pub fn section(setup: &Setup, c: &Confirmation) -> String {
    let runs: Vec<String> = c.runs.iter().map(u64::to_string).collect();
    let consistent = c.verdicts.iter().filter(|v| v.consistent()).count();
    let survivors = c.verdicts.iter().filter(|v| v.survived).count();
    let (last, planned) = c.last_round;
    // The round named when the race ended before its final round (every reading eliminated).
    let which = if last < planned {
        format!("the last round it ran (round {last} of {planned}: every reading was eliminated by then)")
    } else {
        "its last round".to_string()
    };
    let last = match c.verdicts.len() - survivors {
        0 => format!("(no reading was eliminated in {which})"),
        k => format!("and the {k} readings it eliminated in {which}"),
    };
    let mut s = format!(
        "## Confirmation\n\n\
        The race's {survivors} survivors {last} were run again under a second master seed, {} (`confirm-runs.csv`), at the full protocol: every published row, {} runs per puzzle, at the full budget ({} runs, {} generations). Each was tested once against the table with the race's cell tests (procedure {}), Holm over the {} cells a reading can have (a cell without data counts as p = 1) at alpha = {}. This is a single look at a number of runs fixed in advance, on runs independent of the race's (which only chose the readings), so no alpha is spent over looks: a reading whose runs follow the paper's distribution is rejected here with probability at most {} ({}). A reading is **consistent with the published table** only if it survived the race and this confirmation; power is not claimed beyond what the tests compute.\n\n",
        c.seed,
        runs.join(", "),
        c.spent.0,
        c.spent.1,
        c.procedure.name(),
        c.cells,
        c.alpha,
        c.alpha,
        match c.procedure {
            Procedure::V1 => "the Fisher cells exactly; the Welch mean cells of v1 only approximately: with few skewed successes they reject more often than their level, as readings-calibration measured",
            Procedure::V2 => "the Fisher cells exactly, the guarded mean cells at the size readings-calibration measured",
            Procedure::V3 => "the Fisher cells exactly, the tie-aware median cell and the guarded mean cells at the size readings-calibration measured",
        },
    );
    s += &match (consistent, survivors) {
        (_, 0) => "No reading survived the race: none is consistent.\n\n".to_string(),
        (0, n) => format!("None of the race's {n} survivors is confirmed: **no reading is consistent** (both seeds). The race's answer changes with the seed.\n\n"),
        (k, n) if k == n => format!("All {n} of the race's survivors are confirmed: they are **consistent (both seeds)**.\n\n"),
        (k, n) => format!("{k} of the race's {n} survivors are confirmed: they are **consistent (both seeds)**; the others survived the race, not confirmed.\n\n"),
    };
    s += &table(setup, c);
    for v in c.verdicts.iter().take(LISTED) {
        s += &cells(setup, c, v);
    }
    if c.verdicts.len() > LISTED {
        s += &format!(
            "({} more readings in confirm.csv.)\n\n",
            c.verdicts.len() - LISTED
        );
    }
    s
}

/// One row per confirmed reading: its options, the race's status, the confirmation's
/// smallest adjusted p-value and verdict, and whether it is consistent.
fn table(setup: &Setup, c: &Confirmation) -> String {
    let space = &setup.space;
    let mut s = format!(
        "| reading | {} | race | smallest adjusted p (seed {}) | confirmation | consistent |\n|---|{}---|---|---|---|\n",
        space.keys.iter().map(|k| md::text(k)).collect::<Vec<_>>().join(" | "),
        c.seed,
        "---|".repeat(space.keys.len())
    );
    for v in &c.verdicts {
        let texts: Vec<String> = space.texts(v.reading).iter().map(|t| md::text(t)).collect();
        let worst = v.worst().map_or("-".to_string(), |w| {
            crate::reports::format::p_value(Some(w.p_holm))
        });
        s += &format!(
            "| {} | {} | {} | {worst} | {} | {} |\n",
            space.id(v.reading),
            texts.join(" | "),
            if v.survived {
                "survived"
            } else {
                "eliminated (last round)"
            },
            if v.confirmed { "confirmed" } else { "rejected" },
            verdict_text(v),
        );
    }
    s + "\n"
}

/// A reading's fate in words: consistent (both seeds), survived the race but not
/// confirmed, or eliminated (with what the confirmation said).
pub fn verdict_text(v: &Verdict) -> &'static str {
    match (v.survived, v.confirmed) {
        (true, true) => "consistent (both seeds)",
        (true, false) => "survived the race, not confirmed",
        (false, true) => "no (eliminated in the race; fits at the second seed)",
        (false, false) => "no",
    }
}

/// One reading's cells: ours at the confirmation seed against the published value, the
/// p-value, its Holm-adjusted p-value and the cell's verdict.
fn cells(setup: &Setup, c: &Confirmation, v: &Verdict) -> String {
    let mut s = format!(
        "### {}: {}\n\n| cell | ours (seed {}) | published | p | adjusted p | verdict |\n|---|---|---|---|---|---|\n",
        setup.space.id(v.reading),
        verdict_text(v),
        c.seed
    );
    for cell in &v.cells {
        s += &format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            md::text(&cell.cell),
            md::text(&cell.ours),
            md::text(&cell.published),
            crate::reports::format::p_value(Some(cell.p)),
            crate::reports::format::p_value(Some(cell.p_holm)),
            if cell.p_holm <= c.alpha {
                "rejects"
            } else {
                "fits"
            }
        );
    }
    s + "\n"
}
