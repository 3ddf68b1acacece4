//! Batches of classic games played by an agent, for measuring it: game `i` is dealt from seed
//! `base + i`, so a batch is deterministic and any game of it replays alone from its seed.
//!
//! Each game is played by a fresh agent made from the game's seed. Large batches are spread
//! over threads with `rayon`; the games' records are gathered in seed order before they are
//! summed, so the summary does not depend on the number of threads. Only the elapsed time (and
//! so the games per second) varies from run to run.

use super::agent::ClassicAgent;
use super::classic::{ClassicGame, Ending, LossCause, Variant};
use super::hazards::HazardError;
use super::map::CaveMap;
use crate::rng::game_seed;
use rayon::prelude::*;
use serde::Serialize;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// An agent that has taken this many actions in one game without ending it is stopped, and the
/// game counted unfinished (the rules end every game of a sensible agent well before: 100 moves
/// and 5 misses at most; only refused actions can go on for ever).
pub const MAX_ACTIONS: u32 = 10_000;

/// Batches at least this large are played on several threads.
pub const PARALLEL_FROM: u64 = 256;

/// What to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchConfig {
    /// How many games.
    pub games: u64,
    /// The seed of game 0; game `i` has seed `base_seed + i`.
    pub base_seed: u64,
    /// The rules.
    pub variant: Variant,
}

/// How one game went.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct GameRecord {
    /// The game's seed.
    pub seed: u64,
    /// How it ended, or `None` when the agent was stopped after [`MAX_ACTIONS`].
    pub ending: Option<Ending>,
    /// Moves made.
    pub moves: u32,
    /// Arrows shot.
    pub shots: u32,
}

/// Plays one game from `seed` with `agent`.
pub fn play_game<A: ClassicAgent>(
    map: &Arc<CaveMap>,
    variant: Variant,
    seed: u64,
    agent: &mut A,
) -> Result<GameRecord, HazardError> {
    let record = play_game_until(map, variant, seed, agent, &|| false)?;
    Ok(record.expect("a game nobody stops ends"))
}

/// [`play_game`], given up (`None`) once `stop` says so. It is asked before each action, so
/// that a stopped batch (Ctrl-C in `solve`) ends promptly even while a slow agent is in the
/// middle of a game.
pub fn play_game_until<A: ClassicAgent>(
    map: &Arc<CaveMap>,
    variant: Variant,
    seed: u64,
    agent: &mut A,
    stop: &dyn Fn() -> bool,
) -> Result<Option<GameRecord>, HazardError> {
    let mut game = ClassicGame::new(map.clone(), variant, seed)?;
    let mut actions = 0;
    while game.ending().is_none() && actions < MAX_ACTIONS {
        if stop() {
            return Ok(None);
        }
        let action = agent.act(&game.status());
        let turn = game.act(&action);
        agent.observe(&turn.result);
        actions += 1;
    }
    Ok(Some(GameRecord {
        seed,
        ending: game.ending(),
        moves: game.moves(),
        shots: game.shots(),
    }))
}

/// Losses counted by cause.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct LossCounts {
    /// Fell into a pit.
    pub pit: u64,
    /// Eaten by the wumpus.
    pub wumpus: u64,
    /// Shot by the hunter's own arrow.
    pub own_arrow: u64,
    /// The fifth arrow missed.
    pub out_of_arrows: u64,
    /// The 100th move.
    pub exhaustion: u64,
}

impl LossCounts {
    /// The count for `cause`.
    pub fn get(&self, cause: LossCause) -> u64 {
        match cause {
            LossCause::Pit => self.pit,
            LossCause::Wumpus => self.wumpus,
            LossCause::OwnArrow => self.own_arrow,
            LossCause::OutOfArrows => self.out_of_arrows,
            LossCause::Exhaustion => self.exhaustion,
        }
    }

    fn add(&mut self, cause: LossCause) {
        let slot = match cause {
            LossCause::Pit => &mut self.pit,
            LossCause::Wumpus => &mut self.wumpus,
            LossCause::OwnArrow => &mut self.own_arrow,
            LossCause::OutOfArrows => &mut self.out_of_arrows,
            LossCause::Exhaustion => &mut self.exhaustion,
        };
        *slot += 1;
    }
}

/// The deterministic part of a batch's result.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct BatchSummary {
    /// Games played.
    pub games: u64,
    /// The seed of game 0.
    pub base_seed: u64,
    /// The rules.
    pub variant: Variant,
    /// Games won.
    pub wins: u64,
    /// `wins / games`.
    pub win_rate: f64,
    /// The sum of the scores.
    pub total_score: u64,
    /// Points a game.
    pub mean_score: f64,
    /// Games lost, by cause.
    pub losses: LossCounts,
    /// Games the agent was stopped in after [`MAX_ACTIONS`] actions.
    pub unfinished: u64,
    /// Arrows shot a game.
    pub arrows_per_game: f64,
    /// Moves a game.
    pub moves_per_game: f64,
}

