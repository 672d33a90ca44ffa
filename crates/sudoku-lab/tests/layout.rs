//! The runner's layout: its source folders are rooms by role, imports point from
//! the command layer down to the algorithm registry and never back, no two modules import each
//! other (directly or around a circle), and no function is longer than a screen or two.
//!
//! The checks read the source text: every `crate::` and `super::` path outside comments and
//! outside facade re-exports (`pub use`) is an import of the deepest module file it names.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// The rooms, lowest first: a room may import only rooms before it (and itself).
const ROOMS: [&str; 8] = [
    "algos", "spec", "protocol", "export", "reports", "readings", "site", "cli",
];

/// The longest function the runner may have, in lines (signature to closing brace).
const MAX_FUNCTION_LINES: usize = 80;

/// The runner's sources (`LAYOUT_SRC` points the checks at another tree, e.g. an old revision).
fn src() -> PathBuf {
    std::env::var_os("LAYOUT_SRC")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("src"))
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for e in std::fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            rust_files(&p, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            out.push(p);
        }
    }
}

/// The module path of a source file: `reports/compare/mod.rs` -> ["reports", "compare"].
fn module_of(file: &Path) -> Vec<String> {
    let rel = file.strip_prefix(src()).unwrap();
    let mut parts: Vec<String> = rel
        .iter()
        .map(|c| c.to_string_lossy().trim_end_matches(".rs").to_string())
        .collect();
    if parts.last().is_some_and(|l| l == "mod" || l == "main") {
        parts.pop();
    }
    parts
}

/// The code of a file without comments, string literals and test modules, one entry per line.
fn code_lines(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut in_tests = false;
    for line in text.lines() {
        let t = line.trim_start();
        if t.starts_with("#[cfg(test)]") {
            // Test modules sit at the end of a file; their imports are not the runner's.
            in_tests = true;
        }
        if in_tests {
            out.push(String::new());
            continue;
        }
        let mut s = String::new();
        let mut chars = line.chars().peekable();
        let mut in_str = false;
        while let Some(c) = chars.next() {
            if in_str {
                if c == '\\' {
                    chars.next();
                } else if c == '"' {
                    in_str = false;
                }
                continue;
            }
            if c == '"' {
                in_str = true;
                continue;
            }
            if c == '/' && chars.peek() == Some(&'/') {
                break;
            }
            s.push(c);
        }
        out.push(s);
    }
    out
}

/// Every module path a line refers to, `use a::{b, c::d}` expanded one level.
fn paths_in(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let bytes: Vec<char> = line.chars().collect();
    let starts: Vec<usize> = line
        .match_indices("crate::")
        .chain(line.match_indices("super::"))
        .map(|(i, _)| i)
        .filter(|&i| i == 0 || !(bytes[i - 1].is_alphanumeric() || bytes[i - 1] == '_'))
        .collect();
    for i in starts {
        let rest = &line[i..];
        let end = rest
            .find(|c: char| !(c.is_alphanumeric() || c == '_' || c == ':'))
            .unwrap_or(rest.len());
        let base = rest[..end].trim_end_matches(':').to_string();
        if rest[end..].starts_with('{') && rest[..end].ends_with("::") {
            let inner = &rest[end + 1..rest.find('}').unwrap_or(rest.len())];
            for item in inner.split(',') {
                let item = item.trim().split(" as ").next().unwrap_or("").trim();
                if item == "self" {
                    out.push(base.clone());
                } else if !item.is_empty() {
                    out.push(format!("{base}::{item}"));
                }
            }
        } else {
            out.push(base);
        }
    }
    out
}

/// Paths that start at a child module of the current one (`quick::mark(..)` in `reports`).
fn child_paths_in(line: &str, me: &[String], modules: &BTreeSet<Vec<String>>) -> Vec<String> {
    let chars: Vec<char> = line.chars().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < chars.len() {
        let starts_word = (chars[i].is_ascii_lowercase() || chars[i] == '_')
            && (i == 0
                || !(chars[i - 1].is_alphanumeric() || chars[i - 1] == '_' || chars[i - 1] == ':'));
        if starts_word {
            let mut j = i;
            while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '_') {
                j += 1;
            }
            let word: String = chars[i..j].iter().collect();
            let mut child = me.to_vec();
            child.push(word.clone());
            if chars.get(j) == Some(&':')
                && chars.get(j + 1) == Some(&':')
                && modules.contains(&child)
            {
                out.push(child.join("::"));
            }
            i = j;
        } else {
            i += 1;
        }
    }
    out
}

