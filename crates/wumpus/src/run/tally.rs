//! What games come to, the same for every rule set: the record of one game ([`GameRecord`]),
//! the exact sums of many ([`Tally`]), which add up in any order and merge across shards, and
//! the batch summary computed from them ([`Summary`], the one JSON shape of `solve --json`).

use super::shard::Shard;
use crate::game::Ending;
use crate::game_spec::GameSpec;
use serde::{Deserialize, Serialize};
use std::ops::Range;
use std::time::Duration;

/// How one game went.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct GameRecord {
    /// The game's seed (none for a game on a world file).
    pub seed: Option<u64>,
    /// The file the game was played on, in a batch over files.
    #[serde(skip_serializing_if = "Option::is_none", default)]
    pub file: Option<String>,
    /// How it ended.
    pub ending: Ending,
    /// The final score, where the rule set keeps one (0 for an unfinished game).
    pub score: Option<i64>,
    /// Actions (grid) or moves (caves) counted by the game.
    pub moves: u32,
    /// Arrows shot or grenades tossed.
    pub shots: u32,
    /// Whether an all-knowing player could have won, where the rule set can tell.
    pub winnable: Option<bool>,
    /// Solver calls the agent made.
    pub solver_calls: u64,
    /// Decisions the agent made.
    pub decisions: u32,
    /// Time spent in the agent (observing and deciding).
    #[serde(skip)]
    pub agent_time: Duration,
}

/// Exact sums over games, from which every figure of a [`Summary`] follows. Sums merge exactly,
/// so the shards of a batch add up to the whole; a batch keeps these, never a record per game.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Tally {
    /// Games played.
    pub games: u64,
    /// Games by how they ended.
    #[serde(with = "endings")]
    pub endings: [u64; Ending::ALL.len()],
    /// Sum of the final scores.
    pub score_sum: i64,
    /// Sum of the squares of the final scores, for the standard error of the mean score (0 in
    /// summaries that do not keep it).
    #[serde(default)]
    pub score_squares_sum: u64,
    /// Sum of the moves.
    pub moves_sum: u64,
    /// Sum of the shots (arrows or grenades).
    pub shots_sum: u64,
    /// Sum of the shots in won games.
    pub won_shots_sum: u64,
    /// Games an all-knowing player could win (rule sets that can tell).
    pub winnable: u64,
    /// Sum of the solver calls.
    pub solver_calls_sum: u64,
    /// Decisions made.
    pub decisions: u64,
    /// Nanoseconds spent in the agents (a timing: varies from run to run).
    pub agent_nanos: u64,
}

impl Tally {
    /// Counts one game.
    pub fn add(&mut self, r: &GameRecord) {
        self.games += 1;
        self.endings[r.ending.index()] += 1;
        self.score_sum += r.score.unwrap_or(0);
        self.score_squares_sum += r.score.unwrap_or(0).unsigned_abs().pow(2);
        self.moves_sum += u64::from(r.moves);
        self.shots_sum += u64::from(r.shots);
        if r.ending == Ending::Won {
            self.won_shots_sum += u64::from(r.shots);
        }
        self.winnable += u64::from(r.winnable == Some(true));
        self.solver_calls_sum += r.solver_calls;
        self.decisions += u64::from(r.decisions);
        self.agent_nanos += r.agent_time.as_nanos() as u64;
    }

