#!/usr/bin/env python3
"""A hanging solver, for the tests: it answers the handshake, reports progress on a run, then
sleeps forever. sudoku-lab must kill it at the run's wall limit (`wall_limit`) and go on."""
import json, sys, time

for text in sys.stdin:
    msg = json.loads(text)
    if msg["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 2, "name": "hang"}), flush=True)
    elif msg["type"] == "run":
        print(json.dumps({"type": "progress", "run_id": msg["run_id"], "evaluations": 10}), flush=True)
        time.sleep(1e6)
