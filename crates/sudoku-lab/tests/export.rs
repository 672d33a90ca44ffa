//! `sudoku-lab export`: the IOHprofiler, LaTeX and Markdown outputs of a hand-written results
//! folder (`tests/fixtures/export-tiny/`: runs.csv, trajectories.csv, meta.json and two report
//! tables with quoted commas, quotes, a line break and LaTeX's special characters), parsed back
//! and checked against the inputs and the format documentation; and the bad inputs (one line
//! on stderr naming the file, non-zero exit, nothing written).

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};

fn bin() -> Command {
    Command::new(env!("CARGO_BIN_EXE_sudoku-lab"))
}

fn tmpdir(name: &str) -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let d = std::env::temp_dir().join(format!(
        "sudoku-lab-export-{}-{name}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::SeqCst)
    ));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// A copy of the fixture results folder in a fresh temporary folder.
fn fixture(name: &str) -> PathBuf {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/export-tiny");
    let dir = tmpdir(name).join("tiny");
    std::fs::create_dir_all(&dir).unwrap();
    for entry in std::fs::read_dir(src).unwrap() {
        let p = entry.unwrap().path();
        std::fs::copy(&p, dir.join(p.file_name().unwrap())).unwrap();
    }
    dir
}

/// `export ARGS DIR` run in DIR's parent folder, where the default output goes
/// ([`exported`]).
fn export(args: &[&str], dir: &Path) -> Output {
    bin()
        .current_dir(dir.parent().unwrap())
        .arg("export")
        .args(args)
        .arg(dir)
        .output()
        .expect("binary runs")
}

/// The default output folder of an export of the fixture `dir` (experiment `tiny`):
/// `exports/tiny/` in the folder `export` runs in, outside the results folder.
fn exported(dir: &Path) -> PathBuf {
    dir.parent().unwrap().join("exports/tiny")
}

fn ok(o: &Output) {
    assert!(
        o.status.success(),
        "export failed: {}",
        String::from_utf8_lossy(&o.stderr)
    );
}

/// A failed export: non-zero exit, one line on stderr starting with `error:`, containing
/// every `needle`, and no panic.
fn one_line_error(o: &Output, needles: &[&str]) {
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(!o.status.success(), "expected a failure, got success");
    assert_eq!(err.lines().count(), 1, "not one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    for n in needles {
        assert!(err.contains(n), "{err:?} does not mention {n:?}");
    }
}

/// (algorithm, puzzle) -> [(run, evaluations, grid)] in runs.csv order.
type RunsByPair = BTreeMap<(String, String), Vec<(u64, u64, String)>>;

/// runs.csv of a results folder.
fn runs_csv(dir: &Path) -> RunsByPair {
    let mut m: BTreeMap<_, Vec<_>> = BTreeMap::new();
    let mut r = csv::Reader::from_path(dir.join("runs.csv")).unwrap();
    let grid = r
        .headers()
        .unwrap()
        .iter()
        .position(|h| h == "grid")
        .unwrap();
    for rec in r.records() {
        let rec = rec.unwrap();
        m.entry((rec[1].to_string(), rec[2].to_string()))
            .or_default()
            .push((
                rec[3].parse().unwrap(),
                rec[7].parse().unwrap(),
                rec[grid].to_string(),
            ));
    }
    m
}

/// A parsed `.dat`: blocks of (evaluations, raw_y), each after a header line.
fn parse_dat(path: &Path) -> Vec<Vec<(u64, f64)>> {
    let text = std::fs::read_to_string(path).unwrap();
    let mut blocks: Vec<Vec<(u64, f64)>> = Vec::new();
    for line in text.lines() {
        if line == "evaluations raw_y" {
            blocks.push(Vec::new());
            continue;
        }
        let f: Vec<&str> = line.split(' ').collect();
        assert_eq!(f.len(), 2, "{}: bad row {line:?}", path.display());
        // raw_y with ten decimals, as IOHexperimenter writes it.
        assert_eq!(f[1].split('.').nth(1).map(str::len), Some(10), "{line}");
        blocks
            .last_mut()
            .expect("rows before the first header line")
            .push((f[0].parse().unwrap(), f[1].parse().unwrap()));
    }
    blocks
}

