#!/usr/bin/env python3
"""Compare a results folder made on a cluster (shards + merge) with the one a single machine
wrote: every CSV table of the two folders (runs.csv, summary.csv, comparison.csv, effort.csv,
tests.csv, trajectories.csv, ...) identical row for row, except what is derived from wall
times, which legitimately differs between machines:
  - the columns wall_ms and cpu_ms (runs.csv), wall_ms_mean (summary.csv, effort.csv), ets_seconds
    (summary.csv), ert_seconds, and any other column whose name starts with wall_;
  - the rows whose statistic is time_s or ets_s (comparison.csv: the paper's times per run and
    to a success against ours).
The other files (report.md, charts, meta.json) are listed with whether they are byte-identical:
they print or draw wall times, so they may differ there only.

Usage: scripts/slurm/compare.py REFERENCE_DIR CLUSTER_DIR      (exit 1 on any difference)
Standard library only."""
import csv
import sys
from pathlib import Path

# Columns whose values are wall times or computed from them.
TIME_COLUMNS = {"wall_ms", "cpu_ms", "wall_ms_mean", "ets_seconds", "ert_seconds"}
# Values of a `statistic` column that name a wall-time-derived row.
TIME_STATISTICS = {"time_s", "ets_s"}


def time_column(name):
    return name in TIME_COLUMNS or name.startswith("wall_")


def rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def time_row(header, row):
    """A row of a wall-time statistic (comparison.csv's time_s and ets_s rows)."""
    if "statistic" not in header:
        return False
    i = header.index("statistic")
    return i < len(row) and row[i] in TIME_STATISTICS


def compare_table(name, ref, got):
    a, b = rows(ref / name), rows(got / name)
    if not a or not b:
        return [f"{name}: empty file"] if a != b else []
    if a[0] != b[0]:
        return [f"{name}: headers differ"]
    header = a[0]
    keep = [i for i, h in enumerate(header) if not time_column(h)]
    problems = []
    if len(a) != len(b):
        problems.append(f"{name}: {len(a) - 1} rows against {len(b) - 1}")
    compared = skipped_rows = 0
    for n, (x, y) in enumerate(zip(a[1:], b[1:]), start=2):
        if len(x) != len(header) or len(y) != len(header):
            problems.append(f"{name} line {n}: not {len(header)} fields")
            continue
        if time_row(header, x) and time_row(header, y):
            skipped_rows += 1
            continue
        compared += 1
        diff = [header[i] for i in keep if x[i] != y[i]]
        if diff:
            problems.append(f"{name} line {n}: {', '.join(diff)} differ")
    skipped = [h for h in header if time_column(h)]
    print(f"{name}: {compared} rows compared on {len(keep)} of {len(header)} columns"
          f" (not compared: {', '.join(skipped) or 'none'}"
          f"{f'; {skipped_rows} wall-time rows' if skipped_rows else ''})"
          f"{'' if not problems else ': ' + str(len(problems)) + ' DIFFERENCES'}")
    return problems


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    ref, got = Path(sys.argv[1]), Path(sys.argv[2])
    for d in (ref, got):
        if not d.is_dir():
            print(f"compare.py: {d} is not a folder", file=sys.stderr)
            return 2
    problems = []
    names = sorted({p.name for p in ref.iterdir()} | {p.name for p in got.iterdir()})
    for name in names:
        a, b = ref / name, got / name
        if not a.is_file() or not b.is_file():
            if a.exists() and b.exists():
                continue  # two folders of the same name: not part of a results folder
            problems.append(f"{name}: only in {'the cluster folder' if b.exists() else 'the reference'}")
            continue
        if name.endswith(".csv"):
            problems += compare_table(name, ref, got)
            continue
        same = a.read_bytes() == b.read_bytes()
        print(f"{name}: {'identical' if same else 'differs (prints wall times or draws them)'}")
    for p in problems:
        print(p)
    print("RESULT:", "identical but wall times" if not problems else f"{len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
