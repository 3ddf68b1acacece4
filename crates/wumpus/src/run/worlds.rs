//! Many games of one rule set stepped in one call ([`Worlds`]): the engine of Python's vector
//! environment. Each world is a game as a learner sees it ([`Learned`]); the worlds are split
//! into contiguous shares, one a thread, each share made and kept on its own thread for the
//! whole run (an agent's SAT solver never leaves the thread that made it), the first share on
//! the caller's. A call writes every world's observation, reward, termination, truncation and
//! (when asked) action mask into slices the caller owns.
//!
//! World `i`'s `k`-th game is dealt from seed `base + i + k * n` (`n` worlds), so any world
//! replays alone. A game that ended on a call is dealt again on the next (Gymnasium's
//! next-step autoreset), or at once when asked ([`Worlds::reset_finished`]).

use super::game::{Agents, HelperError, Played};
use super::learn::{Layout, Learned, MaskKind, Mode};
use super::JobError;
use crate::game::{Ending, GameError};
use crate::game_spec::{GameSpec, GridSizes, OnRules, Playable, Prepared, SpecError};
use crate::grid::Deal;
use std::sync::mpsc::{channel, Receiver, Sender};
use std::sync::Arc;

/// Worlds a thread takes at the least: fewer are stepped on fewer threads, so that a small
/// vector does not pay for the hand-over.
pub const MIN_WORLDS_A_THREAD: usize = 64;

/// The most worlds one vector holds: each world's game and memory live in memory for the
/// vector's whole life.
pub const MAX_WORLDS: usize = 1 << 20;

/// The caller's arrays of one call, as slices: observations (`n × width`), rewards,
/// terminations and truncations (`n`), masks (`n × actions`).
pub struct Out<'a> {
    /// The observations.
    pub obs: Obs<'a>,
    /// The rewards.
    pub rewards: &'a mut [f64],
    /// True where the game ended.
    pub terminated: &'a mut [bool],
    /// True where the game was cut off.
    pub truncated: &'a mut [bool],
    /// The action masks, when the worlds keep them.
    pub masks: Option<&'a mut [bool]>,
    /// Where each world stands after the call, when asked.
    pub report: Option<ReportOut<'a>>,
}

/// Where each world stands, one value a world ([`WorldReport`] as arrays): written by every
/// call that is given them, so that a caller reads them without another call.
pub struct ReportOut<'a> {
    /// The seed of the game each plays (`-1`: none, never for a dealt game).
    pub seeds: &'a mut [i64],
    /// The score so far (0 where the rule set keeps none yet).
    pub scores: &'a mut [i64],
    /// Whether the score is known (false in the maze, and in the caves until the end).
    pub scored: &'a mut [bool],
    /// How the game ended: 0 while it goes on, else 1 + the ending's place in [`Ending::ALL`]
    /// (`unfinished` for a game cut off).
    pub outcomes: &'a mut [u8],
}

/// The code [`ReportOut::outcomes`] holds for `ending`.
pub fn outcome_code(ending: Option<Ending>) -> u8 {
    ending.map_or(0, |e| {
        1 + Ending::ALL
            .iter()
            .position(|&x| x == e)
            .expect("every ending is listed") as u8
    })
}

/// Observations: this turn's percepts, or the memory or knowledge arrays.
pub enum Obs<'a> {
    /// `int8` percepts.
    Percepts(&'a mut [i8]),
    /// `float32` arrays.
    Arrays(&'a mut [f32]),
}

impl Obs<'_> {
    fn len(&self) -> usize {
        match self {
            Obs::Percepts(o) => o.len(),
            Obs::Arrays(o) => o.len(),
        }
    }
}

