#!/usr/bin/env python3
"""Compare a results folder made on a cluster (shards + merge) with the one a single machine
wrote, as issue 11 asks: every column of runs.csv but wall_ms identical, row for row; every
column of summary.csv but the wall-time ones identical; every row of comparison.csv but the
time_s rows identical. Other files (report.md, charts, meta.json) are listed with whether they
are byte-identical: they print wall times, so they may differ there only.

Usage: scripts/slurm/compare.py REFERENCE_DIR CLUSTER_DIR      (exit 1 on any difference)
Standard library only."""
import csv
import sys
from pathlib import Path

TIME_COLUMNS = {"wall_ms", "wall_ms_mean", "ets_seconds"}


def rows(path):
    with open(path, newline="") as f:
        return list(csv.reader(f))


def compare_table(name, ref, got, skip_row=lambda header, row: False):
    a, b = rows(ref / name), rows(got / name)
    if a[0] != b[0]:
        return [f"{name}: headers differ"]
    header = a[0]
    keep = [i for i, h in enumerate(header) if h not in TIME_COLUMNS]
    problems = []
    if len(a) != len(b):
        problems.append(f"{name}: {len(a) - 1} rows against {len(b) - 1}")
    compared = 0
    for n, (x, y) in enumerate(zip(a[1:], b[1:]), start=2):
        if skip_row(header, x) and skip_row(header, y):
            continue
        compared += 1
        diff = [header[i] for i in keep if x[i] != y[i]]
        if diff:
            problems.append(f"{name} line {n}: {', '.join(diff)} differ")
    skipped = [h for h in header if h in TIME_COLUMNS]
    print(f"{name}: {compared} rows compared on {len(keep)} of {len(header)} columns"
          f" (not compared: {', '.join(skipped) or 'none'})"
          f"{'' if not problems else ': ' + str(len(problems)) + ' DIFFERENCES'}")
    return problems


def main():
    if len(sys.argv) != 3:
        print(__doc__, file=sys.stderr)
        return 2
    ref, got = Path(sys.argv[1]), Path(sys.argv[2])
    problems = compare_table("runs.csv", ref, got)
    problems += compare_table("summary.csv", ref, got)
    if (ref / "comparison.csv").exists():
        def time_row(header, row):
            return row[header.index("statistic")] == "time_s"
        problems += compare_table("comparison.csv", ref, got, time_row)
    names = sorted({p.name for p in ref.iterdir()} | {p.name for p in got.iterdir()})
    for name in names:
        if name in ("runs.csv", "summary.csv", "comparison.csv"):
            continue
        a, b = ref / name, got / name
        if not a.exists() or not b.exists():
            problems.append(f"{name}: only in {'the cluster folder' if b.exists() else 'the reference'}")
            continue
        same = a.read_bytes() == b.read_bytes()
        print(f"{name}: {'identical' if same else 'differs (prints wall times or draws them)'}")
    for p in problems:
        print(p)
    print("RESULT:", "identical but wall times" if not problems else f"{len(problems)} differences")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
