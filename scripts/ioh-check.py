#!/usr/bin/env python3
"""Check a `sudoku-lab export --format ioh` folder with the maintained IOHprofiler tools.

Usage: ioh-check.py RESULTS_DIR [IOH_DIR]     (IOH_DIR defaults to exports/<id>/ioh, export's default)

Run it through scripts/ioh-check.sh, which installs the pinned iohinspector and ioh in a venv.

1. Layout against the writer: ioh's own Analyzer logger writes a small reference folder (with
   an experiment attribute and a run attribute, as the export has); every json of the export
   must have the reference's keys in the reference's order (top level, scenario, run, best),
   the same .dat header line, and the same file naming
   (IOHprofiler_f<id>_<name>.json, data_f<id>_<name>/IOHprofiler_f<id>_DIM<d>.dat).
2. Contents against the reader: iohinspector's DataManager().add_folder loads the export; the
   runs per (algorithm, function) and their evaluations must be those of RESULTS_DIR/runs.csv,
   every run must come back from the .dat (a block per run), and each run's final best value
   (the running minimum of raw_y at its last row) must equal its `best.y` in the json.

Prints runs per algorithm and function with the final best values; exits 1 on any mismatch.
"""

import csv
import json
import os
import re
import sys
import tempfile
import warnings
from collections import defaultdict


def fail(msg):
    print(f"ioh-check: FAIL: {msg}")
    sys.exit(1)


def reference_layout():
    """Keys and file names as ioh's Analyzer logger writes them."""
    import ioh

    class State:
        run = 0

    state = State()
    with tempfile.TemporaryDirectory() as root:
        logger = ioh.logger.Analyzer(
            root=root, folder_name="ref", algorithm_name="ref", algorithm_info="info"
        )
        logger.add_experiment_attribute("experiment", "ref")
        logger.add_run_attributes(state, ["run"])
        problem = ioh.get_problem(1, 1, 2, ioh.ProblemClass.BBOB)
        problem.attach_logger(logger)
        for run in range(2):
            state.run = run
            for i in range(3):
                problem([0.5 * i, -0.5 * i])
            problem.reset()
        logger.close()
        folder = os.path.join(root, "ref")
        (name,) = [f for f in os.listdir(folder) if f.endswith(".json")]
        with open(os.path.join(folder, name)) as f:
            ref = json.load(f)
        scen = ref["scenarios"][0]
        with open(os.path.join(folder, scen["path"])) as f:
            header = f.readline().rstrip("\n")
    return {
        "top": list(ref),
        "scenario": list(scen),
        "run": list(scen["runs"][0]),
        "best": list(scen["runs"][0]["best"]),
        "header": header,
        "version": ref["version"],
    }


def check_layout(ioh_dir, ref):
    jsons = []
    for dirpath, _, files in os.walk(ioh_dir):
        jsons += [os.path.join(dirpath, f) for f in files if f.endswith(".json")]
    if not jsons:
        fail(f"{ioh_dir}: no json files")
    for path in sorted(jsons):
        with open(path) as f:
            data = json.load(f)
        rel = os.path.relpath(path, ioh_dir)
        fid = data["function_id"]
        if not re.fullmatch(rf"[^/]+/IOHprofiler_f{fid}_[^/]+\.json", rel):
            fail(f"{rel}: not named IOHprofiler_f{fid}_<name>.json inside an algorithm folder")
        if list(data) != ref["top"]:
            fail(f"{rel}: keys {list(data)}, ioh writes {ref['top']}")
        for scen in data["scenarios"]:
            if list(scen) != ref["scenario"]:
                fail(f"{rel}: scenario keys {list(scen)}, ioh writes {ref['scenario']}")
            want = rf"data_f{fid}_[^/]+/IOHprofiler_f{fid}_DIM{scen['dimension']}\.dat"
            if not re.fullmatch(want, scen["path"]):
                fail(f"{rel}: path {scen['path']} is not {want}")
            for run in scen["runs"]:
                if list(run) != ref["run"] or list(run["best"]) != ref["best"]:
                    fail(f"{rel}: run keys {list(run)} / {list(run['best'])}, ioh writes "
                         f"{ref['run']} / {ref['best']}")
            with open(os.path.join(os.path.dirname(path), scen["path"])) as f:
                lines = f.read().splitlines()
            headers = [line for line in lines if not line[:1].isdigit()]
            if set(headers) != {ref["header"]} or len(headers) != len(scen["runs"]):
                fail(f"{rel}: {len(headers)} header lines {set(headers)} for "
                     f"{len(scen['runs'])} runs; ioh heads each run with {ref['header']!r}")
    return len(jsons)


