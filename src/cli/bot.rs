//! `wumpus bot`: the cave agent as a bot an external game host drives over standard input and
//! output, game after game (the protocol is in `docs/bot-protocol.md`).

use super::bad_input;
use super::cave::RulesArg;
use anyhow::{Context, Result};
use clap::Args;
use std::io::{BufRead, Write};
use std::path::PathBuf;
use std::sync::Arc;
use wumpus::agent::cave::{CaveAgent, CaveAgentConfig};
use wumpus::cave::protocol::{BotError, BotSession};

#[derive(Args, Debug)]
pub struct BotArgs {
    /// The rule set; only the classic cave speaks the bot protocol.
    #[arg(long, value_enum)]
    rules: Option<RulesArg>,
    /// Give the agent this map up front (each game must have its room count); without it the
    /// agent knows the room count and learns each room's tunnels by standing in it.
    #[arg(long)]
    map: Option<PathBuf>,
}

pub fn run(args: BotArgs) -> Result<()> {
    match args.rules {
        None | Some(RulesArg::Cave) => {}
        Some(_) => {
            return Err(bad_input(anyhow::anyhow!(
                "the bot protocol is the classic cave's: use --rules cave"
            )))
        }
    }
    let map = match &args.map {
        Some(path) => Some(Arc::new(wumpus::cave::read_map(path).map_err(bad_input)?)),
        None => None,
    };
    let make = |rooms: usize| -> Result<CaveAgent, String> {
        let config = CaveAgentConfig::for_bot(rooms, map.as_ref())?;
        CaveAgent::new(config).map_err(|e| e.to_string())
    };
    let mut session = BotSession::new(make);
    let mut input = std::io::stdin().lock();
    let mut out = std::io::stdout().lock();
    let mut bytes = Vec::new();
    for number in 1.. {
        bytes.clear();
        if input
            .read_until(b'\n', &mut bytes)
            .context("reading the host's lines")?
            == 0
        {
            break;
        }
        let text = bytes.strip_suffix(b"\n").unwrap_or(&bytes);
        let text = text.strip_suffix(b"\r").unwrap_or(text);
        let line = std::str::from_utf8(text).map_err(|e| {
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
            Err(BotError::Protocol(e)) => {
                return Err(bad_input(anyhow::anyhow!("line {number}: {e}")))
            }
            Err(BotError::Agent(e)) => {
                return Err(bad_input(anyhow::anyhow!("line {number}: {e}")))
            }
        }
    }
    Ok(())
}
