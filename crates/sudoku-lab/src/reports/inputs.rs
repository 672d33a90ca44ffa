//! What the reports are made from: the published values (read and checked before the first
//! run) and the facts of the finished protocol.

use super::groups::{parse_published, PublishedRow};
use super::levels::PublishedLevel;
use super::{grades, levels};
use crate::spec::{self, Loaded, Spec};
use anyhow::{Context, Result};
use std::path::Path;

/// The published values a spec's report compares with, read and checked before the first run:
/// a table (`published`), RESEDA's grade grid (`report = "grades"`) or per-level tables
/// (`published_levels`).
#[derive(Default)]
pub struct Published {
    pub rows: Option<Vec<PublishedRow>>,
    pub grades: Option<Vec<char>>,
    pub levels: Option<Vec<PublishedLevel>>,
}

impl Published {
    /// Read the published values of `spec` (`base`: a user spec's folder).
    pub fn load(spec: &Spec, base: Option<&Path>, loaded: &Loaded) -> Result<Published> {
        let text = spec::published_text(spec, base)?;
        let (rows, grades) = if spec.report == "grades" {
            let n = loaded.puzzles[0].geometry().n();
            let t = text.context("report grades needs published grades")?;
            (None, Some(grades::parse_grades(&t, n)?))
        } else {
            let name = format!(
                "published = \"{}\"",
                spec.published.as_deref().unwrap_or("")
            );
            (text.map(|t| parse_published(&t, &name)).transpose()?, None)
        };
        Ok(Published {
            rows,
            grades,
            levels: levels::load(spec, base, loaded)?,
        })
    }
}

/// Everything the reports of a finished protocol are made from.
pub struct Inputs<'a> {
    pub spec: &'a Spec,
    pub loaded: &'a Loaded,
    pub published: &'a Published,
    /// The results folder (runs.csv in it).
    pub out: &'a Path,
    /// Runs per puzzle.
    pub runs: u64,
    /// `--quick`: the generation cap.
    pub quick_cap: Option<u64>,
    /// Protocol wall time, seconds.
    pub wall: f64,
    pub threads: usize,
}
