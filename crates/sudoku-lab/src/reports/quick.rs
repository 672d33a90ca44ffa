//! The `--quick` mark of chart titles: while a [`Marked`] guard lives (the reports of a quick
//! run are being written), [`title`] puts a first line "QUICK RUN (runs, cap): not a result"
//! above every chart title, so that a copied quick chart cannot pass for a result. The mark is
//! per thread: the reports are written on the thread that ran [`mark`].

use std::cell::RefCell;
use std::path::Path;

thread_local! {
    /// Runs per puzzle and generation cap of the quick run being reported.
    static NOTE: RefCell<Option<(u64, u64)>> = const { RefCell::new(None) };
}

/// Restores the previous mark when dropped.
pub struct Marked(Option<(u64, u64)>);

impl Drop for Marked {
    fn drop(&mut self) {
        let previous = self.0.take();
        NOTE.with(|n| *n.borrow_mut() = previous);
    }
}

/// Marks the charts drawn on this thread until the guard is dropped.
#[must_use]
pub fn mark(runs: u64, cap: u64) -> Marked {
    Marked(NOTE.with(|n| n.borrow_mut().replace((runs, cap))))
}

/// The mark, if charts are being drawn for a quick run.
pub fn note() -> Option<String> {
    NOTE.with(|n| *n.borrow()).map(|(runs, cap)| {
        let s = if runs == 1 { "" } else { "s" };
        format!("QUICK RUN ({runs} run{s} per puzzle, at most {cap} generations): not a result")
    })
}

/// The short mark, for one-line titles.
fn short_note() -> Option<String> {
    NOTE.with(|n| *n.borrow())
        .map(|(runs, cap)| format!("QUICK RUN ({runs} runs, cap {cap})"))
}

/// `t` with the quick-run line above it, if any.
pub fn title(t: impl Into<String>) -> String {
    let t = t.into();
    match note() {
        Some(n) if t.is_empty() => n,
        Some(n) => format!("{n}\n{t}"),
        None => t,
    }
}

/// `t` with the quick-run mark in front on the same line, for charts whose titles are one line.
pub fn title_line(t: impl Into<String>) -> String {
    let t = t.into();
    match short_note() {
        Some(n) if t.is_empty() => n,
        Some(n) => format!("{n} | {t}"),
        None => t,
    }
}

/// A `--quick` report says so on its first line, so that a copied quick report cannot pass
/// for a result (the compare report writes its own banner).
pub fn mark_report(report: &Path, runs: u64, cap: u64) -> anyhow::Result<()> {
    let Ok(text) = crate::spec::read_regular(report) else {
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
    crate::protocol::io::write_atomic(report, format!("{banner}{text}").as_bytes())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mark_lives_as_long_as_its_guard() {
        assert_eq!(title("a"), "a");
        {
            let _m = mark(2, 10);
            assert_eq!(
                title("a"),
                "QUICK RUN (2 runs per puzzle, at most 10 generations): not a result\na"
            );
            assert_eq!(title_line("b"), "QUICK RUN (2 runs, cap 10) | b");
        }
        assert_eq!(title("a"), "a");
        assert_eq!(note(), None);
    }
}
