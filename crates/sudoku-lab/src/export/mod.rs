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

/// Print (stdout) the files an export wrote, relative to its folder `out`, in one line.
pub fn print_written(out: &std::path::Path, files: &[std::path::PathBuf]) {
    let names: Vec<String> = files.iter().map(|f| f.display().to_string()).collect();
    let text = format!(
        "wrote {} files in {}: {}",
        names.len(),
        out.display(),
        names.join(", ")
    );
    println!("{}", sudoku_core::error::shown(&text));
}
