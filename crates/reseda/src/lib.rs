//! # reseda: the restarted estimation-of-distribution algorithm
//!
//! S. Maire, C. Prissette, "A restarted estimation of distribution algorithm for solving sudoku
//! puzzles" (preprint inria-00591852, 2011; Monte Carlo Methods Appl. 18, 2012): Maire & Prissette
//! 2012 in docs/bibliography.md (code `001`).
//!
//! ## Parameters: paper -> config -> default
//!
//! | paper | field | default | words |
//! |---|---|---|---|
//! | Q samples per round | [`ResedaConfig::samples`] | 100 | "using Q1 = 10 puzzles from a sample of Q = 100 puzzles" |
//! | Q1 best samples | [`ResedaConfig::elite`] | 10 | same |
//! | alpha | [`ResedaConfig::alpha`] | 0.7 | "the value alpha = 0.7 has appeared as a good balance. This value will be used in all the following tests." |
//! | beta (stop rule) | [`ResedaConfig::beta`] | 0.6 | "The algorithm stops when rho(n) = 0.6"; section 2.3 calls beta "a parameter close to one" |
//! | sampling strategy | [`ResedaConfig::strategy`] | [`Strategy::Both`] | "they will be used in all the following numerical examples" |
//! | block sampler's pick | [`ResedaConfig::block_pick`] | [`BlockPick::DrawInMostCertainCell`] | "first pick a symbol in the cell having the highest probability" |
//! | block sampler's cell order | [`ResedaConfig::cell_order`] | [`CellOrder::Renormalised`] | not stated (see below) |
//! | block sampler's fallback | [`ResedaConfig::fallback`] | [`Fallback::RemainingSymbols`] | "we just pick the remaining symbols uniformly at random" |
//! | elite selection | [`ResedaConfig::elite_selection`] | [`EliteSelection::Sort`] | "sorting the Q samples and keep the Q1 with lowest cost"; the alternative "the sample with lowest cost function among Q/Q1 samples of size Q1" |
//! | partial restart zones | [`ResedaConfig::zones`] | [`Zones::Diagonal3`] | "we recommend to make a partial restart 3 times, fixing one of the 3 blocks on the first diagonal" |
//! | result of a failed resolution | [`ResedaConfig::failed_result`] | [`FailedResult::BestSample`] | not stated ("the approximate solution obtained after this first shot") |
//! | full restarts per run | [`ResedaConfig::attempts`] | 1 | a run is one attempt, as Tables 3-5 count attempts |
//! | cost | `sudoku_core::fitness::missing_symbols_cost` | 0 = solved | "the sum over all rows, all columns and all blocks of the missing symbols" |
//!
//! ## The block sampler's cell order
//! Section 3.1 describes the block-permutation sampler as: "Our technique is to first pick a
//! symbol in the cell having the highest probability. Once this symbol is picked, it is removed
//! from the possible symbols of the remaining cells of the block and the probabilities in these
//! cells are recomputed knowing that the probability of this symbol is now zero. This method is
//! iterated until the last cell is filled. Note that it may happen it is impossible to pick a
//! permutation especially for the final steps of the process. In this case, we just pick the
//! remaining symbols uniformly at random." The paper does not state in which order the cells
//! of a block are filled: whether "the cell having the highest probability" is chosen again
//! among the recomputed probabilities after every placement, or the cells are ordered once.
//! [`ResedaConfig::cell_order`] names four readings (full definitions on [`CellOrder`]); in
//! all of them the chosen cell's symbol comes from [`ResedaConfig::block_pick`] over the
//! recomputed probabilities of the symbols the block has not used, and the block's givens are
//! placed first:
//!
//! | `cell_order` | next cell |
//! |---|---|
//! | `renormalised` (default) | re-picked after every placement: the remaining cell whose largest probability, renormalised over the unused symbols, is highest (the most constrained first); ties to the first of a list that starts in box order and loses filled cells by swap-remove |
//! | `raw` | ordered once per sample by the largest raw probability max_k p(i,j,k) of the current model, decreasing, ties in box order; not re-picked |
//! | `static` | a fixed order per block for the whole resolution: by the largest probability of the initial distribution p^(0), i.e. fewest allowed symbols first, ties in box order (box order without the pre-computed constraints) |
//! | `box` | box order (row-major inside the block) |
//!
//! The order changes the single-resolution success rates a lot, and in opposite directions on
//! the paper's medium and hard puzzles: the `reseda-cell-order-easy`, `-medium` and `-hard`
//! experiments (the paper's Tables 1, 2 and 3) measure each order, and docs/experiments.md (RESEDA)
//! says which reading fits which table.
//!
//! ## One attempt
//! A *resolution* draws Q samples per round, stops when one has cost 0 (solved) or when
//! rho(n) > beta (converged), and otherwise keeps the Q1 best and updates p. An *attempt* is a
//! first resolution and then, if it failed, one resolution per zone of its result (in zone
//! order), each with that zone fixed as extra givens; zones that are not permutations or whose
//! symbols conflict with a given are skipped ("discarding obviously any of them which is not a
//! permutation"). Effort: rounds (the paper's "rounds"/"iterations") as generations, samples as
//! fitness evaluations, summed over the resolutions of the run. `Budget::max_generations` caps
//! the rounds of the whole run (the paper has no cap: its resolutions stop by rho).

