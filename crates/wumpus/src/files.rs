//! The edge where text meets the disk: reading a file whole, and saving one so that a crash
//! or a full disk never leaves half a file behind.
//!
//! Parsers elsewhere take `&str` and return typed errors with line numbers; this module adds
//! the file's name. Reading refuses what is not a regular file (`/dev/zero`, a FIFO, a folder)
//! and anything larger than [`MAX_READ_BYTES`], so an endless input cannot fill memory.
//! Saving writes a temporary file beside the target, flushes it to disk and renames it over the
//! target, so the old file stays whole until the new one is complete; the temporary file's name
//! is unpredictable and it is created exclusively, so a link planted at a guessable name is
//! never followed. A target that exists and is not a regular file (a device such as
//! `/dev/null`, a FIFO, a terminal, or a link to one) is written directly, never replaced. A
//! link to a regular file stays a link: the new text replaces the file it points to.

use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The largest file read, 16 MiB. The biggest inputs (a cave map at its room limit, a grid
/// world of 4096×4096 cells written one hazard a line, a `solve --json` summary) are far
/// smaller; the cap only stops an endless input (`/dev/zero`, a runaway generator) from being
/// read into memory.
pub const MAX_READ_BYTES: u64 = 16 * 1024 * 1024;

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

/// The most characters of a token an error message quotes; a longer one is cut, marked `...`,
/// so that a file of junk is never echoed whole.
pub const MOST_QUOTED: usize = 40;

/// Quotes a token from a file (or any input) for an error message: in single quotes, with
/// invisible and control characters escaped (`\0`, `\t`, `\u{200b}`), so a line of NUL bytes
/// shows as `'\0\0\0'` and not as an empty-looking `'   '`; at most [`MOST_QUOTED`]
/// characters of it.
pub fn quoted(token: &str) -> String {
    let mut out = String::with_capacity(token.len().min(4 * MOST_QUOTED) + 2);
    out.push('\'');
    for (i, c) in token.chars().enumerate() {
        if i == MOST_QUOTED {
            out.push_str("...");
            break;
        }
        // `escape_debug` escapes control characters, NUL and the invisible (grapheme-extending)
        // ones; quotes stay as they are, since they cannot be confused with the delimiters.
        if c == '\'' || c == '"' {
            out.push(c);
        } else {
            out.extend(c.escape_debug());
        }
    }
    out.push('\'');
    out
}

/// Reads `path` as UTF-8 text and parses it with `parse`, naming the file in any error.
pub fn read_parsed<T, E: LineError>(
    path: &Path,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<T, FileError> {
    let text = read_text(path)?;
    parsed(path, &text, parse)
}

/// `text`, read from `path`, parsed; the error names the file and line.
pub fn parsed<T, E: LineError>(
    path: &Path,
    text: &str,
    parse: impl FnOnce(&str) -> Result<T, E>,
) -> Result<T, FileError> {
    parse(text).map_err(|e| FileError::new(path, e.line(), e.to_string()))
}

/// Reads `path` as UTF-8 text: a regular file (or a link to one) of at most
/// [`MAX_READ_BYTES`].
pub fn read_text(path: &Path) -> Result<String, FileError> {
    let bytes = read_regular(path)?;
    String::from_utf8(bytes).map_err(|e| {
        let line = e.as_bytes()[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|&&b| b == b'\n')
            .count()
            + 1;
        FileError::new(path, Some(line), "not valid UTF-8 text")
    })
}

/// The whole of the regular file at `path`, refusing anything else and anything larger than
/// [`MAX_READ_BYTES`].
fn read_regular(path: &Path) -> Result<Vec<u8>, FileError> {
    let io_error = |e: std::io::Error| FileError::new(path, None, io_reason(&e));
    let not_regular = || FileError::new(path, None, "not a regular file");
    let too_large = || {
        FileError::new(
            path,
            None,
            format!(
                "the file is larger than {} MiB, the most read",
                MAX_READ_BYTES / (1024 * 1024)
            ),
        )
    };
    let file = open_regular(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::InvalidInput => not_regular(),
        _ => io_error(e),
    })?;
    let meta = file.metadata().map_err(io_error)?;
    if meta.len() > MAX_READ_BYTES {
        return Err(too_large());
    }
    let mut bytes = Vec::with_capacity(meta.len() as usize);
    // The size above may be stale (a file still growing): read one byte past the cap to know.
    file.take(MAX_READ_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(io_error)?;
    if bytes.len() as u64 > MAX_READ_BYTES {
        return Err(too_large());
    }
    Ok(bytes)
}

/// `path` opened for reading if it is a regular file (or a link to one): never waiting on a
/// FIFO, never a device. Anything else is an error of kind `InvalidInput`.
pub fn open_regular(path: &Path) -> std::io::Result<std::fs::File> {
    let not_regular =
        || std::io::Error::new(std::io::ErrorKind::InvalidInput, "not a regular file");
    // Checked before opening: opening a FIFO for reading blocks until a writer appears.
    if !std::fs::metadata(path)?.is_file() {
        return Err(not_regular());
    }
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        // Should the path be swapped for a FIFO between the check and the open, the open
        // returns at once instead of waiting for a writer; the check below then refuses it.
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NONBLOCK);
    }
    let file = options.open(path)?;
    if !file.metadata()?.is_file() {
        return Err(not_regular());
    }
    Ok(file)
}

