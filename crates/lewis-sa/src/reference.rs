//! The annealing's loop as it was at revision 1ee7bd4, kept for the tests only: the hot loop of
//! [`crate::LewisSa`] must draw the same random numbers in the same order and make the same
//! decisions, so the tests run both over many seeds and compare every outcome.

use crate::ops::{acceptance_probability, std_dev, Counts, Layout};
use crate::{LewisConfig, Reheat, ReheatTrigger, T0Sampling};
use rand::Rng as _;
use sudoku_core::{Budget, Grid, Observer, Puzzle, Rng, RunOutcome, Termination};

/// The state of one run: current solution with its count tables and cost, best solution.
struct State<'a> {
    layout: &'a Layout,
    cells: Vec<u8>,
    counts: Counts,
    cost: u32,
    best: Vec<u8>,
    best_cost: u32,
    evaluations: u64,
}

impl State<'_> {
    /// Keep the current solution as the best when it beats it; tell the observer if it asked.
    #[inline]
    fn note_best(&mut self, grids: bool, observer: &mut dyn Observer) {
        if self.cost < self.best_cost {
            self.best_cost = self.cost;
            self.best.copy_from_slice(&self.cells);
            if grids {
                observer.best_grid(self.evaluations, &self.best);
            }
        }
    }

    #[inline]
    fn apply(&mut self, a: usize, b: usize, delta: i32) {
        self.counts.apply_swap(self.layout, &mut self.cells, a, b);
        self.cost = self.cost.wrapping_add_signed(delta);
    }
}

/// The annealing as it was before the hot loop moved to [`crate::ops::Kernel`]: every move
/// through [`Layout::pick_move`] and the shared count tables [`Counts`].
pub(crate) fn solve(
    cfg: &LewisConfig,
    puzzle: &Puzzle,
    budget: &Budget,
    rng: &mut Rng,
    observer: &mut dyn Observer,
) -> RunOutcome {
    let layout = Layout::new(&puzzle.grid);
    let geom = layout.geom;
    let mut cells = vec![0u8; geom.cells()];
    layout.random_fill(&mut cells, rng);
    let counts = Counts::new(&layout, &cells);
    let cost = counts.cost();
    let mut st = State {
        layout: &layout,
        best: cells.clone(),
        cells,
        counts,
        cost,
        best_cost: cost,
        evaluations: 1,
    };
    if observer.wants_grids() {
        observer.best_grid(st.evaluations, &st.best);
    }
    let free = layout.free_cells as u64;
    let chain_length = cfg.chain_length.unwrap_or(free * free);
    let (mut chains, mut reheats, mut accepted, mut improving) = (0u64, 0u64, 0u64, 0u64);
    let mut t0 = 0.0;
    let mut early = None;
    if st.best_cost == 0 {
        early = Some(Termination::Solved);
    } else if layout.swappable.is_empty() {
        // Every box has at most one free cell: the fill is forced and no move exists.
        early = Some(Termination::Converged);
    } else {
        // Initial temperature from the costs of sampled moves.
        let grids = observer.wants_grids();
        let mut samples = Vec::with_capacity(cfg.t0_samples);
        for _ in 0..cfg.t0_samples {
            if budget.evaluations_spent(st.evaluations) {
                early = Some(Termination::EvaluationLimit);
                break;
            }
            let (a, b) = layout
                .pick_move(cfg.box_choice, rng)
                .expect("a box has two free cells");
            let delta = st.counts.swap_delta(&layout, &st.cells, a, b);
            st.evaluations += 1;
            samples.push(st.cost.wrapping_add_signed(delta));
            match cfg.t0_sampling {
                T0Sampling::Walk => {
                    st.apply(a, b, delta);
                    st.note_best(grids, observer);
                }
                T0Sampling::Neighbours => {
                    if st.cost.wrapping_add_signed(delta) < st.best_cost {
                        // An evaluated neighbour better than any solution so far.
                        st.apply(a, b, delta);
                        st.note_best(grids, observer);
                        st.apply(a, b, -delta);
                    }
                }
            }
            if st.best_cost == 0 {
                early = Some(Termination::Solved);
                break;
            }
        }
        t0 = std_dev(&samples);
    }
    let mut t = t0;
    let mut stale = 0u64;
    let termination = match early {
        Some(reason) => reason,
        None => loop {
            if st.best_cost == 0 {
                break Termination::Solved;
            }
            if let Some(reason) = budget.reason(chains, st.evaluations) {
                break reason;
            }
            chains += 1;
            let grids = observer.wants_grids();
            let (start_cost, start_best) = (st.cost, st.best_cost);
            // The evaluation limit, checked once for the whole chain: it ends the chain
            // after exactly the moves left.
            // exp(-delta / t) for the possible uphill deltas (a swap changes at most two
            // rows and two columns by one missing value each, so delta <= 4), once a chain.
            let accept: [f64; 5] = std::array::from_fn(|d| acceptance_probability(d as i32, t));
            let room = budget.evaluations_left(st.evaluations);
            for _ in 0..chain_length.min(room) {
                let (a, b) = layout
                    .pick_move(cfg.box_choice, rng)
                    .expect("a box has two free cells");
                let delta = st.counts.swap_delta(&layout, &st.cells, a, b);
                st.evaluations += 1;
                if delta <= 0 || rng.random::<f64>() < accept[delta as usize] {
                    st.apply(a, b, delta);
                    accepted += 1;
                    if delta < 0 {
                        improving += 1;
                        if st.cost < st.best_cost {
                            st.note_best(grids, observer);
                            if st.best_cost == 0 {
                                break;
                            }
                        }
                    }
                }
            }
            observer.generation(chains, st.evaluations, st.best_cost as f64);
            if st.best_cost == 0 {
                continue;
            }
            t *= cfg.alpha;
            let improved = match cfg.reheat_trigger {
                ReheatTrigger::BestCost => st.best_cost < start_best,
                ReheatTrigger::CurrentCost => st.cost < start_cost,
            };
            stale = if improved { 0 } else { stale + 1 };
            if cfg.reheat != Reheat::Never && stale >= cfg.reheat_after {
                stale = 0;
                reheats += 1;
                t = t0;
                if cfg.reheat == Reheat::Randomise && !budget.evaluations_spent(st.evaluations) {
                    layout.random_fill(&mut st.cells, rng);
                    st.counts.recount(&layout, &st.cells);
                    st.cost = st.counts.cost();
                    st.evaluations += 1;
                    st.note_best(grids, observer);
                }
                observer.restart(chains);
            }
        },
    };
    RunOutcome {
        solved: st.best_cost == 0,
        best_fitness: st.best_cost as f64,
        generations: chains,
        evaluations: st.evaluations,
        restarts: reheats,
        termination,
        grid: Grid::from_cells(geom, st.best).expect("cells in range"),
        counters: vec![
            ("reheats", reheats),
            ("accepted_moves", accepted),
            ("improving_moves", improving),
            ("t0_x1000", (t0 * 1000.0).round() as u64),
        ],
    }
}
