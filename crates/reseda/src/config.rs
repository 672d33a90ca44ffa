//! RESEDA configuration: one field per paper parameter, one enum per ambiguity.

use thiserror::Error;

/// How samples are drawn (section 3.1, Table 1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// "tries to pick permutations in each of the 9 blocks 3x3 whenever it is possible instead
    /// of picking each case individually", without the pre-computed constraints.
    Permutations,
    /// Cells drawn independently, with "the additional constraints described in section 2.1"
    /// (V_ij: symbols of the givens sharing a row, column or block get probability 0).
    Precomputation,
    /// Default (the paper uses it "in all the following numerical examples"): block
    /// permutations "while taking into account the constraints given by the fixed cells".
    Both,
}

/// Which symbol the block-permutation sampler puts in the cell it fills next (the cell is
/// chosen by [`CellOrder`]; the names below describe the default order,
/// [`CellOrder::Renormalised`]).
///
/// Paper: "Our technique is to first pick a symbol in the cell having the highest probability.
/// Once this symbol is picked, it is removed from the possible symbols of the remaining cells
/// of the block and the probabilities in these cells are recomputed".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BlockPick {
    /// Default: the cell whose largest (renormalised) probability is highest is filled next,
    /// with a symbol *drawn* from its distribution. A sampler must sample: the literal argmax
    /// would make all Q samples of a round identical once the probabilities differ. Ties
    /// between cells go to the first remaining cell (box order, as cells are removed by
    /// swap), which costs no random draw. With another [`CellOrder`], the symbol is drawn the
    /// same way in the cell that order gives.
    DrawInMostCertainCell,
    /// The literal reading: the (cell, symbol) pair of highest probability. Ties between cells
    /// go to the first remaining cell, as above; ties between symbols to the smallest symbol.
    /// With another [`CellOrder`], the most probable unused symbol of the cell that order gives.
    ArgmaxCellSymbol,
}

/// In which order the block-permutation sampler fills the free cells of a block. The paper does
/// not state it beyond "first pick a symbol in the cell having the highest probability. Once
/// this symbol is picked, it is removed from the possible symbols of the remaining cells of the
/// block and the probabilities in these cells are recomputed knowing that the probability of
/// this symbol is now zero. This method is iterated until the last cell is filled." Whether
/// "the cell having the highest probability" is chosen again among the recomputed
/// probabilities after each placement, or once, is open. In every order the symbol of the
/// chosen cell is given by [`BlockPick`] over the symbols the block has not used yet (with the
/// recomputed, renormalised probabilities), and a cell with no unused symbol of positive
/// probability hands the rest of the block to [`Fallback`]. Definitions (the block's givens are
/// placed first and never move; "box order" is row-major inside the block):
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CellOrder {
    /// Default, re-picked after every placement: the next cell is the remaining cell whose
    /// largest probability, renormalised over the symbols the block has not used yet, is the
    /// highest (the most constrained cell first). Ties go to the first remaining cell of a
    /// list that starts in box order and loses each filled cell by a swap with its last
    /// element.
    Renormalised,
    /// Ordered once per sample, not re-picked: the block's free cells by decreasing largest raw
    /// probability max_k p(i,j,k) of the current model (before any symbol of the block is
    /// drawn; no renormalisation), ties in box order.
    Raw,
    /// A fixed order per block for the whole resolution: the free cells by decreasing largest
    /// probability of the resolution's initial distribution p^(0) (section 2.1), that is by
    /// fewest allowed symbols first, ties in box order. Without the pre-computed constraints
    /// (strategy `Permutations`) p^(0) is uniform and this is box order.
    Static,
    /// Box order: the free cells row-major inside the block, whatever the probabilities.
    Box,
}

/// What fills a block when no permutation is possible any more (a remaining cell has no
/// remaining symbol of positive probability).
///
/// Paper: "Note that it may happen it is impossible to pick a permutation especially for the
/// final steps of the process. In this case, we just pick the remaining symbols uniformly at
/// random." But of the combined strategy: "This may increase the number of blocks that are not
/// permutations", which the literal fallback cannot produce.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fallback {
    /// Default, the literal words: the block's remaining symbols go to its remaining cells in a
    /// uniformly random order (the block stays a permutation; a constraint may be broken).
    RemainingSymbols,
    /// Each remaining cell draws uniformly among the symbols its constraints allow (the block
    /// may stop being a permutation, as the paper's remark on the combined strategy implies).
    AllowedSymbols,
}

/// How the Q1 best of the Q samples are chosen (section 2.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EliteSelection {
    /// Default: "sorting the Q samples and keep the Q1 with lowest cost function" (ties by
    /// sample order).
    Sort,
    /// "take the sample with lowest cost function among Q/Q1 samples of size Q1": the Q samples
    /// split into Q1 groups of Q/Q1, the best of each group.
    BestOfGroups,
}

/// The zones a partial restart fixes, one at a time (section 4.2, Tables 3-5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Zones {
    /// No partial restart: an attempt is one resolution.
    None,
    /// Default (the paper's recommendation): "one of the 3 blocks on the first diagonal".
    Diagonal3,
    /// All 9 blocks.
    Blocks9,
    /// "all the columns, rows and 3x3 blocks": rows, then columns, then blocks.
    All27,
}