#[test]
fn ioh_export_matches_runs_and_the_format() {
    let dir = fixture("ioh");
    ok(&export(&["--format", "ioh"], &dir));
    let out = exported(&dir).join("ioh");
    let runs = runs_csv(&dir);
    // Function ids by first appearance in runs.csv, the same for every algorithm.
    let fids = [("p9", 1usize, 81usize), ("p4", 2, 16)];
    let mut seen_runs = 0;
    for ((alg, puzzle), expected) in &runs {
        let (_, fid, dim) = *fids.iter().find(|f| f.0 == puzzle).unwrap();
        let json_path = out
            .join(alg)
            .join(format!("IOHprofiler_f{fid}_{puzzle}.json"));
        let j: serde_json::Value =
            serde_json::from_str(&std::fs::read_to_string(&json_path).unwrap()).unwrap();
        // Every key IOHexperimenter writes, in its order.
        let keys: Vec<&str> = j.as_object().unwrap().keys().map(|k| k.as_str()).collect();
        let mut sorted = vec![
            "algorithm",
            "attributes",
            "experiment_attributes",
            "function_id",
            "function_name",
            "maximization",
            "run_attributes",
            "scenarios",
            "suite",
            "version",
        ];
        sorted.sort();
        let mut got = keys.clone();
        got.sort();
        assert_eq!(got, sorted);
        assert_eq!(j["suite"], "tiny");
        assert_eq!(j["function_id"], fid);
        assert_eq!(j["function_name"], puzzle.as_str());
        assert_eq!(j["maximization"], false);
        assert_eq!(j["algorithm"]["name"], alg.as_str());
        assert!(j["algorithm"]["info"]
            .as_str()
            .unwrap()
            .starts_with(alg.as_str()));
        assert_eq!(j["attributes"], serde_json::json!(["evaluations", "raw_y"]));
        let scen = j["scenarios"].as_array().unwrap();
        assert_eq!(scen.len(), 1);
        assert_eq!(scen[0]["dimension"], dim);
        let rel = format!("data_f{fid}_{puzzle}/IOHprofiler_f{fid}_DIM{dim}.dat");
        assert_eq!(scen[0]["path"], rel.as_str());
        let jruns = scen[0]["runs"].as_array().unwrap();
        let blocks = parse_dat(&out.join(alg).join(&rel));
        assert_eq!(jruns.len(), expected.len(), "{alg} {puzzle}: runs");
        assert_eq!(blocks.len(), expected.len(), "{alg} {puzzle}: blocks");
        let n = (dim as f64).sqrt() as u64;
        for ((jr, block), (run, evals, grid)) in jruns.iter().zip(&blocks).zip(expected) {
            assert_eq!(jr["instance"], 1);
            assert_eq!(jr["run"], *run);
            assert_eq!(jr["evals"], *evals);
            // A block starts at evaluation 1 (IOHexperimenter; iohinspector splits runs
            // there), evaluations increase, raw_y improves (the last row may repeat it), and
            // it ends at the run's final evaluation count.
            assert_eq!(block[0].0, 1);
            assert!(block[0].1 <= (3 * n * n) as f64);
            assert_eq!(block.last().unwrap().0, *evals);
            for w in block.windows(2) {
                assert!(w[0].0 < w[1].0, "{alg} {puzzle} {run}: {block:?}");
                assert!(w[1].1 <= w[0].1, "{alg} {puzzle} {run}: {block:?}");
            }
            for w in block[..block.len() - 1].windows(2) {
                assert!(w[1].1 < w[0].1, "{alg} {puzzle} {run}: {block:?}");
            }
            let best_y = block.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
            let best_e = block.iter().find(|p| p.1 == best_y).unwrap().0;
            assert_eq!(jr["best"]["y"].as_f64().unwrap(), best_y);
            assert_eq!(jr["best"]["evals"], best_e);
            let x: Vec<u64> = jr["best"]["x"]
                .as_array()
                .unwrap()
                .iter()
                .map(|v| v.as_u64().unwrap())
                .collect();
            if !x.is_empty() {
                let g: Vec<u64> = grid
                    .chars()
                    .map(|c| c.to_digit(36).unwrap() as u64)
                    .collect();
                assert_eq!(x, g);
                assert_eq!(x.len(), dim);
            }
            seen_runs += 1;
        }
    }
    assert_eq!(seen_runs, 7);
    // mk-ga has no runs on p4: no file for it.
    assert!(!out.join("mk-ga/IOHprofiler_f2_p4.json").exists());

    // Exact blocks: the trajectory, a first row bounded by 3 n^2 = 243, a last row at the
    // final evaluation count; the final grid's penalty (2) when it beats the trajectory (4).
    let blocks = parse_dat(&out.join("mk-ga/data_f1_p9/IOHprofiler_f1_DIM81.dat"));
    assert_eq!(
        blocks,
        vec![
            vec![(1, 243.0), (150, 30.0), (900, 4.0), (2000, 2.0)],
            vec![(1, 243.0), (150, 33.0), (1200, 0.0)],
            vec![(1, 243.0), (150, 35.0), (1000, 3.0), (2000, 3.0)],
        ]
    );
    // A trajectory that starts at evaluation 1 gets no extra row.
    let blocks = parse_dat(&out.join("ret-ga/data_f2_p4/IOHprofiler_f2_DIM16.dat"));
    assert_eq!(
        blocks,
        vec![
            vec![(1, 48.0), (10, 4.0), (30, 0.0)],
            vec![(1, 6.0), (20, 2.0), (50, 2.0)],
        ]
    );
    // The final grid has penalty 4 while the trajectory reached 3: no x.
    let j: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(out.join("mk-ga/IOHprofiler_f1_p9.json")).unwrap(),
    )
    .unwrap();
    assert_eq!(
        j["scenarios"][0]["runs"][2]["best"],
        serde_json::json!({"evals": 1000, "y": 3.0, "x": []})
    );

    // A second export replaces the folder whole: stale files do not survive.
    std::fs::write(out.join("ret-ga/stale.json"), "{}").unwrap();
    ok(&export(&["--format", "ioh"], &dir));
    assert!(!out.join("ret-ga/stale.json").exists());
    assert!(out.join("ret-ga/IOHprofiler_f1_p9.json").exists());
}

