//! The messages of protocol v2, one JSON object per line (see docs/external-solvers.md and
//! docs/external-solver.schema.json): what the runner sends (`hello`, `run`) and the checked
//! reading of what a solver sends (`hello`, `progress`, `result`). A solver's message is
//! hostile input: every field is checked, and the error says which and why in a few words.

use serde_json::{json, Map, Value};
use sudoku_core::{Budget, Geometry, Grid, Puzzle};

/// The protocol version this runner speaks. Version 2 added `run_id`: every run message
/// carries one, and the solver echoes it in each progress and result line, so that a line left
/// over from another run can never be credited to this one. Version 1 (no `run_id`) is refused:
/// a stale result of a v1 solver cannot be told from a fresh one.
pub const VERSION: u64 = 2;

/// What a run asks of the solver.
#[derive(Debug, Clone)]
pub struct Request<'a> {
    pub puzzle: &'a Puzzle,
    pub seed: u64,
    pub budget: Budget,
    pub wall_seconds: f64,
    /// The run's time budget (the spec's `max_cpu_seconds`, `max_wall_seconds`): a solver that
    /// keeps it stops by itself before it, returns its best grid and says which limit stopped
    /// it in the result's `stopped`.
    pub max_cpu_seconds: Option<f64>,
    pub max_wall_seconds: Option<f64>,
    pub params: &'a Value,
}

/// The words a result's `stopped` may hold: the time limit that ended the run (runs.csv's
/// `termination` then says it).
pub const STOPPED: &[&str] = &["cpu_limit", "wall_clock_limit"];

/// The most counters a result may carry, and the longest counter name.
pub const MAX_COUNTERS: usize = 32;
pub const MAX_COUNTER_NAME: usize = 40;

/// The runner's greeting.
pub fn hello() -> String {
    json!({"type": "hello", "protocol": VERSION}).to_string()
}

/// The grid as rows of numbers (0 = empty).
pub fn rows(grid: &Grid) -> Value {
    let n = grid.geometry().n();
    Value::Array(grid.cells().chunks(n).map(|r| json!(r)).collect())
}

/// The `run` message of a request; `run_id` is the id the solver must echo.
pub fn run(r: &Request, run_id: u64) -> String {
    let g = r.puzzle.geometry();
    json!({
        "type": "run",
        "run_id": run_id,
        "puzzle": {
            "id": r.puzzle.id,
            "order": g.n(),
            "box_rows": g.box_rows(),
            "box_cols": g.box_cols(),
            "givens": rows(&r.puzzle.grid),
        },
        "seed": r.seed,
        "budget": {
            "max_evaluations": r.budget.max_evaluations,
            "max_generations": r.budget.max_generations,
            "wall_seconds": r.wall_seconds,
            "max_cpu_seconds": r.max_cpu_seconds,
            "max_wall_seconds": r.max_wall_seconds,
        },
        "params": r.params,
    })
    .to_string()
}

/// A solver's message, checked.
#[derive(Debug, Clone, PartialEq)]
pub enum Reply {
    Hello {
        protocol: u64,
        name: Option<String>,
    },
    Progress {
        /// The run it belongs to (the run message's `run_id`, echoed).
        run_id: u64,
        evaluations: u64,
        generations: Option<u64>,
        /// Its current best grid, when sent (the runner measures it; a claimed penalty is
        /// not data).
        grid: Option<Vec<u8>>,
    },
    Result {
        /// The run it belongs to (the run message's `run_id`, echoed).
        run_id: u64,
        evaluations: u64,
        generations: u64,
        restarts: u64,
        /// Whether the solver says it solved the puzzle (checked, never believed).
        solved: bool,
        grid: Vec<u8>,
        /// The time limit the solver says ended the run (one of [`STOPPED`]).
        stopped: Option<&'static str>,
        /// The solver's own numbers (`counters`: an object of names to non-negative
        /// integers), as runs.csv's `counters` field writes them (`name=value;...`).
        counters: String,
    },
}

