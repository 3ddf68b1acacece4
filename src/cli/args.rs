//! The flags every game command shares, made from the library's description of a game
//! ([`wumpus::game_spec`]): one flag an option (`--pit-prob` for `pit_prob`), with its help, kind and
//! default from the catalogue, read into a [`GameSpec`] and checked there. This file holds no
//! list of options, defaults or refusals of its own: an option added to the library is a flag
//! here with no change.
//!
//! Every flag is optional, so that one given for a rule set it does not fit is refused (exit
//! status 2, naming the rule set and the flags that do apply) instead of silently ignored.

use super::bad_input;
use anyhow::Result;
use clap::builder::{PossibleValuesParser, Str};
use clap::{Arg, ArgAction, ArgMatches, Args, FromArgMatches};
use wumpus::game::RuleSet;
use wumpus::game_spec::{DoorOption, GameSpec, Kind, OnRules, SpecError, Spelling, Value, OPTIONS};

/// The most worker threads `solve` starts. Each game plays alone on one thread, so more threads
/// than cores buy nothing; the cap keeps a typo such as `--threads 100000` from starting
/// thousands of threads (each with its own stack) that never finish.
pub const MAX_THREADS: usize = 256;

/// The flags that choose a rule set and set it up, shared by every game command.
#[derive(Debug, Clone, Default)]
pub struct GameArgs {
    /// The game the flags describe (checked by [`GameArgs::check`]).
    pub spec: GameSpec,
    /// The options given, by name (a spec cannot tell a default given from one not given).
    given: Vec<&'static str>,
}

/// `pit_prob` as a flag: `pit-prob`.
fn long(name: &str) -> Str {
    Str::from(name.replace('_', "-"))
}

/// The rule sets that take `o`, as the help's first words (`grid, aima: `), and its default
/// under each (`[default: 5x5; aima: 4x4]`).
fn help(o: &wumpus::game_spec::OptionInfo, offer: Offer) -> String {
    let offered: Vec<RuleSet> = o
        .rules
        .iter()
        .copied()
        .filter(|r| offer.rules.contains(r))
        .collect();
    let fits: Vec<&str> = offered.iter().map(|r| r.name()).collect();
    let mut defaults: Vec<(String, Vec<&str>)> = Vec::new();
    for r in &offered {
        if let Some(d) = (o.default)(*r) {
            match defaults.iter_mut().find(|(v, _)| v == d) {
                Some((_, rules)) => rules.push(r.name()),
                None => defaults.push((d.to_string(), vec![r.name()])),
            }
        }
    }
    let default = match defaults.as_slice() {
        [] => String::new(),
        [(d, _)] if o.kind != Kind::Flag => format!(" [default: {d}]"),
        [_] => String::new(),
        [(first, _), rest @ ..] => {
            let rest: Vec<String> = rest
                .iter()
                .map(|(d, rules)| format!("{}: {d}", rules.join(", ")))
                .collect();
            format!(" [default: {first}; {}]", rest.join("; "))
        }
    };
    let applies = if fits.len() == offer.rules.len() {
        String::new()
    } else {
        format!("{}: ", fits.join(", "))
    };
    format!("{applies}{}{default}", o.help)
}

/// Which rule sets and options a command's game flags offer.
#[derive(Clone, Copy)]
pub struct Offer {
    /// The rule sets `--rules` takes, the command's default first.
    pub rules: &'static [RuleSet],
    /// The options offered as flags (`None`: every option of the catalogue).
    pub options: Option<&'static [&'static str]>,
}

impl Offer {
    /// Every rule set, the grid first, and every option: what the game commands take.
    pub const EVERY_GAME: Offer = Offer {
        rules: &RuleSet::ALL,
        options: None,
    };

    fn offers(&self, name: &str) -> bool {
        self.options.is_none_or(|names| names.contains(&name))
    }
}

