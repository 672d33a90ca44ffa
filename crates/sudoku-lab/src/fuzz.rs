//! Property tests of the spec parser and of the runs.csv reader: random bytes, and the
//! committed specs and runs.csv files mutated (bytes flipped, inserted or deleted, lines deleted,
//! duplicated or swapped, truncation, values replaced by huge numbers or values of the wrong type,
//! unknown keys) never panic, and every error is one line naming the source. In-process, on the
//! parsers themselves. The case count is small by default (the test suite stays fast); a long
//! campaign sets PROPTEST_CASES (docs/reliability.md, "What the tool guarantees").

use proptest::prelude::*;
use std::path::Path;

use crate::protocol::io::{for_each_row_in, Row};
use crate::spec::{Spec, EMBEDDED};

const RUNS_CSV: [&str; 2] = [
    include_str!("../../../results/reseda-table2/runs.csv"),
    include_str!("../../../results/benbassat/runs.csv"),
];

/// Values put in place of a `key = value`'s value or a CSV field: huge, negative, not a
/// number, of the wrong type, empty, quoted.
const VALUES: &[&str] = &[
    "99999999999999999999999999",
    "18446744073709551615",
    "18446744073709551616",
    "9223372036854775807",
    "-9223372036854775808",
    "-1",
    "0",
    "1.5",
    "1e308",
    "-1e400",
    "nan",
    "inf",
    "\"x\"",
    "\"\"",
    "true",
    "[1, 2]",
    "[]",
    "{ a = 1 }",
    "1979-05-27T07:32:00Z",
    "'''",
    "\"",
    "\"a,b\"",
    "",
    "NaN",
    "\u{feff}",
    "é",
];

/// Lines put into a spec: unknown keys, repeated tables, stray syntax.
const SPEC_LINES: &[&str] = &[
    "bogus = 1",
    "[[algorithms]]",
    "[[puzzles]]",
    "[params]",
    "params = { bogus = 1 }",
    "params = { population = 99999999999 }",
    "params = { samples = 1000000, cats = 1000000, population_factor = 100000 }",
    "runs = 10000000000",
    "max_generations = 0",
    "file = \"/dev/zero\"",
    "file = \"../../../../etc/passwd\"",
    "puzzles = [{ id = \"x\", file = \"puzzles/none.txt\" }]",
    "report = \"grades\"",
    "chart = \"sensitivity\"",
    "= 1",
    "[",
    "a.b.c = 1",
];

/// One edit: (what, where, which value).
type Edit = (u8, usize, usize);

fn edits() -> impl Strategy<Value = Vec<Edit>> {
    proptest::collection::vec((any::<u8>(), any::<usize>(), any::<usize>()), 1..5)
}

