//! The edge where text meets the disk: reading a file whole, and saving one so that a crash
//! or a full disk never leaves half a file behind.
//!
//! Parsers elsewhere take `&str` and return typed errors with line numbers; this module adds
//! the file's name. Saving writes a temporary file beside the target, flushes it to disk and
//! renames it over the target, so the old file stays whole until the new one is complete.

use std::fmt;
use std::io::Write;
use std::path::{Path, PathBuf};

/// A failure reading or parsing a file, naming the file and, for a parse error, the line.
#[derive(Debug, thiserror::Error)]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// The 1-based line at fault, when the fault is on one line.
    pub line: Option<usize>,
    /// What is wrong.
    pub reason: String,
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.line {
            Some(line) => write!(f, "{}:{}: {}", self.path.display(), line, self.reason),
            None => write!(f, "{}: {}", self.path.display(), self.reason),
        }
    }
}

impl FileError {
    /// An error for `path` at `line` (if known) saying `reason`.
    pub fn new(path: &Path, line: Option<usize>, reason: impl ToString) -> FileError {
        FileError {
            path: path.to_path_buf(),
            line,
            reason: reason.to_string(),
        }
    }
}

/// A parse error that knows its line, so [`read_parsed`] can name file and line.
pub trait LineError: fmt::Display {
    /// The 1-based line at fault, if the fault is on one line.
    fn line(&self) -> Option<usize>;
}

/// Reads `path` as UTF-8 text and parses it with `parse`, naming the file in any error.
pub fn read_parsed<T, E: LineError>(
    path: &Path,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<T, FileError> {
    let text = read_text(path)?;
    parse(&text).map_err(|e| FileError::new(path, e.line(), e.to_string()))
}

/// Reads `path` as UTF-8 text.
pub fn read_text(path: &Path) -> Result<String, FileError> {
    let bytes = std::fs::read(path).map_err(|e| FileError::new(path, None, io_reason(&e)))?;
    String::from_utf8(bytes).map_err(|e| {
        let line = e.as_bytes()[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        FileError::new(path, Some(line), "not valid UTF-8 text")
    })
}

/// Writes `text` to `path` through a temporary file and a rename, so that `path` holds either
/// its old content or all of the new, never a part.
pub fn save_atomically(path: &Path, text: &str) -> Result<(), FileError> {
    let tmp = temp_beside(path)?;
    let result = (|| {
        let mut file = std::fs::File::create(&tmp)?;
        file.write_all(text.as_bytes())?;
        file.sync_all()?;
        std::fs::rename(&tmp, path)
    })();
    result.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        FileError::new(path, None, io_reason(&e))
    })
}

/// A file written bit by bit (e.g. rows as a batch plays) that appears at its path only when
/// [`AtomicFile::commit`] is called: until then the text goes to a temporary file beside it,
/// which is removed if the writer is dropped uncommitted.
pub struct AtomicFile {
    path: PathBuf,
    tmp: PathBuf,
    file: Option<std::io::BufWriter<std::fs::File>>,
}

impl AtomicFile {
    /// Starts writing the file at `path`.
    pub fn create(path: &Path) -> Result<AtomicFile, FileError> {
        let tmp = temp_beside(path)?;
        let file =
            std::fs::File::create(&tmp).map_err(|e| FileError::new(path, None, io_reason(&e)))?;
        Ok(AtomicFile {
            path: path.to_path_buf(),
            tmp,
            file: Some(std::io::BufWriter::new(file)),
        })
    }

    /// Flushes the text to disk and renames it over the path.
    pub fn commit(mut self) -> Result<(), FileError> {
        let file = self.file.take().expect("committed once");
        let result = (|| {
            let file = file.into_inner().map_err(|e| e.into_error())?;
            file.sync_all()?;
            std::fs::rename(&self.tmp, &self.path)
        })();
        result.map_err(|e| {
            let _ = std::fs::remove_file(&self.tmp);
            FileError::new(&self.path, None, io_reason(&e))
        })
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.file.as_mut().expect("not committed").write(buf)
    }

    fn flush(&mut self) -> std::io::Result<()> {
        self.file.as_mut().expect("not committed").flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if self.file.take().is_some() {
            let _ = std::fs::remove_file(&self.tmp);
        }
    }
}

fn temp_beside(path: &Path) -> Result<PathBuf, FileError> {
    let dir = match path.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = path
        .file_name()
        .ok_or_else(|| FileError::new(path, None, "not a file name"))?;
    Ok(dir.join(format!(
        ".{}.tmp{}",
        name.to_string_lossy(),
        std::process::id()
    )))
}

fn io_reason(e: &std::io::Error) -> String {
    match e.kind() {
        std::io::ErrorKind::NotFound => "no such file".to_string(),
        std::io::ErrorKind::PermissionDenied => "permission denied".to_string(),
        _ => e.to_string().to_lowercase(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn save_replaces_whole_and_leaves_no_temp() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("w.txt");
        save_atomically(&path, "one\n").unwrap();
        save_atomically(&path, "two\n").unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "two\n");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn failed_save_keeps_the_old_file() {
        let dir = tempfile::tempdir().unwrap();
        let missing = dir.path().join("no/such/dir/w.txt");
        let err = save_atomically(&missing, "x").unwrap_err();
        assert!(err.to_string().contains("w.txt"));
    }

    #[test]
    fn an_atomic_file_appears_only_when_committed() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("rows.csv");
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"a,b\n").unwrap();
        assert!(!path.exists());
        f.commit().unwrap();
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a,b\n");
        let mut f = AtomicFile::create(&path).unwrap();
        f.write_all(b"half").unwrap();
        drop(f);
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "a,b\n");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 1);
    }

    #[test]
    fn non_utf8_names_the_line() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("bad.txt");
        std::fs::write(&path, b"ok\nbad \xff\n").unwrap();
        let err = read_text(&path).unwrap_err();
        assert_eq!(err.line, Some(2));
    }
}
