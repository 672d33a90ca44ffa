//! Results in formats other tools read: [`tables`] (report tables as LaTeX and Markdown) and
//! [`ioh`] (anytime data as IOHprofiler data). The command is `cli/export.rs`.

pub mod ioh;
pub mod tables;

/// What `export` writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Format {
    /// IOHprofiler data (json + dat per algorithm and puzzle) from trajectories.csv.
    Ioh,
    /// One booktabs LaTeX tabular per report table.
    Latex,
    /// One GitHub Markdown pipe table per report table.
    Markdown,
}
