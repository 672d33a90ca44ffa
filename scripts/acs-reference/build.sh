#!/bin/sh
# Build the authors' ant colony system (Lloyd & Amos, IEEE Transactions on Games 2020,
# arXiv 1805.03545; their repository huwlloyd-mmu/sudoku_acs) as a sudoku-lab external solver
# (protocol v2, docs/external-solvers.md), for the side-by-side check of crates/acs.
#
#   scripts/acs-reference/build.sh MIRROR_GIT_DIR OUTDIR
#
# MIRROR_GIT_DIR is a git directory holding their repository (a clone's .git or a bare mirror);
# OUTDIR a folder outside this repository (e.g. /tmp/acs-reference). Their repository has no
# licence: it is read and compiled here, never copied into sudoku-lab. The script checks out
# the pinned commit below into OUTDIR/sudoku_acs (git archive: no working tree, nothing of
# theirs in ours), then compiles, with their Makefile's flags (g++ -O3 -std=c++0x), their
# board.cpp, sudokuant.cpp and sudokuantsystem.cpp unmodified, plus our adapter.cpp (beside
# this script, written for sudoku-lab), into OUTDIR/acs-reference. Their solvermain.cpp,
# backtracksearch.cpp and command line are not used. run.sh execs that binary.
#
# How the adapter drives their classes without editing them. Their SudokuAntSystem::Solve()
# seeds its std::mt19937 from std::random_device in the constructor and loops until a solution
# or a wall-clock timeout (checked every 100 iterations); it has no seed and no budget of
# constructions. So the adapter does not call Solve(): per run it constructs their
# SudokuAntSystem (their constructor, their 10 SudokuAnt objects, pher0 = 1/cells as in their
# solvermain.cpp), reseeds its private randGen from the run's seed, and runs the body of
# Solve() statement for statement, calling their own members: InitPheromone, then per
# iteration SudokuAnt::InitSolution (start cells drawn from randGen as theirs are),
# SudokuAnt::StepSolution (cells x ants steps, interleaved as theirs), the best ant by
# NumCellsFilled, PherAdd, Board::Copy of a new best, UpdatePheromone and the best-value
# evaporation, then ClearPheromone. The only change is the stop: after the run's
# max_evaluations / ants iterations (and at most max_generations), instead of the timer.
# Their private members are reached through pointers to members named in explicit template
# instantiations (where C++ does not check access): see adapter.cpp.
#
# Units reported: evaluations = iterations x ants (one evaluation = one ant's construction of
# a whole grid; a run that solves reports the whole iteration in which an ant solved),
# generations = iterations. A claimed solution is checked with their Board::CheckSolution, as
# their solvermain.cpp does. The result carries cpu_ms, the process CPU time of the run.
#
# Parameters (the spec's params): ants (10), q0 (0.9), rho (0.9), evap (0.005), their
# command line's defaults; unknown keys are refused.
set -eu

COMMIT=5181658dd674731029e7703241cfd22c3d3c936d  # "Added Visual Studio project", 2018-05-03

if [ $# -ne 2 ]; then
  echo "usage: $0 MIRROR_GIT_DIR OUTDIR" >&2
  exit 2
fi
git_dir=$1
out=$2
here=$(cd "$(dirname "$0")" && pwd)
repo_root=$(cd "$here/../.." && pwd)

case "$(mkdir -p "$out" && cd "$out" && pwd)/" in
  "$repo_root"/*)
    echo "error: OUTDIR $out is inside the repository; use a folder outside it (their code has no licence)" >&2
    exit 2 ;;
esac
out=$(cd "$out" && pwd)

if ! git --git-dir="$git_dir" cat-file -e "$COMMIT^{commit}" 2>/dev/null; then
  echo "error: $git_dir has no commit $COMMIT of sudoku_acs" >&2
  exit 2
fi

rm -rf "$out/sudoku_acs"
mkdir -p "$out/sudoku_acs"
git --git-dir="$git_dir" archive "$COMMIT" src Makefile README.md | tar -x -C "$out/sudoku_acs"
echo "$COMMIT" > "$out/sudoku_acs/COMMIT"

CXX=${CXX:-g++}
FLAGS="-O3 -std=c++0x"   # their Makefile's CFLAGS
mkdir -p "$out/obj"
for f in board sudokuant sudokuantsystem; do
  $CXX $FLAGS -c "$out/sudoku_acs/src/$f.cpp" -o "$out/obj/$f.o"
done
# The adapter needs C++11 (seed_seq, unique_ptr): the same -O3, with -std=c++11.
$CXX -O3 -std=c++11 -Wall -isystem "$out/sudoku_acs/src" -c "$here/adapter.cpp" -o "$out/obj/adapter.o"
$CXX -o "$out/acs-reference.tmp" "$out/obj/adapter.o" "$out/obj/board.o" "$out/obj/sudokuant.o" "$out/obj/sudokuantsystem.o"
mv -f "$out/acs-reference.tmp" "$out/acs-reference"
echo "built $out/acs-reference from sudoku_acs $COMMIT"