/// "The result" of a failed resolution, whose zones the partial restarts fix.
///
/// Paper: "restarting the algorithm with additional fixed symbols ... obtained after a first
/// resolution of the algorithm"; Figure 4.2 grades "the puzzles obtained even if they are not
/// completely solved".
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FailedResult {
    /// Default: the sample of lowest cost seen during the resolution (the first one on ties).
    BestSample,
    /// The most probable symbol of each cell in the final distribution.
    MostProbable,
}

/// RESEDA parameters. Defaults are the paper's values (see the crate docs for the table).
#[derive(Debug, Clone, PartialEq)]
pub struct ResedaConfig {
    /// Q, samples per round (100).
    pub samples: usize,
    /// Q1, best samples kept per round (10).
    pub elite: usize,
    /// alpha, the smoothing parameter of p <- alpha p + (1 - alpha) r (0.7 after section 3.2).
    pub alpha: f64,
    /// beta: a resolution stops when rho(n) = min over cells of max over symbols of p exceeds
    /// it. Section 2.3: "beta is a parameter close to one"; section 3.1: "The algorithm stops
    /// when rho(n) = 0.6. These parameters will be used in all the following numerical tests."
    pub beta: f64,
    pub strategy: Strategy,
    pub block_pick: BlockPick,
    pub cell_order: CellOrder,
    pub fallback: Fallback,
    pub elite_selection: EliteSelection,
    pub zones: Zones,
    pub failed_result: FailedResult,
    /// Full restarts within one run (1 = a run is one attempt, as the paper counts attempts).
    pub attempts: u32,
}

impl Default for ResedaConfig {
    fn default() -> Self {
        ResedaConfig {
            samples: 100,
            elite: 10,
            alpha: 0.7,
            beta: 0.6,
            strategy: Strategy::Both,
            block_pick: BlockPick::DrawInMostCertainCell,
            cell_order: CellOrder::Renormalised,
            fallback: Fallback::RemainingSymbols,
            elite_selection: EliteSelection::Sort,
            zones: Zones::Diagonal3,
            failed_result: FailedResult::BestSample,
            attempts: 1,
        }
    }
}

/// Invalid configuration.
#[derive(Debug, Error, Clone, PartialEq)]
pub enum ResedaError {
    #[error("samples (Q) must be at least 1 and elite (Q1) between 1 and Q; got Q = {samples}, Q1 = {elite}")]
    Sizes { samples: usize, elite: usize },
    #[error("with elite_selection = best-of-groups, Q1 = {elite} must divide Q = {samples}")]
    Groups { samples: usize, elite: usize },
    #[error("{name} must be in [0, 1], got {value}")]
    Range { name: &'static str, value: f64 },
    #[error("attempts must be at least 1")]
    Attempts,
}

impl ResedaConfig {
    pub fn validate(&self) -> Result<(), ResedaError> {
        if self.samples == 0 || self.elite == 0 || self.elite > self.samples {
            return Err(ResedaError::Sizes {
                samples: self.samples,
                elite: self.elite,
            });
        }
        if self.elite_selection == EliteSelection::BestOfGroups
            && !self.samples.is_multiple_of(self.elite)
        {
            return Err(ResedaError::Groups {
                samples: self.samples,
                elite: self.elite,
            });
        }
        for (name, value) in [("alpha", self.alpha), ("beta", self.beta)] {
            if !(0.0..=1.0).contains(&value) {
                return Err(ResedaError::Range { name, value });
            }
        }
        if self.attempts == 0 {
            return Err(ResedaError::Attempts);
        }
        Ok(())
    }
}

/// The options the paper leaves open (the block sampler's cell order, its pick and fallback,
/// the elite selection, the result of a failed resolution), with its words: the readings
/// `sudoku-lab readings` races (4 x 2 x 2 x 2 x 2 = 64). Values are the runner's spellings.
pub const AMBIGUITIES: &[sudoku_core::Ambiguity] = &[
    sudoku_core::Ambiguity {
        key: "cell_order",
        values: &["renormalised", "raw", "static", "box"],
        default: "renormalised",
        words: "not stated: first pick a symbol in the cell having the highest probability ... This method is iterated until the last cell is filled",
    },
    sudoku_core::Ambiguity {
        key: "block_pick",
        values: &["draw-in-most-certain-cell", "argmax-cell-symbol"],
        default: "draw-in-most-certain-cell",
        words: "first pick a symbol in the cell having the highest probability",
    },
    sudoku_core::Ambiguity {
        key: "fallback",
        values: &["remaining-symbols", "allowed-symbols"],
        default: "remaining-symbols",
        words: "we just pick the remaining symbols uniformly at random",
    },
    sudoku_core::Ambiguity {
        key: "elite_selection",
        values: &["sort", "best-of-groups"],
        default: "sort",
        words: "sorting the Q samples and keep the Q1 with lowest cost; the sample with lowest cost function among Q/Q1 samples of size Q1",
    },
    sudoku_core::Ambiguity {
        key: "failed_result",
        values: &["best-sample", "most-probable"],
        default: "best-sample",
        words: "not stated (the approximate solution obtained after this first shot)",
    },
];
