//! A race folder's settings.json: everything the race's runs depend on, which `--resume`,
//! `replay` and the cluster rounds check before using the folder.
//!
//! One versioned type, written and read back by serde. Version 2 (this one) stores the
//! published rows as records of their fields. Version 1, the folders written before the
//! versions (no `version` key), stored each row as Rust debug text
//! (`PublishedRow { level: "1 Star", givens: Some(33), ... }`): such rows are read by parsing
//! that text into the same record, a field the text does not hold taking its default, so a
//! field added to the row type later does not make the committed folders refuse `--resume`.
//! Two settings are compared as values ([`Settings::same`]): the spec likewise, a key a
//! recorded spec does not hold counting as null. A folder whose settings are the race's keeps
//! its file as it is (the committed folders stay byte for byte); one whose settings change
//! (a confirmation seed added, another procedure) gets version 2.

use super::procedure::Procedure;
use super::Setup;
use crate::reports::groups::PublishedRow;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use std::path::Path;

/// The version this code writes.
pub const VERSION: u32 = 2;

/// Errors of reading a settings.json.
#[derive(Debug, thiserror::Error)]
pub enum SettingsError {
    #[error("{path}: {message}")]
    Read { path: String, message: String },
    #[error("{path}:{line}: not the settings of a race: {message}")]
    Format {
        path: String,
        line: usize,
        message: String,
    },
    #[error("{path}: published row {row}: {message}")]
    Row {
        path: String,
        row: usize,
        message: String,
    },
    #[error("{path}: version {version} is not a version of a race's settings (1 or {VERSION})")]
    Version { path: String, version: u32 },
}

fn version_1() -> u32 {
    1
}

/// settings.json of a race (version 2; version 1 read leniently, see the module).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    /// The format's version: absent (1) in folders written before the versions.
    #[serde(default = "version_1")]
    pub version: u32,
    /// `--algorithm`: the raced entries' labels, several joined by commas, or `all`.
    pub algorithm: String,
    pub alpha: f64,
    /// `--cap` (0: no caps).
    pub cap: f64,
    /// The confirmation's master seed (absent: no confirmation).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub confirm_seed: Option<u64>,
    /// `false` with `--no-curtail` (absent: curtailed).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub curtail: Option<bool>,
    /// The options raced and their values (as a spec writes them).
    pub keys: Vec<String>,
    /// The verdicts' margins (success, mean), only when not the defaults.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub margins: Option<(f64, f64)>,
    /// `--mean-cap`, only where a row gets a mean cap.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub mean_cap: Option<f64>,
    /// The procedure (absent: v1, the races made before the versions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub procedure: Option<Procedure>,
    /// The published rows raced against.
    pub published: Vec<Row>,
    /// The cumulative runs per puzzle of the rounds asked for.
    pub rounds: Vec<u64>,
    /// Runs per race puzzle.
    pub runs: Vec<u64>,
    /// `false` with `--no-shared-runs` (absent: shared).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub shared_runs: Option<bool>,
    /// The spec of the race, as JSON.
    pub spec: Value,
    /// A synthetic race's hidden reading and the synthetic table's seed.
    pub synthetic: Option<(String, u64)>,
    pub values: Vec<Vec<String>>,
}

/// A published row as recorded: a record (version 2) or Rust debug text (version 1).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Row {
    Record(PublishedRow),
    Debug(String),
}

