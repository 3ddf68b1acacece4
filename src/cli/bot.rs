//! `wumpus bot`: the cave and maze agents as bots an external game host drives over standard
//! input and output, game after game (the protocols are in `docs/bot-protocol.md`). The
//! protocols themselves live in the library ([`wumpus::bot`]); this file only reads lines.

use super::args::{parse_rule_set, spec_error};
use super::bad_input;
use anyhow::Result;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::sync::Arc;
use wumpus::agent::roster::classic_bot_agent;
use wumpus::agent::{AgentKind, AgentOptions, Dice, Roster};
use wumpus::bot::cave::ClassicBot;
use wumpus::bot::maze::MazeBot;
use wumpus::bot::{BotPlayer, BotSession};
use wumpus::cave::{MazeSession, MazeSetup};
use wumpus::game::RuleSet;

#[derive(Args, Debug)]
pub struct BotArgs {
    /// The rule set: the classic cave (the default) or the caves.dat maze. The grid has no
    /// bot protocol.
    #[arg(long, value_parser = parse_rule_set)]
    rules: Option<RuleSet>,
    /// Classic cave: give the agent this map up front (each game must have its room count);
    /// without it the agent knows the room count and learns each room's tunnels by standing
    /// in it. Maze: the map (caves.dat format; the standard caves.dat without it), which the
    /// agent is always given; each game must have its cave count.
    #[arg(long)]
    map: Option<PathBuf>,
}

pub fn run(args: BotArgs) -> Result<()> {
    match args.rules {
        None | Some(RuleSet::Cave) => {
            let map = match &args.map {
                Some(path) => Some(Arc::new(wumpus::cave::read_map(path).map_err(bad_input)?)),
                None => None,
            };
            serve(BotSession::new(|rooms: usize| {
                classic_bot_agent(rooms, map.as_ref()).map(ClassicBot::new)
            }))
        }
        Some(RuleSet::Maze) => {
            let spec = wumpus::game_spec::GameSpec {
                map: args.map.clone(),
                ..wumpus::game_spec::GameSpec::new(RuleSet::Maze)
            };
            let (map, map_name) = spec.map_file().map_err(spec_error)?;
            let setup = MazeSetup {
                map: map.clone(),
                map_name,
            };
            // The host numbers caves, so the bot plays the agent given the map (docs/
            // bot-protocol.md). A map it cannot play is refused before any line is read.
            let options = AgentOptions {
                map_known: true,
                ..AgentOptions::default()
            };
            let agents =
                MazeSession::prepare(AgentKind::Logic, &setup, &options).map_err(bad_input)?;
            serve(BotSession::new(|caves: usize| -> Result<_, String> {
                let agent = agents
                    .make(&wumpus::bot::host_briefing(caves), Dice::fresh())
                    .map_err(|e| e.to_string())?;
                MazeBot::new(map.clone(), caves, agent)
            }))
        }
        Some(RuleSet::Grid | RuleSet::Aima) => Err(bad_input(anyhow::anyhow!(
            "the bot protocol is the classic cave's and the maze's: use --rules cave or --rules maze"
        ))),
    }
}

/// Plays `session` on standard input and output until the end of input. A line that breaks
/// the protocol (or is not UTF-8) stops it with `line N: what is wrong` (exit status 2).
fn serve<P, E, F>(mut session: BotSession<P, F>) -> Result<()>
where
    P: BotPlayer,
    E: std::fmt::Display,
    F: FnMut(usize) -> Result<P, E>,
{
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    for number in 1.. {
        let bytes = match super::read_bounded_line(&mut input, super::MAX_PROTOCOL_LINE, number)? {
            super::Line::End => break,
            super::Line::Text(bytes) => bytes,
        };
        let line = std::str::from_utf8(&bytes).map_err(|e| {
            bad_input(anyhow::anyhow!(
                "line {number}: not UTF-8 text (byte {} is not)",
                e.valid_up_to() + 1
            ))
        })?;
        match session.line(line) {
            Ok(Some(reply)) => {
                writeln!(out, "{reply}")?;
                out.flush()?;
            }
            Ok(None) => {}
            // "line N: what is wrong", or "line N: cannot play this game: why".
            Err(e) => {
                let why = e.to_string();
                return Err(bad_input(anyhow::anyhow!(
                    "line {number}: {}",
                    super::printable(&why)
                )));
            }
        }
    }
    Ok(())
}
