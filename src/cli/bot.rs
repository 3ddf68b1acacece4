//! `wumpus bot`: the cave and maze agents as bots an external game host drives over standard
//! input and output, game after game (the protocols are in `docs/bot-protocol.md`). The bot is
//! the library's ([`wumpus::bot::for_spec`]), made from the same game flags as every command;
//! this file only reads lines.

use super::args::{spec_error, GameArgs};
use super::bad_input;
use anyhow::Result;
use clap::Args;
use std::io::Write;
use wumpus::bot::LineBot;
use wumpus::game_spec::Value;

#[derive(Args, Debug)]
pub struct BotArgs {
    #[command(flatten)]
    rules: GameArgs,
}

pub fn run(mut args: BotArgs) -> Result<()> {
    // The bot's rule set is the classic cave unless told.
    if !args.rules.given("rules") {
        args.rules
            .spec
            .set("rules", &Value::Text("cave".into()))
            .map_err(spec_error)?;
    }
    let bot = wumpus::bot::for_spec(&args.rules.spec).map_err(spec_error)?;
    serve(bot)
}

/// Plays `bot` on standard input and output until the end of input. A line that breaks the
/// protocol (or is not UTF-8) stops it with `line N: what is wrong` (exit status 2).
fn serve(mut bot: Box<dyn LineBot>) -> Result<()> {
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
        match bot.line(line) {
            Ok(Some(reply)) => {
                writeln!(out, "{reply}")?;
                out.flush()?;
            }
            Ok(None) => {}
            // "line N: what is wrong", or "line N: cannot play this game: why".
            Err(why) => {
                return Err(bad_input(anyhow::anyhow!(
                    "line {number}: {}",
                    super::printable(&why)
                )));
            }
        }
    }
    Ok(())
}