def main():
    if len(sys.argv) not in (2, 3):
        print(__doc__.strip().splitlines()[2])
        sys.exit(2)
    results = sys.argv[1]
    if len(sys.argv) == 3:
        ioh_dir = sys.argv[2]
    else:
        with open(os.path.join(results, "meta.json")) as f:
            experiment = json.load(f)["settings"]["experiment"]
        ioh_dir = os.path.join("exports", experiment, "ioh")

    import importlib.metadata as md
    import iohinspector

    print(f"iohinspector {md.version('iohinspector')}, ioh {md.version('ioh')}")

    ref = reference_layout()
    n_json = check_layout(ioh_dir, ref)
    print(f"layout: {n_json} json files with ioh {ref['version']}'s keys, file names and "
          f".dat header {ref['header']!r}")

    expected = defaultdict(list)  # (algorithm, puzzle) -> evaluations, in runs.csv order
    with open(os.path.join(results, "runs.csv"), newline="") as f:
        for row in csv.DictReader(f):
            expected[(row["algorithm"], row["puzzle"])].append(int(row["evaluations"]))

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        dm = iohinspector.DataManager()
        dm.add_folder(ioh_dir)
    for w in caught:
        if "Failed to load" in str(w.message):
            fail(str(w.message))

    overview = dm.overview
    got = defaultdict(list)
    best = {}
    meta = {}
    for r in overview.sort(["algorithm_name", "function_id", "run_id"]).iter_rows(named=True):
        key = (r["algorithm_name"], r["function_name"])
        got[key].append(int(r["evals"]))
        best[r["data_id"]] = r["best_y"]
        meta[r["data_id"]] = (key, r["function_id"], r["dimension"], r["suite"])

    ok = True
    for key in sorted(set(expected) | set(got)):
        if expected.get(key) != got.get(key):
            print(f"MISMATCH {key[0]} on {key[1]}: runs.csv evaluations {expected.get(key)}, "
                  f"iohinspector {got.get(key)}")
            ok = False

    data = dm.load(monotonic=True)
    loaded = defaultdict(list)
    for r in data.iter_rows(named=True):
        loaded[r["data_id"]].append((r["evaluations"], r["raw_y"]))
    if set(loaded) != set(best):
        print(f"MISMATCH runs in the json {len(best)}, runs read from the .dat {len(loaded)}")
        ok = False
    final = {}
    for data_id, rows in loaded.items():
        final[data_id] = min(y for _, y in rows)
        if data_id in best and final[data_id] != best[data_id]:
            (alg, fn), *_ = meta[data_id]
            print(f"MISMATCH {alg} on {fn}: final best {final[data_id]} in the .dat, "
                  f"best.y {best[data_id]} in the json")
            ok = False

    print(f"{'algorithm':<16} {'fid':>3} {'function':<20} {'dim':>4} {'runs':>4} "
          f"{'runs.csv':>8} {'solved':>6}  final best values")
    per = defaultdict(list)
    for data_id, (key, fid, dim, suite) in meta.items():
        per[(key, fid, dim)].append(final.get(data_id, float("nan")))
    for (key, fid, dim), values in sorted(per.items(), key=lambda kv: (kv[0][0][0], kv[0][1])):
        solved = sum(1 for v in values if v == 0)
        shown = " ".join(f"{v:g}" for v in values)
        print(f"{key[0]:<16} {fid:>3} {key[1]:<20} {dim:>4} {len(values):>4} "
              f"{len(expected.get(key, [])):>8} {solved:>6}  {shown}")
    suites = sorted({m[3] for m in meta.values()})
    total = sum(len(v) for v in expected.values())
    if not ok:
        fail("the IOH folder does not match runs.csv")
    print(f"OK: suite {', '.join(suites)}: {len(meta)} runs read by iohinspector, "
          f"{total} in runs.csv")


if __name__ == "__main__":
    main()