/// Undo the LaTeX escaping of one cell: the text macros and the backslash-escaped characters.
fn tex_unescape(s: &str) -> String {
    const MACROS: [(&str, char); 6] = [
        ("\\textasciitilde{}", '~'),
        ("\\textasciicircum{}", '^'),
        ("\\textbackslash{}", '\\'),
        ("\\textless{}", '<'),
        ("\\textgreater{}", '>'),
        ("\\textbar{}", '|'),
    ];
    let mut out = String::new();
    let mut rest = s;
    'outer: while let Some(ch) = rest.chars().next() {
        if ch == '\\' {
            for (m, c) in MACROS {
                if let Some(r) = rest.strip_prefix(m) {
                    out.push(c);
                    rest = r;
                    continue 'outer;
                }
            }
            let next = rest[1..].chars().next().expect("escape at the end");
            assert!("&%$#_{}".contains(next), "unknown escape in {s:?}");
            out.push(next);
            rest = &rest[1 + next.len_utf8()..];
        } else {
            out.push(ch);
            rest = &rest[ch.len_utf8()..];
        }
    }
    out
}

/// Split a LaTeX row (`a & b \\`) into cells at unescaped `&`.
fn tex_cells(line: &str) -> Vec<String> {
    let body = line.strip_suffix(" \\\\").expect("row ends with \\\\");
    let mut cells = vec![String::new()];
    let mut prev = ' ';
    for ch in body.chars() {
        if ch == '&' && prev != '\\' {
            cells.push(String::new());
        } else {
            cells.last_mut().unwrap().push(ch);
        }
        prev = ch;
    }
    cells.iter().map(|c| tex_unescape(c.trim())).collect()
}

/// Split a Markdown row (`| a | b |`) into cells at unescaped `|`.
fn md_cells(line: &str) -> Vec<String> {
    let body = line
        .strip_prefix("| ")
        .and_then(|l| l.strip_suffix(" |"))
        .expect("pipe row");
    let mut cells = vec![String::new()];
    let mut prev = ' ';
    for ch in body.chars() {
        if ch == '|' && prev != '\\' {
            cells.push(String::new());
        } else {
            cells.last_mut().unwrap().push(ch);
        }
        prev = ch;
    }
    cells
        .iter()
        .map(|c| {
            c.trim()
                .replace("<br>", "\n")
                .replace("\\|", "|")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
        })
        .collect()
}

fn csv_table(path: &Path) -> (Vec<String>, Vec<Vec<String>>) {
    let mut r = csv::Reader::from_path(path).unwrap();
    let header = r.headers().unwrap().iter().map(str::to_string).collect();
    let rows = r
        .records()
        .map(|rec| rec.unwrap().iter().map(str::to_string).collect())
        .collect();
    (header, rows)
}