pub mod config;
pub mod model;

pub use config::{
    BlockPick, CellOrder, EliteSelection, FailedResult, Fallback, ResedaConfig, ResedaError,
    Strategy, Zones, AMBIGUITIES,
};

use model::{sample_block_permutations, sample_independent, BlockScratch, Model};
use sudoku_core::fitness::missing_symbols_cost;
use sudoku_core::{
    Budget, Geometry, Grid, Observer, Puzzle, Rng, RunOutcome, Solver, Termination, Units,
};

/// RESEDA with a validated configuration.
#[derive(Debug, Clone)]
pub struct Reseda {
    config: ResedaConfig,
}

impl Reseda {
    pub fn new(config: ResedaConfig) -> Result<Self, ResedaError> {
        config.validate()?;
        Ok(Reseda { config })
    }
    pub fn config(&self) -> &ResedaConfig {
        &self.config
    }
}

/// How a resolution ended.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum End {
    Solved,
    Converged,
    Budget,
}

/// Run-wide state: buffers allocated once, effort counters.
struct Run<'a> {
    cfg: &'a ResedaConfig,
    units: Units,
    samples: Vec<u8>,
    costs: Vec<u32>,
    best_cells: Vec<u8>,
    order: Vec<usize>,
    scratch: BlockScratch,
    rounds: u64,
    evaluations: u64,
    resolutions: u64,
}

/// The outcome of one resolution.
struct Resolution {
    end: End,
    /// The solution, or the result per [`FailedResult`].
    grid: Vec<u8>,
    cost: u32,
}