/// True when saving to `path` writes to it directly rather than replacing a file: it exists
/// and is not a regular file once links are followed (a device, a FIFO, a terminal), or it
/// names one of this process's open streams (`/dev/stdout`, `/proc/self/fd/N`), whatever
/// that stream is. A command that reports "Wrote" keeps that note off a page going there.
pub fn is_special(path: &Path) -> bool {
    open_stream(path).is_some()
        || std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir())
}

/// The file descriptor of this process that `path` names through its links, if it names one:
/// `/dev/stdout` (1), `/dev/stderr` (2), `/dev/fd/N`, `/proc/self/fd/N`. Writing there must
/// go through the open descriptor itself, so that a shell's `>>` (append) and its offset hold;
/// opening the path again, or replacing the file it leads to, would lose what is there.
fn open_stream(path: &Path) -> Option<i32> {
    let mut at = path.to_path_buf();
    // Links are followed one hop at a time, a few dozen at most (a loop ends it).
    for _ in 0..40 {
        let text = at.to_string_lossy();
        let fd = match text.as_ref() {
            "/dev/stdin" => Some(0),
            "/dev/stdout" => Some(1),
            "/dev/stderr" => Some(2),
            t => t
                .strip_prefix("/dev/fd/")
                .or_else(|| t.strip_prefix("/proc/self/fd/"))
                .or_else(|| {
                    let pid = format!("/proc/{}/fd/", std::process::id());
                    t.strip_prefix(pid.as_str()).map(|_| &t[pid.len()..])
                })
                .and_then(|n| n.parse::<i32>().ok()),
        };
        if fd.is_some() {
            return fd;
        }
        let next = std::fs::read_link(&at).ok()?;
        at = if next.is_absolute() {
            next
        } else {
            at.parent().unwrap_or(Path::new("/")).join(next)
        };
    }
    None
}

/// Writes `text` to `path` through a temporary file and a rename, so that `path` holds either
/// its old content or all of the new, never a part (see [`AtomicFile`] for where it goes).
pub fn save_atomically(path: &Path, text: &str) -> Result<(), FileError> {
    let mut file = AtomicFile::create(path)?;
    file.write_all(text.as_bytes())
        .map_err(|e| FileError::new(path, None, io_reason(&e)))?;
    file.commit()
}

