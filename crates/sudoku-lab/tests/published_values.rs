//! The transcribed published values against the text copy of the paper, cell by cell: a second,
//! mechanical check of the hand transcription in experiments/paper/ret-ga-table1.csv. The text
//! copies live in ../shared/papers/ beside the repository (as on CI); where they are absent the
//! test says so and checks only the CSV's shape.

use std::path::Path;

fn csv_rows() -> Vec<Vec<String>> {
    let text = include_str!("../../../experiments/paper/ret-ga-table1.csv");
    text.lines()
        .filter(|l| !l.starts_with('#'))
        .skip(1)
        .map(|l| l.split(',').map(str::to_string).collect())
        .collect()
}

#[test]
fn table1_csv_matches_the_paper_text() {
    let rows = csv_rows();
    assert_eq!(rows.len(), 18);
    let paper = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/papers/000_b1b38344b53f3b07.txt");
    let Ok(text) = std::fs::read_to_string(&paper) else {
        eprintln!(
            "note: {} not found; only the CSV shape was checked",
            paper.display()
        );
        return;
    };
    let start = text.find("1 Star\t33").expect("Table 1 in the text");
    let end = text[start..].find("Fig. 7").expect("end of Table 1") + start;
    let table: Vec<Vec<&str>> = text[start..end]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split('\t').collect())
        .collect();
    assert_eq!(table.len(), 9);
    let mut checked = 0;
    for t in &table {
        // Level, Givens, then pairs (GA, Ret-GA) of Count, Minimum, Maximum, Average, Median, SD.
        for (k, alg) in ["GA", "Ret-GA"].iter().enumerate() {
            let row = rows
                .iter()
                .find(|r| r[0] == t[0] && r[2] == *alg)
                .unwrap_or_else(|| panic!("{} {alg} missing from the CSV", t[0]));
            assert_eq!(row[1], t[1], "{} givens", t[0]);
            for (col, stat) in [(4, 0), (5, 1), (6, 2), (7, 3), (8, 4), (9, 5)] {
                assert_eq!(row[col], t[2 + 2 * stat + k], "{} {alg} column {col}", t[0]);
                checked += 1;
            }
        }
    }
    assert_eq!(checked, 9 * 2 * 6);
}
