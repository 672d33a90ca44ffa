#!/usr/bin/env python3
"""CPU seconds per ant construction, the reference C++ ACS against the built-in acs.

    python3 scripts/acs-reference/cpu.py SUDOKU_LAB ACS_REFERENCE_BIN OUT.csv [--seeds 3]
        [--budgets 10,1000] [--only LABEL]

For every puzzle of scripts/acs-reference/acs-check.toml (its bank ids and puzzle files), every
seed 1..seeds and every budget of ant constructions, runs each implementation as a fresh
process, one after the other (C++ then Rust, so that both see the same machine load):

- Rust: `SUDOKU_LAB solve --algo acs --seed S --max-evaluations B` with the code's readings
  (the spec's params), the puzzle in a temporary file;
- C++: the adapter built by build.sh, sent a hello and one run message (seed S, budget B).

Each process's CPU time (user + system, from getrusage of the waited child) and the
evaluations it reports are written to OUT.csv. Per grid size and implementation, the CPU
time is then fitted by least squares as `a + b * evaluations`: b is the CPU time per
construction, a the process's start-up and the puzzle's set-up (the difference of the
budgets cancels them). The fit and the ratio Rust / C++ are printed and written to
OUT-summary.csv. The C++ adapter also reports its in-run CPU time (cpu_ms), written beside.
"""
import argparse
import csv
import json
import os
import re
import resource
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
RUST_PARAMS = ["ants=10", "q0=0.9", "rho=0.9", "bve=0.005", "xi=0.1",
               'greedy_rule="one-minus-q0"', 'start_cell="independent"', 'tie_break="lowest"']


def bank():
    out = {}
    with open(os.path.join(ROOT, "experiments", "puzzles", "published.tsv")) as f:
        for line in f:
            parts = line.rstrip("\n").split("\t")
            if len(parts) >= 3 and len(parts[2]) == 81:
                out[parts[0]] = [0 if c in ".0" else int(c) for c in parts[2]]
    return out


def read_file(path):
    """The puzzles of one of our files: one 81-character line each, or blocks of
    whitespace-separated tokens after '# puzzle k' comment lines (generate's output)."""
    puzzles, block = [], None
    for line in open(path):
        line = line.strip()
        if line.startswith("#"):
            if line.startswith("# puzzle"):
                if block:
                    puzzles.append(block)
                block = []
            continue
        if not line:
            continue
        if block is None:  # one line per puzzle
            puzzles.append([0 if c in ".0" else int(c) for c in line])
        else:
            block += [0 if t == "." else int(t) for t in line.split()]
    if block:
        puzzles.append(block)
    return puzzles


def spec_puzzles():
    """(label, id, cells) for every puzzle of acs-check.toml, in its order."""
    text = open(os.path.join(HERE, "acs-check.toml")).read()
    b = bank()
    out = []
    for entry in re.findall(r"\{ id = \"([^\"]+)\"(.*?)label = \"([^\"]+)\" \}", text):
        pid, rest, label = entry
        m = re.search(r'file = "([^"]+)"', rest)
        if m:
            for k, cells in enumerate(read_file(os.path.join(HERE, m.group(1)))):
                out.append((label, "%s-%04d" % (pid, k + 1), cells))
        else:
            out.append((label, pid, b[pid]))
    return out


def child_cpu():
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_rust(lab, cells, seed, budget):
    n = int(round(len(cells) ** 0.5))
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as f:
        for r in range(n):
            f.write(" ".join(str(v) if v else "." for v in cells[r * n:(r + 1) * n]) + "\n")
        path = f.name
    args = [lab, "solve", "--algo", "acs", "--seed", str(seed), "--max-evaluations", str(budget)]
    for p in RUST_PARAMS:
        args += ["--param", p]
    before = child_cpu()
    p = subprocess.run(args + [path], capture_output=True, text=True)
    cpu = child_cpu() - before
    os.unlink(path)
    m = re.search(r"(not solved|solved) after (\d+) generations, (\d+) fitness evaluations", p.stdout + p.stderr)
    if not m:
        sys.exit("cannot read the Rust output: " + p.stdout + p.stderr)
    return m.group(1) == "solved", int(m.group(3)), cpu, ""


def run_cpp(binary, cells, seed, budget):
    n = int(round(len(cells) ** 0.5))
    box = int(round(n ** 0.5))
    msg = {"type": "run", "run_id": 1,
           "puzzle": {"id": "p", "order": n, "box_rows": box, "box_cols": box,
                      "givens": [cells[r * n:(r + 1) * n] for r in range(n)]},
           "seed": seed, "budget": {"max_evaluations": budget, "max_generations": None,
                                    "wall_seconds": 600.0}, "params": {}}
    before = child_cpu()
    p = subprocess.run([binary], input='{"type":"hello","protocol":2}\n' + json.dumps(msg) + "\n",
                       capture_output=True, text=True)
    cpu = child_cpu() - before
    res = json.loads(p.stdout.splitlines()[1])
    return res["solved"], res["evaluations"], cpu, "%.3f" % res["cpu_ms"]


def fit(points):
    """Least squares of y on x: (slope, intercept)."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    sxy = sum((x - mx) * (y - my) for x, y in points)
    b = sxy / sxx if sxx > 0 else float("nan")
    return b, my - b * mx


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("lab")
    ap.add_argument("cpp")
    ap.add_argument("out")
    ap.add_argument("--seeds", type=int, default=3)
    ap.add_argument("--budgets", default="10,1000")
    ap.add_argument("--only", default=None, help="only the puzzles of this label")
    a = ap.parse_args()
    budgets = [int(x) for x in a.budgets.split(",")]
    rows = []
    with open(a.out, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["label", "puzzle", "seed", "budget", "implementation", "solved",
                    "evaluations", "process_cpu_s", "cpp_in_run_cpu_ms"])
        for label, pid, cells in spec_puzzles():
            if a.only and label != a.only:
                continue
            for seed in range(1, a.seeds + 1):
                for budget in budgets:
                    for impl in ("cpp", "rust"):
                        if impl == "cpp":
                            solved, ev, cpu, inrun = run_cpp(a.cpp, cells, seed, budget)
                        else:
                            solved, ev, cpu, inrun = run_rust(a.lab, cells, seed, budget)
                        row = [label, pid, seed, budget, impl, int(solved), ev, "%.6f" % cpu, inrun]
                        w.writerow(row)
                        f.flush()
                        rows.append(row)
            print(label, pid, "done", file=sys.stderr)
    summary = []
    for label in dict.fromkeys(r[0] for r in rows):
        per = {}
        for impl in ("cpp", "rust"):
            pts = [(r[6], float(r[7])) for r in rows if r[0] == label and r[4] == impl]
            b, c = fit(pts)
            evs = sum(x for x, _ in pts)
            per[impl] = b
            summary.append([label, impl, len(pts), evs, "%.3f" % (b * 1e6), "%.3f" % (c * 1e3), ""])
        summary[-1][6] = "%.3f" % (per["rust"] / per["cpp"])
    with open(os.path.splitext(a.out)[0] + "-summary.csv", "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["label", "implementation", "processes", "evaluations", "cpu_us_per_construction",
                    "intercept_ms", "rust_over_cpp"])
        w.writerows(summary)
    for s in summary:
        print(*s)


if __name__ == "__main__":
    main()
