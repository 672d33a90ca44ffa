//! CSO: the thesis's formulas on small cases, operators keep start squares and sub-grid
//! permutations, value stability, every supported shape runs.

use cso::*;
use sudoku_core::*;

#[test]
fn selecting_probability_table() {
    // (fitness of the candidates, expected probabilities)
    let cases: &[(&[f64], &[f64])] = &[
        (&[0.5, 0.5, 0.5], &[1.0, 1.0, 1.0]),
        (&[0.1, 0.3, 0.2], &[0.0, 1.0, 0.5]),
        (
            &[0.0286, 0.0244, 0.0278, 0.025],
            &[1.0, 0.0, 0.8095238, 0.1428571],
        ),
    ];
    for (fs, want) in cases {
        let mut out = Vec::new();
        selecting_probabilities(fs, &mut out);
        for (a, b) in out.iter().zip(*want) {
            assert!((a - b).abs() < 1e-6, "{fs:?}: {out:?}");
        }
    }
}

#[test]
fn velocity_is_clamped_and_values_follow_the_formula() {
    // The thesis's example: v = -3 + r c1 (8 - 5).
    assert_eq!(update_velocity(-3.0, 0.5, 2.0, 8, 5, 5.0), 0.0);
    assert_eq!(update_velocity(4.0, 1.0, 2.0, 9, 1, 5.0), 5.0);
    assert_eq!(update_velocity(-4.0, 1.0, 2.0, 1, 9, 5.0), -5.0);
    // val = v +/- v SRD: 7 +/- 1.4.
    assert_eq!(seek_value(7, 0.2, true, Rounding::Truncate), 8);
    assert_eq!(seek_value(7, 0.2, false, Rounding::Truncate), 5);
    assert_eq!(seek_value(7, 0.2, false, Rounding::Round), 6);
}

#[test]
fn set_by_index_swaps_inside_the_box_and_keeps_givens() {
    let p = bank_puzzle("das_fig1").unwrap();
    let layout = Layout::new(&p.grid);
    let mut rng = rng_from_seed(2);
    let mut cells = vec![0u8; 81];
    for _ in 0..200 {
        layout.random_position(&mut cells, &mut rng);
        for c in 0..81 {
            layout.set_by_index(&mut cells, c, rand::Rng::random_range(&mut rng, -20..20));
        }
        let g = Grid::from_cells(p.geometry(), cells.clone()).unwrap();
        assert!(g.keeps_givens_of(&p.grid));
        for b in 0..9 {
            assert_eq!(
                p.geometry()
                    .box_cells(b)
                    .fold(0u32, |m, c| m | 1 << cells[c]),
                0x3FE
            );
        }
    }
    // The thesis's example: a sub-grid with start squares 7, 3 and 6 needs [1, 2, 4, 5, 8, 9];
    // val = 14 gives index 14 mod 6 = 2, the needed number 4, swapped into the cell.
    let mut g = Grid::empty(Geometry::NINE);
    g.set(0, 0, 7);
    g.set(0, 1, 3);
    g.set(0, 2, 6);
    let layout = Layout::new(&g);
    assert_eq!(layout.needed[0], [1, 2, 4, 5, 8, 9]);
    let mut cells = vec![0u8; 81];
    layout.random_position(&mut cells, &mut rng);
    let target = 9; // row 1, column 0: a non-start cell of sub-grid 0
    layout.set_by_index(&mut cells, target, 14);
    assert_eq!(cells[target], 4);
    assert_eq!(
        Geometry::NINE
            .box_cells(0)
            .fold(0u32, |m, c| m | 1 << cells[c]),
        0x3FE
    );
}

#[test]
fn runs_keep_givens_are_reproducible_and_pinned() {
    let cso = Cso::new(CsoConfig {
        cats: 20,
        ..Default::default()
    })
    .unwrap();
    for id in ["mk_easy", "das_fig1"] {
        let p = bank_puzzle(id).unwrap();
        let a = cso.solve(
            p,
            &Budget::generations(50),
            &mut rng_from_seed(1),
            &mut NoObserver,
        );
        assert_eq!(
            a,
            cso.solve(
                p,
                &Budget::generations(50),
                &mut rng_from_seed(1),
                &mut NoObserver
            )
        );
        assert!(a.grid.keeps_givens_of(&p.grid));
        assert_eq!(a.generations, 50);
    }
    let p = bank_puzzle("mk_easy").unwrap();
    let a = cso.solve(
        p,
        &Budget::generations(50),
        &mut rng_from_seed(1),
        &mut NoObserver,
    );
    assert_eq!(
        (a.evaluations, (a.best_fitness * 1e6).round() as u64),
        PINNED
    );
}

