//! `wumpus trace`: one game step by step, with what the knowledge base proved and why.

use super::{bad_input, grid_world, GridWorldArgs, ScoringArg};
use anyhow::Result;
use clap::Args;
use serde_json::json;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;
use wumpus::agent::Conclusion;
use wumpus::run::{run_grid_game, GameEnd, GameOptions, StepReport};
use wumpus::topology::{Place, Topology};

#[derive(Args, Debug)]
pub struct TraceArgs {
    #[command(flatten)]
    world: GridWorldArgs,
    /// How the final score is counted.
    #[arg(long, value_enum, default_value_t)]
    scoring: ScoringArg,
    /// Wait for Enter between steps.
    #[arg(long, conflicts_with = "json")]
    step: bool,
    /// Print JSON Lines (schema in docs/trace-json.md) instead of text.
    #[arg(long)]
    json: bool,
    /// Write a self-contained web page that replays the game (board, knowledge, a step
    /// slider, reasons and odds) to FILE instead of printing the trace.
    #[arg(long, value_name = "FILE", conflicts_with_all = ["json", "step"])]
    html: Option<PathBuf>,
    /// Reason with the rules in this file instead of the built-in kb/grid.kb.
    #[arg(long)]
    kb: Option<PathBuf>,
    /// Which agent plays: risk (the default) or logic.
    #[arg(long, value_enum)]
    agent: Option<super::AgentArg>,
    /// The rule set: the grid (default), the classic cave or the maze.
    #[arg(long, value_enum, default_value_t)]
    rules: super::cave::RulesArg,
    /// Cave map file, either format (default: the rule set's standard map).
    #[arg(long)]
    map: Option<PathBuf>,
    /// Give the cave agent the whole map up front.
    #[arg(long)]
    map_known: bool,
    /// Start the cave game on the hazards in this file instead of dealing them.
    #[arg(long)]
    hazards: Option<PathBuf>,
}

pub fn run(args: TraceArgs) -> Result<()> {
    if args.rules != super::cave::RulesArg::Grid {
        if args.world.world.is_some() || args.kb.is_some() || args.agent.is_some() {
            return Err(bad_input(anyhow::anyhow!(
                "--world, --kb and --agent are for the grid; a cave takes --map and --hazards"
            )));
        }
        return super::cave::trace(super::cave::TraceOptions {
            rules: args.rules,
            map: args.map,
            map_known: args.map_known,
            hazards: args.hazards,
            seed: args.world.seed,
            json: args.json,
            step: args.step,
        });
    }
    if args.map.is_some() || args.map_known || args.hazards.is_some() {
        return Err(bad_input(anyhow::anyhow!(
            "--map, --map-known and --hazards are for --rules cave or --rules maze"
        )));
    }
    let (world, seed) = grid_world(&args.world)?;
    let topology = world.topology().clone();
    let rules = match &args.kb {
        Some(path) => Some(Arc::new(super::read_rules(path)?)),
        None => None,
    };
    let options = GameOptions {
        agent: super::AgentArg::grid_agent(args.agent)?,
        explain: true,
        scoring: args.scoring.into(),
        rules,
        pit_prob: args.world.pit_prob,
    };
    let (rows, cols) = world.size();
    if let Some(path) = &args.html {
        return html(path, world, seed, &options);
    }
    let stdout = std::io::stdout();
    let mut out = stdout.lock();
    if args.json {
        writeln!(
            out,
            "{}",
            json!({ "rows": rows, "cols": cols, "seed": seed, "scoring": options.scoring.name() })
        )?;
    } else {
        match seed {
            Some(s) => writeln!(out, "Trace of a random {rows}x{cols} world, seed {s}.")?,
            None => writeln!(out, "Trace of a {rows}x{cols} world.")?,
        }
    }
    let mut printer = StepPrinter::new(&mut out, args.json, args.step);
    let record = run_grid_game(world, seed, &options, |report| {
        printer.step(
            |n| step_json(&topology, n, report).to_string(),
            |n| step_text(&topology, n, report),
        )
    })
    .map_err(bad_input)?;
    printer.finish()?;
    let outcome = record.outcome.name();
    if args.json {
        writeln!(
            out,
            "{}",
            json!({ "outcome": outcome, "score": record.score, "moves": record.moves })
        )?;
    } else {
        let what = match record.outcome {
            GameEnd::Over(o) => o.name().replace('_', " "),
            GameEnd::CutOff => "cut off".to_string(),
        };
        writeln!(out, "Outcome: {what} after {} moves.", record.moves)?;
        writeln!(out, "Score: {}", record.score)?;
    }
    Ok(())
}

/// The page `trace --html` writes; the trace's data replaces the placeholder.
const PAGE: &str = include_str!("trace.html");

/// Plays the game and writes the page that replays it.
fn html(
    path: &std::path::Path,
    world: wumpus::grid::GridWorld,
    seed: Option<u64>,
    options: &GameOptions,
) -> Result<()> {
    let topology = world.topology().clone();
    let (rows, cols) = world.size();
    let hidden = json!({
        "pits": cells(&topology, &world.pits().collect::<Vec<_>>()),
        "wumpus": cell(&topology, world.wumpus()),
        "gold": cell(&topology, world.gold()),
    });
    let mut steps = Vec::new();
    let record = run_grid_game(world, seed, options, |report| {
        steps.push(step_json(&topology, steps.len() + 1, report));
    })
    .map_err(bad_input)?;
    let count = steps.len();
    let data = json!({
        "rows": rows,
        "cols": cols,
        "seed": seed,
        "scoring": options.scoring.name(),
        "agent": options.agent.name(),
        "world": hidden,
        "steps": steps,
        "outcome": { "outcome": record.outcome.name(), "score": record.score, "moves": record.moves },
    });
    // Inside a <script> element "</" would end it early; "<\/" is the same JSON string.
    let data = serde_json::to_string(&data)?.replace("</", "<\\/");
    let page = PAGE.replace("/*TRACE_DATA*/", &data);
    wumpus::files::save_atomically(path, &page).map_err(bad_input)?;
    super::out(format!(
        "Wrote {} ({count} steps): open it in a browser; #step=N in the address opens step N.\n",
        path.display()
    ))
}

