//! # sudoku-core
//!
//! The shared ground of sudoku-lab: grids of order N = box_rows x box_cols (4, 6, 9, 12, 16, 25),
//! parsing and printing, the evaluation functions of the reproduced papers, an exact solver, a
//! human-style logical grader ([`grade`]), the embedded puzzle bank, run-seed derivation and the
//! [`Solver`] contract.
//!
//! Evaluation functions (each with a fast form and a plain transcription of the paper):
//! - [`fitness::RetGaFitness`]: Das, Bhatia, Puri, Deep, pairwise uniqueness, eqs. (2)-(6), maximised (972 for 9x9);
//! - [`fitness::mk_fitness`]: Mantere & Koljonen (2006), eq. (1) of Das et al., minimised;
//! - [`fitness::missing_symbols_cost`]: Maire & Prissette (RESEDA), rows + columns + blocks;
//! - [`fitness::rows_cols_missing`]: Lewis (2007) and the CSO thesis, rows + columns.

pub mod algorithm;
pub mod ambiguity;
pub mod atomic;
pub mod bank;
pub mod contract;
pub mod counts;
pub mod error;
pub mod exact;
pub mod fitness;
pub mod geometry;
pub mod grade;
pub mod grid;
pub mod halt;
pub mod instances;
mod mk_eval;
pub mod parse;
pub mod seed;

pub use algorithm::{Algorithm, OptionError, Options, SameRun};
pub use ambiguity::Ambiguity;
pub use bank::{bank, bank_puzzle};
pub use contract::{Budget, NoObserver, Observer, RunOutcome, Solver, Termination};
pub use counts::{CellUnits, UnitCounts};
pub use error::{CoreError, ParseError, ParseErrorKind};
pub use exact::{count_solutions, SolutionCount};
pub use geometry::{Geometry, Units};
pub use grid::{Grid, Puzzle};
pub use seed::{rng_from_seed, run_seed, RawRng, Rng};