/// A file written bit by bit (e.g. rows as a batch plays) that appears at its path only when
/// [`AtomicFile::commit`] is called: until then the text goes to a temporary file beside it
/// (unpredictably named, created exclusively), which is removed if the writer is dropped
/// uncommitted.
///
/// Where the text goes: a new file or a regular file is replaced by the rename, the new file
/// keeping the old one's permissions and owner; a link to a regular file keeps being a link,
/// the file it points to being replaced (the temporary file sits beside that file, so the
/// rename stays on one file system); a target that exists and is not a regular file
/// (`/dev/null`, a FIFO, a terminal, a link to one) is written directly, as a shell's `>`
/// would, since replacing a device by a regular file is never what was meant; one of this
/// process's own streams (`/dev/stdout`, `/dev/fd/1`, `/proc/self/fd/1`), whatever it leads
/// to, is written through the open descriptor, so that a shell's `>>` appends; a folder or a
/// link that leads nowhere is refused. A replaced file is a new file: another hard link to the
/// old one keeps the old text.
pub struct AtomicFile {
    path: PathBuf,
    sink: Sink,
}

/// Where an [`AtomicFile`]'s text goes until it is committed.
enum Sink {
    /// A temporary file, renamed over `target` (the path, or the file a link leads to).
    Temp {
        file: std::io::BufWriter<tempfile::NamedTempFile>,
        target: PathBuf,
    },
    /// A special file, written as the text comes.
    Direct(std::io::BufWriter<std::fs::File>),
    /// Committed or failed.
    Done,
}

