//! meta.json as the site reads it: the fields [`crate::protocol::meta::Meta`] writes, each
//! optional and lenient. A results folder is hostile and may be old: a field that is missing,
//! null or of another type is read as absent (shown as `-`), never an error, and the other
//! fields are still read; only a file that is not a JSON object is unreadable.

use serde::de::{DeserializeOwned, Deserializer};
use serde::Deserialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// `T` when the value is one, else None (missing, null or another type).
fn lenient<'de, D: Deserializer<'de>, T: DeserializeOwned>(d: D) -> Result<Option<T>, D::Error> {
    let v = Value::deserialize(d)?;
    Ok(serde_json::from_value(v).ok())
}

/// A list whose elements are read one by one: an element of another type is dropped.
fn lenient_list<'de, D: Deserializer<'de>, T: DeserializeOwned>(
    d: D,
) -> Result<Option<Vec<T>>, D::Error> {
    Ok(match Value::deserialize(d)? {
        Value::Array(items) => Some(
            (items.into_iter())
                .filter_map(|v| serde_json::from_value(v).ok())
                .collect(),
        ),
        _ => None,
    })
}

/// meta.json: what the site shows of it.
#[derive(Debug, Default, Deserialize)]
pub struct MetaView {
    #[serde(default, deserialize_with = "lenient")]
    pub settings: Option<SettingsView>,
    #[serde(default, deserialize_with = "lenient")]
    pub spec: Option<SpecView>,
    #[serde(default, deserialize_with = "lenient")]
    pub git_revision: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub sudoku_lab_version: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub dependencies: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub threads: Option<u64>,
    #[serde(default, deserialize_with = "lenient")]
    pub machine: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub started_utc: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub finished_utc: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub wall_seconds: Option<f64>,
    #[serde(default, deserialize_with = "lenient")]
    pub runs_executed_this_session: Option<u64>,
    #[serde(default, deserialize_with = "lenient")]
    pub runs_resumed: Option<u64>,
    #[serde(default, deserialize_with = "lenient")]
    pub status: Option<String>,
    #[serde(default, deserialize_with = "lenient_list")]
    pub sessions: Option<Vec<SessionView>>,
}

/// `settings` of meta.json ([`crate::protocol::meta::Settings`]).
#[derive(Debug, Default, Deserialize)]
pub struct SettingsView {
    #[serde(default, deserialize_with = "lenient")]
    pub master_seed: Option<u64>,
    #[serde(default, deserialize_with = "lenient")]
    pub runs: Option<u64>,
    #[serde(default, deserialize_with = "lenient")]
    pub forced_runs: Option<u64>,
    #[serde(default, deserialize_with = "lenient")]
    pub quick: Option<bool>,
    #[serde(default, deserialize_with = "lenient")]
    pub shard: Option<String>,
}

/// `spec` of meta.json (the spec as run, [`crate::spec::Spec`]).
#[derive(Debug, Default, Deserialize)]
pub struct SpecView {
    #[serde(default, deserialize_with = "lenient")]
    pub id: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub title: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub paper: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub published: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub published_levels: Option<BTreeMap<String, String>>,
    #[serde(default, deserialize_with = "lenient_list")]
    pub puzzles: Option<Vec<PuzzleView>>,
    #[serde(default, deserialize_with = "lenient_list")]
    pub algorithms: Option<Vec<AlgorithmView>>,
}

/// One puzzle entry of the spec.
#[derive(Debug, Default, Deserialize)]
pub struct PuzzleView {
    #[serde(default, deserialize_with = "lenient")]
    pub id: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub label: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub bank: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub file: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub all: Option<bool>,
    #[serde(default, deserialize_with = "lenient")]
    pub index: Option<u64>,
}

/// One algorithm entry of the spec.
#[derive(Debug, Default, Deserialize)]
pub struct AlgorithmView {
    #[serde(default, deserialize_with = "lenient")]
    pub label: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub paper_label: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub algorithm: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub max_generations: Option<u64>,
    #[serde(default, deserialize_with = "lenient")]
    pub max_evaluations: Option<u64>,
    /// The options as the spec gives them (any TOML value, shown as JSON text).
    #[serde(default, deserialize_with = "lenient")]
    pub params: Option<serde_json::Map<String, Value>>,
}

/// One session of `sessions` ([`crate::protocol::meta::Session`]).
#[derive(Debug, Default, Deserialize)]
pub struct SessionView {
    #[serde(default, deserialize_with = "lenient")]
    pub git_revision: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub started_utc: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub finished_utc: Option<String>,
    #[serde(default, deserialize_with = "lenient")]
    pub threads: Option<u64>,
    #[serde(default, deserialize_with = "lenient")]
    pub runs_executed: Option<u64>,
    #[serde(default, deserialize_with = "lenient")]
    pub machine: Option<String>,
}

impl MetaView {
    /// meta.json's text read: an error only when it is not a JSON object.
    pub fn parse(text: &str) -> Result<MetaView, String> {
        match serde_json::from_str::<Value>(text).map_err(|e| e.to_string())? {
            v @ Value::Object(_) => serde_json::from_value(v).map_err(|e| e.to_string()),
            _ => Err("not a JSON object".into()),
        }
    }
    pub fn spec(&self) -> Option<&SpecView> {
        self.spec.as_ref()
    }
    pub fn settings(&self) -> Option<&SettingsView> {
        self.settings.as_ref()
    }
}