/// Why a call failed: a game that could not be dealt, a follower that stopped, or arrays of
/// the wrong shape.
#[derive(Debug, thiserror::Error)]
pub enum WorldsError {
    /// The caller's input is at fault (an action out of range, arrays of the wrong shape).
    #[error("{0}")]
    Input(String),
    /// A game could not be dealt.
    #[error(transparent)]
    Game(#[from] GameError),
    /// The logic agent behind masks or knowledge stopped.
    #[error("{0}")]
    Helper(String),
}

impl From<HelperError> for WorldsError {
    fn from(e: HelperError) -> WorldsError {
        WorldsError::Helper(e.spelled(crate::game_spec::Spelling::Keywords))
    }
}

/// Many worlds of one rule set.
pub struct Worlds {
    inner: Box<dyn AnyWorlds>,
    layout: Option<Layout>,
    width: usize,
    actions: usize,
    n: usize,
}

impl Worlds {
    /// `n` worlds of the game `spec` describes, each game cut off after `max_steps` actions,
    /// observed as `mode`; with `mask`, a logic agent follows each world to write its action
    /// mask of that kind. On `threads` threads at most (all cores: `None`).
    pub fn new(
        spec: &GameSpec,
        n: usize,
        max_steps: u32,
        mask: Option<MaskKind>,
        mode: Mode,
        threads: Option<usize>,
    ) -> Result<Worlds, JobError> {
        if n == 0 || n > MAX_WORLDS {
            return Err(SpecError::refused(format!("n must be 1 to {MAX_WORLDS}, not {n}")).into());
        }
        let course = spec.deal == Some(Deal::Course);
        let varies = course || matches!(spec.size, Some(GridSizes::Range(_)));
        let told = spec.size_told.unwrap_or(!course);
        if mode != Mode::Percepts && varies && told {
            return Err(SpecError::refused(
                "the worlds of one vector share the shape of their arrays: with sizes drawn \
                 from a range, hide the size ({size_told=false}: the arrays then cover the \
                 largest board) or observe the percepts",
            )
            .into());
        }
        spec.dispatch(
            Make {
                n,
                max_steps,
                mask,
                mode,
                threads,
            },
            false,
        )?
    }

    /// The layout of the memory or knowledge arrays (`None` for the percepts).
    pub fn layout(&self) -> Option<&Layout> {
        self.layout.as_ref()
    }

    /// How many values one world's observation holds.
    pub fn width(&self) -> usize {
        self.width
    }

    /// How many actions a world has.
    pub fn actions(&self) -> usize {
        self.actions
    }

    /// How many worlds.
    pub fn len(&self) -> usize {
        self.n
    }

    /// True with no worlds (never: a vector has one at least).
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    fn check(&self, out: &Out<'_>) -> Result<(), WorldsError> {
        let n = self.n;
        let wrong = out.obs.len() != n * self.width
            || out.rewards.len() != n
            || out.terminated.len() != n
            || out.truncated.len() != n
            || out
                .masks
                .as_ref()
                .is_some_and(|m| m.len() != n * self.actions)
            || out.report.as_ref().is_some_and(|r| {
                r.seeds.len() != n
                    || r.scores.len() != n
                    || r.scored.len() != n
                    || r.outcomes.len() != n
            });
        if wrong {
            return Err(WorldsError::Input(
                "an output array has the wrong shape or type, or is not contiguous".into(),
            ));
        }
        Ok(())
    }

    /// Deals every world's first game (world `i` from seed `base + i`) into `out`.
    pub fn reset(&mut self, base: u64, out: Out<'_>) -> Result<(), WorldsError> {
        self.check(&out)?;
        self.inner.call(Call::Reset(base), out).map(drop)
    }

    /// One action a world; a world whose game ended on the last call is dealt again instead.
    pub fn step(&mut self, actions: &[i64], out: Out<'_>) -> Result<(), WorldsError> {
        self.check(&out)?;
        if actions.len() != self.n {
            return Err(WorldsError::Input(format!(
                "{} actions for {} worlds",
                actions.len(),
                self.n
            )));
        }
        let most = self.actions as i64;
        if let Some(bad) = actions.iter().find(|&&a| !(0..most).contains(&a)) {
            return Err(WorldsError::Input(format!(
                "action {bad} is not one of the {most} actions"
            )));
        }
        self.inner.call(Call::Step(actions.to_vec()), out).map(drop)
    }

