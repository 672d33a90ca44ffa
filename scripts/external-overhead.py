#!/usr/bin/env python3
"""The overhead of the external-solver protocol from a run of examples/external/
external-overhead.toml (docs/external-solvers.md, "Overhead"):

    python3 scripts/external-overhead.py results-bench/external-overhead

reads the folder's runs.csv (and trajectories.csv) and writes overhead.csv beside it: per
algorithm the median wall time of a run and the wall time per evaluation, then the derived
quantities (protocol cost per run and per progress line, their ratios to an in-process run).
Medians, because the machine is shared and a few runs are slowed by other work."""
import csv, statistics, sys
from pathlib import Path

folder = Path(sys.argv[1])
runs = list(csv.DictReader(open(folder / "runs.csv")))
points = {}
for p in csv.DictReader(open(folder / "trajectories.csv")):
    points[p["algorithm"]] = points.get(p["algorithm"], 0) + 1
rows, by = [], {}
for label in dict.fromkeys(r["algorithm"] for r in runs):
    mine = [r for r in runs if r["algorithm"] == label]
    ms = statistics.median(float(r["wall_ms"]) for r in mine)
    evals = sum(int(r["evaluations"]) for r in mine)
    us_per_eval = 1e3 * sum(float(r["wall_ms"]) for r in mine) / max(evals, 1)
    by[label] = (ms, us_per_eval, len(mine))
    by[label] += (points.get(label, 0) / len(mine),)
    rows.append((f"{label}: median wall ms per run", f"{ms:.4f}"))
    if not label.startswith("noop"):  # the no-op solvers spend no evaluation
        rows.append((f"{label}: wall us per evaluation", f"{us_per_eval:.4f}"))
        rows.append((f"{label}: trajectory points per run", f"{by[label][3]:.1f}"))
per_run = by["noop-0"][0] * 1e3
per_line = (by["noop-1000"][0] - by["noop-0"][0]) * 1e3 / 1000
rows += [
    ("protocol us per run (persistent)", f"{per_run:.1f}"),
    ("protocol us per run (per-run: process start and end)", f"{by['noop-0-per-run'][0] * 1e3:.1f}"),
    ("protocol us per progress line with a grid", f"{per_line:.2f}"),
    ("c-sa / lewis-sa, wall per evaluation", f"{by['c-sa'][1] / by['lewis-sa'][1]:.2f}"),
    ("protocol cost per run / median lewis-sa run", f"{by['noop-0'][0] / by['lewis-sa'][0]:.4f}"),
    ("per-run start / median lewis-sa run", f"{by['noop-0-per-run'][0] / by['lewis-sa'][0]:.2f}"),
    # What the protocol adds to a c-sa run: its run's cost and one progress line per
    # trajectory point (the example sends a line at each new best), against the run's time.
    ("protocol share of a median c-sa run",
     f"{(per_run + by['c-sa'][3] * per_line) / (by['c-sa'][0] * 1e3):.4f}"),
]
with open(folder / "overhead.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["quantity", "value"])
    w.writerows(rows)
for q, v in rows:
    print(f"{q}: {v}")
