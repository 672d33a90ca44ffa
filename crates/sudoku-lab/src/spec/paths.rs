//! The files a spec names (a puzzle's `file`, `published`, each `published_levels` value):
//! one check of the name, and one reader, for every such key.
//!
//! A spec reads files of its own folder (or below it) only: a name that is absolute or climbs
//! out with `..` is refused before anything is read, so a spec handed over by someone else
//! cannot make the tool read (and once echo, in an error) a file such as `/etc/passwd`. The
//! check is on the name as written; a link inside the folder is followed (to use a shared
//! puzzle set, link or copy it into the spec's folder).

use anyhow::{bail, Context, Result};
use std::path::{Component, Path};

/// Refuse a file name of spec key `key` that is empty, absolute or leaves the spec's folder.
/// The message names the key and the name (escaped), never anything read.
pub fn check_spec_path(key: &str, name: &str) -> Result<()> {
    let shown = name.escape_debug();
    if name.trim().is_empty() {
        bail!("{key}: the file name is empty");
    }
    let path = Path::new(name);
    let leaves = path.components().any(|c| {
        matches!(
            c,
            Component::ParentDir | Component::RootDir | Component::Prefix(_)
        )
    });
    if leaves || name.starts_with('~') {
        bail!(
            "{key} = \"{shown}\": the path leaves the spec's folder (absolute, or with '..'): a spec reads files in its own folder or below it (link or copy the file there)"
        );
    }
    Ok(())
}

/// Open an input file for reading, refusing what is not a regular file (a FIFO, device,
/// socket or folder) with the error "not a regular file". The file is opened without blocking
/// (`O_NONBLOCK`: opening a FIFO with no writer would wait for ever) and checked with `fstat`
/// on the open descriptor, so nothing can be swapped in between the check and the read. Every
/// file the CLI reads goes through here ([`read_regular`] for its text).
pub fn open_regular(path: impl AsRef<Path>) -> std::io::Result<std::fs::File> {
    let mut o = std::fs::OpenOptions::new();
    o.read(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::custom_flags(&mut o, libc::O_NONBLOCK);
    let f = o.open(path)?;
    if !f.metadata()?.is_file() {
        return Err(std::io::Error::new(
            std::io::ErrorKind::InvalidInput,
            "not a regular file (a FIFO, device or folder is never read)",
        ));
    }
    Ok(f)
}

/// The whole text of the regular file at `path` ([`open_regular`]).
pub fn read_regular(path: impl AsRef<Path>) -> std::io::Result<String> {
    use std::io::Read;
    let mut text = String::new();
    open_regular(path)?.read_to_string(&mut text)?;
    Ok(text)
}

/// The text of a file named by spec key `key`, at `path`: a regular file of at most `max`
/// bytes, UTF-8. Errors name the key and the path, never the content.
pub fn read_spec_file(key: &str, path: &Path, max: u64) -> Result<String> {
    use std::io::Read;
    let shown = path.display();
    let meta = std::fs::metadata(path).with_context(|| format!("{key}: cannot read {shown}"))?;
    if !meta.is_file() {
        bail!("{key}: {shown} is not a regular file");
    }
    if meta.len() > max {
        bail!(
            "{key}: {shown} has {} bytes, more than the {} kB such a file may have",
            meta.len(),
            max >> 10
        );
    }
    let mut bytes = Vec::new();
    open_regular(path)
        .and_then(|f| f.take(max).read_to_end(&mut bytes))
        .with_context(|| format!("{key}: cannot read {shown}"))?;
    String::from_utf8(bytes).map_err(|e| {
        anyhow::anyhow!(
            "{key}: {shown} is not UTF-8 text (byte {})",
            e.utf8_error().valid_up_to()
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Names inside the folder pass; names that leave it are refused naming the key.
    #[test]
    fn spec_paths_stay_in_the_spec_folder() {
        for ok in ["a.csv", "paper/a.csv", "./x/y.txt", "a..b.csv"] {
            check_spec_path("published", ok).unwrap();
        }
        // Any '..' is refused, even one that would come back into the folder.
        for bad in [
            "dir/../x.csv",
            "../../../../etc/passwd",
            "/etc/passwd",
            "paper/../../x.csv",
            "~/x.csv",
            "",
            " ",
        ] {
            let e = check_spec_path("published", bad).unwrap_err().to_string();
            assert!(e.starts_with("published"), "{bad}: {e}");
        }
        let e = check_spec_path("k", "/a\u{202e}b").unwrap_err().to_string();
        assert!(e.contains("\\u{202e}"), "{e}");
    }
}