    /// Deals the next game of every world whose game ended on the last call, now, writing
    /// those worlds' rows (the others' are left as they are); returns which were dealt.
    pub fn reset_finished(&mut self, out: Out<'_>) -> Result<Vec<bool>, WorldsError> {
        self.check(&out)?;
        self.inner.call(Call::ResetFinished, out)
    }

    /// Each world's seed, score so far (the final score once over; `None` in the maze) and
    /// ending (`unfinished` for a game cut off; `None` while it goes on).
    pub fn report(&mut self) -> Vec<WorldReport> {
        self.inner.report()
    }
}

/// What [`Worlds::new`] makes.
struct Make {
    n: usize,
    max_steps: u32,
    mask: Option<MaskKind>,
    mode: Mode,
    threads: Option<usize>,
}
impl OnRules for Make {
    type Out = Result<Worlds, JobError>;
    fn run<S: Playable>(self, game: Prepared<S>) -> Self::Out {
        Worlds::of(game, self)
    }
}
impl Make {
    fn shares(&self) -> usize {
        let cores = std::thread::available_parallelism().map_or(1, |c| c.get());
        let most = (self.n / MIN_WORLDS_A_THREAD).max(1);
        self.threads.unwrap_or(cores).clamp(1, most)
    }
}
impl Worlds {
    /// The worlds of rule set `S`, set up as `make` says.
    fn of<S: Playable>(game: Prepared<S>, make: Make) -> Result<Worlds, JobError> {
        let Make {
            n,
            max_steps,
            mask,
            mode,
            ..
        } = make;
        let follow = mask.is_some() || mode == Mode::Knowledge;
        let agents = Agents::new(game);
        let shares = make.shares();
        let mut bounds = Vec::with_capacity(shares);
        for k in 0..shares {
            bounds.push((k * n / shares, (k + 1) * n / shares));
        }
        let mut plan = Plan {
            agents: agents.clone(),
            n,
            max_steps,
            mode,
            follow,
            mask,
            width: 0,
        };
        let mut first = Share::new(&plan, bounds[0].0, bounds[0].1)?;
        let layout = first.layout();
        let width = layout.as_ref().map_or(S::OBSERVATION.len(), Layout::len);
        plan.width = width;
        first.plan.width = width;
        let mut workers = Vec::new();
        for &(lo, hi) in &bounds[1..] {
            workers.push(Worker::start(plan.clone(), lo, hi)?);
        }
        Ok(Worlds {
            inner: Box::new(Many {
                first,
                rows: Rows::default(),
                workers,
            }),
            layout,
            width,
            actions: S::ACTIONS.len(),
            n,
        })
    }
}

/// Where one world stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorldReport {
    /// The seed of the game it plays.
    pub seed: Option<u64>,
    /// Its score so far.
    pub score: Option<i64>,
    /// How its game ended, if it did (`unfinished` for a game cut off).
    pub ending: Option<Ending>,
}

impl WorldReport {
    /// The name of how its game ended, if it did.
    pub fn outcome(&self) -> Option<&'static str> {
        self.ending.map(Ending::name)
    }
}

/// What a call asks of the worlds.
#[derive(Clone)]
enum Call {
    Reset(u64),
    Step(Vec<i64>),
    ResetFinished,
}

/// A share's rows, written on its own thread and copied into the caller's arrays.
#[derive(Default)]
struct Rows {
    percepts: Vec<i8>,
    arrays: Vec<f32>,
    rewards: Vec<f64>,
    terminated: Vec<bool>,
    truncated: Vec<bool>,
    masks: Vec<bool>,
    dealt: Vec<bool>,
    /// Every world's report after the call.
    reports: Vec<WorldReport>,
}

