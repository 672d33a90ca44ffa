#!/usr/bin/env python3
"""A crashing solver, for the tests: it answers the handshake, reports some progress on a run,
then aborts (SIGABRT) on odd seeds and exits with status 3 on even ones. sudoku-lab must fail
each run (`crashed`, `exit_status`), start a new process for the next one, and finish."""
import json, os, sys

for text in sys.stdin:
    msg = json.loads(text)
    if msg["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 2, "name": "crash"}), flush=True)
    elif msg["type"] == "run":
        print(json.dumps({"type": "progress", "run_id": msg["run_id"], "evaluations": 10}), flush=True)
        print("crash.py: giving up on purpose", file=sys.stderr, flush=True)
        if msg["seed"] % 2:
            os.abort()
        sys.exit(3)