#[test]
fn latex_tables_round_trip() {
    let dir = fixture("latex");
    let o = export(&["--format", "latex"], &dir);
    ok(&o);
    // Outside the results folder by default, and every file written is named.
    let stdout = String::from_utf8_lossy(&o.stdout);
    assert!(
        stdout.contains("wrote 2 files in exports/tiny: summary.tex, tests.tex"),
        "{stdout}"
    );
    let before: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
    assert_eq!(before.len(), 5, "nothing added to the results folder");
    let out = exported(&dir);
    let mut names: Vec<String> = std::fs::read_dir(&out)
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    // Every report table, not runs.csv or trajectories.csv.
    assert_eq!(names, ["summary.tex", "tests.tex"]);
    // Readable headings, not CSV column names; the names stay in a comment.
    let headings = [
        (
            "summary",
            "llllrrrrl",
            "Experiment,Algorithm,Puzzle,Label,Runs,Successes,Success rate,ERT evaluations,Note",
        ),
        (
            "tests",
            "llllrl",
            "Experiment,Puzzle,Algorithm A,Algorithm B,Fisher p,Verdict",
        ),
    ];
    for (name, spec, readable) in headings {
        let text = std::fs::read_to_string(out.join(format!("{name}.tex"))).unwrap();
        let (header, rows) = csv_table(&dir.join(format!("{name}.csv")));
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with('%') && lines[0].contains("tiny"));
        assert!(lines[0].contains(&format!("{name}.csv")), "{}", lines[0]);
        assert_eq!(lines[1], format!("% Columns: {}", header.join(",")));
        assert_eq!(lines[2], format!("\\begin{{tabular}}{{{spec}}}"));
        assert_eq!(lines[3], "\\toprule");
        assert_eq!(tex_cells(lines[4]).join(","), readable);
        assert_eq!(lines[5], "\\midrule");
        let bottom = lines.iter().position(|l| *l == "\\bottomrule").unwrap();
        assert_eq!(lines[bottom + 1], "\\end{tabular}");
        let body = &lines[6..bottom];
        assert_eq!(body.len(), rows.len());
        for (line, row) in body.iter().zip(&rows) {
            let cells = tex_cells(line);
            assert_eq!(cells.len(), header.len());
            let expected: Vec<String> = row.iter().map(|c| c.replace('\n', " ")).collect();
            assert_eq!(cells, expected);
        }
    }
    let text = std::fs::read_to_string(out.join("summary.tex")).unwrap();
    assert!(text.contains(
        "50\\% \\& \\$5 \\#1 under\\_score \\{x\\} \\textasciitilde{} \\textasciicircum{} \
         \\textbackslash{} a\\textbar{}b"
    ));
    assert!(text.contains("4x4, \"tiny\""));
}

#[test]
fn markdown_tables_round_trip() {
    let dir = fixture("md");
    let out = dir.parent().unwrap().join("elsewhere");
    ok(&bin()
        .args(["export", "--format", "markdown"])
        .arg(&dir)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap());
    for (name, align) in [("summary", "llllrrrrl"), ("tests", "llllrl")] {
        let text = std::fs::read_to_string(out.join(format!("{name}.md"))).unwrap();
        let (header, rows) = csv_table(&dir.join(format!("{name}.csv")));
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[0].starts_with("<!--") && lines[0].ends_with("-->"));
        assert!(lines[0].contains("tiny") && lines[0].contains(&format!("{name}.csv")));
        assert_eq!(lines[1], "");
        assert_eq!(md_cells(lines[2]), header);
        let rule = md_cells(lines[3]);
        let got: String = rule
            .iter()
            .map(|c| match c.as_str() {
                "---:" => 'r',
                ":---" => 'l',
                other => panic!("alignment {other}"),
            })
            .collect();
        assert_eq!(got, align);
        assert_eq!(lines.len() - 4, rows.len());
        for (line, row) in lines[4..].iter().zip(&rows) {
            assert_eq!(md_cells(line), *row);
        }
    }
    let text = std::fs::read_to_string(out.join("summary.md")).unwrap();
    assert!(text.contains("a\\|b"));
    assert!(text.contains("two<br>lines"));
    assert!(text.contains("| &lt;plain&gt; |"));
    assert!(!dir.join("export").exists() && !exported(&dir).exists());
}