    /// Why the sums cannot be those of real games of a rule set with `facts`, if they cannot:
    /// the endings must add up to the games, no count may exceed what its games allow (a game
    /// has at most `u32::MAX` moves, shots and decisions), the scores must lie within what the
    /// rules can give (at most the best score a game, at least the worst less one a move),
    /// and the squares of the scores must be at least the square of their sum over the games.
    pub fn inconsistency(&self, facts: &crate::game::RuleFacts) -> Option<String> {
        let endings: u128 = self.endings.iter().map(|&n| u128::from(n)).sum();
        if endings != u128::from(self.games) {
            return Some(format!(
                "its endings count {endings} games, its games {}",
                self.games
            ));
        }
        let games = u128::from(self.games);
        let most = games * u128::from(u32::MAX);
        for (what, n) in [
            ("moves", self.moves_sum),
            ("shots", self.shots_sum),
            ("decisions", self.decisions),
        ] {
            if u128::from(n) > most {
                return Some(format!("{n} {what} in {} games", self.games));
            }
        }
        if self.won_shots_sum > self.shots_sum {
            return Some(format!(
                "{} shots in won games of {} shots in all",
                self.won_shots_sum, self.shots_sum
            ));
        }
        if self.winnable > self.games {
            return Some(format!(
                "{} winnable games of {}",
                self.winnable, self.games
            ));
        }
        let best = i128::from(facts.best_score) * games as i128;
        let worst = i128::from(facts.worst_score) * games as i128 - i128::from(self.moves_sum);
        let sum = i128::from(self.score_sum);
        if sum > best || sum < worst {
            return Some(format!(
                "a score sum of {} in {} games, which the rules cannot give ({} to {})",
                self.score_sum, self.games, worst, best
            ));
        }
        // Cauchy-Schwarz: (sum s)^2 <= games * sum s^2.
        let sum = self.score_sum.unsigned_abs() as u128;
        let squares = u128::from(self.score_squares_sum);
        if sum.checked_mul(sum).is_none_or(|sq| sq > games * squares) {
            return Some(format!(
                "a score sum of {} that its squares ({}) cannot give",
                self.score_sum, self.score_squares_sum
            ));
        }
        None
    }

    /// Adds another tally's sums, refusing sums that overflow.
    pub fn checked_merge(&mut self, o: &Tally) -> Option<()> {
        let mut out = *self;
        out.games = out.games.checked_add(o.games)?;
        for (a, b) in out.endings.iter_mut().zip(o.endings) {
            *a = a.checked_add(b)?;
        }
        out.score_sum = out.score_sum.checked_add(o.score_sum)?;
        out.score_squares_sum = out.score_squares_sum.checked_add(o.score_squares_sum)?;
        out.moves_sum = out.moves_sum.checked_add(o.moves_sum)?;
        out.shots_sum = out.shots_sum.checked_add(o.shots_sum)?;
        out.won_shots_sum = out.won_shots_sum.checked_add(o.won_shots_sum)?;
        out.winnable = out.winnable.checked_add(o.winnable)?;
        out.solver_calls_sum = out.solver_calls_sum.checked_add(o.solver_calls_sum)?;
        out.decisions = out.decisions.checked_add(o.decisions)?;
        out.agent_nanos = out.agent_nanos.saturating_add(o.agent_nanos);
        *self = out;
        Some(())
    }

    /// Adds another tally's sums.
    pub fn merge(&mut self, o: &Tally) {
        self.games += o.games;
        for (a, b) in self.endings.iter_mut().zip(o.endings) {
            *a += b;
        }
        self.score_sum += o.score_sum;
        self.score_squares_sum += o.score_squares_sum;
        self.moves_sum += o.moves_sum;
        self.shots_sum += o.shots_sum;
        self.won_shots_sum += o.won_shots_sum;
        self.winnable += o.winnable;
        self.solver_calls_sum += o.solver_calls_sum;
        self.decisions += o.decisions;
        self.agent_nanos += o.agent_nanos;
    }

    /// Games that ended so.
    pub fn ended(&self, ending: Ending) -> u64 {
        self.endings[ending.index()]
    }

    /// Games won.
    pub fn wins(&self) -> u64 {
        self.ended(Ending::Won)
    }

    /// Games lost, every cause together.
    pub fn losses(&self) -> u64 {
        Ending::ALL
            .iter()
            .filter(|e| e.is_loss())
            .map(|&e| self.ended(e))
            .sum()
    }
}