/// The module file a path names: the deepest prefix that is a module of the crate.
fn resolve(path: &str, from: &[String], modules: &BTreeSet<Vec<String>>) -> Option<Vec<String>> {
    let mut parts: Vec<String> = Vec::new();
    let mut segs = path.split("::").peekable();
    match segs.next()? {
        "crate" => {}
        "super" => {
            parts = from.to_vec();
            parts.pop();
            while segs.peek() == Some(&"super") {
                segs.next();
                parts.pop();
            }
        }
        _ => return None,
    }
    let mut best = parts.clone();
    for s in segs {
        parts.push(s.to_string());
        if modules.contains(&parts) {
            best = parts.clone();
        } else {
            break;
        }
    }
    Some(best)
}

/// Module -> the modules it imports.
fn import_graph() -> BTreeMap<Vec<String>, BTreeSet<Vec<String>>> {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let modules: BTreeSet<Vec<String>> = files.iter().map(|f| module_of(f)).collect();
    let mut graph = BTreeMap::new();
    for f in &files {
        let me = module_of(f);
        let text = std::fs::read_to_string(f).unwrap();
        let mut deps = BTreeSet::new();
        for line in code_lines(&text) {
            if line.trim_start().starts_with("pub use ") {
                continue;
            }
            for p in paths_in(&line) {
                if let Some(m) = resolve(&p, &me, &modules) {
                    if m != me && !m.is_empty() {
                        deps.insert(m);
                    }
                }
            }
            for p in child_paths_in(&line, &me, &modules) {
                if let Some(m) = resolve(&format!("crate::{p}"), &me, &modules) {
                    deps.insert(m);
                }
            }
        }
        graph.insert(me, deps);
    }
    graph
}

fn name(m: &[String]) -> String {
    if m.is_empty() {
        "main".into()
    } else {
        m.join("::")
    }
}

#[test]
fn layers_import_downwards_only() {
    let graph = import_graph();
    let rank = |m: &[String]| m.first().and_then(|r| ROOMS.iter().position(|x| x == r));
    let mut wrong = Vec::new();
    for (m, deps) in &graph {
        let (Some(r), false) = (rank(m), m.first().is_some_and(|r| r == "fuzz")) else {
            continue;
        };
        for d in deps {
            if let Some(rd) = rank(d) {
                if rd > r {
                    wrong.push(format!("{} imports {}", name(m), name(d)));
                }
            }
        }
    }
    assert!(
        wrong.is_empty(),
        "imports against the layers {ROOMS:?}:\n{}",
        wrong.join("\n")
    );
}

#[test]
fn no_module_imports_itself_around_a_circle() {
    let graph = import_graph();
    // Depth-first search for a back edge; report the circle it closes.
    fn visit(
        m: &Vec<String>,
        graph: &BTreeMap<Vec<String>, BTreeSet<Vec<String>>>,
        stack: &mut Vec<Vec<String>>,
        done: &mut BTreeSet<Vec<String>>,
        circles: &mut Vec<String>,
    ) {
        if let Some(i) = stack.iter().position(|x| x == m) {
            let names: Vec<String> = stack[i..].iter().map(|x| name(x)).collect();
            circles.push(format!("{} -> {}", names.join(" -> "), name(m)));
            return;
        }
        if !done.insert(m.clone()) {
            return;
        }
        stack.push(m.clone());
        for d in graph.get(m).into_iter().flatten() {
            visit(d, graph, stack, done, circles);
        }
        stack.pop();
    }
    let mut circles = Vec::new();
    let mut done = BTreeSet::new();
    for m in graph.keys() {
        visit(m, &graph, &mut Vec::new(), &mut done, &mut circles);
    }
    assert!(circles.is_empty(), "import cycles:\n{}", circles.join("\n"));
}

