#!/usr/bin/env python3
"""A lying solver, for the tests: it claims every puzzle solved and returns the givens with
every empty cell set to 1 (a grid that breaks the rules). sudoku-lab must count its runs as
`invalid_claim`, never as solved."""
import json, sys

for text in sys.stdin:
    msg = json.loads(text)
    if msg["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 2, "name": "liar"}), flush=True)
    elif msg["type"] == "run":
        grid = [[v or 1 for v in row] for row in msg["puzzle"]["givens"]]
        print(json.dumps({"type": "result", "run_id": msg["run_id"], "solved": True, "evaluations": 1, "grid": grid}), flush=True)