impl Settings {
    /// The settings of the race `setup` (its request settled: procedure and confirmation
    /// seed), of the hidden reading and seed of a synthetic race.
    pub fn of(setup: &Setup, hidden: Option<(usize, u64)>) -> Settings {
        let r = &setup.request;
        let space = &setup.space;
        Settings {
            version: VERSION,
            algorithm: r.algorithm.clone(),
            alpha: r.alpha,
            cap: r.cap_factor.unwrap_or(0.0),
            confirm_seed: r.confirm_seed,
            curtail: (!r.curtail).then_some(false),
            keys: space.keys.clone(),
            margins: (!r.margins.is_default()).then_some((r.margins.success, r.margins.mean)),
            // Only where a row gets a mean cap (races without one keep their settings).
            mean_cap: (setup.uses_mean_cap()).then(|| r.mean_cap_factor.unwrap_or(0.0)),
            // Races of procedure v1 (made before the versions) keep their settings.
            procedure: (r.procedure != Procedure::V1).then_some(r.procedure),
            published: setup.rows.iter().cloned().map(Row::Record).collect(),
            rounds: r.rounds.clone(),
            runs: setup.loaded.runs.clone(),
            shared_runs: (!r.share).then_some(false),
            spec: serde_json::to_value(&r.spec).unwrap_or(Value::Null),
            synthetic: hidden.map(|(h, s)| (space.id(h), s)),
            values: (space.values.iter())
                .map(|v| v.iter().map(super::space::value_text).collect())
                .collect(),
        }
    }

    /// The file's text (pretty JSON and a newline).
    pub fn text(&self) -> String {
        serde_json::to_string_pretty(self).unwrap_or_default() + "\n"
    }

    /// Parse a settings.json's `text` (`path` names it in errors): either version, the
    /// published rows of version 1 parsed from their debug text.
    pub fn parse(text: &str, path: &Path) -> Result<Settings, SettingsError> {
        let at = || path.display().to_string();
        let mut s: Settings = serde_json::from_str(text).map_err(|e| SettingsError::Format {
            path: at(),
            line: e.line(),
            message: e.to_string(),
        })?;
        if s.version != 1 && s.version != VERSION {
            return Err(SettingsError::Version {
                path: at(),
                version: s.version,
            });
        }
        for (i, row) in s.published.iter_mut().enumerate() {
            if let Row::Debug(text) = row {
                let record = debug_row(text).map_err(|message| SettingsError::Row {
                    path: at(),
                    row: i + 1,
                    message,
                })?;
                *row = Row::Record(record);
            }
        }
        Ok(s)
    }

    /// Read a folder's settings.json.
    pub fn read(path: &Path) -> Result<Settings, SettingsError> {
        let text = crate::spec::read_regular(path).map_err(|e| SettingsError::Read {
            path: path.display().to_string(),
            message: format!("{e:#}"),
        })?;
        Settings::parse(&text, path)
    }

    /// Whether `self` (a folder's, parsed) and `new` (the race's) are the same settings,
    /// whatever their versions: equal as JSON values (the published rows as records), where a
    /// key the recorded side does not hold is null in the new one (a field added since).
    pub fn same(&self, new: &Settings) -> bool {
        let mut a = self.clone();
        let mut b = new.clone();
        a.version = VERSION;
        b.version = VERSION;
        match (serde_json::to_value(&a), serde_json::to_value(&b)) {
            (Ok(a), Ok(b)) => lenient_eq(&a, &b),
            _ => false,
        }
    }

    /// Whether a folder's settings (`self`) and the race's ask for the same runs: the same but
    /// for a confirmation seed the race adds (a confirmation asked for on a race made without
    /// one: its runs are its own file's) and, when `procedure` (`--procedure` given), the
    /// procedure: a run's seed and budget do not depend on the procedure that asked for it.
    pub fn same_runs(&self, new: &Settings, procedure: bool) -> bool {
        let mut b = new.clone();
        if self.confirm_seed.is_none() {
            b.confirm_seed = None;
        }
        if procedure {
            b.procedure = self.procedure;
        }
        self.same(&b)
    }

    /// The procedure recorded (v1 where none is: races made before the versions).
    pub fn procedure(&self) -> Procedure {
        self.procedure.unwrap_or(Procedure::V1)
    }
}