/// The endings array as a JSON object of the nonzero counts: `{"won": 812, "pit": 96}`.
mod endings {
    use super::Ending;
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serialize, Serializer};
    use std::collections::BTreeMap;

    pub fn serialize<S: Serializer>(v: &[u64; Ending::ALL.len()], s: S) -> Result<S::Ok, S::Error> {
        let map: BTreeMap<&str, u64> = Ending::ALL
            .iter()
            .filter(|e| v[e.index()] > 0)
            .map(|e| (e.name(), v[e.index()]))
            .collect();
        map.serialize(s)
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<[u64; Ending::ALL.len()], D::Error> {
        let map: BTreeMap<String, u64> = BTreeMap::deserialize(d)?;
        let mut v = [0; Ending::ALL.len()];
        for (name, n) in map {
            let e = Ending::parse(&name)
                .ok_or_else(|| D::Error::custom(format!("'{name}' is not an ending")))?;
            v[e.index()] = n;
        }
        Ok(v)
    }
}

/// The seeds a batch or shard covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SeedRange {
    /// The first game's seed.
    pub first: u64,
    /// The last game's seed.
    pub last: u64,
}

/// What a batch (or a shard of one, or merged shards) came to: the same shape for every rule
/// set. Every figure follows from `totals`; the rest says which batch it is.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// The game: its rule set, its agent and every option at its value (for a batch over
    /// files, less what each file sets for itself).
    pub game: GameSpec,
    /// What a batch over files played (`10000 files in Tournament`), if it played files.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub files: Option<String>,
    /// The player's name when the games were played by a program of its own, not one of the
    /// project's agents (whose name is the game's `agent`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub player: Option<String>,
    /// Seed of the first game of the whole batch; game `i` has seed `seed + i`.
    pub seed: u64,
    /// Games in the whole batch (all shards).
    pub worlds: u64,
    /// The shard this covers, if one.
    pub shard: Option<Shard>,
    /// The seeds of the games this covers (`null` for an empty shard).
    pub seeds: Option<SeedRange>,
    /// True when the batch was stopped (Ctrl-C) before every game was played.
    pub interrupted: bool,
    /// Games played.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Share of games won.
    pub win_rate: f64,
    /// The standard error of the win rate.
    pub win_rate_error: f64,
    /// Games lost, by cause; and the other endings (`climbed_out`, `unfinished`).
    pub endings: std::collections::BTreeMap<String, u64>,
    /// Mean final score (`null` where the rule set keeps none).
    pub mean_score: Option<f64>,
    /// The standard error of the mean score (`null` where the rule set keeps no score, or the
    /// sums come from a batch run before the squares were kept).
    #[serde(default)]
    pub mean_score_error: Option<f64>,
    /// Mean moves a game.
    pub mean_moves: f64,
    /// Mean shots (arrows or grenades) a game.
    pub mean_shots: f64,
    /// Mean shots a won game.
    pub shots_per_win: f64,
    /// Share of games an all-knowing player could win (`null` where the rule set cannot tell).
    pub ceiling: Option<f64>,
    /// Wins as a share of the winnable games.
    pub wins_of_ceiling: Option<f64>,
    /// Mean solver calls a game.
    pub solver_calls_per_game: f64,
    /// Mean time the agent took a decision, in microseconds.
    pub mean_decision_us: f64,
    /// Wall-clock seconds (for a merge: the shards' seconds added up).
    pub seconds: f64,
    /// Games a second, wall clock.
    pub games_per_second: f64,
    /// Threads used (for a merge: the most any shard used).
    pub threads: usize,
    /// The sums every figure above follows from; what a merge adds up.
    pub totals: Tally,
}

/// What identifies a batch, for [`Summary::new`].
#[derive(Clone, Debug)]
pub struct BatchId {
    /// The game, resolved ([`GameSpec::resolved`]).
    pub game: GameSpec,
    /// What a batch over files played, if it played files.
    pub files: Option<String>,
    /// An outside player's name, if the games were not the project's agents'.
    pub player: Option<String>,
    /// Seed of game 0.
    pub seed: u64,
    /// Games in the whole batch.
    pub worlds: u64,
    /// The shard played, if one.
    pub shard: Option<Shard>,
}

impl BatchId {
    /// The games `lo..hi` of the batch this covers.
    pub fn range(&self) -> Range<u64> {
        match self.shard {
            Some(shard) => shard.range(self.worlds),
            None => 0..self.worlds,
        }
    }
}