/// Apply `edits` to `base`: byte flips, inserts and deletes, line deletes, duplicates and
/// swaps, truncation, `extra` lines inserted, values (after `sep`) replaced from [`VALUES`].
/// `keep`: lines at the start left alone (a runs.csv's header, else every row is refused).
fn mutate(base: &str, edits: &[Edit], sep: char, extra: &[&str], keep: usize) -> Vec<u8> {
    let mut b = base.as_bytes().to_vec();
    for &(what, at, v) in edits {
        let kept = b
            .iter()
            .enumerate()
            .filter(|(_, &c)| c == b'\n')
            .nth(keep.wrapping_sub(1))
            .map_or(0, |(p, _)| if keep == 0 { 0 } else { p + 1 });
        match what % 10 {
            0..=2 => {
                let i = kept + at % (b.len() - kept + 1);
                match what % 3 {
                    0 if i < b.len() => b[i] = v as u8,
                    1 => b.insert(i, v as u8),
                    _ if i < b.len() => {
                        b.remove(i);
                    }
                    _ => {}
                }
            }
            3 => b.truncate(kept + at % (b.len() - kept + 1)),
            k => {
                let text = String::from_utf8_lossy(&b).into_owned();
                let mut lines: Vec<String> = text.split('\n').map(str::to_owned).collect();
                if lines.len() <= keep {
                    continue;
                }
                let free = lines.len() - keep;
                let i = keep + at % free;
                let j = keep + v % free;
                match k {
                    4 => {
                        lines.remove(i);
                    }
                    5 => {
                        let l = lines[i].clone();
                        lines.insert(j, l);
                    }
                    6 => lines.swap(i, j),
                    7 => lines.insert(i, extra[v % extra.len()].to_owned()),
                    _ => {
                        // Replace the value after the (v / len)-th separator of line i.
                        let l = &lines[i];
                        let cuts: Vec<usize> = l.match_indices(sep).map(|(p, _)| p).collect();
                        let value = VALUES[v % VALUES.len()];
                        if !cuts.is_empty() {
                            let c = cuts[(v / VALUES.len()) % cuts.len()];
                            let end = if sep == ',' {
                                l[c + 1..].find(',').map_or(l.len(), |e| c + 1 + e)
                            } else {
                                l.len()
                            };
                            let pad = if sep == '=' { " " } else { "" };
                            lines[i] = format!("{}{sep}{pad}{value}{}", &l[..c], &l[end..]);
                        }
                    }
                }
                b = lines.join("\n").into_bytes();
            }
        }
    }
    b
}

/// The whole error as the binary prints it: its chain joined on one line.
fn one_line(e: &anyhow::Error, name: &str) {
    let msg = format!("{e:#}");
    assert!(!msg.contains('\n'), "two lines: {msg:?}");
    assert!(msg.contains(name), "does not name the source: {msg:?}");
}

fn check_spec(bytes: &[u8]) {
    // The binary reads specs with read_to_string: text that is not UTF-8 never gets here.
    let Ok(text) = std::str::from_utf8(bytes) else {
        return;
    };
    match Spec::parse(text, "fuzz.toml") {
        Err(e) => one_line(&e, "fuzz.toml"),
        Ok(spec) => {
            // What `run` does next: load the puzzles (the embedded files, by name).
            if let Err(e) = spec.load_puzzles(None, true, None) {
                let msg = format!("{e:#}");
                assert!(!msg.contains('\n'), "two lines: {msg:?}");
            }
        }
    }
}

fn check_runs(bytes: &[u8]) {
    let path = Path::new("fuzz/runs.csv");
    let mut rows: Vec<Row> = Vec::new();
    match for_each_row_in(std::io::Cursor::new(bytes), path, |_, r| {
        rows.push(r);
        Ok(())
    }) {
        Err(e) => one_line(&e, "fuzz/runs.csv"),
        Ok(valid) => {
            assert!(valid as usize <= bytes.len());
            // What `--resume` and `merge` write back reads back the same (but for wall_ms,
            // written to the microsecond, and NaN, unequal to itself).
            let mut text = String::from(crate::protocol::io::HEADER);
            text.push('\n');
            for r in &rows {
                text.push_str(&r.to_line());
                text.push('\n');
            }
            let mut again = Vec::new();
            for_each_row_in(std::io::Cursor::new(text.as_bytes()), path, |_, r| {
                again.push(r);
                Ok(())
            })
            .unwrap_or_else(|e| panic!("rows read do not read back: {e:#}"));
            assert_eq!(again.len(), rows.len());
            for (a, b) in rows.iter().zip(&again) {
                assert_eq!(
                    (&a.algorithm, &a.puzzle, a.run),
                    (&b.algorithm, &b.puzzle, b.run)
                );
                assert_eq!((&a.grid, &a.counters), (&b.grid, &b.counters));
            }
        }
    }
}

