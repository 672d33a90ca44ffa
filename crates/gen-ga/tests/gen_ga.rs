//! gen-ga: incremental fitness equals the full count, operators keep givens and row
//! permutations, found boards are distinct verified solutions, value stability.

use gen_ga::*;
use sudoku_core::*;

fn rows_are_permutations(cells: &[u8]) -> bool {
    cells
        .chunks(9)
        .all(|r| r.iter().fold(0u32, |m, &v| m | 1 << v) == 0x3FE)
}

#[test]
fn incremental_err_equals_full_count() {
    let p = first_row_puzzle();
    let mut rng = rng_from_seed(1);
    let free: Vec<Vec<usize>> = (0..9)
        .map(|r| {
            (0..9)
                .map(|c| r * 9 + c)
                .filter(|&i| p.grid.cells()[i] == 0)
                .collect()
        })
        .collect();
    let rows: Vec<usize> = (1..9).collect();
    for _ in 0..50 {
        let mut b = random_board(p.grid.cells(), &free, &mut rng);
        assert!(rows_are_permutations(&b.cells));
        for _ in 0..200 {
            swap_mutation(&mut b, &free, &rows, &mut rng);
            assert_eq!(b.err, errors(&b.cells));
            assert!(rows_are_permutations(&b.cells));
            assert_eq!(&b.cells[..9], &[1, 2, 3, 4, 5, 6, 7, 8, 9]);
        }
    }
}

#[test]
fn err_table() {
    // A solved board has no repeats; swapping two cells of a row makes 4 repeats when the
    // two cells share no box (each of 2 columns and 2 boxes gains one), 2 when they share one.
    let solved: Vec<u8> = (0..81)
        .map(|i| {
            let (r, c) = (i / 9, i % 9);
            ((r % 3) * 3 + r / 3 + c) as u8 % 9 + 1
        })
        .collect();
    let cells: [u8; 81] = solved.clone().try_into().unwrap();
    assert_eq!(errors(&cells), 0);
    let mut far = Board::new(cells);
    far.swap(10, 14); // row 1, columns 1 and 5: different boxes
    assert_eq!(far.err, 4);
    let mut near = Board::new(cells);
    near.swap(10, 11); // row 1, columns 1 and 2: same box
    assert_eq!(near.err, 2);
    assert_eq!(near.fitness(), 100.0 / 3.0);
}

#[test]
fn finds_distinct_verified_boards_and_is_reproducible() {
    let ga = GenGa::new(GenGaConfig {
        population: 300,
        ..Default::default()
    })
    .unwrap();
    let p = first_row_puzzle();
    let run = || {
        ga.solve(
            &p,
            &Budget::generations(600),
            &mut rng_from_seed(3),
            &mut NoObserver,
        )
    };
    let a = run();
    assert_eq!(a, run());
    assert!(a.solved, "{a:?}");
    assert!(a.grid.is_solved() && a.grid.keeps_givens_of(&p.grid));
    let boards = a
        .counters
        .iter()
        .find(|c| c.0 == "distinct_boards")
        .unwrap()
        .1;
    assert!(boards >= 1);
    assert_eq!((a.generations, a.evaluations, boards), PINNED);
    // The trajectory: boards by generation 100, 200, ..., 600, non-decreasing, ending at the total.
    let traj: Vec<u64> = CHECKPOINTS[..6]
        .iter()
        .map(|name| a.counters.iter().find(|c| c.0 == *name).unwrap().1)
        .collect();
    assert!(traj.windows(2).all(|w| w[0] <= w[1]), "{traj:?}");
    assert_eq!(*traj.last().unwrap(), boards);
}

const PINNED: (u64, u64, u64) = (600, 177900, 9);

#[test]
fn clearing_and_bucketing_run() {
    let p = first_row_puzzle();
    for diversity in [
        Diversity::Clearing { period: 100 },
        Diversity::Bucketing { buckets: 0 },
    ] {
        let ga = GenGa::new(GenGaConfig {
            population: 200,
            diversity,
            ..Default::default()
        })
        .unwrap();
        let out = ga.solve(
            &p,
            &Budget::generations(300),
            &mut rng_from_seed(4),
            &mut NoObserver,
        );
        assert_eq!(out.generations, 300);
        assert!(out.grid.keeps_givens_of(&p.grid));
    }
    assert!(GenGa::new(GenGaConfig {
        elitism: 1000,
        ..Default::default()
    })
    .is_err());
    assert!(GenGa::new(GenGaConfig {
        diversity: Diversity::Clearing { period: 0 },
        ..Default::default()
    })
    .is_err());
}
