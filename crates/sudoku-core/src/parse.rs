//! Puzzle parsing. Formats, detected per file:
//!
//! - **bank**: the tab-separated `published.tsv` (header `id<TAB>givens<TAB>puzzle<TAB>solution...`);
//! - **Kennett compact** (`sudoku -fcompact`): a `% title` line before each grid;
//! - **line**: one puzzle per line, N^2 characters (81 for 9x9), '.' or '0' for blanks;
//! - **grid**: N lines of N cells, with or without separators (`|`, `+`, `-` lines), several grids
//!   separated by blank lines; cells are single characters, or whitespace-separated tokens
//!   (the token format, needed for N > 9: `12 . 3 ...`).
//!
//! Lines starting with `#` are comments. Every error names the source, the 1-based line and
//! column, and what is wrong.

use crate::error::{ParseError, ParseErrorKind};
use crate::geometry::Geometry;
use crate::grid::{Grid, Puzzle};

/// A parsed puzzle with the place it came from and the conflicts among its givens.
#[derive(Debug, Clone)]
pub struct Parsed {
    pub puzzle: Puzzle,
    /// 1-based line where the puzzle starts.
    pub line: usize,
    /// Conflicting givens, as errors with their places (empty for a consistent puzzle).
    pub conflicts: Vec<ParseError>,
}

struct Ctx<'a> {
    name: &'a str,
    /// Stop after the first puzzle.
    first_only: bool,
    /// The input's lines, to quote a token an error is about.
    lines: &'a [&'a str],
}

impl Ctx<'_> {
    fn err(&self, line: usize, column: usize, kind: ParseErrorKind) -> ParseError {
        ParseError {
            source_name: self.name.to_string(),
            line,
            column,
            kind,
        }
    }
}

/// Parse every puzzle in `text`; conflicting givens are an error.
pub fn parse_puzzles(text: &str, source_name: &str) -> Result<Vec<Puzzle>, ParseError> {
    let parsed = parse_lenient(text, source_name)?;
    let mut out = Vec::with_capacity(parsed.len());
    for p in parsed {
        if let Some(e) = p.conflicts.into_iter().next() {
            return Err(e);
        }
        out.push(p.puzzle);
    }
    Ok(out)
}

/// The first puzzle of `text`, reading no further than its end: later lines are not parsed, so
/// an error after the first puzzle does not stop a command that needs one (`solve FILE`).
/// Conflicting givens are an error.
pub fn parse_first(text: &str, source_name: &str) -> Result<Puzzle, ParseError> {
    let mut parsed = parse_impl(text, source_name, true)?;
    let p = parsed.swap_remove(0);
    match p.conflicts.into_iter().next() {
        Some(e) => Err(e),
        None => Ok(p.puzzle),
    }
}

/// Parse every puzzle in `text`, keeping puzzles whose givens conflict (with the conflicts
/// listed), for `puzzles check`.
pub fn parse_lenient(text: &str, source_name: &str) -> Result<Vec<Parsed>, ParseError> {
    parse_impl(text, source_name, false)
}

/// Every puzzle, or with `first_only` the first one (parsing stops after it).
fn parse_impl(text: &str, source_name: &str, first_only: bool) -> Result<Vec<Parsed>, ParseError> {
    // Harmless encodings: a UTF-8 byte-order mark, and old Mac (CR-only) line endings.
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let unified;
    let text = if text.contains('\r') && !text.contains('\n') {
        unified = text.replace('\r', "\n");
        unified.as_str()
    } else {
        text
    };
    let lines: Vec<&str> = text.lines().collect();
    let ctx = Ctx {
        name: source_name,
        first_only,
        lines: &lines,
    };
    let first = lines
        .iter()
        .position(|l| !l.trim().is_empty() && !l.trim_start().starts_with('#'));
    let Some(first) = first else {
        return Err(ctx.err(1, 1, ParseErrorKind::Empty));
    };
    let out = if lines[first].starts_with("id\t") {
        parse_bank(&ctx, &lines, first)?
    } else if lines.iter().any(|l| l.starts_with('%')) {
        parse_kennett(&ctx, &lines)?
    } else {
        parse_blocks(&ctx, &lines)?
    };
    if out.is_empty() {
        return Err(ctx.err(1, 1, ParseErrorKind::Empty));
    }
    Ok(out)
}

