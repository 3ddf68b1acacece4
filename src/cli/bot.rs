//! `wumpus bot`: the cave and maze agents as bots an external game host drives over standard
//! input and output, game after game (the protocols are in `docs/bot-protocol.md`). The bot is
//! the library's ([`wumpus::bot::for_spec`]), made from the game flags of the rule sets and
//! options it takes ([`wumpus::bot::RULES`], [`wumpus::bot::OPTIONS`]); this file only reads
//! lines.

use super::args::{spec_error, GameArgs, Offer};
use super::bad_input;
use anyhow::Result;
use clap::{ArgMatches, Args, FromArgMatches};
use std::io::Write;
use wumpus::bot::LineBot;
use wumpus::game_spec::Value;

/// The game flags a bot takes.
const BOT_OFFER: Offer = Offer {
    rules: wumpus::bot::RULES,
    options: Some(wumpus::bot::OPTIONS),
};

#[derive(Debug)]
pub struct BotArgs {
    rules: GameArgs,
}

impl Args for BotArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        GameArgs::augment_offered(cmd, BOT_OFFER)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for BotArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut rules = GameArgs::from_arg_matches(m)?;
        if !rules.given("rules") {
            let default = BOT_OFFER.rules[0].name();
            rules
                .spec
                .set("rules", &Value::Text(default.into()))
                .map_err(|e| clap::Error::raw(clap::error::ErrorKind::ValueValidation, e))?;
        }
        Ok(BotArgs { rules })
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = BotArgs::from_arg_matches(m)?;
        Ok(())
    }
}

pub fn run(args: BotArgs) -> Result<()> {
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