/// Read one line of a solver's output as a message for a grid of geometry `g`.
pub fn parse(line: &str, g: Geometry) -> Result<Reply, String> {
    let v: Value = serde_json::from_str(line).map_err(|e| format!("not JSON ({e})"))?;
    let Value::Object(o) = v else {
        return Err("not a JSON object".into());
    };
    let kind = o.get("type").and_then(Value::as_str).unwrap_or("");
    match kind {
        "hello" => Ok(Reply::Hello {
            protocol: count(&o, "protocol")?.ok_or("hello without \"protocol\"")?,
            name: o.get("name").and_then(Value::as_str).map(str::to_string),
        }),
        "progress" => Ok(Reply::Progress {
            run_id: required(&o, "run_id")?,
            evaluations: required(&o, "evaluations")?,
            generations: count(&o, "generations")?,
            grid: o.get("grid").map(|v| grid(v, g)).transpose()?,
        }),
        "result" => Ok(Reply::Result {
            run_id: required(&o, "run_id")?,
            evaluations: required(&o, "evaluations")?,
            generations: count(&o, "generations")?.unwrap_or(0),
            restarts: count(&o, "restarts")?.unwrap_or(0),
            solved: match o.get("solved") {
                None => false,
                Some(v) => v.as_bool().ok_or("\"solved\" is not true or false")?,
            },
            grid: grid(o.get("grid").ok_or("result without \"grid\"")?, g)?,
            stopped: stopped(&o)?,
            counters: counters(&o)?,
        }),
        "" => Err("no \"type\" string".into()),
        other => Err(format!(
            "unknown type \"{}\"",
            other.chars().take(40).collect::<String>().escape_debug()
        )),
    }
}

/// A result's optional `stopped` word.
fn stopped(o: &Map<String, Value>) -> Result<Option<&'static str>, String> {
    match o.get("stopped") {
        None | Some(Value::Null) => Ok(None),
        Some(v) => {
            let word = v.as_str().unwrap_or("");
            STOPPED
                .iter()
                .copied()
                .find(|w| *w == word)
                .map(Some)
                .ok_or_else(|| format!("\"stopped\" is not one of: {}", STOPPED.join(", ")))
        }
    }
}

/// A result's optional `counters` object, as `name=value;...` sorted by name: names of
/// lowercase letters, digits and `_` (at most [`MAX_COUNTER_NAME`] characters), values
/// non-negative integers, at most [`MAX_COUNTERS`] of them.
fn counters(o: &Map<String, Value>) -> Result<String, String> {
    let Some(v) = o.get("counters").filter(|v| !v.is_null()) else {
        return Ok(String::new());
    };
    let m = v.as_object().ok_or("\"counters\" is not an object")?;
    if m.len() > MAX_COUNTERS {
        return Err(format!("\"counters\" has more than {MAX_COUNTERS} names"));
    }
    let mut out = Vec::with_capacity(m.len());
    for (k, v) in m {
        let good = !k.is_empty()
            && k.len() <= MAX_COUNTER_NAME
            && k.bytes()
                .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'_');
        if !good {
            return Err(format!(
                "counter name \"{}\" is not 1 to {MAX_COUNTER_NAME} of a-z, 0-9, _",
                k.chars().take(40).collect::<String>().escape_debug()
            ));
        }
        let n = v
            .as_u64()
            .ok_or_else(|| format!("counter \"{k}\" is not a non-negative integer"))?;
        out.push(format!("{k}={n}"));
    }
    Ok(out.join(";"))
}

/// An optional non-negative integer field.
fn count(o: &Map<String, Value>, key: &str) -> Result<Option<u64>, String> {
    match o.get(key) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .map(Some)
            .ok_or_else(|| format!("\"{key}\" is not a non-negative integer")),
    }
}

/// A required non-negative integer field.
fn required(o: &Map<String, Value>, key: &str) -> Result<u64, String> {
    count(o, key)?.ok_or_else(|| format!("no \"{key}\""))
}