/// A cell value with the (line, column) it came from.
type Cell = (u8, usize, usize);

/// The value a number token larger than any order takes until [`build`], which knows the
/// order, reports it with the token ([`ParseErrorKind::TokenTooLarge`]).
const TOO_LARGE: u8 = u8::MAX;

fn cell_value(ctx: &Ctx, tok: &str, line: usize, col: usize) -> Result<u8, ParseError> {
    match tok {
        "." | "0" | "_" | "-" | "*" => Ok(0),
        t if t.chars().all(|c| c.is_ascii_digit()) => match t.parse::<usize>() {
            Ok(v) if v <= 25 => Ok(v as u8),
            _ => Ok(TOO_LARGE),
        },
        t if t.len() > 1 && t.starts_with('-') && t[1..].chars().all(|c| c.is_ascii_digit()) => {
            Err(ctx.err(line, col, ParseErrorKind::NegativeValue(t.to_string())))
        }
        t => {
            let (i, c) = t
                .chars()
                .enumerate()
                .find(|(_, c)| !c.is_ascii_digit())
                .unwrap_or((0, '?'));
            Err(ctx.err(line, col + i, ParseErrorKind::UnknownCharacter(c)))
        }
    }
}

/// The number token at 1-based (`line`, `column`) of the input, cut to
/// [`crate::error::MAX_SHOWN`] characters.
fn token_at(ctx: &Ctx, line: usize, column: usize) -> String {
    let text = ctx.lines.get(line.wrapping_sub(1)).copied().unwrap_or("");
    let digits: String = text
        .chars()
        .skip(column.saturating_sub(1))
        .take_while(char::is_ascii_digit)
        .collect();
    let max = crate::error::MAX_SHOWN;
    if digits.chars().count() > max {
        format!("{}...", &digits[..max])
    } else {
        digits
    }
}

/// The longest line whose cells are read, in bytes. The longest line a format writes is a
/// 25x25 grid on one line (625 characters, or in tokens 625 numbers of up to two digits with
/// separators: under 2 kB). A cell takes 24 bytes while it is parsed, so a 60 MB line once took
/// 1.4 GB before "wrong length"; it is now refused before its cells are read.
pub const MAX_LINE: usize = 16 * 1024;

/// The most cells a puzzle has (25 x 25): a grid read over several lines stops there.
const MAX_CELLS: usize = 625;

/// Refuse a line longer than [`MAX_LINE`] before its cells are read.
fn check_length(ctx: &Ctx, s: &str, line: usize) -> Result<(), ParseError> {
    if s.len() > MAX_LINE {
        return Err(ctx.err(
            line,
            1,
            ParseErrorKind::LineTooLong {
                length: s.chars().count(),
                max: MAX_LINE,
            },
        ));
    }
    Ok(())
}

/// One line of a one-puzzle-per-line file: every character a cell.
fn line_cells(ctx: &Ctx, s: &str, line: usize) -> Result<Vec<Cell>, ParseError> {
    check_length(ctx, s, line)?;
    s.chars()
        .enumerate()
        .map(|(i, c)| {
            let mut b = [0u8; 4];
            cell_value(ctx, c.encode_utf8(&mut b), line, i + 1).map(|v| (v, line, i + 1))
        })
        .collect()
}

fn is_separator_line(s: &str) -> bool {
    let t = s.trim();
    !t.is_empty()
        && t.chars()
            .all(|c| matches!(c, '-' | '+' | '=' | '|' | ' ' | '\t'))
}

/// A token of several single-character cells (`53.`, `..7`, `123` in a row written in groups
/// of a box's width): it holds a blank, or more digits than any cell value has, so it can be
/// no number.
fn is_group(tok: &str) -> bool {
    let len = tok.chars().count();
    len >= 2
        && tok
            .chars()
            .all(|c| c.is_ascii_digit() || matches!(c, '.' | '_' | '*'))
        && (len >= 3 || tok.chars().any(|c| !c.is_ascii_digit()))
}

