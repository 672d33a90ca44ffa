//! Grid geometry: order N = box_rows x box_cols and the unit (row, column, box) tables.

use crate::error::CoreError;

/// The block shapes this crate supports, as (box_rows, box_cols).
///
/// The papers use 9x9 (all), 6x6 with 2x3 boxes and 12x12 with 3x4 boxes (the CSO thesis);
/// 4x4, 16x16 and 25x25 are the other common orders.
pub const SUPPORTED_SHAPES: [(usize, usize); 6] = [(2, 2), (2, 3), (3, 3), (3, 4), (4, 4), (5, 5)];

/// Shape of a Sudoku grid. `n = box_rows * box_cols` is the order (symbols 1..=n).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct Geometry {
    box_rows: usize,
    box_cols: usize,
}

impl Geometry {
    /// The classic 9x9 grid.
    pub const NINE: Geometry = Geometry {
        box_rows: 3,
        box_cols: 3,
    };

    /// A geometry with boxes of `box_rows` rows and `box_cols` columns.
    pub fn new(box_rows: usize, box_cols: usize) -> Result<Self, CoreError> {
        if SUPPORTED_SHAPES.contains(&(box_rows, box_cols)) {
            Ok(Geometry { box_rows, box_cols })
        } else {
            Err(CoreError::UnsupportedShape { box_rows, box_cols })
        }
    }

    /// The default geometry for an order: boxes are wider than tall where the order is not a
    /// square (6 -> 2x3, 12 -> 3x4), as in the CSO thesis.
    pub fn for_order(n: usize) -> Result<Self, CoreError> {
        SUPPORTED_SHAPES
            .iter()
            .find(|(r, c)| r * c == n)
            .map(|&(r, c)| Geometry {
                box_rows: r,
                box_cols: c,
            })
            .ok_or(CoreError::UnsupportedOrder(n))
    }

    /// The geometry whose grid has `cells` cells, if any.
    pub fn for_cell_count(cells: usize) -> Option<Self> {
        SUPPORTED_SHAPES
            .iter()
            .find(|(r, c)| (r * c) * (r * c) == cells)
            .map(|&(r, c)| Geometry {
                box_rows: r,
                box_cols: c,
            })
    }

    /// Order N: the number of symbols, rows, columns and boxes.
    #[inline]
    pub fn n(&self) -> usize {
        self.box_rows * self.box_cols
    }
    #[inline]
    pub fn box_rows(&self) -> usize {
        self.box_rows
    }
    #[inline]
    pub fn box_cols(&self) -> usize {
        self.box_cols
    }
    /// Number of cells, N^2.
    #[inline]
    pub fn cells(&self) -> usize {
        self.n() * self.n()
    }
    #[inline]
    pub fn row_of(&self, cell: usize) -> usize {
        cell / self.n()
    }
    #[inline]
    pub fn col_of(&self, cell: usize) -> usize {
        cell % self.n()
    }
    /// Box index, numbered row-major over the boxes.
    #[inline]
    pub fn box_of(&self, cell: usize) -> usize {
        let (r, c) = (self.row_of(cell), self.col_of(cell));
        (r / self.box_rows) * self.boxes_per_band() + c / self.box_cols
    }
    /// Number of boxes side by side in one band of rows (N / box_cols).
    #[inline]
    pub fn boxes_per_band(&self) -> usize {
        self.n() / self.box_cols
    }
    /// Cell index of (row, column).
    #[inline]
    pub fn cell(&self, row: usize, col: usize) -> usize {
        row * self.n() + col
    }
    /// The cells of box `b`, row-major inside the box.
    pub fn box_cells(&self, b: usize) -> impl Iterator<Item = usize> + '_ {
        let r0 = (b / self.boxes_per_band()) * self.box_rows;
        let c0 = (b % self.boxes_per_band()) * self.box_cols;
        (0..self.box_rows)
            .flat_map(move |dr| (0..self.box_cols).map(move |dc| self.cell(r0 + dr, c0 + dc)))
    }
    /// The cells of row `r`.
    pub fn row_cells(&self, r: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.n()).map(move |c| self.cell(r, c))
    }
    /// The cells of column `c`.
    pub fn col_cells(&self, c: usize) -> impl Iterator<Item = usize> + '_ {
        (0..self.n()).map(move |r| self.cell(r, c))
    }
    /// Bit mask with bits 1..=n set (bit v stands for symbol v).
    #[inline]
    pub fn full_mask(&self) -> u32 {
        ((1u64 << (self.n() + 1)) - 2) as u32
    }
}

/// Precomputed unit membership: for each of the 3N units (rows, then columns, then boxes) its
/// cells, and for each cell its row, column and box unit index. Built once per puzzle so hot
/// loops index flat tables instead of doing divisions.
#[derive(Debug, Clone)]
pub struct Units {
    geom: Geometry,
    /// `3N` units of `N` cells each, flattened: unit u is `cells[u*N..(u+1)*N]`.
    cells: Vec<u16>,
    /// For each cell: (row, N + column, 2N + box).
    of_cell: Vec<[u16; 3]>,
}

impl Units {
    pub fn new(geom: Geometry) -> Self {
        let n = geom.n();
        let mut cells = Vec::with_capacity(3 * n * n);
        for r in 0..n {
            cells.extend(geom.row_cells(r).map(|c| c as u16));
        }
        for c in 0..n {
            cells.extend(geom.col_cells(c).map(|c| c as u16));
        }
        for b in 0..n {
            cells.extend(geom.box_cells(b).map(|c| c as u16));
        }
        let of_cell = (0..geom.cells())
            .map(|c| {
                [
                    geom.row_of(c) as u16,
                    (n + geom.col_of(c)) as u16,
                    (2 * n + geom.box_of(c)) as u16,
                ]
            })
            .collect();
        Units {
            geom,
            cells,
            of_cell,
        }
    }
    #[inline]
    pub fn geometry(&self) -> Geometry {
        self.geom
    }
    /// Number of units, 3N.
    #[inline]
    pub fn count(&self) -> usize {
        3 * self.geom.n()
    }
    /// Cells of unit `u` (0..N rows, N..2N columns, 2N..3N boxes).
    #[inline]
    pub fn unit(&self, u: usize) -> &[u16] {
        let n = self.geom.n();
        &self.cells[u * n..(u + 1) * n]
    }
    /// The row, column and box unit indices of a cell.
    #[inline]
    pub fn of_cell(&self, cell: usize) -> [u16; 3] {
        self.of_cell[cell]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn box_numbering_for_every_shape() {
        for &(r, c) in &SUPPORTED_SHAPES {
            let g = Geometry::new(r, c).unwrap();
            let n = g.n();
            let mut seen = vec![0usize; n];
            for cell in 0..g.cells() {
                seen[g.box_of(cell)] += 1;
            }
            assert!(seen.iter().all(|&k| k == n), "{r}x{c}");
            for b in 0..n {
                assert!(g.box_cells(b).all(|cell| g.box_of(cell) == b));
            }
        }
    }

    #[test]
    fn twelve_has_wide_boxes() {
        let g = Geometry::for_order(12).unwrap();
        assert_eq!((g.box_rows(), g.box_cols()), (3, 4));
        // Box 1 starts at column 4 of row 0.
        assert_eq!(g.box_of(4), 1);
        assert_eq!(g.box_of(g.cell(3, 0)), 3);
    }
}
