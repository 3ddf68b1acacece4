//! `wumpus trace`: one game played by the agent, step by step, for every rule set: what it
//! perceived, what the knowledge base proved and why, the odds and choices, each action. As
//! text, as JSON Lines (`--json`, schema in `docs/trace-json.md`), one step at a time
//! (`--step`), or as a page that replays the game (`--html FILE`).

use super::args::GameArgs;
use super::play::{title, WorldArgs};
use super::{bad_input, html, text};
use anyhow::Result;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use wumpus::game::Session;
use wumpus::game_spec::{OnRules, Playable, Prepared};
use wumpus::run::event::TraceEnd;
use wumpus::run::{Flow, StepEvent, Traced};

#[derive(Args, Debug)]
pub struct TraceArgs {
    #[command(flatten)]
    rules: GameArgs,
    #[command(flatten)]
    world: WorldArgs,
    /// Wait for Enter between steps (q then Enter stops).
    #[arg(long, conflicts_with = "json")]
    step: bool,
    /// Print JSON Lines (schema in docs/trace-json.md) instead of text.
    #[arg(long)]
    json: bool,
    /// Write a self-contained web page that replays the game (the board with what the agent
    /// knows drawn on it, a step slider, reasons, proofs and odds) to FILE instead of printing
    /// the trace.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["json", "step"])]
    html: Option<PathBuf>,
}

pub fn run(args: TraceArgs) -> Result<()> {
    args.world.check(&args.rules)?;
    let rules = args.rules.clone();
    rules.dispatch(args, true)
}

impl OnRules for TraceArgs {
    type Out = Result<()>;

    fn run<S: Playable>(self, game: Prepared<S>) -> Result<()> {
        let dealt = self.world.session(&game)?;
        let title = title(&dealt);
        let mut traced = Traced::new(&game, dealt).map_err(super::job_error)?;
        if let Some(path) = &self.html {
            let board = traced.board();
            let mut steps = Vec::new();
            let mut watch = |_: &S, e: StepEvent| {
                steps.push(e);
                Flow::Go
            };
            let done = traced.play(&mut watch).map_err(super::job_error)?;
            let end = traced.end(done.as_ref());
            let count = steps.len();
            let page = html::trace_page(&traced.start, &board, &steps, &end)?;
            wumpus::files::save_atomically(path, &page).map_err(bad_input)?;
            return super::wrote(
                path,
                format!(
                    "Wrote {} ({count} steps): open it in a browser; #step=N in the address \
                     opens step N.\n",
                    super::printable(&path.display().to_string())
                ),
            );
        }
        let stdout = std::io::stdout();
        let mut out = stdout.lock();
        if self.json {
            writeln!(out, "{}", serde_json::to_string(&traced.start)?)?;
        } else {
            writeln!(
                out,
                "Trace of {}, the {} agent playing.",
                super::printable(&title),
                traced.start.game.agent_kind()
            )?;
        }
        let mut printer = StepPrinter::new(&mut out, self.json, self.step);
        let mut watch = |_: &S, e: StepEvent| printer.step(&e);
        let done = traced.play(&mut watch).map_err(super::job_error)?;
        printer.finish()?;
        let end = traced.end(done.as_ref());
        if self.json {
            writeln!(out, "{}", serde_json::to_string(&end)?)?;
        } else {
            write!(out, "{}", end_text::<S>(&end, done.is_none()))?;
        }
        Ok(())
    }
}

/// How a traced game ended, in words.
fn end_text<S: Session>(end: &TraceEnd, stopped: bool) -> String {
    let mut s = String::new();
    if stopped {
        s.push_str("\nStopped: the game is left unfinished.\n");
        return s;
    }
    if !end.messages.is_empty() {
        s.push_str(&format!("  the game said: {}\n", end.messages.join(" ")));
    }
    let (shot, shots) = S::FACTS.shot_names();
    let shots = text::plural(end.shots as u64, shot, shots);
    s.push_str(&format!(
        "\nOutcome: {} after {} {} and {} {shots}.\n",
        end.outcome.words(),
        end.moves,
        text::plural(end.moves as u64, "move", "moves"),
        end.shots,
    ));
    if let Some(score) = end.score {
        s.push_str(&format!("Score: {score}\n"));
    }
    s
}

/// Writes a traced game's steps as they come, as JSON Lines or text; with `--step` it waits
/// for Enter between steps (q then Enter stops the trace; end of input plays on to the end).
/// A failed write does not stop the game: the first failure is reported by
/// [`StepPrinter::finish`].
struct StepPrinter<'a> {
    out: &'a mut dyn Write,
    json: bool,
    waiting: bool,
    input: std::io::StdinLock<'static>,
    /// Lines read from standard input.
    read: usize,
    line: Vec<u8>,
    failure: Option<std::io::Error>,
    /// A line of input over the limit: the trace stops, and the command fails.
    stop_error: Option<anyhow::Error>,
}

impl<'a> StepPrinter<'a> {
    fn new(out: &'a mut dyn Write, json: bool, step: bool) -> StepPrinter<'a> {
        StepPrinter {
            out,
            json,
            waiting: step,
            input: std::io::stdin().lock(),
            read: 0,
            line: Vec::new(),
            failure: None,
            stop_error: None,
        }
    }

    fn step(&mut self, e: &StepEvent) -> Flow {
        let written = if self.json {
            // One buffer for every line: a line on a big board is tens of kilobytes.
            self.line.clear();
            match serde_json::to_writer(&mut self.line, e) {
                Ok(()) => {
                    self.line.push(b'\n');
                    self.out.write_all(&self.line)
                }
                Err(err) => Err(std::io::Error::other(err)),
            }
        } else {
            write!(self.out, "{}", text::step_text(e))
        };
        if let Err(err) = written.and_then(|_| self.out.flush()) {
            self.failure.get_or_insert(err);
        }
        if self.waiting {
            let _ = write!(self.out, "(Enter: next step; q then Enter: stop) ");
            let _ = self.out.flush();
            self.read += 1;
            match super::read_bounded_line(&mut self.input, super::MAX_COMMAND_LINE, self.read) {
                Ok(super::Line::Text(line)) if line.trim_ascii().eq_ignore_ascii_case(b"q") => {
                    return Flow::Stop
                }
                Ok(super::Line::Text(_)) => {}
                // At end of input, stop waiting and finish the game.
                Ok(super::Line::End) => self.waiting = false,
                Err(e) => {
                    self.stop_error.get_or_insert(e);
                    return Flow::Stop;
                }
            }
        }
        Flow::Go
    }

    fn finish(self) -> Result<()> {
        if let Some(e) = self.stop_error {
            return Err(e);
        }
        match self.failure {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }
}