/// True when the tokens of `s` are groups of single-character cells (`53. .7. ...`, or rows
/// `53..7.... 6..195... ...`) rather than numbers (`12 . 3`): its tokens all have the same
/// length, of at least two characters, and each is a group ([`is_group`]). Anything else
/// stays a row of numbers (so `1 2 99999` reports the number too large).
fn written_in_groups(s: &str) -> bool {
    let mut tokens = s
        .split(|c: char| c.is_whitespace() || matches!(c, '|' | '+'))
        .filter(|t| !t.is_empty());
    let Some(first) = tokens.next() else {
        return false;
    };
    let len = first.chars().count();
    is_group(first) && tokens.all(|t| t.chars().count() == len && is_group(t))
}

/// One row of a multi-line grid (or a whole puzzle on one line): separators `|` and `+`
/// dropped; whitespace-separated tokens if the row has whitespace between cells and is not
/// written in groups of characters ([`written_in_groups`]), else one character per cell.
fn row_cells(ctx: &Ctx, s: &str, line: usize) -> Result<Vec<Cell>, ParseError> {
    check_length(ctx, s, line)?;
    let mut cells = Vec::new();
    let tokenised = s.trim().contains(char::is_whitespace) && !written_in_groups(s);
    if tokenised {
        let mut col = 0usize;
        for piece in s.split_inclusive(char::is_whitespace) {
            let start = col + 1;
            col += piece.chars().count();
            for (k, tok) in piece.split(['|', '+']).enumerate() {
                let tok = tok.trim();
                if tok.is_empty() {
                    continue;
                }
                cells.push((cell_value(ctx, tok, line, start + k)?, line, start + k));
            }
        }
    } else {
        for (i, c) in s.chars().enumerate() {
            if matches!(c, '|' | '+') || c.is_whitespace() {
                continue;
            }
            let mut b = [0u8; 4];
            cells.push((
                cell_value(ctx, c.encode_utf8(&mut b), line, i + 1)?,
                line,
                i + 1,
            ));
        }
    }
    Ok(cells)
}

fn build(ctx: &Ctx, id: String, cells: Vec<Cell>, line: usize) -> Result<Parsed, ParseError> {
    let geom = Geometry::for_cell_count(cells.len()).ok_or_else(|| {
        ctx.err(
            line,
            1,
            ParseErrorKind::WrongLength {
                found: cells.len(),
                expected: "16, 36, 81, 144, 256 or 625 (N x N for N = 4, 6, 9, 12, 16, 25)".into(),
            },
        )
    })?;
    let n = geom.n();
    for &(v, l, c) in &cells {
        if v == TOO_LARGE {
            let token = token_at(ctx, l, c);
            return Err(ctx.err(l, c, ParseErrorKind::TokenTooLarge { token, n }));
        }
        if v as usize > n {
            return Err(ctx.err(
                l,
                c,
                ParseErrorKind::ValueOutOfRange {
                    value: v as usize,
                    n,
                },
            ));
        }
    }
    let values: Vec<u8> = cells.iter().map(|c| c.0).collect();
    let grid = Grid::from_cells(geom, values).expect("length and range checked");
    let conflicts = grid
        .conflicts()
        .into_iter()
        .map(|k| {
            let (_, l, c) = cells[k.cell_b];
            ctx.err(
                l,
                c,
                ParseErrorKind::ConflictingGivens {
                    value: k.value,
                    r1: geom.row_of(k.cell_a) + 1,
                    c1: geom.col_of(k.cell_a) + 1,
                    r2: geom.row_of(k.cell_b) + 1,
                    c2: geom.col_of(k.cell_b) + 1,
                    unit: k.unit,
                },
            )
        })
        .collect();
    Ok(Parsed {
        puzzle: Puzzle::new(id, grid),
        line,
        conflicts,
    })
}