impl Summary {
    /// The summary of `totals`, the games of batch `id` that were played in `seconds` on
    /// `threads` threads.
    pub fn new(id: BatchId, totals: Tally, seconds: f64, threads: usize) -> Summary {
        let range = id.range();
        let seeds = (range.start < range.end).then(|| SeedRange {
            first: crate::rng::game_seed(id.seed, range.start),
            last: crate::rng::game_seed(id.seed, range.end - 1),
        });
        let n = totals.games.max(1) as f64;
        let win_rate = totals.wins() as f64 / n;
        let facts = crate::game_spec::facts(id.game.rules);
        let (scored, tells_winnable) = (facts.scored, facts.tells_winnable);
        Summary {
            game: id.game,
            files: id.files,
            player: id.player,
            seed: id.seed,
            worlds: id.worlds,
            shard: id.shard,
            seeds,
            interrupted: totals.games < range.end - range.start,
            games: totals.games,
            wins: totals.wins(),
            win_rate,
            win_rate_error: (win_rate * (1.0 - win_rate) / n).sqrt(),
            endings: Ending::ALL
                .iter()
                .filter(|&&e| totals.ended(e) > 0)
                .map(|&e| (e.name().to_string(), totals.ended(e)))
                .collect(),
            mean_score: scored.then(|| totals.score_sum as f64 / n),
            mean_score_error: scored
                .then(|| {
                    let mean = totals.score_sum as f64 / n;
                    let variance = totals.score_squares_sum as f64 / n - mean * mean;
                    // Sums kept without squares give a negative variance: no error then.
                    (variance >= -1e-6 && totals.games > 1).then(|| (variance.max(0.0) / n).sqrt())
                })
                .flatten(),
            mean_moves: totals.moves_sum as f64 / n,
            mean_shots: totals.shots_sum as f64 / n,
            shots_per_win: if totals.wins() == 0 {
                0.0
            } else {
                totals.won_shots_sum as f64 / totals.wins() as f64
            },
            ceiling: tells_winnable.then(|| totals.winnable as f64 / n),
            wins_of_ceiling: tells_winnable.then(|| {
                if totals.winnable == 0 {
                    0.0
                } else {
                    totals.wins() as f64 / totals.winnable as f64
                }
            }),
            solver_calls_per_game: totals.solver_calls_sum as f64 / n,
            mean_decision_us: if totals.decisions == 0 {
                0.0
            } else {
                totals.agent_nanos as f64 / 1e3 / totals.decisions as f64
            },
            seconds,
            games_per_second: totals.games as f64 / seconds.max(1e-9),
            threads,
            totals,
        }
    }

    /// What identifies the batch this summary covers.
    pub fn id(&self) -> BatchId {
        BatchId {
            game: self.game.clone(),
            files: self.files.clone(),
            player: self.player.clone(),
            seed: self.seed,
            worlds: self.worlds,
            shard: self.shard,
        }
    }

    /// The games `lo..hi` of the batch this summary covers.
    pub fn range(&self) -> Range<u64> {
        self.id().range()
    }
}

/// Why shard summaries do not merge.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MergeError {
    /// Nothing to merge.
    #[error("no summaries to merge")]
    Empty,
    /// Two summaries are of different batches.
    #[error("summary {0} is of another batch than the first: its {1} differs")]
    OtherBatch(usize, &'static str),
    /// A summary is of no shard, in a merge of several.
    #[error("summary {0} is a whole batch, not a shard")]
    NotAShard(usize),
    /// A shard appears twice.
    #[error("shard {0} appears twice")]
    Twice(Shard),
    /// A shard is missing.
    #[error("shard {0} is missing")]
    Missing(Shard),
    /// A shard was interrupted.
    #[error("shard {0} was interrupted after {1} of its games; run it again")]
    Interrupted(String, u64),
    /// A summary's sums cannot be those of real games, or its figures do not follow from its
    /// sums (a summary edited by hand).
    #[error("summary {0} does not add up: {1}")]
    Inconsistent(usize, String),
    /// The shards' sums together overflow.
    #[error("the summaries' sums overflow when added up (summary {0})")]
    Overflow(usize),
}

