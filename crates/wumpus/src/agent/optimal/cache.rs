//! The optimal player's solved values kept on disk, so that a game is solved once per machine
//! rather than once per run: a file per model (size, pit chance, scoring, rules of movement),
//! checked on reading and solved again when it is missing, stale or damaged.
//!
//! It must never return values it has not checked: a file is used only if its header names
//! this format, this solver and this very model, and its checksum holds; anything else is a
//! miss and the game is solved afresh. A write goes to an exclusively created temporary file
//! in the same folder, then a rename, so a reader never sees half a file and two processes
//! solving at once leave one whole file.
//!
//! The layout, all little-endian: the magic `WUMPUS-OPTIMAL\0\0`, the format (u32), the
//! solver's version (u32), rows and columns (u8 each), the scoring and the moves (u8 each),
//! the pit chance and the horizon (f64 bits), the game's value (score, win, death as f64),
//! the states solved and the seconds the solve took (u64, f64), the number of entries (u64);
//! then each entry: its key (u128), its number of lines (u16), and each line (score and slope
//! as f64, win and death as f32); last the CRC-32 of everything before it.

use super::*;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

const MAGIC: &[u8; 16] = b"WUMPUS-OPTIMAL\0\0";
/// The layout above; a change to it changes this.
const FORMAT: u32 = 2;
/// The solver's own version: bumped whenever a change to the model or the solver changes the
/// values it would solve, so that older files read as stale.
pub const SOLVER_VERSION: u32 = 2;

/// What became of the cache file when the game was solved.
#[derive(Clone, Debug, PartialEq)]
pub enum CacheEvent {
    /// The values were read from the file.
    Loaded {
        /// The file.
        path: PathBuf,
        /// Seconds the reading took.
        seconds: f64,
    },
    /// The file was missing, stale or damaged (why), the game was solved and the file written.
    Saved {
        /// The file.
        path: PathBuf,
        /// Why it was not read.
        why: String,
    },
    /// The game was solved, but the file could not be written (why): the next run solves again.
    NotSaved {
        /// The file.
        path: PathBuf,
        /// Why it could not be written.
        why: String,
    },
}

impl std::fmt::Display for CacheEvent {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CacheEvent::Loaded { path, seconds } => write!(
                f,
                "optimal agent: solved values read from {} in {seconds:.1} s",
                path.display()
            ),
            CacheEvent::Saved { path, why } => write!(
                f,
                "optimal agent: solved the game ({why}) and kept the values in {}",
                path.display()
            ),
            CacheEvent::NotSaved { path, why } => write!(
                f,
                "optimal agent: solved the game, but could not keep the values in {}: {why}",
                path.display()
            ),
        }
    }
}

/// The folder the doors keep solved values in: `$WUMPUS_CACHE` if set (`off` for none), else
/// the user's cache folder (`~/.cache/wumpus` on Linux), else none.
pub fn default_cache_dir() -> Option<PathBuf> {
    match std::env::var_os("WUMPUS_CACHE") {
        Some(v) if v == "off" || v.is_empty() => None,
        Some(v) => Some(PathBuf::from(v)),
        None => dirs::cache_dir().map(|d| d.join("wumpus")),
    }
}

impl Model {
    /// The cache file of this model in `dir`.
    pub fn cache_file(&self, dir: &Path) -> PathBuf {
        let moves = match self.moves {
            Moves::AnyDirection => "compass",
            Moves::Heading => "heading",
        };
        dir.join(format!(
            "optimal-{}x{}-{}-{}-pit{}.v{FORMAT}.{SOLVER_VERSION}.bin",
            self.rows,
            self.cols,
            self.scoring.name(),
            moves,
            self.pit
        ))
    }

    /// What identifies the model in a file's header.
    fn header(&self) -> Vec<u8> {
        let mut h = Vec::with_capacity(64);
        h.extend_from_slice(MAGIC);
        h.extend_from_slice(&FORMAT.to_le_bytes());
        h.extend_from_slice(&SOLVER_VERSION.to_le_bytes());
        h.push(self.rows as u8);
        h.push(self.cols as u8);
        h.push(match self.scoring {
            Scoring::Standard => 0,
            Scoring::Aima => 1,
        });
        h.push(match self.moves {
            Moves::AnyDirection => 0,
            Moves::Heading => 1,
        });
        h.extend_from_slice(&self.pit.to_bits().to_le_bytes());
        h.extend_from_slice(&self.horizon.to_bits().to_le_bytes());
        h
    }
}