/// Two JSON values equal, a key of an object that `recorded` does not hold counting as null
/// in `new` (a field added to a type since), numbers compared by value (floats to within
/// 1e-12 of their size: JSON text read back may differ in the last bit).
fn lenient_eq(recorded: &Value, new: &Value) -> bool {
    match (recorded, new) {
        (Value::Object(a), Value::Object(b)) => {
            a.keys()
                .chain(b.keys())
                .all(|k| match (a.get(k), b.get(k)) {
                    (Some(x), Some(y)) => lenient_eq(x, y),
                    (None, Some(y)) => y.is_null(),
                    (Some(_), None) => false,
                    (None, None) => true,
                })
        }
        (Value::Array(a), Value::Array(b)) => {
            a.len() == b.len() && a.iter().zip(b).all(|(x, y)| lenient_eq(x, y))
        }
        // serde_json reads a float back to within an ulp, not always to the bit.
        (Value::Number(a), Value::Number(b)) => match (a.as_u64(), b.as_u64()) {
            (Some(x), Some(y)) => x == y,
            _ => match (a.as_f64(), b.as_f64()) {
                (Some(x), Some(y)) => x == y || (x - y).abs() <= 1e-12 * x.abs().max(y.abs()),
                _ => false,
            },
        },
        _ => recorded == new,
    }
}

/// A published row from its Rust debug text (version 1's settings): `Name { field: value,
/// ... }` with values `"text"`, `None`, `Some(v)` or a number. A field the text does not hold
/// takes its default; a field the row type does not have is refused.
fn debug_row(text: &str) -> Result<PublishedRow, String> {
    let mut p = DebugParser {
        s: text.as_bytes(),
        i: 0,
    };
    p.ident()?;
    p.expect(b'{')?;
    let mut map = serde_json::Map::new();
    loop {
        p.space();
        if p.eat(b'}') {
            break;
        }
        let key = p.ident()?;
        p.expect(b':')?;
        let value = p.value()?;
        map.insert(key, value);
        p.space();
        if !p.eat(b',') {
            p.expect(b'}')?;
            break;
        }
    }
    p.space();
    if p.i != p.s.len() {
        return Err(format!("text after the row at byte {}", p.i));
    }
    serde_json::from_value(Value::Object(map)).map_err(|e| e.to_string())
}

/// A reader of the debug text of a row.
struct DebugParser<'a> {
    s: &'a [u8],
    i: usize,
}

