//! One game of the live page as an actor: a thread that holds the session, the hint agent
//! (agents are not `Send`; the SAT solver stays on its thread) and, for watching, the same game
//! untouched at its start. The HTTP handlers send it [`Job`]s over a bounded channel and await
//! its JSON answer; a job that panics ends this game only, and is answered with a 500.
//!
//! The game is the library's played game ([`wumpus::run::Played`]), its hint agent told
//! exactly what the player was told, as in `play`: after each action it works out its next
//! action with what it knows, which the page draws ([`wumpus::run::view`]). The action and its
//! reason are kept back until the player asks for a hint. Watch is the library's traced game.

pub use super::answer::{Answer, ApiError, Reply};
use axum::http::StatusCode;
use serde_json::{json, Value};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, SyncSender, TrySendError};
use tokio::sync::oneshot;
use wumpus::game_spec::{Dealt, OnRules, Playable, Prepared, Spelling};
use wumpus::run::event::{trace_end, TraceStart};
use wumpus::run::game::{Agents, Helper, HelperError, Played};
use wumpus::run::view::{
    explain_odds, final_moment, json_len, odds_because, Because, Compact, Moment,
};
use wumpus::run::{Flow, StepEvent, Traced};

/// The most actions a game of the page takes: a 64x64 board walked whole is a few thousand;
/// a game never grows without bound (its history is kept for its view).
pub const MAX_ACTIONS: usize = 8_192;

/// The most bytes of words a game's log keeps (what was typed and said).
pub const MAX_SAID_BYTES: usize = 4 << 20;

/// Requests a game holds in its queue before it answers 429.
pub const QUEUE: usize = 8;

/// The bytes of the watched game's last steps sent in full; earlier steps are sent compacted
/// (a 64x64 game's full events would be megabytes). The game itself is played to its end (the
/// rule set's action limit stops one that never would end).
pub const WATCH_FULL_BYTES: usize = 1 << 20;

/// What a game is asked.
#[derive(Debug)]
pub enum Job {
    /// The whole game so far, to draw it afresh.
    View,
    /// An action in the player's words, and the step the page believes the game is at (an
    /// action sent from a stale view is refused).
    Act(String, Option<usize>),
    /// The hint agent's next action, its reason and the choices it weighed.
    Hint,
    /// The agent's own game on the same world, every step, and the hidden world.
    Watch,
}

/// A job and where to send its answer.
pub struct Request {
    job: Job,
    reply: oneshot::Sender<Result<Answer, ApiError>>,
}

/// Sends `job` to the game behind `to` and waits for its answer.
pub async fn ask(to: &SyncSender<Request>, job: Job) -> Result<Answer, ApiError> {
    let (reply, answer) = oneshot::channel();
    match to.try_send(Request { job, reply }) {
        Ok(()) => {}
        Err(TrySendError::Full(_)) => {
            return Err(ApiError::new(
                StatusCode::TOO_MANY_REQUESTS,
                "this game is still busy with earlier requests: try again",
            ))
        }
        Err(TrySendError::Disconnected(_)) => return Err(ApiError::gone()),
    }
    answer.await.unwrap_or_else(|_| Err(ApiError::gone()))
}

/// Starts a game's actor: the command run, once for every rule set, by
/// [`wumpus::game_spec::GameSpec::dispatch`]. Its output is the game's first view, to come.
pub struct Spawn {
    /// The game's id.
    pub id: String,
    /// The most actions the game takes.
    pub max_actions: usize,
    /// The seed that deals it (and a cave's later random events).
    pub seed: u64,
    /// A world file of the worlds folder.
    pub world: Option<PathBuf>,
    /// An uploaded file: its name and text.
    pub upload: Option<(String, String)>,
    /// Where its requests come from.
    pub requests: Receiver<Request>,
}

type First = oneshot::Receiver<Result<Answer, ApiError>>;

impl OnRules for Spawn {
    type Out = Result<First, ApiError>;