const PINNED: (u64, u64) = (4020, 38462);

#[test]
fn every_thesis_size_runs_and_small_grids_get_solved() {
    for (r, c) in [(2, 3), (3, 3), (3, 4)] {
        let g = Geometry::new(r, c).unwrap();
        let full = exact::solve(&Grid::empty(g)).unwrap();
        let puzzle = Puzzle::new(
            "p",
            exact::reduce_to_unique(&full, g.cells() / 2, &mut rng_from_seed(3)),
        );
        let cso = Cso::new(CsoConfig {
            cats: 20,
            cdc: 0.1,
            ..Default::default()
        })
        .unwrap();
        let out = cso.solve(
            &puzzle,
            &Budget::generations(300),
            &mut rng_from_seed(4),
            &mut NoObserver,
        );
        assert!(out.grid.keeps_givens_of(&puzzle.grid), "{r}x{c}");
        if r * c == 6 {
            assert!(
                out.solved,
                "6x6 with half the cells given: {}",
                out.best_fitness
            );
        }
    }
}

/// Every reading of the tracing ambiguities keeps the givens and the boxes as permutations,
/// and the tracing moves follow MR: all cats trace at MR 1, none at MR 0, and about MR x cats
/// per cycle when each cat is drawn on its own.
#[test]
fn tracing_options_keep_boxes_and_follow_mr() {
    let p = bank_puzzle("mk_easy").unwrap();
    let boxes_ok = |g: &Grid| {
        let geom = g.geometry();
        (0..9).all(|b| {
            let mut seen = [false; 10];
            geom.box_cells(b)
                .all(|c| !std::mem::replace(&mut seen[g.cells()[c] as usize], true))
        })
    };
    let cases = [
        (
            TracingPosition::Own,
            TracingRounding::Floor,
            TracingSelection::Count,
            1.0,
            None,
        ),
        (
            TracingPosition::Best,
            TracingRounding::Round,
            TracingSelection::PerCat,
            1.0,
            Some(20 * 30),
        ),
        (
            TracingPosition::Own,
            TracingRounding::Truncate,
            TracingSelection::PerCat,
            0.0,
            Some(0),
        ),
        (
            TracingPosition::Best,
            TracingRounding::Floor,
            TracingSelection::Count,
            0.3,
            None,
        ),
    ];
    for (position, rounding, selection, mr, moves) in cases {
        let cso = Cso::new(CsoConfig {
            cats: 20,
            mr,
            tracing_position: position,
            tracing_rounding: rounding,
            tracing_selection: selection,
            ..Default::default()
        })
        .unwrap();
        let out = cso.solve(
            p,
            &Budget::generations(30),
            &mut rng_from_seed(4),
            &mut NoObserver,
        );
        assert!(
            out.grid.keeps_givens_of(&p.grid),
            "{position:?} {rounding:?}"
        );
        assert!(boxes_ok(&out.grid), "{position:?} {rounding:?}");
        if let Some(m) = moves {
            assert_eq!(out.counters, vec![("tracing_moves", m)]);
        }
    }
    // Per cat at MR 0.5: the number of tracing moves is binomial(20 x 30, 0.5).
    let cso = Cso::new(CsoConfig {
        cats: 20,
        mr: 0.5,
        tracing_selection: TracingSelection::PerCat,
        ..Default::default()
    })
    .unwrap();
    let out = cso.solve(
        p,
        &Budget::generations(30),
        &mut rng_from_seed(5),
        &mut NoObserver,
    );
    let m = out.counters[0].1 as f64;
    assert!((m - 300.0).abs() < 4.0 * (600.0f64 * 0.25).sqrt(), "{m}");
}
