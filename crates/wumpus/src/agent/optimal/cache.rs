//! The optimal player's solved values kept on disk, so that a game is solved once per machine
//! rather than once per run: a file per model (size, pit chance, scoring, rules of movement),
//! checked on reading and solved again when it is missing, stale or damaged.
//!
//! It must never return values it has not checked, nor trust the folder it reads: a file is
//! opened only if it is a regular file (a FIFO or a device is a miss, never a wait), memory is
//! reserved only as the bytes read prove it is needed, and a file is used only if its header
//! names this format, this solver and this very model, its checksum holds, and its values are
//! those the solver would compute: the beliefs nearest the start are valued again from their
//! successors' values in the file, and must come out as the file has them (a file edited and
//! summed again fails that). Anything else is a miss and the game is solved afresh. A write goes to an exclusively created temporary file
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
    let file = crate::files::open_regular(path)?;
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
    // The map grows as entries are read: a header cannot make it reserve what the file does
    // not hold (a sparse file can claim any length).
    values.reserve((entries as usize).min(1 << 16));
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
    let table = Table {
        values,
        pits: FxHashMap::default(),
    };
    consistent(model, &table, &value).map_err(miss)?;
    Ok((table, game))
}

/// Beliefs valued again when a file is read: those nearest the start, in the order a game
/// reaches them.
const CHECKED_BELIEFS: usize = 2_000;

