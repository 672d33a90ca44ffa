//! Output that cannot be written (disk full, read-only folder) and option values of the wrong
//! type: one line on stderr naming the path or the key, exit code 2, no panic, no
//! half-written file.

mod common;
use common::*;
use std::process::Output;

/// One line on stderr, `error: ...`, exit code 2, every needle in it.
fn one_line_error(o: &Output, needles: &[&str]) -> String {
    let err = stderr(o);
    assert_eq!(o.status.code(), Some(2), "exit code, stderr: {err}");
    assert_eq!(err.lines().count(), 1, "not one line: {err}");
    assert!(err.starts_with("error: "), "{err}");
    for n in needles {
        assert!(err.contains(n), "{err:?} does not mention {n:?}");
    }
    err
}

fn is_root() -> bool {
    std::process::Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).trim() == "0")
}

/// Temporary files left in a folder by the atomic writes.
fn temporaries(dir: &std::path::Path) -> Vec<String> {
    std::fs::read_dir(dir)
        .map(|rd| {
            rd.filter_map(|e| e.ok())
                .map(|e| e.file_name().to_string_lossy().into_owned())
                .filter(|n| n.contains(".tmp-") || n.contains(".tmp."))
                .collect()
        })
        .unwrap_or_default()
}

#[test]
fn a_full_disk_names_the_path_and_the_reason() {
    // /dev/full: every write fails with ENOSPC, as on a full disk.
    let full = std::path::Path::new("/dev/full");
    if !full.exists() {
        eprintln!("no /dev/full on this system: skipped");
        return;
    }
    let o = run(bin().args(["generate", "--count", "1", "--out", "/dev/full"]));
    one_line_error(&o, &["cannot write /dev/full", "No space left on device"]);
    // Written in place: the device was not replaced by a file renamed over it.
    use std::os::unix::fs::FileTypeExt;
    assert!(std::fs::metadata(full)
        .unwrap()
        .file_type()
        .is_char_device());
    assert!(temporaries(std::path::Path::new("/dev")).is_empty());
}

#[test]
fn an_unwritable_folder_names_the_path_and_the_reason() {
    let d = tmpdir("unwritable");
    let spec = d.join("s.toml");
    std::fs::write(
        &spec,
        "id = \"s\"\ntitle = \"t\"\nmaster_seed = 1\nruns = 1\nquick_runs = 1\n\
         quick_max_generations = 5\npuzzles = [{ id = \"mk_easy\" }]\n\n[[algorithms]]\n\
         label = \"a\"\nalgorithm = \"ret-ga\"\nmax_generations = 5\n",
    )
    .unwrap();
    // Places no process may write, and the OS reason expected there. chmod 0555 does not
    // stop root: as root, a path under a regular file (ENOTDIR) and /sys (EACCES/EPERM).
    let file = d.join("a-file");
    std::fs::write(&file, "x").unwrap();
    let mut places = vec![(file.join("out"), "Not a directory")];
    if is_root() {
        if std::path::Path::new("/sys").is_dir() {
            places.push(("/sys/sudoku-lab-test".into(), ""));
        }
    } else {
        use std::os::unix::fs::PermissionsExt;
        let ro = d.join("read-only");
        std::fs::create_dir(&ro).unwrap();
        std::fs::set_permissions(&ro, std::fs::Permissions::from_mode(0o555)).unwrap();
        places.push((ro.join("out"), "Permission denied"));
    }
    for (out, reason) in &places {
        let shown = out.display().to_string();
        let o = run(bin()
            .args(["run", &spec.display().to_string(), "--out", &shown])
            .current_dir(&d));
        one_line_error(&o, &[&format!("cannot create {shown}"), reason]);
        assert!(!out.exists());
        let puzzles = format!("{shown}.txt");
        let o = run(bin().args(["generate", "--count", "1", "--out", &puzzles]));
        one_line_error(&o, &[&format!("cannot write {puzzles}"), reason]);
        assert!(!std::path::Path::new(&puzzles).exists());
        if let Some(parent) = out.parent() {
            assert!(temporaries(parent).is_empty(), "{shown}");
        }
    }
}