impl Run<'_> {
    fn resolve(
        &mut self,
        cells: &[u8],
        budget: &Budget,
        rng: &mut Rng,
        observer: &mut dyn Observer,
    ) -> Resolution {
        let cfg = self.cfg;
        let geom = self.units.geometry();
        let len = geom.cells();
        let precompute = matches!(cfg.strategy, Strategy::Precomputation | Strategy::Both);
        let mut model = Model::new(geom, cells, precompute);
        // Cost of the best sample of this resolution; its cells are in `self.best_cells`
        // (a buffer of the run, so improvements allocate nothing).
        let mut best: Option<u32> = None;
        self.resolutions += 1;
        loop {
            if budget.exhausted(self.rounds, self.evaluations) {
                return self.finish(End::Budget, &model, best);
            }
            self.rounds += 1;
            for s in 0..cfg.samples {
                let out = &mut self.samples[s * len..(s + 1) * len];
                match cfg.strategy {
                    Strategy::Precomputation => sample_independent(&model, out, rng),
                    Strategy::Permutations | Strategy::Both => sample_block_permutations(
                        &model,
                        cfg.block_pick,
                        cfg.cell_order,
                        cfg.fallback,
                        out,
                        &mut self.scratch,
                        rng,
                    ),
                }
                let cost = missing_symbols_cost(&self.units, out);
                self.costs[s] = cost;
                self.evaluations += 1;
                if best.is_none_or(|c| cost < c) {
                    best = Some(cost);
                    self.best_cells
                        .copy_from_slice(&self.samples[s * len..(s + 1) * len]);
                }
                if cost == 0 {
                    observer.generation(self.rounds, self.evaluations, 0.0);
                    return self.finish(End::Solved, &model, best);
                }
            }
            self.select();
            let (samples, order) = (&self.samples, &self.order[..cfg.elite]);
            model.update(
                cfg.alpha,
                order.iter().map(|&s| &samples[s * len..(s + 1) * len]),
            );
            let best_cost = best.map_or(f64::NAN, f64::from);
            observer.generation(self.rounds, self.evaluations, best_cost);
            if observer.wants_grids() {
                observer.best_grid(self.evaluations, &self.best_cells);
            }
            if model.rho() > cfg.beta {
                return self.finish(End::Converged, &model, best);
            }
        }
    }

    /// The Q1 elite sample indices into `order[..elite]`.
    fn select(&mut self) {
        let (q, q1) = (self.cfg.samples, self.cfg.elite);
        self.order.clear();
        match self.cfg.elite_selection {
            EliteSelection::Sort => {
                self.order.extend(0..q);
                let costs = &self.costs;
                self.order.sort_by_key(|&s| (costs[s], s));
            }
            EliteSelection::BestOfGroups => {
                let g = q / q1;
                for group in 0..q1 {
                    let s = (group * g..(group + 1) * g)
                        .min_by_key(|&s| (self.costs[s], s))
                        .unwrap_or(group * g);
                    self.order.push(s);
                }
            }
        }
    }

    fn finish(&self, end: End, model: &Model, best: Option<u32>) -> Resolution {
        let (cost, grid) = match (end, self.cfg.failed_result, best) {
            (End::Solved, _, Some(c)) | (_, FailedResult::BestSample, Some(c)) => {
                (c, self.best_cells.clone())
            }
            (_, FailedResult::MostProbable, _) | (_, _, None) => {
                let mut g = vec![0u8; model.givens.len()];
                model.most_probable(&mut g);
                (missing_symbols_cost(&self.units, &g), g)
            }
        };
        Resolution { end, grid, cost }
    }
}

/// The zones a partial restart may fix, as lists of cells, in the paper's order.
pub fn zones(geom: Geometry, which: Zones) -> Vec<Vec<usize>> {
    let n = geom.n();
    let blocks = |ids: Vec<usize>| {
        ids.into_iter()
            .map(|b| geom.box_cells(b).collect())
            .collect::<Vec<Vec<usize>>>()
    };
    match which {
        Zones::None => Vec::new(),
        Zones::Diagonal3 => {
            // The blocks on the main diagonal: block (i, i) of the box grid.
            let per_band = geom.boxes_per_band();
            blocks(
                (0..n / per_band.max(1))
                    .filter(|&i| i < per_band)
                    .map(|i| i * per_band + i)
                    .collect(),
            )
        }
        Zones::Blocks9 => blocks((0..n).collect()),
        Zones::All27 => {
            let mut z: Vec<Vec<usize>> = (0..n).map(|r| geom.row_cells(r).collect()).collect();
            z.extend((0..n).map(|c| geom.col_cells(c).collect::<Vec<_>>()));
            z.extend(blocks((0..n).collect()));
            z
        }
    }
}

