#!/usr/bin/env python3
"""The smallest useful client of protocol v2 (docs/external-solvers.md): random box-wise fills
until one is a solution or the evaluation budget is spent. A poor method, a complete solver."""
import json, random, sys

def send(msg):
    print(json.dumps(msg), flush=True)

def fill(givens, boxes, n, rng):              # each box a permutation of 1..n
    g = givens[:]
    for box in boxes:
        vals = list(set(range(1, n + 1)) - {g[c] for c in box})
        rng.shuffle(vals)
        for c, v in zip([c for c in box if g[c] == 0], vals):
            g[c] = v
    return g

def solve(run):
    p = run["puzzle"]
    n, br, bc = p["order"], p["box_rows"], p["box_cols"]
    rng = random.Random(run["seed"])           # all randomness from the run's seed
    givens = [v for row in p["givens"] for v in row]
    boxes = [[(r + i) * n + c + j for i in range(br) for j in range(bc)]
             for r in range(0, n, br) for c in range(0, n, bc)]
    limit, evals, solved = run["budget"]["max_evaluations"] or 10**6, 0, False
    while not solved and evals < limit:
        g, evals = fill(givens, boxes, n, rng), evals + 1
        rows = [g[r * n:(r + 1) * n] for r in range(n)]
        solved = all(len(set(u)) == n for u in rows + [list(c) for c in zip(*rows)])
    send({"type": "result", "run_id": run["run_id"], "solved": solved, "evaluations": evals, "grid": rows})

for line in sys.stdin:
    msg = json.loads(line)
    if msg["type"] == "hello":
        send({"type": "hello", "protocol": 2, "name": "random-fill"})
    elif msg["type"] == "run":
        solve(msg)
