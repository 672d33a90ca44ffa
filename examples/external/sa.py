#!/usr/bin/env python3
"""A sudoku-lab external solver (protocol v2, docs/external-solvers.md): simulated annealing
after Lewis (2007), standard library only. Each box holds a permutation of its values; a move
swaps two free cells of one box; the cost is the values missing from rows and columns.
One Markov chain of (free cells)^2 moves is a generation; the temperature starts at the spread
of the cost over 100 random neighbours, falls by `alpha` per chain and goes back to its start
after `reheat` chains in a row that did not lower the current cost (sudoku-lab's lewis-sa
defaults). Deterministic given the run's seed, as the runner's files require."""
import json, math, random, sys

def send(msg):
    sys.stdout.write(json.dumps(msg, separators=(",", ":")) + "\n")
    sys.stdout.flush()

def solve(run):
    p, b, prm = run["puzzle"], run["budget"], run["params"]
    n, br, bc = p["order"], p["box_rows"], p["box_cols"]
    rng = random.Random(run["seed"])
    g = [v for row in p["givens"] for v in row]
    boxes = [[(r0 + i) * n + c0 + j for i in range(br) for j in range(bc)]
             for r0 in range(0, n, br) for c0 in range(0, n, bc)]
    free = [[c for c in box if g[c] == 0] for box in boxes]
    for box, fr in zip(boxes, free):            # fill each box with its missing values
        vals = list(set(range(1, n + 1)) - {g[c] for c in box})
        rng.shuffle(vals)
        for c, v in zip(fr, vals):
            g[c] = v
    line = lambda cells: n - len({g[c] for c in cells})
    rows = [[r * n + c for c in range(n)] for r in range(n)]
    cols = [[r * n + c for r in range(n)] for c in range(n)]
    cost = sum(map(line, rows)) + sum(map(line, cols))
    movable = [fr for fr in free if len(fr) > 1]
    max_e, max_g = b["max_evaluations"] or float("inf"), b["max_generations"] or float("inf")
    chain = prm.get("chain", sum(map(len, free)) ** 2)
    alpha, reheat = prm.get("alpha", 0.99), prm.get("reheat", 20)
    evals, gens, stale, best = 0, 0, 0, cost
    def swap_delta(a, c):                       # swap two cells; the change of the cost
        units = {id(u): u for u in (rows[a // n], rows[c // n], cols[a % n], cols[c % n])}
        before = sum(line(u) for u in units.values())
        g[a], g[c] = g[c], g[a]
        return sum(line(u) for u in units.values()) - before
    samples = []                                # T0: the spread of the cost over neighbours
    for _ in range(prm.get("t0_samples", 100) if movable else 0):
        a, c = rng.sample(rng.choice(movable), 2)
        samples.append(cost + swap_delta(a, c))
        swap_delta(a, c)
    mean = sum(samples) / max(len(samples), 1)
    t0 = max(math.sqrt(sum((x - mean) ** 2 for x in samples) / max(len(samples), 1)), 0.01)
    t = t0
    grid = lambda: [g[r * n:(r + 1) * n] for r in range(n)]
    while cost > 0 and movable and evals < max_e and gens < max_g:
        start = cost
        for _ in range(chain):
            if evals >= max_e or cost == 0:
                break
            a, c = rng.sample(rng.choice(movable), 2)
            delta = swap_delta(a, c)
            evals += 1
            if delta <= 0 or rng.random() < math.exp(-delta / t):
                cost += delta
                if cost < best:
                    best = cost
                    send({"type": "progress", "run_id": run["run_id"], "evaluations": evals, "generations": gens, "grid": grid()})
            else:
                g[a], g[c] = g[c], g[a]
        gens, t = gens + 1, t * alpha
        stale = 0 if cost < start else stale + 1  # a chain that lowered the current cost
        if stale >= reheat:
            t, stale = t0, 0
    send({"type": "result", "run_id": run["run_id"], "solved": cost == 0, "evaluations": evals, "generations": gens, "grid": grid()})

for text in sys.stdin:
    msg = json.loads(text)
    if msg["type"] == "hello":
        send({"type": "hello", "protocol": 2, "name": "python-sa"})
    elif msg["type"] == "run":
        solve(msg)