/// The puzzle with `zone` of `result` added as givens, or `None` when the zone is not a
/// permutation of 1..=N or one of its symbols conflicts with a given (same row, column or
/// block).
pub fn fix_zone(puzzle: &Grid, result: &[u8], zone: &[usize]) -> Option<Grid> {
    let geom = puzzle.geometry();
    let mask = zone.iter().fold(0u32, |m, &c| m | 1 << result[c]);
    if mask != geom.full_mask() {
        return None;
    }
    let mut g = puzzle.clone();
    for &c in zone {
        g.cells_mut()[c] = result[c];
    }
    g.conflicts().is_empty().then_some(g)
}

impl Solver for Reseda {
    fn name(&self) -> &'static str {
        "reseda"
    }

    fn solve(
        &self,
        puzzle: &Puzzle,
        budget: &Budget,
        rng: &mut Rng,
        observer: &mut dyn Observer,
    ) -> RunOutcome {
        let cfg = &self.config;
        let geom = puzzle.geometry();
        let len = geom.cells();
        let mut run = Run {
            cfg,
            units: Units::new(geom),
            samples: vec![0; cfg.samples * len],
            costs: vec![0; cfg.samples],
            best_cells: vec![0; len],
            order: Vec::with_capacity(cfg.samples),
            scratch: BlockScratch::default(),
            rounds: 0,
            evaluations: 0,
            resolutions: 0,
        };
        let zone_list = zones(geom, cfg.zones);
        let (mut zones_tried, mut zones_skipped, mut solved_by) = (0u64, 0u64, 0u64);
        let mut first_result: Option<Resolution> = None;
        let mut solution: Option<Vec<u8>> = None;
        let mut out_of_budget = false;
        'attempts: for attempt in 0..cfg.attempts {
            if attempt > 0 {
                observer.restart(run.rounds);
            }
            let first = run.resolve(puzzle.grid.cells(), budget, rng, observer);
            if first.end == End::Solved {
                solution = Some(first.grid);
                solved_by = 0;
                break;
            }
            out_of_budget = first.end == End::Budget;
            if out_of_budget {
                first_result = Some(first);
                break;
            }
            for (z, zone) in zone_list.iter().enumerate() {
                let Some(fixed) = fix_zone(&puzzle.grid, &first.grid, zone) else {
                    zones_skipped += 1;
                    continue;
                };
                zones_tried += 1;
                let r = run.resolve(fixed.cells(), budget, rng, observer);
                if r.end == End::Solved {
                    solution = Some(r.grid);
                    solved_by = z as u64 + 1;
                    break 'attempts;
                }
                if r.end == End::Budget {
                    out_of_budget = true;
                    first_result = Some(first);
                    break 'attempts;
                }
            }
            first_result = Some(first);
        }
        let (solved, grid, cost, termination) = match solution {
            Some(g) => (true, g, 0, Termination::Solved),
            None => {
                let r = first_result.expect("a failed run has a first resolution");
                let t = match budget.reason(run.rounds, run.evaluations) {
                    Some(reason) if out_of_budget => reason,
                    _ => Termination::Converged,
                };
                (false, r.grid, r.cost, t)
            }
        };
        RunOutcome {
            solved,
            best_fitness: cost as f64,
            generations: run.rounds,
            evaluations: run.evaluations,
            restarts: run.resolutions.saturating_sub(1),
            termination,
            grid: Grid::from_cells(geom, grid).expect("cells in range"),
            counters: vec![
                ("resolutions", run.resolutions),
                ("zones_tried", zones_tried),
                ("zones_skipped", zones_skipped),
                ("solved_by_zone", solved_by),
            ],
        }
    }
}

#[cfg(test)]
mod ambiguity_table {
    /// The ambiguity table is consistent (the registry's test checks each value builds).
    #[test]
    fn the_ambiguity_table_is_consistent() {
        sudoku_core::Ambiguity::check_table(super::AMBIGUITIES).unwrap();
    }
}
