#!/usr/bin/env python3
"""Per puzzle of an acs-check results folder: each algorithm's successes and the median and
quartiles of its constructions to solve (successful runs), Fisher's exact test (two-sided, R's
convention) on the successes and the Mann-Whitney U test (two-sided, normal approximation with
the tie correction, no continuity correction) on the evaluations of all runs with failures
ranked last, each Holm-adjusted over the puzzles. Beside the compare report's pooled tests.

    python3 scripts/acs-reference/per_puzzle.py RESULTS_DIR OUT.csv
"""
import csv
import os
import sys
from math import lgamma, exp


def log_choose(n, k):
    return lgamma(n + 1) - lgamma(k + 1) - lgamma(n - k + 1)


def fisher(a, b, c, d):
    """Two-sided Fisher exact p of [[a, b], [c, d]] (sum of tables no more probable)."""
    r1, c1, n = a + b, a + c, a + b + c + d
    lo, hi = max(0, c1 - (n - r1)), min(r1, c1)
    def p(x):
        return exp(log_choose(r1, x) + log_choose(n - r1, c1 - x) - log_choose(n, c1))
    obs = p(a)
    return min(1.0, sum(p(x) for x in range(lo, hi + 1) if p(x) <= obs * (1 + 1e-7)))


def mann_whitney(x, y):
    """Two-sided p of the U test (normal approximation, tie-corrected), +inf allowed."""
    allv = sorted((v, g) for g, s in ((0, x), (1, y)) for v in s)
    ranks, i, ties = [0.0] * len(allv), 0, 0.0
    while i < len(allv):
        j = i
        while j < len(allv) and allv[j][0] == allv[i][0]:
            j += 1
        for k in range(i, j):
            ranks[k] = (i + j + 1) / 2
        t = j - i
        ties += t ** 3 - t
        i = j
    n1, n2 = len(x), len(y)
    r1 = sum(r for r, (_, g) in zip(ranks, allv) if g == 0)
    u = r1 - n1 * (n1 + 1) / 2
    n = n1 + n2
    var = n1 * n2 / 12 * ((n + 1) - ties / (n * (n - 1)))
    if var <= 0:
        return 1.0
    z = (u - n1 * n2 / 2) / var ** 0.5
    from math import erfc
    return min(1.0, erfc(abs(z) / 2 ** 0.5))


def holm(ps):
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    out, run = [0.0] * len(ps), 0.0
    for rank, i in enumerate(order):
        run = max(run, min(1.0, (len(ps) - rank) * ps[i]))
        out[i] = run
    return out


def quartiles(v):
    v = sorted(v)
    if not v:
        return ("", "", "")
    def q(f):
        k = (len(v) - 1) * f
        lo = int(k)
        hi = min(lo + 1, len(v) - 1)
        return v[lo] + (v[hi] - v[lo]) * (k - lo)
    return tuple("%g" % q(f) for f in (0.25, 0.5, 0.75))


def main():
    results, out = sys.argv[1:3]
    rows = list(csv.DictReader(open(os.path.join(results, "runs.csv"))))
    algos = list(dict.fromkeys(r["algorithm"] for r in rows))
    puzzles = list(dict.fromkeys(r["puzzle"] for r in rows))
    table = []
    for p in puzzles:
        line = [p]
        succ, evs = [], []
        for a in algos:
            rs = [r for r in rows if r["puzzle"] == p and r["algorithm"] == a]
            ok = [int(r["evaluations"]) for r in rs if r["solved"] == "1"]
            succ.append((len(ok), len(rs) - len(ok)))
            evs.append([float(r["evaluations"]) if r["solved"] == "1" else float("inf") for r in rs])
            line += [len(rs), len(ok), *quartiles(ok)]
        line.append(fisher(succ[0][0], succ[0][1], succ[1][0], succ[1][1]))
        line.append(mann_whitney(evs[0], evs[1]))
        table.append(line)
    adj = holm([t[-2] for t in table])
    adj_mw = holm([t[-1] for t in table])
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        head = ["puzzle"]
        for a in algos:
            head += [a + "_runs", a + "_solved", a + "_q1", a + "_median", a + "_q3"]
        w.writerow(head + ["fisher_p", "fisher_p_holm", "mwu_p", "mwu_p_holm"])
        for t, h, m in zip(table, adj, adj_mw):
            w.writerow(t[:-2] + ["%.4f" % t[-2], "%.4f" % h, "%.4f" % t[-1], "%.4f" % m])
    for t, h, m in zip(table, adj, adj_mw):
        print(*t[:-2], "%.4f" % t[-2], "%.4f" % h, "%.4f" % t[-1], "%.4f" % m)


if __name__ == "__main__":
    main()