#[test]
fn missing_folder_is_one_line() {
    let d = tmpdir("missing");
    for format in ["ioh", "latex", "markdown"] {
        let o = export(&["--format", format], &d.join("nope"));
        one_line_error(&o, &["nope", "no such results folder"]);
    }
}

#[test]
fn ioh_without_trajectories_says_how_to_get_them() {
    let dir = fixture("notraj");
    std::fs::remove_file(dir.join("trajectories.csv")).unwrap();
    let o = export(&["--format", "ioh"], &dir);
    one_line_error(&o, &["trajectories.csv", "anytime = true"]);
    assert!(!exported(&dir).exists());
}

#[test]
fn malformed_report_csv_is_one_line_naming_the_file() {
    let dir = fixture("badcsv");
    std::fs::write(dir.join("broken.csv"), "a,b,c\n1,2,3\n4,5\n").unwrap();
    for format in ["latex", "markdown"] {
        let o = export(&["--format", format], &dir);
        one_line_error(&o, &["broken.csv", "malformed CSV"]);
        assert!(!exported(&dir).exists(), "nothing written");
    }
    std::fs::write(dir.join("broken.csv"), "").unwrap();
    one_line_error(&export(&["--format", "latex"], &dir), &["broken.csv"]);
}

#[test]
fn bad_trajectories_are_one_line_naming_the_file() {
    let cases: [(&str, &str, &[&str]); 6] = [
        (
            "experiment,algorithm,puzzle,run,evals,penalty\n",
            "header",
            &["trajectories.csv", "unexpected header"],
        ),
        (
            "tiny,ret-ga,p9,0,100,four\n",
            "not a number",
            &["trajectories.csv", "malformed row"],
        ),
        (
            "tiny,ret-ga,p9,0,100,4,extra\n",
            "ragged",
            &["trajectories.csv", "malformed row"],
        ),
        (
            "tiny,ret-ga,p9,0,2000,4\ntiny,ret-ga,p9,0,1500,3\n",
            "decreasing evaluations",
            &["trajectories.csv", "increasing evaluations"],
        ),
        (
            "tiny,ret-ga,p9,0,100,4\ntiny,ret-ga,p9,0,200,4\n",
            "no improvement",
            &["trajectories.csv", "no improvement"],
        ),
        (
            "tiny,ret-ga,p9,9,100,4\n",
            "unknown run",
            &["trajectories.csv", "no row in runs.csv"],
        ),
    ];
    let header = "experiment,algorithm,puzzle,run,evaluations,penalty\n";
    for (body, what, needles) in cases {
        let dir = fixture("badtraj");
        let text = if body.starts_with("experiment,") {
            body.to_string()
        } else {
            let mut t = std::fs::read_to_string(dir.join("trajectories.csv")).unwrap();
            // Replace the first run's rows by the bad ones.
            t = t
                .lines()
                .filter(|l| !l.starts_with("tiny,ret-ga,p9,0,"))
                .map(|l| format!("{l}\n"))
                .collect::<String>();
            t.insert_str(header.len(), body);
            t
        };
        std::fs::write(dir.join("trajectories.csv"), text).unwrap();
        let o = export(&["--format", "ioh"], &dir);
        eprintln!("case {what}");
        one_line_error(&o, needles);
        assert!(!exported(&dir).exists(), "{what}: nothing written");
    }
    // A run of runs.csv without trajectory rows.
    let dir = fixture("shorttraj");
    let t = std::fs::read_to_string(dir.join("trajectories.csv")).unwrap();
    let t: String = t
        .lines()
        .filter(|l| !l.starts_with("tiny,mk-ga,p9,2,"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(dir.join("trajectories.csv"), t).unwrap();
    one_line_error(
        &export(&["--format", "ioh"], &dir),
        &["no rows for run 2 of mk-ga on p9", "runs.csv:8"],
    );
}

#[test]
fn ioh_export_leaves_foreign_folders_alone() {
    let dir = fixture("foreign");
    let out = dir.join("mine");
    std::fs::create_dir_all(&out).unwrap();
    std::fs::write(out.join("notes.txt"), "keep").unwrap();
    let o = bin()
        .args(["export", "--format", "ioh"])
        .arg(&dir)
        .arg("--out")
        .arg(&out)
        .output()
        .unwrap();
    one_line_error(&o, &["mine", "not an earlier IOH export"]);
    assert_eq!(
        std::fs::read_to_string(out.join("notes.txt")).unwrap(),
        "keep"
    );
}
