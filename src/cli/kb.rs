//! `wumpus kb --dimacs`: the grounded knowledge base of a traced game, as DIMACS CNF, for
//! every rule set: the game `trace` plays with the same flags, stopped at a step.

use super::args::GameArgs;
use super::bad_input;
use super::play::{title, WorldArgs};
use anyhow::Result;
use clap::Args;
use wumpus::game_spec::{OnRules, Playable, Prepared};
use wumpus::run::{Flow, Label, StepEvent, Traced};

#[derive(Args, Debug)]
pub struct KbArgs {
    /// Write the knowledge base as DIMACS CNF, with a comment table naming each variable.
    #[arg(long, required = true)]
    dimacs: bool,
    #[command(flatten)]
    rules: GameArgs,
    #[command(flatten)]
    world: WorldArgs,
    /// The knowledge base at this step of the traced game (as `trace` numbers them: after
    /// the step's percepts, before its action); default: its last step.
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u64), allow_negative_numbers = true)]
    step: Option<u64>,
}

pub fn run(args: KbArgs) -> Result<()> {
    args.world.check(&args.rules)?;
    let rules = args.rules.clone();
    rules.dispatch(args, true)
}

impl OnRules for KbArgs {
    type Out = Result<()>;

    fn run<S: Playable>(self, game: Prepared<S>) -> Result<()> {
        let _ = self.dimacs;
        let dealt = self.world.session(&game)?;
        let title = title(&dealt);
        let mut traced = Traced::new(&game, dealt).map_err(super::job_error)?;
        if self.step == Some(0) {
            return Err(bad_input(anyhow::anyhow!(
                "--step 0: steps are numbered from 1, as trace numbers them"
            )));
        }
        let want = self.step.map(|s| s as usize);
        let mut last: Option<StepEvent> = None;
        let mut watch = |_: &S, e: StepEvent| {
            let stop = want == Some(e.step);
            last = Some(e);
            if stop {
                Flow::Stop
            } else {
                Flow::Go
            }
        };
        traced.play(&mut watch).map_err(super::job_error)?;
        let Some(at) = last else {
            return Err(bad_input(anyhow::anyhow!(
                "the game ended before the agent took a step: there is no knowledge base to show"
            )));
        };
        if let Some(n) = want {
            if at.step < n {
                return Err(bad_input(anyhow::anyhow!(
                    "--step {n} is past the end of the game: it has {} {} (use --step 1 to {})",
                    at.step,
                    super::text::plural(at.step as u64, "step", "steps"),
                    at.step
                )));
            }
        }
        let dimacs = traced
            .dimacs()
            .map_err(|why| bad_input(anyhow::anyhow!(why)))?;
        let list = |v: &[Label]| v.iter().map(|l| &**l).collect::<Vec<&str>>().join(" ");
        let mut text = format!("c game: {}\n", super::printable(&title));
        text.push_str(&format!(
            "c step {} at {}; wumpus alive: {}\n",
            at.step,
            at.at.as_deref().unwrap_or("?"),
            at.wumpus_alive
        ));
        text.push_str(&format!(
            "c proven safe ({}): {}\n",
            S::FACTS.safe_means,
            list(&at.proven_safe)
        ));
        text.push_str(&format!("c proven pit: {}\n", list(&at.proven_pit)));
        text.push_str(&format!("c proven wumpus: {}\n", list(&at.proven_wumpus)));
        if !at.proven_bats.is_empty() {
            text.push_str(&format!("c proven bats: {}\n", list(&at.proven_bats)));
        }
        text.push_str(&dimacs);
        super::out(text)
    }
}
