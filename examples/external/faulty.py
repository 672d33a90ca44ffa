#!/usr/bin/env python3
"""A misbehaving solver, for the tests: params.fault picks how it breaks the protocol on each
run - "garbage" (a line that is not JSON), "oversized" (a 2 MiB line), "over_budget" (more
evaluations than the budget), "backwards" (effort going down), "given" (a result that changes a
given), "exit" (exit status 3 after a valid result, in per-run mode), "flood" (1 MiB of stderr
then a valid unsolved result), "hello" (answers the handshake with protocol 99), "twice" (a
valid unsolved result, written twice), "lie_twice" (a false claim of a solution, then a valid
unsolved result), "stale" (a result with another run's run_id).
Every run first writes "faulty.py: run <run_id>" to stderr."""
import json, sys

def send(m):
    print(json.dumps(m), flush=True)

for text in sys.stdin:
    msg = json.loads(text)
    if msg["type"] == "hello":
        send({"type": "hello", "protocol": 99 if "hello" in sys.argv else 2})
        continue
    fault, givens = msg["params"].get("fault"), msg["puzzle"]["givens"]
    print(f"faulty.py: run {msg['run_id']}", file=sys.stderr, flush=True)
    rid = msg["run_id"]
    result = {"type": "result", "run_id": rid, "solved": False, "evaluations": 5, "grid": givens}
    budget = msg["budget"]["max_evaluations"] or 0
    if fault == "garbage":
        print("this is not json", flush=True)
    elif fault == "oversized":
        print("x" * (2 << 20), flush=True)
    elif fault == "over_budget":
        send({"type": "progress", "run_id": rid, "evaluations": budget + 1})
    elif fault == "backwards":
        send({"type": "progress", "run_id": rid, "evaluations": 5})
        send({"type": "progress", "run_id": rid, "evaluations": 4})
    elif fault == "given":
        grid = [row[:] for row in givens]
        r = next(i for i, row in enumerate(grid) if any(row))
        c = next(j for j, v in enumerate(grid[r]) if v)
        grid[r][c] = grid[r][c] % len(grid) + 1
        send(dict(result, grid=grid))
    elif fault == "flood":
        sys.stderr.write("e" * (1 << 20))
        sys.stderr.flush()
        send(result)
    elif fault == "twice":
        send(result)
        send(result)
    elif fault == "lie_twice":
        send(dict(result, solved=True, grid=[[v or 1 for v in row] for row in givens]))
        send(result)
    elif fault == "stale":
        send(dict(result, run_id=rid + 1000))
    elif fault == "exit":
        send(result)
        sys.exit(3)
    else:
        send(result)
