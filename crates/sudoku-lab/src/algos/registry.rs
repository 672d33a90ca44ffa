//! The registry: every algorithm the runner knows, one line each, in the order of
//! `sudoku-lab list`. A new algorithm crate adds its line here and its dependency to the
//! runner's Cargo.toml; everything else (options, `list`, help, specs, readings, reports, the
//! site) comes from its [`sudoku_core::Algorithm`] (docs/adding-a-solver.md).

use sudoku_core::Algorithm;

/// The algorithms, in the order `list` shows them.
pub const REGISTRY: &[&dyn Algorithm] = &[
    super::ret_ga::ALGORITHM,
    super::mk_ga::ALGORITHM,
    super::reseda::ALGORITHM,
    super::gen_ga::ALGORITHM,
    super::cso::ALGORITHM,
    super::lewis_sa::ALGORITHM,
    hill_climb::ALGORITHM,
    acs::ALGORITHM,
];