/// What every share of one vector is made from.
struct Plan<S: Playable> {
    agents: Arc<Agents<S>>,
    n: usize,
    max_steps: u32,
    mode: Mode,
    /// A logic agent follows each world (for masks or knowledge).
    follow: bool,
    /// The masks written, if any.
    mask: Option<MaskKind>,
    /// One world's observation's width.
    width: usize,
}

impl<S: Playable> Clone for Plan<S> {
    fn clone(&self) -> Self {
        Plan {
            agents: self.agents.clone(),
            ..*self
        }
    }
}

/// One world.
struct World<S: Playable> {
    learned: Learned<S>,
    /// Games dealt in this world so far.
    games: u64,
    /// The game ended (or was cut off) on the last call: the next call deals again.
    pending: bool,
}

impl<S: Playable> World<S> {
    fn report(&self) -> WorldReport {
        let played = self.learned.played();
        let session = played.session();
        WorldReport {
            seed: played.seed(),
            score: session.score_so_far().or(S::FACTS.scored.then_some(0)),
            ending: session
                .ending()
                .or((self.pending && !played.over()).then_some(Ending::Unfinished)),
        }
    }
}

/// The worlds `lo..hi` of a vector, on the thread that made them.
struct Share<S: Playable> {
    plan: Plan<S>,
    lo: usize,
    base: u64,
    worlds: Vec<World<S>>,
}

impl<S: Playable> Share<S> {
    fn new(plan: &Plan<S>, lo: usize, hi: usize) -> Result<Share<S>, JobError> {
        let mut share = Share {
            plan: plan.clone(),
            lo,
            base: 0,
            worlds: Vec::with_capacity(hi - lo),
        };
        for i in lo..hi {
            let world = share.deal(i, 0).map_err(|e| match e {
                WorldsError::Game(e) => JobError::Game(e),
                other => JobError::Spec(SpecError::refused(other.to_string())),
            })?;
            share.worlds.push(world);
        }
        Ok(share)
    }

    fn layout(&self) -> Option<Layout> {
        self.worlds
            .first()
            .and_then(|w| w.learned.layout().cloned())
    }

    /// World `i`'s game `k`.
    fn deal(&self, i: usize, k: u64) -> Result<World<S>, WorldsError> {
        let seed = self
            .base
            .wrapping_add(i as u64)
            .wrapping_add(k.wrapping_mul(self.plan.n as u64));
        let played = Played::dealt(&self.plan.agents, Some(seed), None)?.without_history();
        let mut learned = Learned::new(played, self.plan.mode).map_err(WorldsError::Input)?;
        if self.plan.follow {
            learned.follow_with_logic()?;
        }
        Ok(World {
            learned,
            games: k + 1,
            pending: false,
        })
    }

