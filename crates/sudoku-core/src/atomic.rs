//! The one atomic file replacement of the workspace: the runner's results and site
//! (`sudoku-lab`'s `protocol::io`) and the charts (`lab-charts`) write every file through
//! [`replace_with`]. Readers see the old file or the new one, never half of one; a symbolic
//! link, FIFO, device or folder in the target's place is refused, never written through.

use std::io;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// What `path` is when it is something [`replace_with`] refuses to replace ("a symbolic
/// link", "a folder", "a FIFO, socket or device"); None when it is absent or a regular file.
/// The link itself is looked at (`symlink_metadata`), not what it points to.
pub fn not_regular(path: &Path) -> io::Result<Option<&'static str>> {
    let t = match std::fs::symlink_metadata(path) {
        Err(e) if e.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e),
        Ok(m) => m.file_type(),
    };
    Ok(if t.is_file() {
        None
    } else if t.is_symlink() {
        Some("a symbolic link")
    } else if t.is_dir() {
        Some("a folder")
    } else {
        Some("a FIFO, socket or device")
    })
}

/// The temporary file beside `path` that [`replace_with`] fills: `.<name>.<pid>-<n>.tmp.<ext>`,
/// `<ext>` the target's extension (so that a writer that picks its format by extension picks
/// the target's), `part` without one. The pid lets a later run remove what a dead process left.
pub fn temporary_path(path: &Path) -> PathBuf {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    let name = path
        .file_name()
        .map_or("out".into(), |n| n.to_string_lossy());
    let ext = path
        .extension()
        .map_or("part".into(), |e| e.to_string_lossy());
    dir.join(format!(
        ".{name}.{}-{}.tmp.{ext}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ))
}

/// Replace `path` atomically: `fill` writes the temporary file [`temporary_path`] (created by
/// `fill`, none is there before), which is then synced and renamed over `path`, and the folder
/// synced where it can be. The target must be absent or a regular file ([`not_regular`]: else
/// an `InvalidInput` error saying what it is). On any failure the temporary file is removed
/// and the target left as it was.
pub fn replace_with<E: From<io::Error>>(
    path: &Path,
    fill: impl FnOnce(&Path) -> Result<(), E>,
) -> Result<(), E> {
    if let Some(what) = not_regular(path)? {
        let e = io::Error::new(
            io::ErrorKind::InvalidInput,
            format!("{what}, not a regular file"),
        );
        return Err(e.into());
    }
    let tmp = temporary_path(path);
    let _ = std::fs::remove_file(&tmp);
    let result = fill(&tmp).and_then(|()| {
        let done = std::fs::File::open(&tmp)
            .and_then(|f| f.sync_all())
            .and_then(|()| std::fs::rename(&tmp, path));
        done.map_err(E::from)
    });
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
        return result;
    }
    // Make the rename itself durable where folders can be synced.
    if let Some(dir) = tmp.parent() {
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let d =
            std::env::temp_dir().join(format!("sudoku-core-atomic-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn entries(d: &Path) -> Vec<String> {
        let mut v: Vec<String> = std::fs::read_dir(d)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        v.sort();
        v
    }

    #[test]
    fn a_file_is_replaced_whole_and_no_temporary_is_left() {
        let d = scratch("replace");
        let p = d.join("chart.svg");
        std::fs::write(&p, "old").unwrap();
        replace_with(&p, |tmp| {
            assert!(
                tmp.to_string_lossy().ends_with(".tmp.svg"),
                "{}",
                tmp.display()
            );
            std::fs::write(tmp, "new")
        })
        .unwrap();
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        assert_eq!(entries(&d), ["chart.svg"]);
        // A failing fill leaves the old file and no temporary.
        let e = replace_with(&p, |tmp| {
            std::fs::write(tmp, "half")?;
            Err(io::Error::other("disk full"))
        });
        assert!(e.is_err());
        assert_eq!(std::fs::read_to_string(&p).unwrap(), "new");
        assert_eq!(entries(&d), ["chart.svg"]);
        std::fs::remove_dir_all(&d).unwrap();
    }

    #[cfg(unix)]
    #[test]
    fn a_link_or_folder_in_the_targets_place_is_refused_and_left_alone() {
        let d = scratch("refuse");
        let target = d.join("elsewhere.txt");
        std::fs::write(&target, "keep").unwrap();
        let link = d.join("link.png");
        std::os::unix::fs::symlink(&target, &link).unwrap();
        let e = replace_with(&link, |tmp| std::fs::write(tmp, "x")).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::InvalidInput);
        assert!(e.to_string().contains("a symbolic link"), "{e}");
        assert_eq!(std::fs::read_to_string(&target).unwrap(), "keep");
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        std::fs::create_dir(d.join("dir.svg")).unwrap();
        let e = replace_with(&d.join("dir.svg"), |tmp| std::fs::write(tmp, "x")).unwrap_err();
        assert!(e.to_string().contains("a folder"), "{e}");
        assert_eq!(entries(&d), ["dir.svg", "elsewhere.txt", "link.png"]);
        std::fs::remove_dir_all(&d).unwrap();
    }
}