    fn run<S: Playable>(self, game: Prepared<S>) -> Result<First, ApiError> {
        let (played, pristine) = self.load::<S>(&game)?;
        let (first, answer) = oneshot::channel();
        let (id, requests, max_actions) = (self.id, self.requests, self.max_actions);
        std::thread::Builder::new()
            // The id is a secret of its owner's: a thread's name is readable by any local user.
            .name("wumpus-game".to_string())
            .stack_size(64 << 20)
            .spawn(move || {
                let started =
                    catch_unwind(AssertUnwindSafe(|| Live::start(id, game, played, pristine)));
                match started {
                    Ok(Ok(mut live)) => {
                        live.max_actions = max_actions;
                        let _ = first.send(Ok(Reply::new(live.view())));
                        live.serve(requests);
                    }
                    Ok(Err(e)) => {
                        let _ = first.send(Err(e));
                    }
                    Err(_) => {
                        let _ = first.send(Err(ApiError::logged(
                            "a game's start",
                            &"its thread panicked",
                        )));
                    }
                }
            })
            .map_err(|e| {
                eprintln!("wumpus serve: cannot start a game's thread: {e}");
                ApiError::new(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "the server cannot start another game now (no thread for it): try again \
                     shortly",
                )
            })?;
        Ok(answer)
    }
}

impl Spawn {
    /// The game twice: one to play, one kept at its start for watching.
    fn load<S: Playable>(&self, game: &Prepared<S>) -> Result<(Dealt<S>, Dealt<S>), ApiError> {
        // An upload is read as a file is: through a temporary file with a name nobody can
        // guess, created exclusively and removed when dropped.
        let temp = match &self.upload {
            Some((_, text)) => {
                let mut file = tempfile::Builder::new()
                    .prefix("wumpus-upload-")
                    .suffix(".txt")
                    .tempfile()
                    .map_err(|e| ApiError::logged("an upload's temporary file", &e))?;
                std::io::Write::write_all(&mut file, text.as_bytes())
                    .map_err(|e| ApiError::logged("an upload's temporary file", &e))?;
                Some(file.into_temp_path())
            }
            None => None,
        };
        let file = self
            .world
            .clone()
            .or_else(|| temp.as_ref().map(|t| t.to_path_buf()));
        let deal = || game.deal(Some(self.seed), file.as_deref());
        let loaded = deal().and_then(|a| Ok((a, deal()?))).map_err(|e| {
            let message = match (&temp, &self.upload, &self.world) {
                // Errors name the upload, not the file it was put in, and a file of the
                // worlds folder by its name, not where the folder is.
                (Some(path), Some((name, _)), _) => {
                    e.to_string().replace(&path.display().to_string(), name)
                }
                (_, _, Some(world)) => e.to_string().replace(
                    &world.display().to_string(),
                    &world
                        .file_name()
                        .map_or(String::new(), |n| n.to_string_lossy().into_owned()),
                ),
                _ => e.to_string(),
            };
            ApiError::new(StatusCode::BAD_REQUEST, message)
        });
        drop(temp);
        let (mut a, mut b) = loaded?;
        // Titles name the upload, or the file of the worlds folder by its name.
        let shown = match (&self.upload, &self.world) {
            (Some((name, _)), _) => Some(PathBuf::from(name)),
            (None, Some(path)) => path.file_name().map(PathBuf::from),
            (None, None) => None,
        };
        if shown.is_some() {
            a.file.clone_from(&shown);
            b.file = shown;
        }
        Ok((a, b))
    }
}

/// A game in play.
struct Live<S: Playable> {
    id: String,
    /// The player's game (the library's one played game), its hint agent following it.
    played: Played<S>,
    /// The same game untouched at its start, for watching.
    pristine: Option<Dealt<S>>,
    /// The hint agent's view of this moment (its action kept back from the player).
    event: Option<StepEvent>,
    /// The observations behind each open place's odds at this moment, by label.
    because: Because,
    /// Earlier moments, only what the drawing needs of them.
    history: Vec<Compact>,
    /// Once the game is over, its last moment: where the last action left the player.
    last: Option<Moment>,
    start: TraceStart,
    /// What was said: the game's opening lines, then each command the player gave with the
    /// game's answer to it.
    log: Vec<Value>,
    /// The bytes `log` holds, about.
    said_bytes: usize,
    /// The most actions it takes.
    max_actions: usize,
    watched: Option<Answer>,
}