/// `--param` values of the wrong type, for each algorithm's options: one line naming the key,
/// what it expects and what was given.
#[test]
fn param_type_errors_fit_on_one_line_naming_key_expected_and_given() {
    let cases: &[(&str, &str, &[&str])] = &[
        (
            "ret-ga",
            "crossover_probability=abc",
            &["crossover_probability", "expected f64", "\"abc\""],
        ),
        (
            "ret-ga",
            "population_factor=1.5",
            &["population_factor", "expected usize", "1.5"],
        ),
        (
            "ret-ga",
            "reset_rule=7",
            &["reset_rule", "expected a string", "7"],
        ),
        (
            "mk-ga",
            "population=1.5",
            &["population", "expected usize", "1.5"],
        ),
        (
            "mk-ga",
            "ageing=maybe",
            &["ageing", "expected a boolean", "\"maybe\""],
        ),
        (
            "mk-ga",
            "mutation_ratios=1",
            &["mutation_ratios", "expected an array", "1"],
        ),
        ("reseda", "alpha=abc", &["alpha", "expected f64", "\"abc\""]),
        (
            "reseda",
            "strategy=7",
            &["strategy", "expected a string", "7"],
        ),
        ("reseda", "samples=-3", &["samples", "expected usize", "-3"]),
        (
            "reseda",
            "strategy=sometimes",
            &["strategy", "'sometimes'", "both"],
        ),
        ("cso", "cats=1.5", &["cats", "expected usize", "1.5"]),
        ("cso", "spc=3", &["spc", "expected a boolean", "3"]),
        (
            "gen-ga",
            "population=abc",
            &["population", "expected usize", "\"abc\""],
        ),
        (
            "gen-ga",
            "mutation_rate=[1]",
            &["mutation_rate", "expected f64", "sequence"],
        ),
        (
            "lewis-sa",
            "alpha=abc",
            &["alpha", "expected f64", "\"abc\""],
        ),
        (
            "lewis-sa",
            "box_choice=7",
            &["box_choice", "expected a string", "7"],
        ),
        (
            "lewis-sa",
            "chain_length=true",
            &["chain_length", "expected u64", "true"],
        ),
    ];
    for (algo, kv, needles) in cases {
        let o = run(bin().args(["solve", "--algo", algo, "--param", kv, "mk_easy"]));
        let err = one_line_error(&o, needles);
        assert!(err.contains(&format!("--algo {algo}")), "{err}");
        assert!(!err.ends_with(" \n"), "trailing space: {err:?}");
    }
    // Unknown keys, for every algorithm: the key and the keys it knows.
    for algo in ["ret-ga", "mk-ga", "reseda", "cso", "gen-ga", "lewis-sa"] {
        let o = run(bin().args(["solve", "--algo", algo, "--param", "bogus=1", "mk_easy"]));
        one_line_error(&o, &["unknown field `bogus`", "expected one of"]);
    }
}

#[test]
fn malformed_params_fit_on_one_line() {
    for (kv, needle) in [
        ("=3", "the key must be"),
        ("a b=3", "the key must be"),
        ("alpha", "is not key=value"),
        ("a.b=3", "the key must be"),
    ] {
        let o = run(bin().args(["solve", "--algo", "reseda", "--param", kv, "mk_easy"]));
        one_line_error(&o, &[needle, kv]);
    }
    // Text that is not a TOML value is taken as a string, quotes and all.
    let o = run(bin().args([
        "solve",
        "--algo",
        "reseda",
        "--param",
        "strategy=a\"b\\",
        "mk_easy",
    ]));
    one_line_error(&o, &["strategy = 'a\"b\\' is not one of"]);
}

/// A spec that never ends (`/dev/zero`, a device) is refused as not a regular file and one that
/// is too large at a size limit, instead of filling the memory; one that is not UTF-8 names
/// the byte.
#[test]
fn endless_and_binary_specs_are_refused_in_one_line() {
    if std::path::Path::new("/dev/zero").exists() {
        let o = run(bin().args(["run", "/dev/zero"]));
        one_line_error(&o, &["cannot read /dev/zero: not a regular file"]);
    }
    let d = tmpdir("large-spec");
    let large = d.join("large.toml");
    std::fs::write(&large, vec![b'#'; (1 << 20) + 1]).unwrap();
    let o = run(bin().arg("run").arg(&large));
    one_line_error(&o, &["large.toml: larger than the 1 MB a spec may have"]);
    let d = tmpdir("binary-spec");
    let spec = d.join("s.toml");
    std::fs::write(&spec, b"id = \"s\xff\"\n").unwrap();
    let o = run(bin().args(["run", &spec.display().to_string()]));
    one_line_error(&o, &["s.toml: not UTF-8 text (byte 7)"]);
}