/// A writer that keeps the CRC-32 of what passed through it.
struct Summed<W> {
    inner: W,
    crc: crc32fast::Hasher,
}

impl<W: Write> Write for Summed<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.crc.update(&buf[..n]);
        Ok(n)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.inner.flush()
    }
}

/// A reader that keeps the CRC-32 of what passed through it.
struct Checked<R> {
    inner: R,
    crc: crc32fast::Hasher,
}

impl<R: Read> Checked<R> {
    fn bytes<const N: usize>(&mut self) -> io::Result<[u8; N]> {
        let mut b = [0u8; N];
        self.inner.read_exact(&mut b)?;
        self.crc.update(&b);
        Ok(b)
    }

    fn u64(&mut self) -> io::Result<u64> {
        Ok(u64::from_le_bytes(self.bytes()?))
    }

    fn f64(&mut self) -> io::Result<f64> {
        Ok(f64::from_bits(self.u64()?))
    }

    fn f32(&mut self) -> io::Result<f32> {
        Ok(f32::from_bits(u32::from_le_bytes(self.bytes()?)))
    }
}

/// Why a file was not used.
fn miss(why: impl Into<String>) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidData, why.into())
}

/// The values of `model` read from `path`, with the game's value, checked; an error says why
/// the file cannot be used.
pub(super) fn load(model: &Model, path: &Path) -> io::Result<(Table, GameValue)> {
    let file = File::open(path)?;
    let length = file.metadata()?.len();
    let mut r = Checked {
        inner: BufReader::with_capacity(1 << 20, file),
        crc: crc32fast::Hasher::new(),
    };
    let want = model.header();
    let mut got = vec![0u8; want.len()];
    r.inner.read_exact(&mut got)?;
    r.crc.update(&got);
    if got[..MAGIC.len()] != MAGIC[..] {
        return Err(miss("not a file of solved values"));
    }
    if got != want {
        return Err(miss("written by another version or for another game"));
    }
    let value = Value {
        score: r.f64()?,
        win: r.f64()?,
        death: r.f64()?,
    };
    let states = r.u64()?;
    let seconds = r.f64()?;
    let entries = r.u64()?;
    // Each entry takes at least 18 + 24 bytes: a count beyond the file's length is damage,
    // not a reason to reserve memory.
    if entries.saturating_mul(42) > length {
        return Err(miss("damaged: more entries than the file holds"));
    }
    let mut values = FxHashMap::default();
    values.reserve(entries as usize);
    for _ in 0..entries {
        let key = u128::from_le_bytes(r.bytes()?);
        let n = u16::from_le_bytes(r.bytes()?);
        if n == 0 {
            return Err(miss("damaged: an entry without lines"));
        }
        let mut lines = Vec::with_capacity(n as usize);
        for _ in 0..n {
            lines.push(Line {
                score: r.f64()?,
                slope: r.f64()?,
                win: r.f32()?,
                death: r.f32()?,
            });
        }
        values.insert(key, Worth::from_lines(lines));
    }
    let sum = r.crc.clone().finalize();
    let mut stored = [0u8; 4];
    r.inner.read_exact(&mut stored)?;
    if u32::from_le_bytes(stored) != sum {
        return Err(miss("damaged: the checksum does not match"));
    }
    if r.inner.read(&mut [0u8; 1])? != 0 {
        return Err(miss("damaged: bytes after the checksum"));
    }
    let game = GameValue {
        value,
        states: states as usize,
        seconds,
    };
    Ok((
        Table {
            values,
            pits: FxHashMap::default(),
        },
        game,
    ))
}

/// Writes the values of `model` to `path`: to a temporary file beside it, then renamed.
pub(super) fn save(model: &Model, table: &Table, game: &GameValue, path: &Path) -> io::Result<()> {
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir)?;
    let temp = tempfile::Builder::new()
        .prefix(".optimal-")
        .suffix(".partial")
        .tempfile_in(dir)?;
    write_values(model, table, game, temp.as_file())?;
    temp.as_file().sync_all()?;
    temp.persist(path).map_err(|e| e.error)?;
    Ok(())
}

