//! `sudoku-lab check-tables`: the published tables' own arithmetic. The committed record is
//! what the command writes for the committed transcriptions; it names the impossible cells of
//! Das et al.'s Table 1; a bad table is one line naming the file and the line.

mod common;

use common::{bin, ok, run, stderr, tmpdir};
use std::path::Path;

fn repo() -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../..")
        .canonicalize()
        .unwrap()
}

/// results/table-checks/ is what `check-tables` writes now (rerun it and commit the folder
/// when a transcription or a check changes).
#[test]
fn committed_table_checks_are_current() {
    let out = tmpdir("table-checks");
    ok(bin()
        .current_dir(repo())
        .args(["check-tables", "--paper", "experiments/paper", "--out"])
        .arg(&out));
    for name in ["checks.csv", "report.md"] {
        let committed = std::fs::read_to_string(repo().join("results/table-checks").join(name));
        let fresh = std::fs::read_to_string(out.join(name)).unwrap();
        assert!(
            committed.ok().as_deref() == Some(fresh.as_str()),
            "results/table-checks/{name} is stale: run `sudoku-lab check-tables` and commit it"
        );
    }
    let _ = std::fs::remove_dir_all(&out);
}

/// The three impossible means of Table 1 (conference version) are in the record, with their
/// bounds: Difficult / Ret-GA at most 37094.5, Super Difficult / Ret-GA at most 40669.33 (and
/// no k/9 rounds to it), Difficult / GA forced to 29534 .. 29534.5.
#[test]
fn the_record_names_table1s_impossible_means() {
    let text = std::fs::read_to_string(repo().join("results/table-checks/checks.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = rdr.records().map(Result::unwrap).collect();
    let find = |row: &str, check: &str| {
        rows.iter()
            .find(|r| &r[0] == "ret-ga-table1" && &r[2] == row && &r[4] == check)
            .unwrap_or_else(|| panic!("{row} {check}"))
    };
    for (row, check, high) in [
        ("Difficult / Ret-GA", "mean_bounds", "37094.5"),
        ("Super Difficult / Ret-GA", "mean_bounds", "40669.3333"),
        ("Super Difficult / Ret-GA", "grim", "42354.8889"),
        ("Difficult / GA", "mean_bounds", "29534.5"),
    ] {
        let r = find(row, check);
        assert_eq!(
            (&r[3], &r[7], &r[8]),
            ("average", high, "impossible"),
            "{r:?}"
        );
    }
    assert_eq!(&find("Easy / Ret-GA", "mean_bounds")[8], "ok");
    let report = std::fs::read_to_string(repo().join("results/table-checks/report.md")).unwrap();
    let first = report.lines().nth(2).unwrap();
    assert!(
        first.contains("print values that no sample can have"),
        "{first}"
    );
}

/// A hostile or broken table: exit 2 and one line naming the file and the line, without
/// repeating its text; a folder without tables is refused.
#[test]
fn bad_tables_are_one_line_errors() {
    let head = "level,algorithm,runs,count,minimum,maximum,average,median,sd";
    let cases = [
        (
            format!("{head}\n# c\nx,A,100,5,1,9,3.5e0,4,1\n"),
            "bad.csv:3: column 'average'",
        ),
        (
            format!("{head}\nx,A,100,5,1,9,3,4\n"),
            "bad.csv:2: 8 fields",
        ),
        (
            format!("{head}\nx,A,100,five,1,9,3,4,1\n"),
            "bad.csv:2: column 'count'",
        ),
        (
            "root:x:0:0:root:/root:/bin/bash\n".to_string(),
            "bad.csv: not a published table",
        ),
        (
            "problem,success,average\n1,101,5\n".to_string(),
            "bad.csv:2: success 101 of 100",
        ),
    ];
    for (text, want) in cases {
        let dir = tmpdir("bad-table");
        std::fs::write(dir.join("bad.csv"), &text).unwrap();
        let o = run(bin()
            .args(["check-tables", "--paper"])
            .arg(&dir)
            .arg("--out")
            .arg(dir.join("out")));
        let e = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "{text:?}: {e}");
        assert_eq!(e.trim_end().lines().count(), 1, "{e}");
        assert!(e.contains(want), "{text:?}: {e}");
        assert!(!e.contains("root:x") && !e.contains("3.5e0"), "{e}");
        assert!(
            !dir.join("out").exists(),
            "nothing is written from a bad table"
        );
        let _ = std::fs::remove_dir_all(&dir);
    }
    let empty = tmpdir("no-tables");
    let o = run(bin().args(["check-tables", "--paper"]).arg(&empty));
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("no published table"), "{}", stderr(&o));
    let o = run(bin()
        .args(["check-tables", "--paper"])
        .arg(empty.join("missing")));
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("not a folder of published tables"),
        "{}",
        stderr(&o)
    );
}
