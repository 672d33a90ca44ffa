//! Number formats shared by the reports' Markdown tables.

/// A p-value as the Markdown reports print it: three decimals, "<0.001" below that, "-" without
/// a test.
pub fn p_value(p: Option<f64>) -> String {
    match p {
        Some(q) if q < 0.001 => "<0.001".into(),
        Some(q) => format!("{q:.3}"),
        None => "-".into(),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn p_values_print_three_decimals_or_a_bound() {
        for (p, want) in [
            (None, "-"),
            (Some(0.0), "<0.001"),
            (Some(0.000_999), "<0.001"),
            (Some(0.001), "0.001"),
            (Some(0.0456), "0.046"),
            (Some(1.0), "1.000"),
        ] {
            assert_eq!(super::p_value(p), want, "{p:?}");
        }
    }
}
