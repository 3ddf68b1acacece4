//! The one batch loop of every rule set: games played in parallel (rayon), summed as they
//! finish into a [`Tally`], a chunk at a time, so that memory stays flat however many games.
//! Game `i` is dealt from seed `base + i` ([`solve`]), or played on the `i`-th of a list of
//! world or hazard files ([`solve_files`]), so the sums do not depend on the number of
//! threads, and any game replays alone.
//!
//! A batch reports as it goes through a [`BatchSink`] (the command line's progress bar, Ctrl-C
//! and CSV rows); the library prints nothing.

use super::shard::Shard;
use super::tally::{BatchId, GameRecord, Summary, Tally};
use super::{play, JobError, RunError};
use crate::agent::{AgentFactory, Dice};
use crate::game::{Files, Session};
use crate::game_spec::{GameSpec, OnRules, Playable, Prepared, SpecError};
use crate::rng::game_seed;
use rayon::prelude::*;
use std::ops::Range;
use std::path::PathBuf;
use std::time::Instant;

/// A batch as a door asks for it: `worlds` games dealt from seeds `seed`, `seed + 1`, ..., or
/// one game a file of a list of world or hazard files; on `threads` threads; one shard of it.
/// Every door makes it with [`BatchJob::new`], which refuses the same things for each.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BatchJob {
    /// The games, seeds, threads and shard.
    pub batch: Batch,
    /// The files played, one game each, in order (empty: games are dealt).
    pub files: Vec<PathBuf>,
}

/// A batch played: its summary, and what its agents report of themselves (the optimal
/// agent's solve), if anything.
#[derive(Debug)]
pub struct Solved {
    /// The summary.
    pub summary: Summary,
    /// The agents' report, for people.
    pub report: Option<String>,
}

impl BatchJob {
    /// The batch of games of `spec`: `worlds` games from `seed`, or one game a file that
    /// `paths` names (folders listed by [`crate::files::game_files`]), on `threads` threads
    /// (all cores: `None`), only `shard` of it. Refused, one message each: files beside a size
    /// or a deal (each file holds its own world), a batch of no games, more shards than games.
    pub fn new(
        spec: &GameSpec,
        worlds: u64,
        seed: u64,
        threads: Option<usize>,
        shard: Option<Shard>,
        paths: &[PathBuf],
    ) -> Result<BatchJob, JobError> {
        let mut files = Vec::new();
        let mut worlds = worlds;
        if !paths.is_empty() {
            if spec.size.is_some() || spec.deal.is_some() {
                return Err(SpecError::refused(
                    "{files} plays each file's own world: {size} and {deal} deal worlds instead",
                )
                .into());
            }
            files = crate::files::game_files(paths).map_err(SpecError::from)?;
            worlds = files.len() as u64;
        }
        if worlds == 0 {
            return Err(SpecError::refused("{worlds} must be at least 1").into());
        }
        if let Some(shard) = shard {
            if worlds < shard.count {
                let n = shard.count;
                return Err(SpecError::refused(format!(
                    "{n} shards need at least {n} games, but {{worlds}} is {worlds}: some \
                     shards would be empty (give {{worlds}} at least {n} for {n} shards)"
                ))
                .into());
            }
        }
        Ok(BatchJob {
            batch: Batch {
                worlds,
                seed,
                threads,
                shard,
            },
            files,
        })
    }

    /// How many games this job plays (its shard's).
    pub fn games(&self) -> u64 {
        let range = self.batch.range();
        range.end - range.start
    }