    /// Plays `call` on this share's worlds, writing their rows into `rows` (sized for them).
    fn call(&mut self, call: &Call, rows: &mut Rows) -> Result<(), WorldsError> {
        let (mask, width) = (self.plan.mask, self.plan.width);
        let len = self.worlds.len();
        let actions = S::ACTIONS.len();
        rows.rewards.resize(len, 0.0);
        rows.terminated.resize(len, false);
        rows.truncated.resize(len, false);
        rows.dealt.clear();
        rows.dealt.resize(len, false);
        match call {
            Call::Reset(base) => {
                self.base = *base;
                for j in 0..len {
                    self.worlds[j] = self.deal(self.lo + j, 0)?;
                    rows.dealt[j] = true;
                }
                rows.rewards.fill(0.0);
                rows.terminated.fill(false);
                rows.truncated.fill(false);
            }
            Call::Step(all) => {
                for j in 0..len {
                    if self.worlds[j].pending {
                        let games = self.worlds[j].games;
                        self.worlds[j] = self.deal(self.lo + j, games)?;
                        rows.rewards[j] = 0.0;
                        rows.terminated[j] = false;
                        rows.truncated[j] = false;
                    } else {
                        let world = &mut self.worlds[j];
                        let action = all[self.lo + j] as usize;
                        rows.rewards[j] = world.learned.act_numbered(action) as f64;
                        let played = world.learned.played();
                        let term = played.over();
                        let trunc = !term && played.steps() >= self.plan.max_steps as usize;
                        rows.terminated[j] = term;
                        rows.truncated[j] = trunc;
                        world.pending = term || trunc;
                    }
                    rows.dealt[j] = true;
                }
            }
            Call::ResetFinished => {
                for j in 0..len {
                    if self.worlds[j].pending {
                        let games = self.worlds[j].games;
                        self.worlds[j] = self.deal(self.lo + j, games)?;
                        rows.dealt[j] = true;
                        rows.rewards[j] = 0.0;
                        rows.terminated[j] = false;
                        rows.truncated[j] = false;
                    }
                }
            }
        }
        match self.plan.mode {
            Mode::Percepts => rows.percepts.resize(len * width, 0),
            _ => rows.arrays.resize(len * width, 0.0),
        }
        if mask.is_some() {
            rows.masks.resize(len * actions, false);
        }
        for j in (0..len).filter(|&j| rows.dealt[j]) {
            let learned = &mut self.worlds[j].learned;
            match self.plan.mode {
                Mode::Percepts => learned.percepts(&mut rows.percepts[j * width..(j + 1) * width]),
                _ => learned.observation(&mut rows.arrays[j * width..(j + 1) * width])?,
            }
            if let Some(kind) = mask {
                learned.action_mask(kind, &mut rows.masks[j * actions..(j + 1) * actions])?;
            }
        }
        rows.reports.clear();
        rows.reports.extend(self.worlds.iter().map(World::report));
        Ok(())
    }

    fn report(&self) -> Vec<WorldReport> {
        self.worlds.iter().map(World::report).collect()
    }
}

/// What a worker thread is asked.
enum Ask {
    Call(Call, Box<Rows>),
    Report,
}

/// What a worker thread answers.
enum Answer {
    Rows(Result<Box<Rows>, WorldsError>),
    Report(Vec<WorldReport>),
}

/// A share on a thread of its own.
struct Worker {
    lo: usize,
    to: Sender<Ask>,
    from: Receiver<Answer>,
    /// The buffers, between calls.
    rows: Option<Box<Rows>>,
}

impl Worker {
    fn start<S: Playable>(plan: Plan<S>, lo: usize, hi: usize) -> Result<Worker, JobError> {
        let (to, asks) = channel::<Ask>();
        let (answers, from) = channel::<Answer>();
        let (made, started) = channel::<Result<(), JobError>>();
        std::thread::Builder::new()
            .name("wumpus-worlds".into())
            .spawn(move || {
                let mut share = match Share::new(&plan, lo, hi) {
                    Ok(share) => {
                        let _ = made.send(Ok(()));
                        share
                    }
                    Err(e) => {
                        let _ = made.send(Err(e));
                        return;
                    }
                };
                // Until the vector is dropped, and with it the sender.
                while let Ok(ask) = asks.recv() {
                    let answer = match ask {
                        Ask::Call(call, mut rows) => {
                            Answer::Rows(share.call(&call, &mut rows).map(|()| rows))
                        }
                        Ask::Report => Answer::Report(share.report()),
                    };
                    if answers.send(answer).is_err() {
                        return;
                    }
                }
            })
            .map_err(|e| JobError::Run(super::RunError::Threads(e.to_string())))?;
        started
            .recv()
            .map_err(|_| JobError::Run(super::RunError::Threads("a worker stopped".into())))??;
        Ok(Worker {
            lo,
            to,
            from,
            rows: Some(Box::default()),
        })
    }
}