fn cell(topology: &Topology, p: Place) -> [usize; 2] {
    let (r, c) = topology.coords(p);
    [r, c]
}

fn cells(topology: &Topology, places: &[Place]) -> Vec<[usize; 2]> {
    places.iter().map(|&p| cell(topology, p)).collect()
}

fn step_json(topology: &Topology, number: usize, r: &StepReport) -> serde_json::Value {
    let learned: Vec<serde_json::Value> = r
        .learned
        .iter()
        .map(|c| json!({ "cell": cell(topology, c.place), "fact": c.fact, "because": c.because }))
        .collect();
    json!({
        "step": number,
        "position": cell(topology, r.position),
        "percepts": r.percepts.names(),
        "proven_safe": cells(topology, &r.proven_safe),
        "proven_pit": cells(topology, &r.proven_pit),
        "proven_wumpus": cells(topology, &r.proven_wumpus),
        "learned": learned,
        "action": r.action.to_string(),
        "rule": r.reason.rule,
        "reason": r.reason.text,
        "odds": r.odds.as_ref().map(|o| json!({
            "climb": o.climb,
            "candidates": o.candidates.iter().map(|c| json!({
                "cell": cell(topology, c.place),
                "pit": c.pit,
                "wumpus": c.wumpus,
                "expected": c.expected,
                "expected_is_bound": c.bound,
            })).collect::<Vec<_>>(),
        })),
    })
}

fn step_text(topology: &Topology, number: usize, r: &StepReport) -> String {
    let mut s = String::new();
    let percepts = r.percepts.names();
    s.push_str(&format!(
        "\nStep {number} at {}: {}\n",
        topology.label(r.position),
        if percepts.is_empty() {
            "nothing".to_string()
        } else {
            percepts.join(", ")
        }
    ));
    for c in &r.learned {
        s.push_str(&format!("  proved {}\n", conclusion_text(topology, c)));
    }
    if let Some(odds) = &r.odds {
        s.push_str(&odds_text(topology, odds));
    }
    s.push_str(&format!("  action: {}\n  why: {}\n", r.action, r.reason));
    s
}

/// "1,2 is safe: no breeze at 1,1; no stench at 1,1".
pub fn conclusion_text(topology: &Topology, c: &Conclusion) -> String {
    let head = format!("{} {}", topology.label(c.place), c.fact);
    if c.because.is_empty() {
        head
    } else {
        format!("{head}: {}", c.because.join("; "))
    }
}

/// The weighed risks, one candidate a line, best first.
pub fn odds_text(topology: &Topology, odds: &wumpus::agent::grid::Odds) -> String {
    let mut s = String::from("  odds (P pit, P wumpus, expected final score):\n");
    for c in &odds.candidates {
        s.push_str(&format!(
            "    {:>7}  pit {:.3}  wumpus {:.3}  expected {}{:.1}\n",
            topology.label(c.place),
            c.pit,
            c.wumpus,
            if c.bound { "at most " } else { "" },
            c.expected
        ));
    }
    s.push_str(&format!("    climb out now: expected {:.1}\n", odds.climb));
    s
}

/// Writes a traced game's steps as they come, as JSON Lines or text, numbered from 1; with
/// `--step` it waits for Enter between steps (until the end of input). A failed write does not
/// stop the game: the first failure is reported by [`StepPrinter::finish`]. Every `trace`
/// (grid, cave, maze) prints through this.
pub(crate) struct StepPrinter<'a> {
    out: &'a mut dyn Write,
    json: bool,
    waiting: bool,
    input: std::io::Lines<std::io::StdinLock<'static>>,
    number: usize,
    failure: Option<std::io::Error>,
}

impl<'a> StepPrinter<'a> {
    pub(crate) fn new(out: &'a mut dyn Write, json: bool, step: bool) -> StepPrinter<'a> {
        StepPrinter {
            out,
            json,
            waiting: step,
            input: std::io::stdin().lock().lines(),
            number: 0,
            failure: None,
        }
    }

    /// Prints the next step: `json(number)` (one line) or `text(number)`.
    pub(crate) fn step(
        &mut self,
        json: impl FnOnce(usize) -> String,
        text: impl FnOnce(usize) -> String,
    ) {
        self.number += 1;
        let written = if self.json {
            writeln!(self.out, "{}", json(self.number))
        } else {
            write!(self.out, "{}", text(self.number))
        };
        if let Err(e) = written.and_then(|_| self.out.flush()) {
            self.failure.get_or_insert(e);
        }
        if self.waiting {
            let _ = write!(self.out, "(Enter for the next step) ");
            let _ = self.out.flush();
            // At end of input, stop waiting and finish the game.
            if !matches!(self.input.next(), Some(Ok(_))) {
                self.waiting = false;
            }
        }
    }

    /// The first write failure, if any.
    pub(crate) fn finish(self) -> Result<()> {
        match self.failure {
            Some(e) => Err(e.into()),
            None => Ok(()),
        }
    }
}