/// Why `table` (with the game's `value`) is not what the solver would compute, if it is not:
/// each of the [`CHECKED_BELIEFS`] beliefs nearest the start is valued again from the table's
/// values of its successors, one step of the solve, and must match the table; the start's
/// values must add up to the game's value.
fn consistent(model: &Model, table: &Table, value: &Value) -> Result<(), String> {
    let close = |a: f64, b: f64| (a - b).abs() <= 1e-6 * (1.0 + a.abs().max(b.abs()));
    let mut scratch = Table::default();
    let mut seen = std::collections::HashSet::new();
    let mut queue = std::collections::VecDeque::new();
    let mut total = Value::default();
    let p_calm = (1.0 - model.pit).powi(model.neighbours[0].count_ones() as i32);
    let p_smell = (model.smells[0] & !1).count_ones() as f64 / (model.cells - 1) as f64;
    for (p_s, stench) in [(p_smell, true), (1.0 - p_smell, false)] {
        for (p_b, breeze) in [(1.0 - p_calm, true), (p_calm, false)] {
            if p_s * p_b <= 0.0 {
                continue;
            }
            let start = model.start(&Percepts {
                breeze,
                stench,
                ..Percepts::default()
            });
            let worth = table
                .values
                .get(&model.key(&start))
                .ok_or("damaged: a start the game has is missing")?;
            total = total.plus(worth.at(0.0).scaled(p_s * p_b));
            queue.push_back(start);
        }
    }
    if !(close(total.score, value.score) && close(total.win, value.win)) {
        return Err("damaged: the game's value is not its starts' values".into());
    }
    let mut checked = 0;
    while let Some(b) = queue.pop_front() {
        if checked >= CHECKED_BELIEFS {
            break;
        }
        checked += 1;
        let stored = table
            .values
            .get(&model.key(&b))
            .ok_or("damaged: a belief the game reaches is missing")?;
        let pits = super::solver::pit_posterior(model, None, &mut scratch, b.visited, b.breeze);
        let mut missing = false;
        let mut next = Vec::new();
        let mut weigh = model::Envelopes {
            horizon: model.horizon,
            child: |child: &Belief| {
                next.push(*child);
                match table.values.get(&model.key(child)) {
                    Some(w) => w.clone(),
                    None => {
                        missing = true;
                        Worth::line(Line {
                            score: 0.0,
                            slope: 0.0,
                            win: 0.0,
                            death: 0.0,
                        })
                    }
                }
            },
        };
        let plans = model.plans(&b, &pits, &mut weigh);
        let again = Worth::best_of(plans.iter().map(|p| &p.worth), model.horizon);
        if missing {
            return Err("damaged: a belief the game reaches is missing".into());
        }
        for spent in [0.0, 5.0, 20.0] {
            let (a, s) = (again.at(spent), stored.at(spent));
            if !(close(a.score, s.score) && close(a.win, s.win)) {
                return Err(
                    "its values are not the game's: a belief's worth is not what its \
                     successors' give"
                        .into(),
                );
            }
        }
        for child in next {
            if seen.insert(child) {
                queue.push_back(child);
            }
        }
    }
    Ok(())
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
    fn a_fifo_a_sparse_giant_and_values_summed_again_are_misses() {
        let dir = tempfile::tempdir().unwrap();
        let first = solver(dir.path());
        let value = first.game_value().value;
        let model = first.model();
        let path = model.cache_file(dir.path());
        // Values edited and summed again: negated, with a checksum that holds.
        let (table, game) = load(model, &path).unwrap();
        let negated = Table {
            values: table
                .values
                .iter()
                .map(|(k, w)| {
                    let lines = w
                        .lines()
                        .iter()
                        .map(|l| Line {
                            score: -l.score,
                            ..*l
                        })
                        .collect();
                    (*k, Worth::from_lines(lines))
                })
                .collect(),
            pits: FxHashMap::default(),
        };
        let negated_game = GameValue {
            value: Value {
                score: -game.value.score,
                ..game.value
            },
            ..game
        };
        save(model, &negated, &negated_game, &path).unwrap();
        let why = load(model, &path).err().expect("a miss").to_string();
        assert!(
            why.contains("not the game's") || why.contains("not its starts' values"),
            "{why}"
        );
        // One belief off, the game's value and the checksum kept whole: found by the backup.
        let mut one_off = Table {
            values: table.values.clone(),
            pits: FxHashMap::default(),
        };
        let start = model.start(&Percepts::default());
        let first_move = {
            let pits = super::super::solver::pit_posterior(
                model,
                Some(&table),
                &mut Table::default(),
                start.visited,
                start.breeze,
            );
            let mut next = Vec::new();
            let mut weigh = model::Envelopes {
                horizon: model.horizon,
                child: |b: &Belief| {
                    next.push(*b);
                    table.values[&model.key(b)].clone()
                },
            };
            model.plans(&start, &pits, &mut weigh);
            next[0]
        };
        let key = model.key(&first_move);
        let lines = one_off.values[&key]
            .lines()
            .iter()
            .map(|l| Line {
                score: l.score + 1.0,
                ..*l
            })
            .collect();
        one_off.values.insert(key, Worth::from_lines(lines));
        save(model, &one_off, &game, &path).unwrap();
        let why = load(model, &path).err().expect("a miss").to_string();
        assert!(why.contains("not the game's"), "{why}");
        // A header that claims more entries than memory holds, on a sparse file.
        let header = std::fs::read(&path).unwrap()[..model.header().len() + 40].to_vec();
        let mut giant = header.clone();
        giant.extend_from_slice(&(u64::MAX / 64).to_le_bytes());
        std::fs::write(&path, &giant).unwrap();
        std::fs::OpenOptions::new()
            .write(true)
            .open(&path)
            .unwrap()
            .set_len(100 << 30)
            .unwrap();
        assert!(load(model, &path).is_err());
        // A FIFO where the file should be: a miss at once, never a wait for a writer.
        std::fs::remove_file(&path).unwrap();
        let c = std::ffi::CString::new(path.to_str().unwrap()).unwrap();
        assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
        let (done, finished) = std::sync::mpsc::channel();
        let dir_path = dir.path().to_path_buf();
        std::thread::spawn(move || {
            let again = solver(&dir_path);
            let _ = done.send(again.game_value().value);
        });
        let again = finished
            .recv_timeout(std::time::Duration::from_secs(30))
            .expect("a FIFO in the cache folder never blocks");
        assert_eq!(again, value);
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