fn write_values(model: &Model, table: &Table, game: &GameValue, file: &File) -> io::Result<()> {
    let mut w = Summed {
        inner: BufWriter::with_capacity(1 << 20, file),
        crc: crc32fast::Hasher::new(),
    };
    w.write_all(&model.header())?;
    for x in [game.value.score, game.value.win, game.value.death] {
        w.write_all(&x.to_bits().to_le_bytes())?;
    }
    w.write_all(&(game.states as u64).to_le_bytes())?;
    w.write_all(&game.seconds.to_bits().to_le_bytes())?;
    w.write_all(&(table.values.len() as u64).to_le_bytes())?;
    for (key, worth) in &table.values {
        w.write_all(&key.to_le_bytes())?;
        let lines = worth.lines();
        let n = u16::try_from(lines.len()).map_err(|_| miss("a worth of over 65,535 lines"))?;
        w.write_all(&n.to_le_bytes())?;
        for l in lines {
            w.write_all(&l.score.to_bits().to_le_bytes())?;
            w.write_all(&l.slope.to_bits().to_le_bytes())?;
            w.write_all(&l.win.to_bits().to_le_bytes())?;
            w.write_all(&l.death.to_bits().to_le_bytes())?;
        }
    }
    let sum = w.crc.clone().finalize();
    let mut inner = w.inner;
    inner.write_all(&sum.to_le_bytes())?;
    inner.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn solver(dir: &Path) -> OptimalSolver {
        OptimalSolver::new(Model::new(2, 3, 0.2, Scoring::Standard).unwrap())
            .with_cache(dir.to_path_buf())
    }

    #[test]
    fn a_second_solver_reads_what_the_first_kept() {
        let dir = tempfile::tempdir().unwrap();
        let first = solver(dir.path());
        let solved = first.game_value();
        assert!(matches!(
            first.cache_event(),
            Some(CacheEvent::Saved { .. })
        ));
        let second = solver(dir.path());
        assert_eq!(second.game_value().value, solved.value);
        assert!(matches!(
            second.cache_event(),
            Some(CacheEvent::Loaded { .. })
        ));
        // The same table: every belief's worth alike.
        let (a, b) = (&first.solved().0.values, &second.solved().0.values);
        assert_eq!(a.len(), b.len());
        for (k, w) in a {
            assert_eq!(b.get(k), Some(w));
        }
        // No temporary file left behind.
        let names: Vec<_> = std::fs::read_dir(dir.path()).unwrap().collect();
        assert_eq!(names.len(), 1);
    }

    #[test]
    fn a_damaged_or_foreign_file_is_solved_again() {
        let dir = tempfile::tempdir().unwrap();
        let first = solver(dir.path());
        let value = first.game_value().value;
        let path = first.model().cache_file(dir.path());
        let whole = std::fs::read(&path).unwrap();
        let damage: [(&str, Vec<u8>); 4] = [
            ("truncated", whole[..whole.len() / 2].to_vec()),
            ("a flipped bit", {
                let mut d = whole.clone();
                let at = d.len() - 40;
                d[at] ^= 1;
                d
            }),
            ("another model", {
                let mut d = whole.clone();
                d[24] = 9; // rows
                d
            }),
            ("empty", Vec::new()),
        ];
        for (what, bytes) in damage {
            std::fs::write(&path, &bytes).unwrap();
            let again = solver(dir.path());
            assert_eq!(again.game_value().value, value, "{what}");
            assert!(
                matches!(again.cache_event(), Some(CacheEvent::Saved { .. })),
                "{what}: {:?}",
                again.cache_event()
            );
            assert_eq!(std::fs::read(&path).unwrap().len(), whole.len(), "{what}");
        }
    }

    #[test]
    fn an_unwritable_folder_still_plays() {
        let dir = tempfile::tempdir().unwrap();
        let blocked = dir.path().join("a-file");
        std::fs::write(&blocked, b"not a folder").unwrap();
        let s = solver(&blocked);
        assert!(s.game_value().value.score > 0.0);
        assert!(matches!(s.cache_event(), Some(CacheEvent::NotSaved { .. })));
    }
}