/// A value as the facts show it: `-` when absent.
pub fn shown<T: ToString>(v: Option<T>) -> String {
    v.map_or_else(|| "-".to_string(), |v| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::protocol::meta::{Meta, Settings};

    /// What `Meta` writes, the view reads: every field the site shows, by the same names.
    #[test]
    fn the_view_reads_what_meta_writes() {
        let spec = crate::spec::embedded("reseda-table2").unwrap();
        let settings = Settings::of(&spec, true, Some(3), Some((1, 2))).unwrap();
        let mut meta = Meta::new(settings, &spec, 2);
        meta.wall_seconds = Some(1.5);
        meta.status = "complete".into();
        meta.runs_resumed = Some(4);
        meta.runs_executed_this_session = Some(5);
        meta.finished_utc = Some("2026-01-01T00:00:00Z".into());
        let v = MetaView::parse(&serde_json::to_string(&meta).unwrap()).unwrap();
        let s = v.settings().unwrap();
        assert_eq!(s.master_seed, Some(spec.master_seed));
        assert_eq!(
            (s.runs, s.forced_runs, s.quick),
            (Some(3), Some(3), Some(true))
        );
        assert_eq!(s.shard.as_deref(), Some("1/2"));
        let sp = v.spec().unwrap();
        assert_eq!(sp.id.as_deref(), Some("reseda-table2"));
        assert_eq!(sp.title.as_deref(), Some(spec.title.as_str()));
        assert_eq!(sp.paper.as_deref(), Some(spec.paper.as_str()));
        assert_eq!(sp.published, spec.published);
        assert_eq!(sp.puzzles.as_ref().unwrap().len(), spec.puzzles.len());
        let algos = sp.algorithms.as_ref().unwrap();
        assert_eq!(algos.len(), spec.algorithms.len());
        assert_eq!(
            algos[0].label.as_deref(),
            Some(spec.algorithms[0].label.as_str())
        );
        assert_eq!(
            algos[0].algorithm.as_deref(),
            Some(spec.algorithms[0].algorithm.as_str())
        );
        assert!(algos
            .iter()
            .any(|a| a.params.as_ref().is_some_and(|p| !p.is_empty())));
        assert_eq!(v.status.as_deref(), Some("complete"));
        assert_eq!(v.wall_seconds, Some(1.5));
        assert_eq!(v.threads, Some(2));
        assert_eq!(
            (v.runs_executed_this_session, v.runs_resumed),
            (Some(5), Some(4))
        );
        assert!(v.git_revision.is_some() && v.machine.is_some() && v.started_utc.is_some());
        assert!(v.sudoku_lab_version.is_some() && v.dependencies.is_some());
        assert!(v.finished_utc.is_some());
    }

    /// A field of another type is absent, the others still read; only a non-object fails.
    #[test]
    fn a_bad_field_is_absent_and_the_others_read() {
        let v = MetaView::parse(
            r#"{"status": 7, "wall_seconds": "soon", "threads": 2,
                "settings": {"quick": "yes", "master_seed": 9},
                "sessions": [{"threads": 1}, 5, {"git_revision": "abc"}],
                "spec": {"title": ["x"], "algorithms": [{"label": "a", "max_generations": -1}]}}"#,
        )
        .unwrap();
        assert_eq!((v.status, v.wall_seconds, v.threads), (None, None, Some(2)));
        let s = v.settings.unwrap();
        assert_eq!((s.quick, s.master_seed), (None, Some(9)));
        assert_eq!(v.sessions.unwrap().len(), 2);
        let sp = v.spec.unwrap();
        assert_eq!(sp.title, None);
        let a = &sp.algorithms.unwrap()[0];
        assert_eq!((a.label.as_deref(), a.max_generations), (Some("a"), None));
        assert!(MetaView::parse("[1, 2]").is_err());
        assert!(MetaView::parse("{").is_err());
    }

    /// Every committed results folder's meta.json, old ones included, is read with its status,
    /// settings and spec.
    #[test]
    fn every_committed_meta_json_is_read() {
        let results = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../results");
        let mut n = 0;
        for entry in std::fs::read_dir(&results).unwrap() {
            let meta = entry.unwrap().path().join("meta.json");
            if !meta.is_file() {
                continue;
            }
            let text = std::fs::read_to_string(&meta).unwrap();
            let v = MetaView::parse(&text).unwrap_or_else(|e| panic!("{}: {e}", meta.display()));
            let at = meta.display();
            assert!(v.status.is_some(), "{at}: status");
            assert!(v.wall_seconds.is_some(), "{at}: wall_seconds");
            let s = v.settings().unwrap_or_else(|| panic!("{at}: settings"));
            assert!(
                s.master_seed.is_some() && s.quick.is_some(),
                "{at}: settings"
            );
            let sp = v.spec().unwrap_or_else(|| panic!("{at}: spec"));
            assert!(sp.id.is_some() && sp.title.is_some(), "{at}: spec");
            let algos = sp
                .algorithms
                .as_ref()
                .unwrap_or_else(|| panic!("{at}: algorithms"));
            assert!(
                !algos.is_empty() && algos.iter().all(|a| a.algorithm.is_some()),
                "{at}"
            );
            assert!(
                sp.puzzles.as_ref().is_some_and(|p| !p.is_empty()),
                "{at}: puzzles"
            );
            n += 1;
        }
        assert!(n >= 20, "only {n} results folders with meta.json");
    }
}
