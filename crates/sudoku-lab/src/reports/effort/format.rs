//! Number formats shared by the effort report's tables.

use super::cells::Cell;

/// z of the two-sided 95 % interval.
pub const Z95: f64 = 1.959_964;

/// A CSV number with `digits` decimals: "inf" for +infinity, empty when missing or NaN.
pub fn f(x: Option<f64>, digits: usize) -> String {
    match x {
        Some(v) if v.is_finite() => format!("{v:.digits$}"),
        Some(v) if v == f64::INFINITY => "inf".into(),
        _ => String::new(),
    }
}

/// A Markdown ERT in evaluations, "-" where no run succeeded.
pub fn ert_cell(c: &Cell) -> String {
    if c.successes == 0 {
        "-".to_string()
    } else {
        format!("{:.0}", c.ert())
    }
}