/// A worker that stopped (it panicked): the vector can go on no further.
fn stopped() -> WorldsError {
    WorldsError::Helper("a thread of the vector stopped".into())
}

/// Copies the rows of the share from world `lo` into the caller's arrays, those dealt or
/// stepped (`rows.dealt`), marking them in `dealt`.
fn copy_rows(
    rows: &Rows,
    lo: usize,
    width: usize,
    actions: usize,
    out: &mut Out<'_>,
    dealt: &mut [bool],
) {
    for (j, _) in rows.dealt.iter().enumerate().filter(|(_, &d)| d) {
        let i = lo + j;
        dealt[i] = true;
        out.rewards[i] = rows.rewards[j];
        out.terminated[i] = rows.terminated[j];
        out.truncated[i] = rows.truncated[j];
        match &mut out.obs {
            Obs::Percepts(o) => o[i * width..(i + 1) * width]
                .copy_from_slice(&rows.percepts[j * width..(j + 1) * width]),
            Obs::Arrays(o) => o[i * width..(i + 1) * width]
                .copy_from_slice(&rows.arrays[j * width..(j + 1) * width]),
        }
        if let Some(m) = out.masks.as_mut() {
            if !rows.masks.is_empty() {
                m[i * actions..(i + 1) * actions]
                    .copy_from_slice(&rows.masks[j * actions..(j + 1) * actions]);
            }
        }
    }
    if let Some(r) = out.report.as_mut() {
        for (j, report) in rows.reports.iter().enumerate() {
            let i = lo + j;
            r.seeds[i] = report.seed.map_or(-1, |s| s as i64);
            r.scores[i] = report.score.unwrap_or(0);
            r.scored[i] = report.score.is_some();
            r.outcomes[i] = outcome_code(report.ending);
        }
    }
}

/// What [`Worlds`] asks of its rule set's worlds.
trait AnyWorlds {
    fn call(&mut self, call: Call, out: Out<'_>) -> Result<Vec<bool>, WorldsError>;
    fn report(&mut self) -> Vec<WorldReport>;
}

/// The worlds of rule set `S`: the first share on this thread, the others on workers.
struct Many<S: Playable> {
    first: Share<S>,
    /// The first share's buffers.
    rows: Rows,
    workers: Vec<Worker>,
}

impl<S: Playable> AnyWorlds for Many<S> {
    fn call(&mut self, call: Call, mut out: Out<'_>) -> Result<Vec<bool>, WorldsError> {
        // The workers start first, so that every share is played at once.
        for w in &mut self.workers {
            let rows = w.rows.take().unwrap_or_default();
            w.to.send(Ask::Call(call.clone(), rows))
                .map_err(|_| stopped())?;
        }
        let (width, actions) = (self.first.plan.width, S::ACTIONS.len());
        let mut dealt = vec![false; self.first.plan.n];
        let mut failure = self.first.call(&call, &mut self.rows).err();
        if failure.is_none() {
            copy_rows(&self.rows, 0, width, actions, &mut out, &mut dealt);
        }
        for w in &mut self.workers {
            match w.from.recv() {
                Ok(Answer::Rows(Ok(rows))) => {
                    copy_rows(&rows, w.lo, width, actions, &mut out, &mut dealt);
                    w.rows = Some(rows);
                }
                Ok(Answer::Rows(Err(e))) => {
                    failure.get_or_insert(e);
                }
                _ => {
                    failure.get_or_insert_with(stopped);
                }
            }
        }
        match failure {
            Some(e) => Err(e),
            None => Ok(dealt),
        }
    }

    fn report(&mut self) -> Vec<WorldReport> {
        for w in &self.workers {
            let _ = w.to.send(Ask::Report);
        }
        let mut all = self.first.report();
        for w in &self.workers {
            if let Ok(Answer::Report(r)) = w.from.recv() {
                all.extend(r);
            }
        }
        all
    }
}