impl BatchSummary {
    /// Sums game records (in the order given).
    pub fn from_records(records: &[GameRecord], base_seed: u64, variant: Variant) -> Self {
        let games = records.len() as u64;
        let mut wins = 0;
        let mut total_score = 0;
        let mut losses = LossCounts::default();
        let mut unfinished = 0;
        let (mut shots, mut moves) = (0u64, 0u64);
        for r in records {
            match r.ending {
                Some(Ending::Won { score }) => {
                    wins += 1;
                    total_score += u64::from(score);
                }
                Some(Ending::Lost(cause)) => losses.add(cause),
                None => unfinished += 1,
            }
            shots += u64::from(r.shots);
            moves += u64::from(r.moves);
        }
        let per_game = |x: u64| {
            if games == 0 {
                0.0
            } else {
                x as f64 / games as f64
            }
        };
        BatchSummary {
            games,
            base_seed,
            variant,
            wins,
            win_rate: per_game(wins),
            total_score,
            mean_score: per_game(total_score),
            losses,
            unfinished,
            arrows_per_game: per_game(shots),
            moves_per_game: per_game(moves),
        }
    }
}

/// A batch's summary and how long it took.
#[derive(Clone, Debug)]
pub struct BatchReport {
    /// The deterministic summary.
    pub summary: BatchSummary,
    /// Wall-clock time for the games.
    pub elapsed: Duration,
}

impl BatchReport {
    /// Games played a second of wall-clock time.
    pub fn games_per_second(&self) -> f64 {
        self.summary.games as f64 / self.elapsed.as_secs_f64().max(1e-9)
    }
}

/// Plays `config.games` games on `map`, game `i` from seed `base_seed + i` with the agent
/// `make_agent(seed)`.
pub fn run_batch<A, F>(
    map: &Arc<CaveMap>,
    config: &BatchConfig,
    make_agent: F,
) -> Result<BatchReport, HazardError>
where
    A: ClassicAgent,
    F: Fn(u64) -> A + Sync,
{
    let start = Instant::now();
    let one = |i: u64| {
        let seed = game_seed(config.base_seed, i);
        play_game(map, config.variant, seed, &mut make_agent(seed))
    };
    let records: Vec<GameRecord> = if config.games >= PARALLEL_FROM {
        (0..config.games)
            .into_par_iter()
            .map(one)
            .collect::<Result<_, _>>()?
    } else {
        (0..config.games).map(one).collect::<Result<_, _>>()?
    };
    let elapsed = start.elapsed();
    Ok(BatchReport {
        summary: BatchSummary::from_records(&records, config.base_seed, config.variant),
        elapsed,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::agent::RandomAgent;
    use crate::cave::map::parse_map;

    fn standard() -> Arc<CaveMap> {
        Arc::new(parse_map(include_str!("../../worlds/cave-standard.txt")).unwrap())
    }

    #[test]
    fn batches_are_deterministic_whatever_the_threads() {
        let map = standard();
        let config = |games| BatchConfig {
            games,
            base_seed: 40,
            variant: Variant::Event,
        };
        let big = run_batch(&map, &config(PARALLEL_FROM), RandomAgent::for_game).unwrap();
        let again = run_batch(&map, &config(PARALLEL_FROM), RandomAgent::for_game).unwrap();
        assert_eq!(big.summary, again.summary);
        // The same games one by one, on one thread.
        let records: Vec<GameRecord> = (0..PARALLEL_FROM)
            .map(|i| {
                let seed = 40 + i;
                play_game(&map, Variant::Event, seed, &mut RandomAgent::for_game(seed)).unwrap()
            })
            .collect();
        assert_eq!(
            BatchSummary::from_records(&records, 40, Variant::Event),
            big.summary
        );
    }

    #[test]
    fn summary_adds_up() {
        let map = standard();
        let config = BatchConfig {
            games: 500,
            base_seed: 0,
            variant: Variant::Event,
        };
        let s = run_batch(&map, &config, RandomAgent::for_game)
            .unwrap()
            .summary;
        let lost: u64 = LossCause::ALL.iter().map(|&c| s.losses.get(c)).sum();
        assert_eq!(s.wins + lost + s.unfinished, 500);
        assert_eq!(s.unfinished, 0);
        assert!(s.total_score <= 100 * s.wins);
        assert!(s.moves_per_game < 100.0);
        assert!(s.arrows_per_game <= 5.0);
    }

    #[test]
    fn a_map_too_small_to_deal_is_an_error() {
        let tiny = Arc::new(parse_map("1\n2\n1 2 2 1\n2 1 1 2\n").unwrap());
        let config = BatchConfig {
            games: 3,
            base_seed: 0,
            variant: Variant::Event,
        };
        assert!(run_batch(&tiny, &config, RandomAgent::for_game).is_err());
    }
}