    /// Plays the batch of `spec` (as [`BatchJob::new`] was given it), reporting to `sink`.
    pub fn run(&self, spec: &GameSpec, sink: &mut dyn BatchSink) -> Result<Solved, JobError> {
        struct Run<'a> {
            job: &'a BatchJob,
            sink: &'a mut dyn BatchSink,
        }
        impl OnRules for Run<'_> {
            type Out = Result<Solved, JobError>;
            fn run<S: Playable>(self, game: Prepared<S>) -> Self::Out {
                self.job.play(&game, self.sink)
            }
        }
        spec.dispatch(Run { job: self, sink }, false)?
    }

    /// Plays the batch of `game`.
    pub fn play<S: Playable>(
        &self,
        game: &Prepared<S>,
        sink: &mut dyn BatchSink,
    ) -> Result<Solved, JobError> {
        let agents = game.agents()?;
        let batch = &self.batch;
        let (seed, worlds, shard) = (batch.seed, batch.worlds, batch.shard);
        let summary = if self.files.is_empty() {
            let id = BatchId {
                game: game.game.clone(),
                files: None,
                player: None,
                seed,
                worlds,
                shard,
            };
            solve(&game.setup, agents.as_ref(), batch, id, sink)?
        } else {
            let course = S::FACTS.on_grid && all_course_files(&self.files);
            let id = BatchId {
                game: game.game_for_files(course),
                files: Some(crate::files::files_label(&self.files)),
                player: None,
                seed,
                worlds,
                shard,
            };
            solve_files(&game.setup, &self.files, agents.as_ref(), batch, id, sink)?
        };
        Ok(Solved {
            summary,
            report: agents.report(),
        })
    }
}

/// What a batch reports as it goes, and how it is stopped: the CLI draws a progress bar,
/// writes CSV rows and listens for Ctrl-C through this; the library prints nothing.
pub trait BatchSink: Sync {
    /// `games` more games finished (called from the worker threads).
    fn progress(&self, games: u64) {
        let _ = games;
    }

    /// True once the batch should stop: games not yet finished are abandoned.
    fn stopped(&self) -> bool {
        false
    }

    /// True when [`BatchSink::record`] should be called for every game.
    fn wants_records(&self) -> bool {
        false
    }

    /// One finished game, in seed order; return false to stop the batch (e.g. the output is
    /// closed). Only the records of a chunk of games are held at a time.
    fn record(&mut self, record: &GameRecord) -> bool {
        let _ = record;
        true
    }
}

/// A sink that wants nothing and never stops.
pub struct Quiet;

impl BatchSink for Quiet {}

/// Games played between two reports of records; bounds the memory a batch holds.
pub const CHUNK: u64 = 8192;

/// A batch of seeded games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Batch {
    /// How many games in the whole batch.
    pub worlds: u64,
    /// Seed of game 0; game `i` has seed `seed + i`.
    pub seed: u64,
    /// Threads to use (`None`: all cores).
    pub threads: Option<usize>,
    /// Play only this shard of the batch (`None`: all of it).
    pub shard: Option<Shard>,
}

impl Batch {
    /// The games `lo..hi` this batch plays.
    pub fn range(&self) -> Range<u64> {
        match self.shard {
            Some(shard) => shard.range(self.worlds),
            None => 0..self.worlds,
        }
    }
}

/// Plays a batch (or the batch's shard) of `S` games dealt from `setup`, each with a fresh
/// agent from `agents`, and sums it up as batch `id`. Same batch, same numbers (but for the
/// timings), whatever the number of threads. A batch stopped by `sink` sums the games that
/// finished (`interrupted` is then set).
pub fn solve<S: Session>(
    setup: &S::Setup,
    agents: &dyn AgentFactory<S>,
    batch: &Batch,
    id: BatchId,
    sink: &mut dyn BatchSink,
) -> Result<Summary, RunError> {
    solve_games(agents, batch, id, sink, |_, seed| {
        Ok((S::deal(setup, seed)?, None))
    })
}

/// [`solve`] on files: game `i` is played on `files[i]` (a world file, or a cave's hazards,
/// whose later random events are drawn from seed `base + i`), and its record is named by the
/// file. `batch.worlds` must be the number of files.
pub fn solve_files<S: Files>(
    setup: &S::Setup,
    files: &[std::path::PathBuf],
    agents: &dyn AgentFactory<S>,
    batch: &Batch,
    id: BatchId,
    sink: &mut dyn BatchSink,
) -> Result<Summary, RunError> {
    solve_games(agents, batch, id, sink, |i, seed| {
        let path = &files[i as usize];
        let session = S::load(setup, path, seed)?;
        Ok((session, Some(path.display().to_string())))
    })
}

/// True when every file is one of the course tournament's world files (by its first line;
/// [`crate::grid::course`]). A file that cannot be read is not one; the batch says why.
pub fn all_course_files(files: &[std::path::PathBuf]) -> bool {
    files.iter().all(|f| {
        crate::files::read_text(f)
            .is_ok_and(|text| crate::grid::course::looks_like_course_world(&text))
    })
}

