//! Property tests of the puzzle parser: random text, and valid puzzle files mutated byte
//! by byte, never panic; every error is one line naming the source. The case count is small by
//! default (the test suite stays fast); a long campaign sets PROPTEST_CASES (docs/reliability.md:
//! "What the tool guarantees").

use proptest::prelude::*;
use sudoku_core::parse::{parse_lenient, parse_puzzles};

const VALID: &str = include_str!("../../../experiments/puzzles/cso/9x9-easy.txt");
const KENNETT: &str =
    "% title\n4.....8.5.3..........7......2.....6.....8.4......1.......6.3.7.5..2.....1.4......\n";

fn check(text: &str) {
    for r in [
        parse_puzzles(text, "fuzz").map(|_| ()),
        parse_lenient(text, "fuzz").map(|_| ()),
    ] {
        if let Err(e) = r {
            let msg = e.to_string();
            assert!(!msg.contains('\n'), "two lines: {msg:?}");
            assert!(msg.starts_with("fuzz"), "does not name the source: {msg:?}");
        }
    }
}

fn mutate(base: &str, edits: &[(usize, u8)]) -> String {
    let mut b = base.as_bytes().to_vec();
    for &(i, v) in edits {
        let i = i % (b.len() + 1);
        match v % 3 {
            0 if i < b.len() => b[i] = v,
            1 => b.insert(i, v),
            _ if i < b.len() => {
                b.remove(i);
            }
            _ => {}
        }
    }
    String::from_utf8_lossy(&b).into_owned()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(
        std::env::var("PROPTEST_CASES").ok().and_then(|s| s.parse().ok()).unwrap_or(200)
    ))]

    #[test]
    fn random_text_never_panics(text in "(?s).{0,400}") {
        check(&text);
    }

    #[test]
    fn random_grid_like_text_never_panics(text in "[0-9.| +\\-\\n\\r#%a-z]{0,300}") {
        check(&text);
    }

    #[test]
    fn mutated_puzzle_files_never_panic(
        edits in proptest::collection::vec((any::<usize>(), any::<u8>()), 1..12),
        which in 0..2usize,
    ) {
        let base = if which == 0 { VALID } else { KENNETT };
        check(&mutate(base, &edits));
    }
}