/// The first `n` lines of a committed runs.csv (header included).
fn runs_base(which: usize, n: usize) -> String {
    let text = RUNS_CSV[which % RUNS_CSV.len()];
    let mut out: String = text.split_inclusive('\n').take(n + 1).collect();
    if n % 5 == 4 {
        // The first format, without the counters column.
        out = out
            .lines()
            .map(|l| l.rsplit_once(',').map_or(l, |(a, _)| a))
            .collect::<Vec<_>>()
            .join("\n");
        out.push('\n');
    }
    out
}

fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(64)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases()))]

    #[test]
    fn random_specs_never_panic(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        check_spec(&bytes);
    }

    #[test]
    fn random_toml_like_specs_never_panic(
        text in "([a-z_]{1,12} = (-?[0-9]{1,25}|\"[a-z0-9/._-]{0,12}\"|true|\\[\\]|\\{ [a-z_]{1,8} = [0-9]{1,3} \\}|[0-9.e+-]{1,8})\n|\\[\\[(algorithms|puzzles)\\]\\]\n|\\[[a-z]{1,8}\\]\n){0,30}"
    ) {
        check_spec(text.as_bytes());
    }

    #[test]
    fn mutated_experiment_specs_never_panic(which in any::<usize>(), e in edits()) {
        let (_, base) = EMBEDDED[which % EMBEDDED.len()];
        check_spec(&mutate(base, &e, '=', SPEC_LINES, 0));
    }

    #[test]
    fn random_runs_csv_never_panics(
        bytes in proptest::collection::vec(any::<u8>(), 0..400),
        header in any::<bool>(),
    ) {
        let mut b = Vec::new();
        if header {
            b.extend_from_slice(crate::protocol::io::HEADER.as_bytes());
            b.push(b'\n');
        }
        b.extend_from_slice(&bytes);
        check_runs(&b);
    }

    #[test]
    fn mutated_runs_csv_never_panics(
        which in any::<usize>(),
        n in 0..12usize,
        e in edits(),
        keep_header in proptest::bool::weighted(0.9),
    ) {
        let base = runs_base(which, n);
        let extra = [crate::protocol::io::HEADER, "\"", "a,b,c", ",,,,,,,,,,,,,,", "\"x\ny\""];
        check_runs(&mutate(&base, &e, ',', &extra, usize::from(keep_header)));
    }
}

/// Regression tests of what the properties found.
mod found {
    use super::*;

    fn err_of(text: &str) -> String {
        let mut n = 0;
        let r = for_each_row_in(
            std::io::Cursor::new(text.as_bytes()),
            Path::new("r.csv"),
            |_, _| {
                n += 1;
                Ok(())
            },
        );
        format!("{:#}", r.expect_err("accepted"))
    }

    #[test]
    fn a_runs_csv_that_is_not_utf8_names_the_file_and_line() {
        let mut b = format!("{}\n", crate::protocol::io::HEADER).into_bytes();
        b.extend_from_slice(b"\xff\xfe,\n");
        let e = for_each_row_in(std::io::Cursor::new(&b[..]), Path::new("r.csv"), |_, _| {
            Ok(())
        })
        .expect_err("accepted");
        let msg = format!("{e:#}");
        assert!(msg.starts_with("r.csv:2: "), "{msg}");
    }

    #[test]
    fn an_empty_runs_csv_row_names_the_file_and_line() {
        let msg = err_of(&format!("{}\n\n", crate::protocol::io::HEADER));
        assert!(msg.starts_with("r.csv:2: empty row"), "{msg}");
    }

    #[test]
    fn a_quoted_field_with_a_comma_is_refused() {
        let (header, line) = (RUNS_CSV[0].lines().next(), RUNS_CSV[0].lines().nth(1));
        let bad = line
            .unwrap()
            .replacen("reseda_medium", "\"reseda,medium\"", 1);
        let msg = err_of(&format!("{}\n{bad}\n", header.unwrap()));
        assert!(
            msg.starts_with("r.csv:2: malformed row: puzzle holds"),
            "{msg}"
        );
    }
}