/// The batch loop, over games that `set_up(i, seed)` sets up for game `i` of seed `seed` (with
/// the name of the file each is played on, if one).
fn solve_games<S: Session>(
    agents: &dyn AgentFactory<S>,
    batch: &Batch,
    id: BatchId,
    sink: &mut dyn BatchSink,
    set_up: impl Fn(u64, u64) -> Result<(S, Option<String>), RunError> + Sync,
) -> Result<Summary, RunError> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(batch.threads.unwrap_or(0))
        .build()
        .map_err(|e| RunError::Threads(e.to_string()))?;
    let threads = pool.current_num_threads();
    let start = Instant::now();
    // The batch's wall time counts the one-off work; its decisions do not.
    agents.ready();
    let tally = play_batch(batch.range(), &pool, sink, |i, stop| {
        let seed = game_seed(batch.seed, i);
        let (mut session, file) = set_up(i, seed)?;
        // The agent is built from what its player is told; a random player's dice are the
        // game's number, drawn on the agent's own stream, not the deal.
        let mut agent = agents.make(&session.briefing(), Dice::for_game(seed))?;
        let record = play(&mut session, Some(seed), agent.as_mut(), stop, None);
        let record = record.map(|r| {
            r.map(|r| GameRecord {
                file: file.clone(),
                ..r
            })
        });
        record.map_err(|e| match e {
            RunError::Agent(crate::agent::AgentError::Kb(
                e @ crate::kb::KbError::Contradiction(_),
            )) => RunError::Contradiction(format!(
                "{e}, in the game {} (trace {} names them)",
                file.as_deref()
                    .map_or(format!("of seed {seed}"), |f| format!("on {f}")),
                file.as_deref()
                    .map_or(format!("--seed {seed}"), |f| format!("--world {f}"))
            )),
            e => e,
        })
    })?;
    Ok(Summary::new(
        id,
        tally,
        start.elapsed().as_secs_f64(),
        threads,
    ))
}

/// Plays games `range` a chunk at a time in parallel with `play(i, stop)`, which plays game
/// `i` and gives up (`None`) once `stop()` says so, and sums them. `sink` sees progress from the
/// workers, is asked whether to stop before each game (and, through `stop`, as the game goes),
/// and gets the records in seed order when it wants them; without records the sums are folded
/// on the workers, which gives the same integers. A batch that was stopped sums the games that
/// finished.
pub fn play_batch(
    range: Range<u64>,
    pool: &rayon::ThreadPool,
    sink: &mut dyn BatchSink,
    play: impl Fn(u64, &dyn Fn() -> bool) -> Result<Option<GameRecord>, RunError> + Sync,
) -> Result<Tally, RunError> {
    let mut tally = Tally::default();
    let mut stopped = false;
    let mut at = range.start;
    while at < range.end && !stopped {
        let end = range.end.min(at.saturating_add(CHUNK));
        let shared: &dyn BatchSink = &*sink;
        let one = |i: u64| -> Result<Option<GameRecord>, RunError> {
            if shared.stopped() {
                return Ok(None);
            }
            let record = play(i, &|| shared.stopped())?;
            if record.is_some() {
                shared.progress(1);
            }
            Ok(record)
        };
        if sink.wants_records() {
            let records: Vec<Option<GameRecord>> =
                pool.install(|| (at..end).into_par_iter().map(one).collect::<Result<_, _>>())?;
            for record in records.iter().flatten() {
                tally.add(record);
                if !sink.record(record) {
                    stopped = true;
                    break;
                }
            }
        } else {
            let chunk = pool.install(|| {
                (at..end)
                    .into_par_iter()
                    .map(one)
                    .try_fold(Tally::default, |mut t, r| {
                        if let Some(r) = r? {
                            t.add(&r);
                        }
                        Ok::<_, RunError>(t)
                    })
                    .try_reduce(Tally::default, |mut a, b| {
                        a.merge(&b);
                        Ok(a)
                    })
            })?;
            tally.merge(&chunk);
        }
        stopped |= sink.stopped();
        at = end;
    }
    Ok(tally)
}