impl AtomicFile {
    /// Starts writing the file at `path`.
    pub fn create(path: &Path) -> Result<AtomicFile, FileError> {
        let io_error = |e: std::io::Error| FileError::new(path, None, io_reason(&e));
        #[cfg(unix)]
        if let Some(fd) = open_stream(path) {
            // One of this process's streams (`-o /dev/stdout`, maybe `>> log`): written
            // through the descriptor the shell opened, with its mode and offset.
            use std::os::fd::FromRawFd;
            // SAFETY: `dup` returns a new descriptor this process owns, or -1.
            let copy = unsafe { libc::dup(fd) };
            if copy < 0 {
                return Err(io_error(std::io::Error::last_os_error()));
            }
            // SAFETY: `copy` is a descriptor just made and owned by nothing else.
            let file = unsafe { std::fs::File::from_raw_fd(copy) };
            return Ok(AtomicFile {
                path: path.to_path_buf(),
                sink: Sink::Direct(std::io::BufWriter::new(file)),
            });
        }
        let sink = match std::fs::metadata(path) {
            Ok(meta) if meta.is_dir() => return Err(FileError::new(path, None, "is a folder")),
            Ok(meta) if !meta.is_file() => {
                // No truncate and no create: a device, FIFO or terminal takes the bytes as
                // they come, and a file that vanished since is not made again here.
                let file = std::fs::OpenOptions::new()
                    .write(true)
                    .open(path)
                    .map_err(io_error)?;
                Sink::Direct(std::io::BufWriter::new(file))
            }
            Ok(meta) => {
                // A regular file, or a link to one: replace the file itself, keeping its
                // permissions (and, where this process may, its owner).
                let target = std::fs::canonicalize(path).map_err(io_error)?;
                let temp = temp_beside(path, &target)?;
                temp.as_file()
                    .set_permissions(meta.permissions())
                    .map_err(io_error)?;
                #[cfg(unix)]
                {
                    use std::os::unix::fs::MetadataExt;
                    let _ = std::os::unix::fs::fchown(
                        temp.as_file(),
                        Some(meta.uid()),
                        Some(meta.gid()),
                    );
                }
                Sink::Temp {
                    file: std::io::BufWriter::new(temp),
                    target,
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                if std::fs::symlink_metadata(path).is_ok() {
                    return Err(FileError::new(path, None, "a link that leads nowhere"));
                }
                Sink::Temp {
                    file: std::io::BufWriter::new(temp_beside(path, path)?),
                    target: path.to_path_buf(),
                }
            }
            Err(e) => return Err(io_error(e)),
        };
        Ok(AtomicFile {
            path: path.to_path_buf(),
            sink,
        })
    }

    /// Flushes the text to disk and renames it over the path (or, for a special file, flushes
    /// what is left).
    pub fn commit(mut self) -> Result<(), FileError> {
        let io_error = |e: std::io::Error| FileError::new(&self.path, None, io_reason(&e));
        match std::mem::replace(&mut self.sink, Sink::Done) {
            Sink::Temp { file, target } => {
                let temp = file.into_inner().map_err(|e| io_error(e.into_error()))?;
                temp.as_file().sync_all().map_err(io_error)?;
                // A failed rename drops the temporary file, which removes it.
                temp.persist(&target).map_err(|e| io_error(e.error))?;
                Ok(())
            }
            Sink::Direct(mut file) => file.flush().map_err(io_error),
            Sink::Done => Ok(()),
        }
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        match &mut self.sink {
            Sink::Temp { file, .. } => file.write(buf),
            Sink::Direct(file) => file.write(buf),
            Sink::Done => unreachable!("written after commit"),
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        match &mut self.sink {
            Sink::Temp { file, .. } => file.flush(),
            Sink::Direct(file) => file.flush(),
            Sink::Done => Ok(()),
        }
    }
}

/// A new temporary file in `target`'s folder, named `.NAME.` and random letters, created with
/// `O_EXCL` (an existing file or link at that name is never opened) and the usual permissions
/// (0666 less the umask, as a file made by `File::create`); `path` names the file in errors.
fn temp_beside(path: &Path, target: &Path) -> Result<tempfile::NamedTempFile, FileError> {
    let dir = match target.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let name = target
        .file_name()
        .ok_or_else(|| FileError::new(path, None, "not a file name"))?;
    let prefix = format!(".{}.", name.to_string_lossy());
    let mut builder = tempfile::Builder::new();
    builder.prefix(&prefix);
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    builder
        .tempfile_in(&dir)
        .map_err(|e| FileError::new(path, None, io_reason(&e)))
}

/// The game files `paths` name, in the one order every door plays them: each folder's regular
/// files (not those whose names start with a dot) in the order of their names, and each file
/// given, in turn. Links are followed (a link to a world file plays it); a folder inside a
/// folder is not searched; anything else in a folder (a FIFO, a device, a link that leads
/// nowhere) is refused by name rather than skipped without a word, as is a folder with no
/// file to play.
pub fn game_files(paths: &[PathBuf]) -> Result<Vec<PathBuf>, FileError> {
    let mut files = Vec::new();
    for path in paths {
        let io_error = |at: &Path, e: std::io::Error| FileError::new(at, None, io_reason(&e));
        let meta = std::fs::metadata(path).map_err(|e| io_error(path, e))?;
        if !meta.is_dir() {
            files.push(path.clone());
            continue;
        }
        let mut inside: Vec<PathBuf> = Vec::new();
        for entry in std::fs::read_dir(path).map_err(|e| io_error(path, e))? {
            let entry = entry.map_err(|e| io_error(path, e))?;
            if entry.file_name().to_string_lossy().starts_with('.') {
                continue;
            }
            let file = entry.path();
            match std::fs::metadata(&file) {
                Ok(m) if m.is_file() => inside.push(file),
                Ok(m) if m.is_dir() => {}
                Ok(_) => {
                    return Err(FileError::new(
                        &file,
                        None,
                        "not a regular file (a FIFO, a device or a socket): a folder of games \
                         holds world or hazard files only",
                    ))
                }
                Err(e) => return Err(io_error(&file, e)),
            }
        }
        if inside.is_empty() {
            return Err(FileError::new(
                path,
                None,
                "the folder holds no files to play",
            ));
        }
        inside.sort();
        files.extend(inside);
    }
    Ok(files)
}

/// How a batch over `files` names them: the one folder or file, or the first and the count.
pub fn files_label(files: &[PathBuf]) -> String {
    let Some(first) = files.first() else {
        return "no files".to_string();
    };
    let parent = first.parent();
    if files.len() > 1 && files.iter().all(|f| f.parent() == parent) {
        format!(
            "{} files in {}",
            files.len(),
            parent.map_or(".".into(), |p| p.display().to_string())
        )
    } else if files.len() == 1 {
        first.display().to_string()
    } else {
        format!("{} files from {}", files.len(), first.display())
    }
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
    fn a_link_planted_at_the_old_temporary_name_is_not_followed() {
        let dir = tempfile::tempdir().unwrap();
        let victim = dir.path().join("victim.txt");
        std::fs::write(&victim, "keep\n").unwrap();
        // The name the temporary file had before it was made unpredictable.
        let guess = dir.path().join(format!(".w.txt.tmp{}", std::process::id()));
        std::os::unix::fs::symlink(&victim, &guess).unwrap();
        let path = dir.path().join("w.txt");
        save_atomically(&path, "new\n").unwrap();
        assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep\n");
        assert_eq!(std::fs::read_to_string(&path).unwrap(), "new\n");
        assert!(std::fs::symlink_metadata(&guess).unwrap().is_symlink());
    }

    #[test]
    fn a_link_to_a_regular_file_stays_a_link() {
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("real.txt");
        std::fs::write(&real, "old\n").unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        save_atomically(&link, "new\n").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "new\n");
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn a_link_that_leads_nowhere_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let link = dir.path().join("link.txt");
        std::os::unix::fs::symlink(dir.path().join("gone.txt"), &link).unwrap();
        let err = save_atomically(&link, "x").unwrap_err();
        assert!(err.to_string().contains("leads nowhere"), "{err}");
        assert!(!dir.path().join("gone.txt").exists());
    }

    #[test]
    fn a_new_file_gets_the_usual_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let made = dir.path().join("made.txt");
        std::fs::File::create(&made).unwrap();
        let saved = dir.path().join("saved.txt");
        save_atomically(&saved, "x").unwrap();
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode(&saved), mode(&made));
    }

    #[test]
    fn a_special_file_is_written_directly() {
        // A device stays a device: it is opened and written, never renamed over. Reached
        // through links in a folder of the test's own, so that a broken build replaces the
        // links, not the machine's devices (tests may run as root).
        use std::os::unix::fs::FileTypeExt;
        let dir = tempfile::tempdir().unwrap();
        let null = dir.path().join("null");
        let full = dir.path().join("full");
        std::os::unix::fs::symlink("/dev/null", &null).unwrap();
        std::os::unix::fs::symlink("/dev/full", &full).unwrap();
        save_atomically(&null, "gone\n").unwrap();
        assert!(std::fs::symlink_metadata(&null)
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(std::fs::metadata(&null)
            .unwrap()
            .file_type()
            .is_char_device());
        let err = save_atomically(&full, "no room\n").unwrap_err();
        assert!(err.to_string().contains("full: "), "{err}");
        assert!(std::fs::symlink_metadata(&full)
            .unwrap()
            .file_type()
            .is_symlink());
    }

    #[test]
    fn only_regular_files_are_read() {
        let dir = tempfile::tempdir().unwrap();
        for path in [Path::new("/dev/zero"), dir.path()] {
            let err = read_text(path).unwrap_err();
            assert_eq!(err.reason, "not a regular file", "{}", path.display());
        }
    }

    #[test]
    fn a_file_over_the_cap_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("big.txt");
        let file = std::fs::File::create(&path).unwrap();
        file.set_len(MAX_READ_BYTES + 1).unwrap();
        let err = read_text(&path).unwrap_err();
        assert!(err.reason.contains("larger than 16 MiB"), "{err}");
        file.set_len(MAX_READ_BYTES).unwrap();
        assert!(read_text(&path).is_ok());
    }

    #[test]
    fn quoting_shows_invisible_characters() {
        assert_eq!(quoted("\0\0\0"), "'\\0\\0\\0'");
        assert_eq!(quoted("a\tb"), "'a\\tb'");
        assert_eq!(quoted("GOLD"), "'GOLD'");
        assert_eq!(quoted("it's"), "'it's'");
        assert_eq!(quoted("\u{200b}"), "'\\u{200b}'");
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