impl DebugParser<'_> {
    fn space(&mut self) {
        while self.s.get(self.i).is_some_and(u8::is_ascii_whitespace) {
            self.i += 1;
        }
    }

    fn eat(&mut self, c: u8) -> bool {
        self.space();
        let hit = self.s.get(self.i) == Some(&c);
        self.i += usize::from(hit);
        hit
    }

    fn expect(&mut self, c: u8) -> Result<(), String> {
        match self.eat(c) {
            true => Ok(()),
            false => Err(format!("'{}' expected at byte {}", c as char, self.i)),
        }
    }

    fn ident(&mut self) -> Result<String, String> {
        self.space();
        let start = self.i;
        while (self.s.get(self.i)).is_some_and(|c| c.is_ascii_alphanumeric() || *c == b'_') {
            self.i += 1;
        }
        match start < self.i {
            true => Ok(String::from_utf8_lossy(&self.s[start..self.i]).into_owned()),
            false => Err(format!("a name expected at byte {start}")),
        }
    }

    fn value(&mut self) -> Result<Value, String> {
        self.space();
        match self.s.get(self.i) {
            Some(b'"') => self.string().map(Value::String),
            Some(c) if c.is_ascii_alphabetic() => match self.ident()?.as_str() {
                "None" => Ok(Value::Null),
                "Some" => {
                    self.expect(b'(')?;
                    let v = self.value()?;
                    self.expect(b')')?;
                    Ok(v)
                }
                "true" => Ok(Value::Bool(true)),
                "false" => Ok(Value::Bool(false)),
                "inf" | "NaN" => Err("a value that is not a number".into()),
                other => Err(format!("'{other}' is not a value")),
            },
            _ => self.number(),
        }
    }

    fn number(&mut self) -> Result<Value, String> {
        let start = self.i;
        while (self.s.get(self.i))
            .is_some_and(|c| c.is_ascii_digit() || matches!(c, b'-' | b'+' | b'.' | b'e' | b'E'))
        {
            self.i += 1;
        }
        let text = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
        if let Ok(n) = text.parse::<u64>() {
            return Ok(Value::from(n));
        }
        (text.parse::<f64>().ok())
            .and_then(serde_json::Number::from_f64)
            .map(Value::Number)
            .ok_or_else(|| format!("'{text}' at byte {start} is not a number"))
    }

    /// A Rust debug string: `"..."` with the escapes `\" \\ \' \n \r \t \0 \u{..}`.
    fn string(&mut self) -> Result<String, String> {
        self.i += 1;
        let mut out = Vec::new();
        loop {
            let Some(&c) = self.s.get(self.i) else {
                return Err("an unterminated string".into());
            };
            self.i += 1;
            match c {
                b'"' => break,
                b'\\' => {
                    let e = *self.s.get(self.i).ok_or("an unterminated escape")?;
                    self.i += 1;
                    let ch = match e {
                        b'"' => '"',
                        b'\\' => '\\',
                        b'\'' => '\'',
                        b'n' => '\n',
                        b'r' => '\r',
                        b't' => '\t',
                        b'0' => '\0',
                        b'u' => {
                            self.expect(b'{')?;
                            let start = self.i;
                            while self.s.get(self.i).is_some_and(u8::is_ascii_hexdigit) {
                                self.i += 1;
                            }
                            let hex = std::str::from_utf8(&self.s[start..self.i]).unwrap_or("");
                            self.expect(b'}')?;
                            (u32::from_str_radix(hex, 16).ok())
                                .and_then(char::from_u32)
                                .ok_or_else(|| format!("\\u{{{hex}}} is not a character"))?
                        }
                        other => return Err(format!("unknown escape \\{}", other as char)),
                    };
                    let mut buf = [0; 4];
                    out.extend_from_slice(ch.encode_utf8(&mut buf).as_bytes());
                }
                other => out.push(other),
            }
        }
        String::from_utf8(out).map_err(|_| "a string that is not UTF-8".into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::reports::groups::parse_published;

    fn rows() -> Vec<PublishedRow> {
        let text = "level,givens,algorithm,runs,count,minimum,maximum,average,median,sd\n\
            1 Star,33,Ret-GA,100,100,9,1016,159.24,98.5,159.95\n\
            \"we\u{301}ird \"\"name\"\"\tx\",,X,20,,,,25.9,,3.19\n";
        parse_published(text, "p").unwrap()
    }

    /// Version 1's rows (debug text, as every committed race before the versions) are read
    /// back as the records they print, escapes and all; a missing field takes its default,
    /// an unknown one and broken text are refused.
    #[test]
    fn debug_rows_are_read_back() {
        for row in rows() {
            let text = format!("{row:?}");
            assert_eq!(debug_row(&text).unwrap(), row, "{text}");
            let shorter = text.replace(", ets_s: None", "");
            assert_eq!(debug_row(&shorter).unwrap(), row, "{shorter}");
        }
        for bad in [
            "PublishedRow { level: \"a\", algorithm: \"b\", colour: Some(1) }",
            "PublishedRow { level: \"a\", algorithm: \"b\"",
            "PublishedRow { level: \"a }",
            "PublishedRow { level: \"a\", algorithm: \"b\", runs: Some(x) }",
            "PublishedRow { level: \"a\", algorithm: \"b\" } trailing",
        ] {
            assert!(debug_row(bad).is_err(), "{bad}");
        }
    }

    /// A version 1 file and its version 2 rewrite are the same settings; a changed row or
    /// spec value is not; a key the recorded spec lacks counts as null.
    #[test]
    fn both_versions_compare_by_value() {
        let records: Vec<Row> = rows().into_iter().map(Row::Record).collect();
        let debug: Vec<Value> = rows()
            .iter()
            .map(|r| Value::from(format!("{r:?}")))
            .collect();
        let old = serde_json::json!({
            "algorithm": "x", "alpha": 0.05, "cap": 2.0, "keys": ["k"], "published": debug,
            "rounds": [5, 10], "runs": [20], "spec": {"id": "s", "a": 1},
            "synthetic": null, "values": [["a", "b"]],
        });
        let path = Path::new("settings.json");
        let old = Settings::parse(&old.to_string(), path).unwrap();
        assert_eq!(old.version, 1);
        let mut new = old.clone();
        new.version = VERSION;
        new.published = records;
        assert!(old.same(&new));
        let reread = Settings::parse(&new.text(), path).unwrap();
        assert_eq!(reread, new);
        assert!(old.same(&reread));
        let mut spec = new.clone();
        spec.spec = serde_json::json!({"id": "s", "a": 1.0, "added": null});
        assert!(old.same(&spec));
        spec.spec = serde_json::json!({"id": "s", "a": 2});
        assert!(!old.same(&spec));
        let mut row = new.clone();
        if let Row::Record(r) = &mut row.published[0] {
            r.count = Some(99);
        }
        assert!(!old.same(&row));
        let mut seed = new.clone();
        seed.confirm_seed = Some(7);
        assert!(!old.same(&seed) && old.same_runs(&seed, false));
        let mut v = new.clone();
        v.procedure = Some(Procedure::V2);
        assert!(!old.same_runs(&v, false) && old.same_runs(&v, true));
        for (text, want) in [
            ("{\"version\": 3}", "settings.json:1: not the settings"),
            ("[1]", "settings.json:1: not the settings"),
        ] {
            let e = Settings::parse(text, path).unwrap_err().to_string();
            assert!(e.starts_with(want), "{e}");
        }
        let mut three = serde_json::to_value(&new).unwrap();
        three["version"] = Value::from(3);
        let e = Settings::parse(&three.to_string(), path).unwrap_err();
        assert!(e.to_string().contains("version 3"), "{e}");
        let mut hostile = serde_json::to_value(&new).unwrap();
        hostile["procedure"] = Value::from("rm -rf");
        let e = Settings::parse(&hostile.to_string(), path).unwrap_err();
        assert!(e.to_string().starts_with("settings.json:"), "{e}");
    }
    /// Every committed race folder's settings.json (each `results/readings-*` folder and its
    /// sub-races) is read, its published rows as records, and is the same settings as its
    /// version 2 rewrite; none is refused. (`committed_races_are_current` resumes each one
    /// from its command.json, which compares these settings with the race's.)
    #[test]
    fn committed_settings_are_read() {
        let results = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results");
        let mut folders = Vec::new();
        for e in std::fs::read_dir(&results).unwrap() {
            let dir = e.unwrap().path();
            let name = dir.file_name().unwrap().to_string_lossy().to_string();
            if name.starts_with("readings-") && dir.is_dir() {
                folders.push(dir.clone());
                folders.extend(std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().path()));
            }
        }
        let mut read = 0;
        for dir in folders {
            let path = dir.join("settings.json");
            if !path.is_file() {
                continue;
            }
            let s = Settings::read(&path).unwrap_or_else(|e| panic!("{e}"));
            assert!(!s.published.is_empty(), "{}", path.display());
            assert!(s.published.iter().all(|r| matches!(r, Row::Record(_))));
            let rewrite = Settings {
                version: VERSION,
                ..s.clone()
            };
            let again = Settings::parse(&rewrite.text(), &path).unwrap();
            assert!(
                s.same(&again) && again.version == VERSION,
                "{}",
                path.display()
            );
            read += 1;
        }
        assert!(read >= 40, "{read}");
    }
}