impl MergeError {
    /// The summary at fault (1 for the first given), when one is.
    pub fn part(&self) -> Option<usize> {
        match self {
            MergeError::OtherBatch(n, _)
            | MergeError::NotAShard(n)
            | MergeError::Inconsistent(n, _)
            | MergeError::Overflow(n) => Some(*n),
            _ => None,
        }
    }
}

/// Merges the summaries of the shards of one batch (given in any order, of any rule set)
/// into the whole batch's summary: the same figures, but for timings, as one unsharded run.
///
/// Timings: `seconds` adds the shards' seconds (the machine time spent), `games_per_second`
/// is games over that sum, `threads` the most any shard used.
pub fn merge(parts: &[Summary]) -> Result<Summary, MergeError> {
    let first = parts.first().ok_or(MergeError::Empty)?;
    let count = first.shard.map_or(1, |s| s.count);
    let mut seen = std::collections::BTreeSet::new();
    let mut totals = Tally::default();
    let mut seconds = 0.0;
    let mut threads = 0;
    // Every summary must be of the first's batch before shards are counted, so that a mix of
    // batches is named as such.
    for (i, p) in parts.iter().enumerate() {
        let same = [
            (p.game.rules == first.game.rules, "rule set"),
            (
                p.game.agent == first.game.agent && p.player == first.player,
                "agent",
            ),
            (p.game == first.game && p.files == first.files, "setup"),
            (p.seed == first.seed, "seed"),
            (p.worlds == first.worlds, "worlds"),
            (
                p.shard.map(|s| s.count) == first.shard.map(|s| s.count),
                "shard count",
            ),
        ];
        if let Some((_, what)) = same.iter().find(|(ok, _)| !ok) {
            return Err(MergeError::OtherBatch(i + 1, what));
        }
    }
    for (i, p) in parts.iter().enumerate() {
        let n = i + 1;
        let index = match p.shard {
            Some(s) => s.index,
            None if parts.len() == 1 => 1,
            None => return Err(MergeError::NotAShard(n)),
        };
        // A hand-edited summary may name a shard beyond its count.
        if index == 0 || index > count {
            return Err(MergeError::OtherBatch(n, "shard index"));
        }
        if !seen.insert(index) {
            return Err(MergeError::Twice(
                p.shard.expect("several parts are shards"),
            ));
        }
        // The flag says it; the count also catches a summary edited by hand.
        let range = p.range();
        if p.interrupted || p.totals.games != range.end - range.start {
            let name = p.shard.map_or("the batch".to_string(), |s| s.to_string());
            return Err(MergeError::Interrupted(name, p.totals.games));
        }
        if let Some(why) = p
            .totals
            .inconsistency(crate::game_spec::facts(p.game.rules))
        {
            return Err(MergeError::Inconsistent(n, why));
        }
        let own = Summary::new(p.id(), p.totals, p.seconds, p.threads);
        for (what, given, computed) in [("games", p.games, own.games), ("wins", p.wins, own.wins)] {
            if given != computed {
                return Err(MergeError::Inconsistent(
                    n,
                    format!("it says {given} {what}, its sums {computed}"),
                ));
            }
        }
        if p.endings != own.endings {
            return Err(MergeError::Inconsistent(
                n,
                "its endings are not those of its sums".to_string(),
            ));
        }
        totals
            .checked_merge(&p.totals)
            .ok_or(MergeError::Overflow(n))?;
        seconds += p.seconds;
        threads = threads.max(p.threads);
    }
    if (seen.len() as u64) < count {
        let missing = (1..)
            .find(|k| !seen.contains(k))
            .expect("a shard is missing");
        return Err(MergeError::Missing(Shard {
            index: missing,
            count,
        }));
    }
    let id = BatchId {
        shard: None,
        ..first.id()
    };
    Ok(Summary::new(id, totals, seconds, threads))
}