/// A grid: n rows of n integers in 0..=n (0 = empty), as cells in row-major order.
fn grid(v: &Value, g: Geometry) -> Result<Vec<u8>, String> {
    let n = g.n();
    let rows = v
        .as_array()
        .filter(|r| r.len() == n)
        .ok_or_else(|| format!("\"grid\" is not an array of {n} rows"))?;
    let mut cells = Vec::with_capacity(n * n);
    for (i, row) in rows.iter().enumerate() {
        let row = row
            .as_array()
            .filter(|r| r.len() == n)
            .ok_or_else(|| format!("grid row {} is not an array of {n} numbers", i + 1))?;
        for x in row {
            match x.as_u64() {
                Some(k) if k as usize <= n => cells.push(k as u8),
                _ => return Err(format!("grid row {} holds {x}, not 0..={n}", i + 1)),
            }
        }
    }
    Ok(cells)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn g9() -> Geometry {
        Geometry::for_order(9).unwrap()
    }

    #[test]
    fn replies_are_read_and_checked() {
        let row = "[1,2,3,4,5,6,7,8,9]";
        let rows = [row; 9].join(",");
        let r = parse(
            &format!(
                r#"{{"type":"result","run_id":3,"evaluations":5,"solved":true,"grid":[{rows}]}}"#
            ),
            g9(),
        )
        .unwrap();
        assert!(matches!(
            r,
            Reply::Result {
                run_id: 3,
                evaluations: 5,
                solved: true,
                generations: 0,
                ..
            }
        ));
        assert_eq!(
            parse(r#"{"type":"hello","protocol":1}"#, g9()).unwrap(),
            Reply::Hello {
                protocol: 1,
                name: None
            }
        );
        for (bad, why) in [
            ("nonsense", "not JSON"),
            ("[1]", "not a JSON object"),
            (r#"{"type":"progress","run_id":1}"#, "no \"evaluations\""),
            (
                r#"{"type":"progress","run_id":1,"evaluations":-1}"#,
                "non-negative",
            ),
            (
                r#"{"type":"result","run_id":1,"evaluations":1,"grid":[[1]]}"#,
                "9 rows",
            ),
            (r#"{"type":"zzz"}"#, "unknown type"),
            (
                r#"{"type":"result","run_id":1,"evaluations":1}"#,
                "without \"grid\"",
            ),
            // Protocol 1's lines, without the run's id, are refused.
            (r#"{"type":"progress","evaluations":1}"#, "no \"run_id\""),
            (
                &format!(r#"{{"type":"result","evaluations":5,"grid":[{rows}]}}"#),
                "no \"run_id\"",
            ),
        ] {
            let e = parse(bad, g9()).unwrap_err();
            assert!(e.contains(why), "{bad}: {e}");
        }
        let ten = format!("[{rows},[0,0,0,0,0,0,0,0,10]]");
        let e = parse(
            &format!(r#"{{"type":"progress","run_id":1,"evaluations":1,"grid":{ten}}}"#),
            g9(),
        );
        assert!(e.is_err());
    }

    #[test]
    fn the_run_message_carries_the_puzzle_and_budget() {
        let p = sudoku_core::bank_puzzle("mk_easy").unwrap();
        let params = json!({"alpha": 0.9});
        let msg = run(
            &Request {
                puzzle: p,
                seed: u64::MAX,
                budget: Budget {
                    max_generations: Some(7),
                    max_evaluations: None,
                },
                wall_seconds: 2.5,
                max_cpu_seconds: Some(1.5),
                max_wall_seconds: None,
                params: &params,
            },
            41,
        );
        let v: Value = serde_json::from_str(&msg).unwrap();
        assert_eq!(v["run_id"].as_u64(), Some(41));
        assert_eq!(v["seed"].as_u64(), Some(u64::MAX));
        assert_eq!(v["puzzle"]["order"], 9);
        assert_eq!(v["puzzle"]["givens"].as_array().unwrap().len(), 9);
        assert_eq!(v["budget"]["max_generations"], 7);
        assert!(v["budget"]["max_evaluations"].is_null());
        assert_eq!(v["params"]["alpha"], 0.9);
        assert_eq!(v["budget"]["max_cpu_seconds"], 1.5);
        assert!(v["budget"]["max_wall_seconds"].is_null());
    }

    /// A result's `stopped` and `counters`: read when well formed, refused with a reason
    /// otherwise.
    #[test]
    fn a_result_may_say_what_stopped_it_and_carry_counters() {
        let rows = ["[1,2,3,4,5,6,7,8,9]"; 9].join(",");
        let read = |extra: &str| {
            parse(
                &format!(
                    r#"{{"type":"result","run_id":1,"evaluations":5,"grid":[{rows}]{extra}}}"#
                ),
                g9(),
            )
        };
        type Want<'a> = Result<(Option<&'a str>, &'a str), &'a str>;
        let table: [(&str, Want); 8] = [
            ("", Ok((None, ""))),
            (r#","stopped":"cpu_limit""#, Ok((Some("cpu_limit"), ""))),
            (r#","stopped":null,"counters":{}"#, Ok((None, ""))),
            (
                r#","counters":{"ants":10,"best_score":81}"#,
                Ok((None, "ants=10;best_score=81")),
            ),
            (r#","stopped":"tired""#, Err("\"stopped\" is not one of")),
            (r#","counters":[1]"#, Err("not an object")),
            (r#","counters":{"A":1}"#, Err("counter name")),
            (r#","counters":{"a":-1}"#, Err("not a non-negative integer")),
        ];
        for (extra, want) in table {
            match (read(extra), want) {
                (
                    Ok(Reply::Result {
                        stopped, counters, ..
                    }),
                    Ok((s, c)),
                ) => {
                    assert_eq!((stopped, counters.as_str()), (s, c), "{extra}")
                }
                (Err(e), Err(why)) => assert!(e.contains(why), "{extra}: {e}"),
                (got, _) => panic!("{extra}: {got:?}"),
            }
        }
    }
}
