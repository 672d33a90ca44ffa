//! Reading a published-values CSV without echoing it: a spec may name any
//! file, and an error once quoted the first line of `/etc/passwd` as an "unknown field". Every
//! message here names the file (and line) and describes what was expected; the only text of
//! the file it repeats is a column name already checked to be one of ours.

use anyhow::{bail, Result};
use serde::de::DeserializeOwned;

/// Every row of the CSV `text` (`#` comments allowed) as `T`, after checking that each header
/// column is one of `known` and every name of `required` is there. `name` is what errors name
/// (the spec key and the file).
pub fn read_rows<T: DeserializeOwned>(
    text: &str,
    name: &str,
    known: &[&str],
    required: &[&str],
) -> Result<Vec<(u64, T)>> {
    let mut rdr = csv::ReaderBuilder::new()
        .comment(Some(b'#'))
        .from_reader(text.as_bytes());
    let expected = || {
        format!(
            "not a published table: expected a header line of the columns {} (required: {})",
            known.join(","),
            required.join(",")
        )
    };
    let headers = match rdr.headers() {
        Ok(h) => h.clone(),
        Err(_) => bail!("{name}: {}", expected()),
    };
    if let Some(i) = headers.iter().position(|h| !known.contains(&h.trim())) {
        bail!(
            "{name}: {} (column {} is not one of them)",
            expected(),
            i + 1
        );
    }
    if let Some(r) = required
        .iter()
        .find(|r| !headers.iter().any(|h| h.trim() == **r))
    {
        bail!("{name}: {} (no column {r})", expected());
    }
    let mut out = Vec::new();
    for rec in rdr.records() {
        let rec = rec.map_err(|e| {
            let line = e.position().map_or(0, |p| line_of(text, p));
            anyhow::anyhow!("{name}:{line}: {}", record_error(&e))
        })?;
        let line = rec.position().map_or(0, |p| line_of(text, p));
        let row: T = rec
            .deserialize(Some(&headers))
            .map_err(|e| anyhow::anyhow!("{name}:{line}: {}", field_error(&e, &headers)))?;
        out.push((line, row));
    }
    Ok(out)
}

/// The line of the record at `p`: the csv reader starts a record that follows a comment line
/// (or a blank one) at that line, so such lines are skipped here.
fn line_of(text: &str, p: &csv::Position) -> u64 {
    let Some(mut at) = usize::try_from(p.byte()).ok().filter(|&b| b <= text.len()) else {
        return p.line();
    };
    let skipped = |rest: &str| rest.starts_with('#') || rest.starts_with(['\n', '\r']);
    while skipped(&text[at..]) {
        match text[at..].find('\n') {
            Some(end) => at += end + 1,
            None => break,
        }
    }
    1 + text.as_bytes()[..at]
        .iter()
        .filter(|&&b| b == b'\n')
        .count() as u64
}

/// A record that cannot be read: what is wrong, without its text.
fn record_error(e: &csv::Error) -> String {
    match e.kind() {
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => {
            format!("{len} fields where the header has {expected_len}")
        }
        csv::ErrorKind::Utf8 { .. } => "not UTF-8 text".into(),
        _ => "not a CSV record".into(),
    }
}

/// A field that does not fit its column: the column (one of ours) and the kind of value
/// expected, without the value.
fn field_error(e: &csv::Error, headers: &csv::StringRecord) -> String {
    let csv::ErrorKind::Deserialize { err, .. } = e.kind() else {
        return record_error(e);
    };
    let column = err
        .field()
        .and_then(|f| headers.get(f as usize))
        .map_or_else(String::new, |c| format!("column '{}': ", c.trim()));
    let what = match err.kind() {
        csv::DeserializeErrorKind::ParseInt(_) => "not a whole number".to_string(),
        csv::DeserializeErrorKind::ParseFloat(_) => "not a number".to_string(),
        csv::DeserializeErrorKind::ParseBool(_) => "not true or false".to_string(),
        csv::DeserializeErrorKind::InvalidUtf8(_) => "not UTF-8 text".to_string(),
        csv::DeserializeErrorKind::Message(m) if m.starts_with("missing field") => {
            "a value is missing".to_string()
        }
        _ => "not a valid value".to_string(),
    };
    format!("{column}{what}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[derive(Debug, serde::Deserialize)]
    #[allow(dead_code)]
    struct Row {
        a: String,
        #[serde(default)]
        b: Option<f64>,
    }

    /// Foreign text is described, never repeated; a known column is named.
    #[test]
    fn errors_describe_without_echoing() {
        let secret = "root:x:0:0:root:/root:/bin/bash";
        let cases = [
            (
                format!("{secret}\nsecond line\n"),
                "column 1 is not one of them",
            ),
            (
                "a,b\nx,12abc\n".to_string(),
                "f:2: column 'b': not a number",
            ),
            ("b\n1\n".to_string(), "(no column a)"),
            (
                format!("a,b\n{secret},1,2\n"),
                "f:2: 3 fields where the header has 2",
            ),
            (String::new(), "not a published table"),
        ];
        for (text, want) in cases {
            let e = read_rows::<Row>(&text, "f", &["a", "b"], &["a"])
                .unwrap_err()
                .to_string();
            assert!(e.contains(want), "{text:?}: {e}");
            assert!(!e.contains("root") && !e.contains("12abc"), "{e}");
        }
        let rows = read_rows::<Row>("# c\na,b\nx,1.5\n", "f", &["a", "b"], &["a"]).unwrap();
        assert_eq!(rows.len(), 1);
        assert_eq!(rows[0].0, 3);
    }

    /// Rows are numbered by their line in the file, comment and blank lines counted (the csv
    /// reader gives a row that follows one the line of that comment).
    #[test]
    fn rows_have_their_lines() {
        let text = "a,b\nx,1\n# c\ny,2\n\n# d\r\n# e\nz,3\nw,4\n";
        let rows = read_rows::<Row>(text, "f", &["a", "b"], &["a"]).unwrap();
        let lines: Vec<u64> = rows.iter().map(|r| r.0).collect();
        assert_eq!(lines, [2, 4, 8, 9]);
        let e = read_rows::<Row>("a,b\nx,1\n# c\ny,2,3\n", "f", &["a", "b"], &["a"]);
        assert!(e.unwrap_err().to_string().starts_with("f:4: 3 fields"));
    }
}