impl<S: Playable> Live<S> {
    fn start(
        id: String,
        game: Prepared<S>,
        played: Dealt<S>,
        pristine: Dealt<S>,
    ) -> Result<Live<S>, ApiError> {
        let start = TraceStart::new(
            played.title(),
            played.seed,
            game.game_of(&played.session.setup()),
        );
        let agents = Agents::new(game);
        let mut played = Played::new(&agents, played);
        if let Some(HelperError::Refused(e)) = played.hint_failure() {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                e.spelled(Spelling::Form),
            ));
        }
        let log = vec![json!({"command": null, "said": played.opening()})];
        let mut live = Live {
            id,
            played,
            pristine: Some(pristine),
            event: None,
            because: Because::new(),
            history: Vec::new(),
            last: None,
            start,
            log,
            said_bytes: 0,
            max_actions: MAX_ACTIONS,
            watched: None,
        };
        live.follow();
        Ok(live)
    }

    /// Answers requests until the server drops this game; a job that panics ends it.
    fn serve(&mut self, requests: Receiver<Request>) {
        while let Ok(Request { job, reply }) = requests.recv() {
            match catch_unwind(AssertUnwindSafe(|| self.answer(job))) {
                Ok(answer) => {
                    let _ = reply.send(answer);
                }
                Err(_) => {
                    let _ = reply.send(Err(ApiError::internal()));
                    return;
                }
            }
        }
    }

    fn answer(&mut self, job: Job) -> Result<Answer, ApiError> {
        match job {
            Job::View => Ok(Reply::new(self.view())),
            Job::Act(text, step) => self.act(&text, step).map(Reply::new),
            Job::Hint => self.hint().map(Reply::new),
            Job::Watch => self.watch(),
        }
    }

    /// The step number of this moment: the actions taken, plus one.
    fn step(&self) -> usize {
        self.played.steps() + 1
    }

    /// Works out what the hint agent, told the game so far, now knows and would do.
    fn follow(&mut self) {
        let mut before = None;
        let session = self.played.session();
        if let Some(old) = self.event.take() {
            self.history.push(Compact::drawn(&old));
            before = Some(Moment::kept_back(&old, &Because::new(), session));
        }
        if self.played.over() {
            let (step, shown) = (self.step(), self.played.shown());
            self.last = Some(final_moment(self.played.session(), step, shown, before));
            return;
        }
        if let Ok(event) = self.played.hint() {
            self.because = self
                .played
                .follower(Helper::Hint)
                .ok()
                .and_then(|f| f.agent_mut().ok().map(|a| odds_because(&*a, &event)))
                .unwrap_or_default();
            self.event = Some(event);
        }
    }

    /// The end of the game, once it is over, with the hidden world.
    fn end(&self) -> Value {
        match self.played.session().ending() {
            Some(_) => json!(trace_end(
                self.played.session(),
                self.step(),
                Some(self.played.shown())
            )),
            None => Value::Null,
        }
    }

    /// Why the hint agent gives no hints, if it gives none.
    fn hint_error(&mut self) -> Option<String> {
        match self.played.hint_failure() {
            None | Some(HelperError::Over) => None,
            Some(e) => Some(e.spelled(Spelling::Form)),
        }
    }

    /// Everything the page draws, from the start.
    fn view(&mut self) -> Value {
        let mut steps: Vec<Value> = self.history.iter().map(|c| json!(c)).collect();
        if let Some(e) = self.current() {
            steps.push(json!(e));
        }
        json!({
            "id": self.id,
            "start": self.start,
            "board": self.played.session().board(),
            "help": self.played.session().help(),
            "log": self.log,
            "steps": steps,
            "end": self.end(),
            "hint_error": self.hint_error(),
        })
    }

    fn act(&mut self, text: &str, seen: Option<usize>) -> Result<Value, ApiError> {
        if let Some(seen) = seen.filter(|&s| s != self.step()) {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                format!(
                    "this game moved on elsewhere (another tab or window): it is at step {}, \
                     this page was at step {seen}; the action was not played",
                    self.step()
                ),
            ));
        }
        if self.played.over() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "the game is over: start a new one",
            ));
        }
        if self.played.steps() >= self.max_actions || self.said_bytes >= MAX_SAID_BYTES {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                format!(
                    "this game has had its {} actions, the most a game of the page takes: \
                     start a new one",
                    self.played.steps()
                ),
            ));
        }
        let action = self
            .played
            .parse_action(text)
            .map_err(|e| ApiError::new(StatusCode::BAD_REQUEST, e.to_string()))?;
        let acted = self.played.act(&action);
        let said = self.played.session().describe(&acted.shown);
        let command = text.trim().to_string();
        self.said_bytes += command.len() + said.iter().map(String::len).sum::<usize>();
        self.log.push(json!({"command": command, "said": said}));
        self.follow();
        Ok(json!({
            "command": command,
            "said": said,
            "step": self.current(),
            "steps": self.step(),
            "end": self.end(),
            "hint_error": self.hint_error(),
        }))
    }

    /// This moment as the page draws it: the hint agent's view with its decision kept back,
    /// or the last moment once the game is over.
    fn current(&self) -> Option<Moment> {
        match (&self.event, &self.last) {
            (Some(e), _) => Some(Moment::kept_back(e, &self.because, self.played.session())),
            (None, Some(last)) => Some(last.clone()),
            (None, None) => None,
        }
    }

    fn hint(&mut self) -> Result<Value, ApiError> {
        if self.played.over() {
            return Err(ApiError::new(StatusCode::CONFLICT, "the game is over"));
        }
        if let Some(why) = self.hint_error() {
            return Err(ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("No hint: {why}."),
            ));
        }
        match &self.event {
            Some(event) => Ok(json!({ "step": explain_odds(event.clone(), &self.because) })),
            None => Err(ApiError::internal()),
        }
    }

    /// The agent's own game on this world from its start, as `trace --html` shows it.
    fn watch(&mut self) -> Result<Answer, ApiError> {
        if let Some(w) = &self.watched {
            return Ok(w.clone());
        }
        let pristine = self.pristine.take().ok_or_else(ApiError::internal)?;
        let failed = |e: &dyn std::fmt::Display| {
            ApiError::new(
                StatusCode::UNPROCESSABLE_ENTITY,
                format!("the agent cannot play: {e}"),
            )
        };
        let game = &self.played.agents().game;
        let mut traced = Traced::new(game, pristine).map_err(|e| failed(&e))?;
        let board = traced.board();
        // Every step, the last ones in full (up to `WATCH_FULL_BYTES`, and always the last),
        // the earlier ones compacted as they fall out of that budget.
        let mut steps: Vec<Value> = Vec::new();
        let mut full: std::collections::VecDeque<(StepEvent, usize)> = Default::default();
        let (mut first_full, mut full_bytes) = (0, 0);
        let mut record = |_: &S, mut e: StepEvent| {
            let size = json_len(&mut e);
            full.push_back((e, size));
            full_bytes += size;
            while full_bytes > WATCH_FULL_BYTES && full.len() > 1 {
                let (old, size) = full.pop_front().expect("more than one");
                full_bytes -= size;
                steps.push(json!(Compact::of_watched(&old)));
                first_full += 1;
            }
            Flow::Go
        };
        let done = traced.play(&mut record).map_err(|e| failed(&e))?;
        let before = full
            .back()
            .map(|(e, _)| Moment::kept_back(e, &Because::new(), traced.session()));
        steps.extend(full.into_iter().map(|(e, _)| json!(e)));
        if let Some(d) = &done {
            let step = steps.len() + 1;
            steps.push(json!(final_moment(traced.session(), step, &d.last, before)));
        }
        let watched = Reply::new(json!({
            "start": traced.start,
            "board": board,
            "steps": steps,
            "end": traced.end(done.as_ref()),
            "compacted": first_full,
        }));
        self.watched = Some(watched.clone());
        Ok(watched)
    }
}
