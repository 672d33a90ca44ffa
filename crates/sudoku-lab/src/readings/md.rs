//! Input-derived text (a file name, a race.csv field, a folder name, a spec's label) as it
//! goes into the Markdown a race writes (report.md, summary.md): nothing of it can make a
//! link, an image, raw HTML, a code span, a new table cell or a new line. Plain names, words
//! and numbers come out unchanged, so outputs of ordinary inputs keep their bytes.

use sudoku_core::error::shown;

/// Text for a paragraph or a table cell: `\`, `` ` ``, `[`, `]`, `|` and `*` escaped with a
/// backslash, `<`, `>` and `&` as entities, control, invisible and bidirectional characters
/// (line breaks included) escaped as messages show them.
pub fn text(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for c in shown(s).chars() {
        match c {
            '&' => o.push_str("&amp;"),
            '<' => o.push_str("&lt;"),
            '>' => o.push_str("&gt;"),
            '\\' | '`' | '[' | ']' | '|' | '*' => {
                o.push('\\');
                o.push(c);
            }
            c => o.push(c),
        }
    }
    o
}

/// A code span of `s` for a paragraph (not a table cell: a `|` would end the cell): fenced by
/// more backticks than any run of them in `s` (padded with a space where `s` starts or ends
/// with one), hidden characters escaped.
pub fn code(s: &str) -> String {
    let s = shown(s);
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = if s.starts_with('`') || s.ends_with('`') {
        " "
    } else {
        ""
    };
    format!("{fence}{pad}{s}{pad}{fence}")
}

/// A code span of `s` for a Markdown table cell: [`code`], with each `|` escaped as `\|`
/// (GFM reads it as a pipe of the text, inside a code span too, where a bare one would end the
/// cell). The one code span of the site's Markdown and of a race's: every writer calls these.
pub fn code_in_cell(s: &str) -> String {
    code(s).replace('|', "\\|")
}

/// A relative link target: every byte but ASCII letters, digits and `-_.~/` percent-encoded.
pub fn href(s: &str) -> String {
    let mut o = String::with_capacity(s.len());
    for b in s.bytes() {
        if b.is_ascii_alphanumeric() || b"-_.~/".contains(&b) {
            o.push(b as char);
        } else {
            o.push_str(&format!("%{b:02X}"));
        }
    }
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plain_names_are_unchanged() {
        for s in [
            "reseda-table2",
            "both-0.99 both-0.9",
            "cell_order=raw,fallback=x",
            "r21",
        ] {
            assert_eq!(text(s), s);
        }
        for s in [
            "cell_order-raw-fallback-allowed-symbols",
            "table1",
            "a_b.c~d",
        ] {
            assert_eq!(href(s), s);
        }
        assert_eq!(code("paper/x.csv"), "`paper/x.csv`");
    }

    #[test]
    fn markup_is_escaped() {
        assert_eq!(text("x](javascript:alert(1))"), "x\\](javascript:alert(1))");
        assert_eq!(text("| a | b |"), "\\| a \\| b \\|");
        assert_eq!(text("<script>&"), "&lt;script&gt;&amp;");
        // The escapes' backslashes escaped in turn: rendered, they read `\u{a}`.
        assert_eq!(text("a\nb\u{1b}[31m"), "a\\\\u{a}b\\\\u{1b}\\[31m");
        assert_eq!(code("a`b"), "``a`b``");
        assert_eq!(code("`x"), "`` `x ``");
        assert_eq!(code("a|b\n"), "`a|b\\u{a}`");
        assert_eq!(href("x](y) <z>"), "x%5D%28y%29%20%3Cz%3E");
    }
}
