#!/usr/bin/env python3
"""The power of the acs-check comparison: per puzzle set (and pooled), the smallest success
difference and the smallest ratio of constructions to solve that the compare report's tests
detect with 80 % power at the runs the protocol made.

    python3 scripts/acs-reference/power.py SUDOKU_LAB RESULTS_DIR OUT.csv

It asks `sudoku-lab plan-runs` (lab-stats' exact power of Fisher's test and the tie-corrected
asymptotic power of the Mann-Whitney U test, Zhao, Rahardja & Qu 2008) on each set's runs
of RESULTS_DIR/runs.csv, at the level of Holm's first step over the compare report's four
tests of a family (three sets and the pooled scope: 0.05 / 4), and bisects on its
--success-difference and --ert-ratio until the runs per puzzle it needs equal the runs the
protocol made. The ratio is plan-runs' alternative: every run of the algorithm with the lower
ERT needing that many times the constructions (failing past the budget), i.e. a k-fold shift
of the median constructions to solve.
"""
import csv
import os
import subprocess
import sys
import tempfile

SETS = [("9x9 hard", lambda p: not p.startswith(("p16-", "p25-"))),
        ("16x16", lambda p: p.startswith("p16-")),
        ("25x25", lambda p: p.startswith("p25-")),
        ("all", lambda p: True)]
ALPHA = 0.05 / 4


def plan(lab, runs_csv, diff, ratio, budget):
    with tempfile.NamedTemporaryFile("r", suffix=".csv", delete=False) as f:
        out = f.name
    subprocess.run([lab, "plan-runs", runs_csv, "--alpha", repr(ALPHA), "--success-difference",
                    repr(diff), "--ert-ratio", repr(ratio), "--budget", str(budget), "--csv", out],
                   check=True, capture_output=True)
    row = list(csv.DictReader(open(out)))[0]
    os.unlink(out)
    return row


def bisect(ok, lo, hi, steps=30):
    """Smallest x in (lo, hi] with ok(x), ok monotone (False at lo)."""
    if not ok(hi):
        return None
    for _ in range(steps):
        mid = (lo + hi) / 2
        if ok(mid):
            hi = mid
        else:
            lo = mid
    return hi


def main():
    lab, results, out = sys.argv[1:4]
    rows = list(csv.DictReader(open(os.path.join(results, "runs.csv"))))
    budget = max(int(r["evaluations"]) for r in rows)
    fields = list(rows[0].keys())
    result = []
    for name, keep in SETS:
        sub = [r for r in rows if keep(r["puzzle"])]
        with tempfile.NamedTemporaryFile("w", suffix=".csv", delete=False, newline="") as f:
            w = csv.DictWriter(f, fieldnames=fields)
            w.writeheader()
            w.writerows(sub)
            path = f.name
        base = plan(lab, path, 0.1, 2.0, budget)
        have = float(base["pilot_runs_per_puzzle"])
        d = bisect(lambda x: int(plan(lab, path, x, 2.0, budget)["runs_per_puzzle_success"]) <= have,
                   0.001, 0.99)
        k = bisect(lambda x: (plan(lab, path, 0.1, x, budget)["runs_per_puzzle_ert"] or "inf") != "inf"
                   and int(plan(lab, path, 0.1, x, budget)["runs_per_puzzle_ert"]) <= have,
                   1.0001, 100.0)
        os.unlink(path)
        runs = len(sub) // 2
        result.append([name, base["puzzles"], have, runs, base["success_rate_a"], base["success_rate_b"],
                       "%.3f" % d if d else "", base["ert_reference"], "%.3f" % k if k else "",
                       "%.4f" % ALPHA])
        print(*result[-1])
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["scope", "puzzles", "runs_per_puzzle", "runs_per_algorithm", "success_rate_a",
                    "success_rate_b", "detectable_success_difference", "ert_reference",
                    "detectable_constructions_ratio", "alpha_per_test"])
        w.writerows(result)


if __name__ == "__main__":
    main()