fn parse_bank(ctx: &Ctx, lines: &[&str], header: usize) -> Result<Vec<Parsed>, ParseError> {
    let cols: Vec<&str> = lines[header].split('\t').collect();
    let want = ["id", "givens", "puzzle", "solution", "source", "notes"];
    if cols.len() < 4 || cols[..4] != want[..4] {
        return Err(ctx.err(
            header + 1,
            1,
            ParseErrorKind::BadBankRow(format!("header must start with {:?}", &want[..4])),
        ));
    }
    let mut out = Vec::new();
    for (i, raw) in lines.iter().enumerate().skip(header + 1) {
        let ln = i + 1;
        if raw.trim().is_empty() || raw.starts_with('#') {
            continue;
        }
        let f: Vec<&str> = raw.split('\t').collect();
        if f.len() < 4 {
            return Err(ctx.err(
                ln,
                1,
                ParseErrorKind::BadBankRow(format!("{} fields, expected at least 4", f.len())),
            ));
        }
        let col_of = |k: usize| f[..k].iter().map(|s| s.chars().count() + 1).sum::<usize>() + 1;
        let cells = line_cells(ctx, f[2], ln).map_err(|mut e| {
            e.column += col_of(2) - 1;
            e
        })?;
        let mut p = build(ctx, f[0].to_string(), cells, ln).map_err(|mut e| {
            e.column = col_of(2);
            e
        })?;
        let declared: usize = f[1].parse().map_err(|_| {
            ctx.err(
                ln,
                col_of(1),
                ParseErrorKind::BadBankRow(format!("givens '{}' is not a number", f[1])),
            )
        })?;
        if declared != p.puzzle.givens() {
            return Err(ctx.err(
                ln,
                col_of(1),
                ParseErrorKind::BadBankRow(format!(
                    "givens column says {declared}, the grid has {}",
                    p.puzzle.givens()
                )),
            ));
        }
        if !f[3].is_empty() {
            let sol = line_cells(ctx, f[3], ln)?;
            let sol = build(ctx, format!("{}-solution", f[0]), sol, ln)?
                .puzzle
                .grid;
            if !sol.is_solved() || !sol.keeps_givens_of(&p.puzzle.grid) {
                return Err(ctx.err(ln, col_of(3), ParseErrorKind::BadSolution(f[0].to_string())));
            }
            p.puzzle.solution = Some(sol);
        }
        p.puzzle.source = f.get(4).unwrap_or(&"").to_string();
        p.puzzle.notes = f.get(5).unwrap_or(&"").to_string();
        p.conflicts
            .iter_mut()
            .for_each(|e| e.column += col_of(2) - 1);
        out.push(p);
        if ctx.first_only {
            break;
        }
    }
    Ok(out)
}

fn parse_kennett(ctx: &Ctx, lines: &[&str]) -> Result<Vec<Parsed>, ParseError> {
    let mut out = Vec::new();
    let mut cells: Vec<Cell> = Vec::new();
    let mut start = 0usize;
    let mut title = String::new();
    let flush = |cells: &mut Vec<Cell>, title: &str, start: usize, out: &mut Vec<Parsed>| {
        if cells.is_empty() {
            return Ok(());
        }
        let id = format!("{}#{}", title.trim(), out.len() + 1);
        out.push(build(ctx, id, std::mem::take(cells), start)?);
        Ok::<(), ParseError>(())
    };
    for (i, raw) in lines.iter().enumerate() {
        let ln = i + 1;
        if let Some(t) = raw.strip_prefix('%') {
            flush(&mut cells, &title, start, &mut out)?;
            if ctx.first_only && !out.is_empty() {
                return Ok(out);
            }
            title = t.to_string();
            start = ln + 1;
            continue;
        }
        if raw.trim().is_empty() || raw.starts_with('#') || is_separator_line(raw) {
            continue;
        }
        if cells.is_empty() && start == 0 {
            start = ln;
        }
        cells.extend(row_cells(ctx, raw, ln)?);
        if cells.len() > MAX_CELLS {
            return Err(ctx.err(
                start,
                1,
                ParseErrorKind::WrongLength {
                    found: cells.len(),
                    expected: format!(
                        "at most {MAX_CELLS} (a 25x25 grid) before the next '%' line"
                    ),
                },
            ));
        }
    }
    flush(&mut cells, &title, start, &mut out)?;
    Ok(out)
}

