#!/usr/bin/env bash
# Run every published reproduction in full, one after the other, into results/<id>/.
# Interrupted? Run it again with --resume: finished runs are kept.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build --release --locked -p sudoku-lab
./target/release/sudoku-lab reproduce all "$@"