impl GameArgs {
    /// `cmd` with the game flags `offer` makes.
    pub fn augment_offered(cmd: clap::Command, offer: Offer) -> clap::Command {
        let names: Vec<&str> = offer.rules.iter().map(|r| r.name()).collect();
        let rules: Vec<String> = offer
            .rules
            .iter()
            .map(|r| format!("{}: {}", r.name(), wumpus::game_spec::facts(*r).summary))
            .collect();
        let default = offer.rules[0].name();
        let mut cmd = cmd.arg(
            Arg::new("rules")
                .long("rules")
                .value_name("RULES")
                .value_parser(PossibleValuesParser::new(names))
                .help(format!(
                    "The rule set [default: {default}]. {}",
                    rules.join(" ")
                )),
        );
        for o in OPTIONS.iter().filter(|o| offer.offers(o.name)) {
            let mut arg = Arg::new(o.name).long(long(o.name)).help(help(o, offer));
            arg = match o.kind {
                Kind::Flag => arg.action(ArgAction::SetTrue),
                Kind::Choice { .. } => arg.value_name(o.name.to_uppercase()),
                Kind::File { .. } => arg.value_name("FILE").value_hint(clap::ValueHint::FilePath),
                Kind::Count { .. } => arg.value_name("N").allow_negative_numbers(true),
                Kind::Probability => arg.value_name("P").allow_negative_numbers(true),
                Kind::Size { .. } => arg.value_name("SIZE"),
            };
            if let Kind::Choice { choices } = o.kind {
                arg = arg.value_parser(PossibleValuesParser::new(choices));
            } else if o.kind != Kind::Flag {
                let name = o.name;
                arg = arg.value_parser(move |s: &str| -> Result<String, String> {
                    let mut probe = GameSpec::default();
                    match probe.set(name, &Value::Text(s.to_string())) {
                        Ok(()) => Ok(s.to_string()),
                        // The reason alone: clap names the flag and the value.
                        Err(e) => Err(e
                            .spelled(Spelling::Flags)
                            .split_once(": ")
                            .map_or_else(|| e.to_string(), |(_, why)| why.to_string())),
                    }
                });
            }
            cmd = cmd.arg(arg);
            if let Some(opposite) = o.opposite {
                cmd = cmd.arg(
                    Arg::new(opposite)
                        .long(long(opposite))
                        .action(ArgAction::SetTrue)
                        .conflicts_with(o.name)
                        .help(format!("The opposite of --{}.", long(o.name))),
                );
            }
        }
        cmd
    }
}

impl Args for GameArgs {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        GameArgs::augment_offered(cmd, Offer::EVERY_GAME)
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        Self::augment_args(cmd)
    }
}

impl FromArgMatches for GameArgs {
    fn from_arg_matches(m: &ArgMatches) -> Result<Self, clap::Error> {
        let mut args = GameArgs::default();
        args.spec.cache = wumpus::game_spec::default_cache_dir();
        let refused = |e: SpecError| {
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("{}\n", e.spelled(Spelling::Flags)),
            )
        };
        if let Some(r) = m.try_get_one::<String>("rules").ok().flatten() {
            args.spec
                .set("rules", &Value::Text(r.clone()))
                .map_err(refused)?;
            args.given.push("rules");
        }
        for o in &OPTIONS {
            let value = match o.kind {
                Kind::Flag => {
                    let flag = |id: &str| m.try_get_one::<bool>(id).ok().flatten() == Some(&true);
                    let on = flag(o.name);
                    let off = o.opposite.is_some_and(flag);
                    (on || off).then_some(Value::Bool(on))
                }
                // An option the command does not offer is never given.
                _ => m
                    .try_get_one::<String>(o.name)
                    .ok()
                    .flatten()
                    .cloned()
                    .map(Value::Text),
            };
            if let Some(v) = value {
                args.spec.set(o.name, &v).map_err(refused)?;
                args.given.push(o.name);
            }
        }
        Ok(args)
    }

    fn update_from_arg_matches(&mut self, m: &ArgMatches) -> Result<(), clap::Error> {
        *self = GameArgs::from_arg_matches(m)?;
        Ok(())
    }
}

impl GameArgs {
    /// True when option `name` was given.
    pub fn given(&self, name: &str) -> bool {
        self.given.contains(&name)
    }

    /// Refuses every flag given that the chosen rule set does not take, with `door`, the
    /// command's own flags and the rule sets each fits (the agent is checked when prepared).
    pub fn check(&self, door: &[DoorOption<'_>]) -> Result<()> {
        self.spec.check_game_with(door).map_err(spec_error)
    }

    /// Sets up the chosen rule set and hands it to `command`, written once for all of them.
    pub fn dispatch<C: OnRules<Out = Result<T>>, T>(&self, command: C, explain: bool) -> Result<T> {
        self.spec.dispatch(command, explain).map_err(spec_error)?
    }
}

/// A spec's refusal as bad input (status 2), its options spelled as flags.
pub fn spec_error(e: SpecError) -> anyhow::Error {
    bad_input(anyhow::anyhow!("{}", e.spelled(Spelling::Flags)))
}

/// The rule sets whose games a file of `kind` (`world`, `hazards`) holds, for a command's own
/// file flags.
pub fn holds(kind: &'static str) -> impl Fn(RuleSet) -> bool {
    move |r: RuleSet| wumpus::game_spec::catalogue::file_of(r) == kind
}

/// A rule set's name, for the commands whose own flags take one (`world`, `bot`).
pub fn parse_rule_set(s: &str) -> Result<RuleSet, String> {
    RuleSet::parse(s).ok_or_else(|| {
        let names: Vec<&str> = RuleSet::ALL.iter().map(|r| r.name()).collect();
        format!("'{s}' is none of {}", names.join(", "))
    })
}
