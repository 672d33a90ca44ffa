//! Grids and puzzles.

use crate::geometry::Geometry;
use std::fmt;

/// A grid of order N: `cells[r * N + c]` holds 0 for an empty cell or a symbol 1..=N.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Grid {
    geom: Geometry,
    cells: Vec<u8>,
}

/// Two equal values in one unit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Conflict {
    pub value: u8,
    pub cell_a: usize,
    pub cell_b: usize,
    /// "row", "column" or "box".
    pub unit: &'static str,
}

impl Grid {
    /// An empty grid.
    pub fn empty(geom: Geometry) -> Self {
        Grid {
            geom,
            cells: vec![0; geom.cells()],
        }
    }

    /// A grid from its cells. Returns `None` when the length or a value does not fit `geom`.
    pub fn from_cells(geom: Geometry, cells: Vec<u8>) -> Option<Self> {
        (cells.len() == geom.cells() && cells.iter().all(|&v| (v as usize) <= geom.n()))
            .then_some(Grid { geom, cells })
    }

    #[inline]
    pub fn geometry(&self) -> Geometry {
        self.geom
    }
    #[inline]
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }
    #[inline]
    pub fn cells_mut(&mut self) -> &mut [u8] {
        &mut self.cells
    }
    #[inline]
    pub fn get(&self, row: usize, col: usize) -> u8 {
        self.cells[self.geom.cell(row, col)]
    }
    #[inline]
    pub fn set(&mut self, row: usize, col: usize, v: u8) {
        let i = self.geom.cell(row, col);
        self.cells[i] = v;
    }

    /// Number of filled cells (the givens of a puzzle).
    pub fn filled(&self) -> usize {
        self.cells.iter().filter(|&&v| v != 0).count()
    }

    /// Every pair of equal filled cells sharing a row, column or box, each pair once per unit.
    pub fn conflicts(&self) -> Vec<Conflict> {
        let g = self.geom;
        let mut out = Vec::new();
        for a in 0..g.cells() {
            let v = self.cells[a];
            if v == 0 {
                continue;
            }
            for b in a + 1..g.cells() {
                if self.cells[b] != v {
                    continue;
                }
                let unit = if g.row_of(a) == g.row_of(b) {
                    "row"
                } else if g.col_of(a) == g.col_of(b) {
                    "column"
                } else if g.box_of(a) == g.box_of(b) {
                    "box"
                } else {
                    continue;
                };
                out.push(Conflict {
                    value: v,
                    cell_a: a,
                    cell_b: b,
                    unit,
                });
            }
        }
        out
    }

    /// True when every cell is filled and no unit repeats a symbol.
    pub fn is_solved(&self) -> bool {
        let g = self.geom;
        let n = g.n();
        let full = g.full_mask();
        let (mut rows, mut cols, mut boxes) = (vec![0u32; n], vec![0u32; n], vec![0u32; n]);
        for (i, &v) in self.cells.iter().enumerate() {
            if v == 0 {
                return false;
            }
            let bit = 1u32 << v;
            rows[g.row_of(i)] |= bit;
            cols[g.col_of(i)] |= bit;
            boxes[g.box_of(i)] |= bit;
        }
        rows.iter().chain(&cols).chain(&boxes).all(|&m| m == full)
    }

    /// True when `self` keeps every filled cell of `puzzle`.
    pub fn keeps_givens_of(&self, puzzle: &Grid) -> bool {
        self.geom == puzzle.geom
            && self
                .cells
                .iter()
                .zip(&puzzle.cells)
                .all(|(&a, &p)| p == 0 || a == p)
    }

    /// One line, row-major, '.' for blanks; symbols above 9 as letters A.. (only for N <= 35).
    pub fn to_line(&self) -> String {
        self.cells.iter().map(|&v| symbol_char(v)).collect()
    }

    /// The inverse of [`Grid::to_line`]: `geom.cells()` characters, '.' or '0' blank, '1'-'9'
    /// and 'A'.. for 10 and above. None when the length or a symbol does not fit.
    pub fn from_line(geom: Geometry, line: &str) -> Option<Self> {
        let cells = line
            .chars()
            .map(|ch| match ch {
                '.' | '0' => Some(0),
                '1'..='9' => Some(ch as u8 - b'0'),
                'A'..='Z' => Some(ch as u8 - b'A' + 10),
                _ => None,
            })
            .collect::<Option<Vec<u8>>>()?;
        (cells.len() == geom.cells()).then_some(())?;
        Grid::from_cells(geom, cells)
    }

    /// Whitespace-separated tokens, one row a line, '.' for blanks (the token format).
    pub fn to_tokens(&self) -> String {
        let n = self.geom.n();
        let width = if n > 9 { 2 } else { 1 };
        let mut s = String::new();
        for r in 0..n {
            let row: Vec<String> = (0..n)
                .map(|c| match self.get(r, c) {
                    0 => format!("{:>width$}", "."),
                    v => format!("{v:>width$}"),
                })
                .collect();
            s.push_str(&row.join(" "));
            s.push('\n');
        }
        s
    }
}

fn symbol_char(v: u8) -> char {
    match v {
        0 => '.',
        1..=9 => (b'0' + v) as char,
        _ => (b'A' + v - 10) as char,
    }
}

impl fmt::Display for Grid {
    /// Boxed multi-line layout, as the papers print grids.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let g = self.geom;
        let n = g.n();
        let w = if n > 9 { 2 } else { 1 };
        let sep: String = (0..g.boxes_per_band())
            .map(|_| "-".repeat((w + 1) * g.box_cols() + 1))
            .collect::<Vec<_>>()
            .join("+");
        for r in 0..n {
            if r > 0 && r % g.box_rows() == 0 {
                writeln!(f, "{sep}")?;
            }
            for c in 0..n {
                if c > 0 && c % g.box_cols() == 0 {
                    write!(f, " |")?;
                }
                match self.get(r, c) {
                    0 => write!(f, " {:>w$}", ".")?,
                    v if n > 9 => write!(f, " {v:>w$}")?,
                    v => write!(f, " {v}")?,
                }
            }
            writeln!(f)?;
        }
        Ok(())
    }
}

/// A puzzle: its grid of givens, its unique solution when known, and where it comes from.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Puzzle {
    pub id: String,
    pub grid: Grid,
    pub solution: Option<Grid>,
    pub source: String,
    pub notes: String,
}

impl Puzzle {
    /// A puzzle with no recorded solution or provenance.
    pub fn new(id: impl Into<String>, grid: Grid) -> Self {
        Puzzle {
            id: id.into(),
            grid,
            solution: None,
            source: String::new(),
            notes: String::new(),
        }
    }
    #[inline]
    pub fn geometry(&self) -> Geometry {
        self.grid.geometry()
    }
    /// Number of givens.
    pub fn givens(&self) -> usize {
        self.grid.filled()
    }
    /// Mask of given cells (true = given), the "blueprint matrix" of the Ret-GA paper.
    pub fn given_mask(&self) -> Vec<bool> {
        self.grid.cells().iter().map(|&v| v != 0).collect()
    }
}