#[test]
fn every_source_file_is_in_a_room() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    let loose: Vec<String> = files
        .iter()
        .map(|f| module_of(f))
        .filter(|m| {
            !(m.is_empty() || m == &["fuzz"] || ROOMS.contains(&m[0].as_str()) && !m.is_empty())
        })
        .map(|m| name(&m))
        .collect();
    assert!(loose.is_empty(), "files outside the rooms: {loose:?}");
}

/// The functions of `text` longer than `max` lines, as (name, first line, lines).
fn long_functions(text: &str, max: usize) -> Vec<(String, usize, usize)> {
    let lines = code_lines_keep_tests(text);
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let t = line.trim_start();
        let t = t
            .strip_prefix("pub(crate) ")
            .or_else(|| t.strip_prefix("pub(super) "))
            .or_else(|| t.strip_prefix("pub "))
            .unwrap_or(t);
        let Some(rest) = t.strip_prefix("fn ") else {
            continue;
        };
        let fname: String = rest
            .chars()
            .take_while(|c| c.is_alphanumeric() || *c == '_')
            .collect();
        let mut depth = 0i64;
        let mut opened = false;
        for (j, l) in lines.iter().enumerate().skip(i) {
            for c in l.chars() {
                match c {
                    '{' => {
                        depth += 1;
                        opened = true;
                    }
                    '}' => depth -= 1,
                    _ => {}
                }
            }
            if opened && depth == 0 {
                let n = j - i + 1;
                if n > max {
                    out.push((fname.clone(), i + 1, n));
                }
                break;
            }
            if !opened && l.trim_end().ends_with(';') {
                break;
            }
        }
    }
    out
}

/// Code lines (comments and strings blanked) including test modules.
fn code_lines_keep_tests(text: &str) -> Vec<String> {
    let no_cfg = text.replace("#[cfg(test)]", "#[cfg(any())]");
    code_lines(&no_cfg)
}

#[test]
fn no_function_is_longer_than_the_limit() {
    let mut files = Vec::new();
    rust_files(&src(), &mut files);
    files.sort();
    let mut long = Vec::new();
    for f in &files {
        let text = std::fs::read_to_string(f).unwrap();
        for (fname, line, n) in long_functions(&text, MAX_FUNCTION_LINES) {
            long.push(format!(
                "{}:{line} {fname}: {n} lines",
                f.strip_prefix(src()).unwrap().display()
            ));
        }
    }
    assert!(
        long.is_empty(),
        "functions over {MAX_FUNCTION_LINES} lines:\n{}",
        long.join("\n")
    );
}

#[test]
fn the_checks_see_what_they_look_for() {
    // A cycle, an upward import and a long function in made-up text are found.
    assert_eq!(
        paths_in("use crate::reports::{groups::Group, quick};"),
        vec!["crate::reports::groups::Group", "crate::reports::quick"]
    );
    assert_eq!(
        paths_in("let x = super::data::f(1);"),
        vec!["super::data::f"]
    );
    assert_eq!(
        paths_in("use crate::spec::{self, Spec};"),
        vec!["crate::spec", "crate::spec::Spec"]
    );
    assert!(
        paths_in("// crate::cli::run()").len() == 1,
        "paths_in sees raw text"
    );
    assert!(code_lines("x(); // crate::cli::run()")[0].trim() == "x();");
    let long = format!("fn f() {{\n{}}}\n", "    x();\n".repeat(90));
    assert_eq!(long_functions(&long, 80), vec![("f".to_string(), 1, 92)]);
    let short = format!("fn f() {{\n{}}}\n", "    x();\n".repeat(10));
    assert!(long_functions(&short, 80).is_empty());
    let modules: BTreeSet<Vec<String>> = [
        vec!["reports".to_string()],
        vec!["reports".into(), "compare".into()],
    ]
    .into_iter()
    .collect();
    let from = vec![
        "reports".to_string(),
        "compare".to_string(),
        "charts".to_string(),
    ];
    assert_eq!(
        resolve("super::stats::Friedman", &from, &modules),
        Some(vec!["reports".to_string(), "compare".to_string()])
    );
    assert_eq!(
        resolve("crate::reports::compare::data::Data", &from, &modules),
        Some(vec!["reports".to_string(), "compare".to_string()])
    );
    let me = vec!["reports".to_string()];
    assert_eq!(
        child_paths_in("let md = compare::write(inp)?; x_compare::y", &me, &modules),
        vec!["reports::compare"]
    );
}