fn parse_blocks(ctx: &Ctx, lines: &[&str]) -> Result<Vec<Parsed>, ParseError> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let raw = lines[i];
        let ln = i + 1;
        let t = raw.trim();
        if t.is_empty() || t.starts_with('#') || is_separator_line(raw) {
            i += 1;
            continue;
        }
        // A line with no whitespace and at least 16 characters is a whole puzzle.
        if !t.contains(char::is_whitespace) && !t.contains(['|', '+']) && t.chars().count() >= 16 {
            let cells = line_cells(ctx, t, ln)?;
            let id = format!("line{ln}");
            out.push(build(ctx, id, cells, ln)?);
            if ctx.first_only {
                break;
            }
            i += 1;
            continue;
        }
        // A whole puzzle on one line with spaces (rows of characters `53..7.... 6..195... ...`,
        // or tokens): more cells than any grid row has.
        if t.contains(char::is_whitespace) {
            let cells = row_cells(ctx, raw, ln)?;
            if cells.len() > 25 && Geometry::for_cell_count(cells.len()).is_some() {
                out.push(build(ctx, format!("line{ln}"), cells, ln)?);
                if ctx.first_only {
                    break;
                }
                i += 1;
                continue;
            }
        }
        // Otherwise a multi-line grid: rows until a blank line.
        let mut rows: Vec<Vec<Cell>> = Vec::new();
        let start = ln;
        while i < lines.len() && !lines[i].trim().is_empty() {
            let r = lines[i];
            if !r.trim_start().starts_with('#') && !is_separator_line(r) {
                rows.push(row_cells(ctx, r, i + 1)?);
            }
            if rows.len() > 25 {
                return Err(ctx.err(
                    start,
                    1,
                    ParseErrorKind::UnsupportedSize(
                        "more than 25 rows without a blank line (the largest grid is 25x25)".into(),
                    ),
                ));
            }
            i += 1;
        }
        let n = rows[0].len();
        if Geometry::for_order(n).is_err() {
            let what = if n > 25 {
                format!("a line of {n} cells, neither a grid row (4, 6, 9, 12, 16 or 25 cells) nor a whole puzzle (16, 36, 81, 144, 256 or 625 cells)")
            } else {
                format!("a row of {n} cells (supported orders: 4, 6, 9, 12, 16, 25)")
            };
            return Err(ctx.err(start, 1, ParseErrorKind::UnsupportedSize(what)));
        }
        // A number too large for the order is the first thing to say, before the shape.
        if let Some(&(_, l, c)) = rows.iter().flatten().find(|cell| cell.0 == TOO_LARGE) {
            let token = token_at(ctx, l, c);
            return Err(ctx.err(l, c, ParseErrorKind::TokenTooLarge { token, n }));
        }
        for r in &rows {
            if r.len() != n {
                let ln = r.first().map_or(start, |c| c.1);
                return Err(ctx.err(
                    ln,
                    1,
                    ParseErrorKind::WrongLength {
                        found: r.len(),
                        expected: format!("{n} (as the first row)"),
                    },
                ));
            }
        }
        if rows.len() != n {
            return Err(ctx.err(
                start,
                1,
                ParseErrorKind::WrongLength {
                    found: rows.len(),
                    expected: format!("{n} rows of {n} cells"),
                },
            ));
        }
        let id = format!("grid{start}");
        out.push(build(ctx, id, rows.into_iter().flatten().collect(), start)?);
        if ctx.first_only {
            break;
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const L81: &str =
        ".4....179..2..8.54..6..5..8.8..7.91..5..9..3..19.6..4.3..4..7..57.1..2..928....6.";

    /// `parse_first` in every format: the first puzzle, whatever garbage follows it (the
    /// whole-file parser rejects each of these texts at the garbage line).
    #[test]
    fn parse_first_stops_after_the_first_puzzle() {
        let grid: String = L81
            .as_bytes()
            .chunks(9)
            .map(|r| String::from_utf8_lossy(r).into_owned() + "\n")
            .collect();
        let g = Grid::from_line(Geometry::NINE, L81).unwrap();
        let sol = crate::exact::unique_solution(&g).unwrap().to_line();
        let bank = format!("id\tgivens\tpuzzle\tsolution\nx\t33\t{L81}\t{sol}\n");
        let cases: [(&str, String); 4] = [
            ("line", format!("# comment\n{L81}\nnot a puzzle\n")),
            ("grid", format!("{grid}\n@@@\n")),
            ("kennett", format!("% one\n{grid}% two\n@@@\n")),
            ("bank", format!("{bank}broken row\n")),
        ];
        for (name, text) in cases {
            assert!(
                parse_puzzles(&text, name).is_err(),
                "{name}: garbage not seen"
            );
            let p = parse_first(&text, name).unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(p.grid.to_line(), L81, "{name}");
        }
        // Errors inside the first puzzle are still errors, with their place.
        let e = parse_first("12x\n", "bad").unwrap_err();
        assert_eq!((e.line, e.column), (1, 3));
        assert!(parse_first("# only a comment\n", "empty").is_err());
    }

    /// Inputs that once filled the memory before their error are refused early,
    /// each with its error; a long line after the first puzzle does not stop `parse_first`.
    #[test]
    fn oversized_lines_and_grids_are_refused_before_their_cells_are_read() {
        let long = "1".repeat(MAX_LINE + 1);
        let nine_rows = (0..9).map(|_| "123456789\n").collect::<String>();
        let cases: [(&str, String, &str); 5] = [
            (
                "one long line",
                long.clone(),
                "1:1: line of 16385 characters, longer than the 16384",
            ),
            (
                "a long row",
                format!("1 2\n{long} 3\n"),
                "2:1: line of 16387 characters",
            ),
            (
                "kennett without titles",
                format!("% one\n{}", nine_rows.repeat(8)),
                "2:1: wrong length: 630 cells, expected at most 625 (a 25x25 grid)",
            ),
            (
                "rows without a blank line",
                "1 2 3\n".repeat(30),
                "1:1: unsupported size: more than 25 rows without a blank line",
            ),
            (
                "bank",
                format!("id\tgivens\tpuzzle\tsolution\nx\t1\t{long}\t\n"),
                "2:5: line of 16385",
            ),
        ];
        for (name, text, want) in cases {
            let e = parse_puzzles(&text, "f").unwrap_err().to_string();
            assert!(e.starts_with(&format!("f:{want}")), "{name}: {e}");
        }
        let p = parse_first(&format!("{L81}\n{long}\n"), "f").unwrap();
        assert_eq!(p.grid.to_line(), L81);
    }

    #[test]
    fn line_format() {
        let p = parse_puzzles(L81, "x").unwrap();
        assert_eq!(p.len(), 1);
        assert_eq!(p[0].givens(), 33);
        assert_eq!(p[0].grid.to_line(), L81);
    }

    #[test]
    fn multi_line_with_separators_equals_line() {
        let g = parse_puzzles(L81, "x").unwrap()[0].grid.clone();
        let boxed = g.to_string();
        let p = parse_puzzles(&boxed, "x").unwrap();
        assert_eq!(p[0].grid, g);
        let tokens = parse_puzzles(&g.to_tokens(), "x").unwrap();
        assert_eq!(tokens[0].grid, g);
    }

    #[test]
    fn errors_name_line_and_column() {
        let bad = L81.replacen('.', "x", 1);
        let e = parse_puzzles(&bad, "f.txt").unwrap_err();
        assert_eq!(e.to_string(), "f.txt:1:1: unknown character 'x'");
        let e = parse_puzzles(&L81[..80], "f.txt").unwrap_err();
        assert!(
            e.to_string()
                .starts_with("f.txt:1:1: wrong length: 80 cells"),
            "{e}"
        );
        let conflict = format!("44{}", &L81[2..]);
        let e = parse_puzzles(&conflict, "f.txt").unwrap_err();
        assert_eq!(
            e.to_string(),
            "f.txt:1:2: givens conflict: 4 at r1c1 and r1c2 share a row"
        );
        // `-1` for a blank (token format): the real cause, not "unknown character '-'".
        let neg = vec![["-1"; 9].join(" "); 9].join("\n");
        let e = parse_puzzles(&neg, "f.txt").unwrap_err();
        assert_eq!(
            e.to_string(),
            "f.txt:1:1: '-1' is not a cell value: write a blank as '.', '0', '_', '-' or '*'"
        );
    }

    /// Issue 21, item 9: messages that quote the input escape control, invisible and
    /// bidirectional characters; a number too large names the token and the order.
    #[test]
    fn messages_escape_hidden_characters_and_name_large_tokens() {
        let row16 = |last: &str| {
            let mut r: Vec<String> = (1..=15).map(|v| v.to_string()).collect();
            r.push(last.to_string());
            let blank = vec!["."; 16].join(" ");
            format!("{}\n{}", r.join(" "), format!("{blank}\n").repeat(15))
        };
        let long = "9".repeat(40);
        let cases: [(&str, String, &str); 10] = [
            (
                "NUL",
                format!("53.\0{}", &L81[4..]),
                "f:1:4: unknown character '\\u{0}'",
            ),
            (
                "RLO",
                format!("53.\u{202e}{}", &L81[4..]),
                "unknown character '\\u{202e}'",
            ),
            (
                "ZWSP",
                format!("53.\u{200b}{}", &L81[4..]),
                "unknown character '\\u{200b}'",
            ),
            (
                "escape",
                format!("53.\u{1b}{}", &L81[4..]),
                "unknown character '\\u{1b}'",
            ),
            (
                "plain",
                format!("53.x{}", &L81[4..]),
                "unknown character 'x'",
            ),
            (
                "overflow on 16x16",
                row16(&long),
                "token '999999999999999999999999...' too large for order 16",
            ),
            (
                "two digits on 9x9",
                "1 2 3 4 5 6 7 8 19\n".repeat(9),
                "f:1:17: value 19 too large for order 9",
            ),
            (
                "a group mixed with numbers",
                row16("123"),
                "token '123' too large for order 16",
            ),
            (
                "a long token among single cells",
                format!("1 2 {long} . . . . . . . . . . . . .\n"),
                "f:1:5: token '999999999999999999999999...' too large",
            ),
            (
                "81 cells that are no row",
                format!("{} .\n", "5 ".repeat(79)),
                "a line of 80 cells, neither a grid row",
            ),
        ];
        for (name, text, want) in cases {
            let e = parse_puzzles(&text, "f").unwrap_err().to_string();
            assert!(e.contains(want), "{name}: got {e:?}, want {want:?}");
            assert!(
                !e.chars().any(crate::error::is_hidden),
                "{name}: raw hidden character in {e:?}"
            );
        }
        // The source name is escaped too.
        let e = parse_puzzles("x", "a\u{202e}b").unwrap_err().to_string();
        assert!(e.starts_with("a\\u{202e}b:"), "{e}");
    }

    /// A row written with spaces between groups of characters, and a whole puzzle on one line
    /// with spaces, read as what they unambiguously are.
    #[test]
    fn rows_in_groups_and_puzzles_on_one_spaced_line() {
        let want = Grid::from_line(Geometry::NINE, L81).unwrap();
        let rows: Vec<&str> = (0..9).map(|r| &L81[9 * r..9 * r + 9]).collect();
        let spaced = |r: &str| r.chars().map(String::from).collect::<Vec<_>>().join(" ");
        let boxes = |r: &str| format!("{} {} {}", &r[..3], &r[3..6], &r[6..]);
        let cases: [(&str, String); 5] = [
            ("nine rows of nine, one line", rows.join(" ")),
            (
                "81 tokens, one line",
                rows.iter().map(|r| spaced(r)).collect::<Vec<_>>().join(" "),
            ),
            (
                "rows of single cells with spaces",
                rows.iter().map(|r| spaced(r) + "\n").collect(),
            ),
            (
                "rows in groups of a box",
                rows.iter().map(|r| boxes(r) + "\n").collect(),
            ),
            (
                "rows in groups with bars",
                rows.iter()
                    .map(|r| boxes(r).replace(' ', " | ") + "\n")
                    .collect(),
            ),
        ];
        for (name, text) in cases {
            let p = parse_puzzles(&text, "f").unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(p.len(), 1, "{name}");
            assert_eq!(p[0].grid, want, "{name}");
        }
        // Two such lines are two puzzles; numbers of a 16x16 row stay numbers.
        let two = format!("{}\n{}\n", rows.join(" "), rows.join(" "));
        assert_eq!(parse_puzzles(&two, "f").unwrap().len(), 2);
        let g16 = crate::exact::solve(&Grid::empty(Geometry::for_order(16).unwrap())).unwrap();
        assert_eq!(parse_puzzles(&g16.to_tokens(), "f").unwrap()[0].grid, g16);
    }
}
