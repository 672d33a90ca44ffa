#!/usr/bin/env python3
"""Instructions per ant construction under callgrind, the reference C++ ACS against the
built-in acs, on one puzzle: the difference of two budgets cancels start-up and set-up.

    python3 scripts/acs-reference/callgrind.py SUDOKU_LAB ACS_REFERENCE_BIN PUZZLE_ID B1 B2 OUT.csv

PUZZLE_ID is a puzzle of acs-check.toml as cpu.py names it (p16-0001, p25-0001, ...). The
seed is the first of 1, 2, ... with which neither implementation solves the puzzle within B2
constructions (tried natively first), so that both runs of each implementation make exactly
B1 and B2 constructions. Each run is `valgrind --tool=callgrind` of one process (the Rust
`sudoku-lab solve`, the C++ adapter fed a hello and one run message); the total instructions
(Ir) of each are written to OUT.csv with (Ir(B2) - Ir(B1)) / (B2 - B1) per implementation.
"""
import csv
import json
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import cpu  # noqa: E402


def command(impl, lab, binary, cells, seed, budget, tmp):
    """(argv, stdin text) of one run."""
    if impl == "rust":
        n = int(round(len(cells) ** 0.5))
        path = os.path.join(tmp, "puzzle.txt")
        with open(path, "w") as f:
            for r in range(n):
                f.write(" ".join(str(v) if v else "." for v in cells[r * n:(r + 1) * n]) + "\n")
        args = [lab, "solve", "--algo", "acs", "--seed", str(seed), "--max-evaluations", str(budget)]
        for p in cpu.RUST_PARAMS:
            args += ["--param", p]
        return args + [path], ""
    n = int(round(len(cells) ** 0.5))
    box = int(round(n ** 0.5))
    msg = {"type": "run", "run_id": 1,
           "puzzle": {"id": "p", "order": n, "box_rows": box, "box_cols": box,
                      "givens": [cells[r * n:(r + 1) * n] for r in range(n)]},
           "seed": seed, "budget": {"max_evaluations": budget, "max_generations": None,
                                    "wall_seconds": 3600.0}, "params": {}}
    return [binary], '{"type":"hello","protocol":2}\n' + json.dumps(msg) + "\n"


def main():
    lab, binary, pid, b1, b2, out = sys.argv[1:7]
    b1, b2 = int(b1), int(b2)
    cells = {p: c for _, p, c in cpu.spec_puzzles()}[pid]
    seed = 1
    while True:
        r = cpu.run_rust(lab, cells, seed, b2)
        c = cpu.run_cpp(binary, cells, seed, b2)
        if not r[0] and not c[0] and r[1] == b2 and c[1] == b2:
            break
        seed += 1
    rows = []
    with tempfile.TemporaryDirectory() as tmp:
        for impl in ("cpp", "rust"):
            for budget in (b1, b2):
                args, stdin = command(impl, lab, binary, cells, seed, budget, tmp)
                cg = os.path.join(tmp, "cg.out")
                p = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=" + cg] + args,
                                   input=stdin, capture_output=True, text=True)
                text = open(cg).read()
                m = re.search(r"^totals:\s+(\d+)", text, re.M) or re.search(r"^summary:\s+(\d+)", text, re.M)
                ir = int(m.group(1))
                if impl == "cpp":
                    ev = json.loads(p.stdout.splitlines()[1])["evaluations"]
                else:
                    ev = int(re.search(r"(\d+) fitness evaluations", p.stdout + p.stderr).group(1))
                rows.append([pid, seed, impl, budget, ev, ir])
                print(*rows[-1], file=sys.stderr)
    with open(out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["puzzle", "seed", "implementation", "budget", "evaluations", "instructions",
                    "instructions_per_construction"])
        per = {}
        for impl in ("cpp", "rust"):
            lo, hi = [r for r in rows if r[2] == impl]
            per[impl] = (hi[5] - lo[5]) / (hi[4] - lo[4])
            w.writerow(lo + [""])
            w.writerow(hi + ["%.0f" % per[impl]])
        w.writerow([pid, seed, "rust_over_cpp", "", "", "", "%.4f" % (per["rust"] / per["cpp"])])
    print(pid, "instructions per construction: cpp %.0f, rust %.0f, ratio %.4f"
          % (per["cpp"], per["rust"], per["rust"] / per["cpp"]))


if __name__ == "__main__":
    main()
