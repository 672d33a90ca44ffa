//! Helpers shared by the ret-ga test files.

use sudoku_core::{exact, rng_from_seed, Geometry, Puzzle};

/// A solved grid of order r x c (a random solution of the exact solver at `seed`) with each
/// cell blanked with probability 0.55: a puzzle of any order for the operators' tests.
pub fn blanked(r: usize, c: usize, seed: u64) -> Puzzle {
    use rand::Rng as _;
    let geom = Geometry::new(r, c).unwrap();
    let mut rng = rng_from_seed(seed);
    let mut g = exact::random_solution(geom, &mut rng);
    for v in g.cells_mut() {
        if rng.random_bool(0.55) {
            *v = 0;
        }
    }
    Puzzle::new(format!("{r}x{c}"), g)
}
