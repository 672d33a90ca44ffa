"""A protocol v2 solver that solves 9x9 puzzles by plain backtracking and reports 0
evaluations: with zero-evaluations-external.toml it shows that the compare report fails on an
algorithm whose solved runs spend 0 evaluations (a valid count for the protocol)."""
import json
import sys


def solve(g):
    for i in range(81):
        r, c = divmod(i, 9)
        if g[r][c] == 0:
            for v in range(1, 10):
                if (all(g[r][k] != v for k in range(9)) and all(g[k][c] != v for k in range(9))
                        and all(g[r // 3 * 3 + a][c // 3 * 3 + b] != v for a in range(3) for b in range(3))):
                    g[r][c] = v
                    if solve(g):
                        return True
            g[r][c] = 0
            return False
    return True


for line in sys.stdin:
    m = json.loads(line)
    if m["type"] == "hello":
        print(json.dumps({"type": "hello", "protocol": 2, "name": "zero-evaluations"}), flush=True)
    else:
        g = m["puzzle"]["givens"]
        solved = solve(g)
        print(json.dumps({"type": "result", "run_id": m["run_id"], "solved": solved,
                          "evaluations": 0, "grid": g}), flush=True)
