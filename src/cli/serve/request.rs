//! What a request to start a game of the live page may ask for ([`NewGame`]), checked and turned
//! into the command line's flags ([`RuleArgs`]), so that the page and `play` refuse the same
//! things with the same messages.

use super::{ApiError, Server, MAX_SIDE};
use crate::cli::args::{
    AgentArg, DealArg, GridSize, RuleArgs, RulesArg, ScoringArg, SizeArg, VariantArg,
};
use axum::http::StatusCode;
use serde::Deserialize;
use std::path::{Path, PathBuf};

/// A new game, as the page asks for it. Every field but `rules` is optional.
#[derive(Deserialize, Debug, Default)]
#[serde(deny_unknown_fields)]
pub struct NewGame {
    pub rules: String,
    pub size: Option<String>,
    /// `course`: the course tournament's deal.
    pub deal: Option<String>,
    /// Whether the agent is told the grid's size (default: hidden for the course's deal).
    pub size_told: Option<bool>,
    pub pit_prob: Option<f64>,
    pub scoring: Option<String>,
    pub seed: Option<u64>,
    /// A file of the worlds folder: a grid world.
    pub world: Option<String>,
    /// An uploaded world (grid) or hazards (caves) file's text, and its name.
    pub upload: Option<String>,
    pub upload_name: Option<String>,
    /// A file of the worlds folder: a cave map.
    pub map: Option<String>,
    pub variant: Option<String>,
    pub map_known: Option<bool>,
    pub agent: Option<String>,
    /// How many steps the agent looks ahead (`--depth`).
    pub depth: Option<u32>,
}

pub fn bad(message: impl Into<String>) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, message)
}

/// A value named in a request: one of `names`, or a 400 naming them.
fn pick<T: Copy>(what: &str, given: &str, names: &[(&str, T)]) -> Result<T, ApiError> {
    names
        .iter()
        .find(|(n, _)| *n == given)
        .map(|&(_, v)| v)
        .ok_or_else(|| {
            let all: Vec<&str> = names.iter().map(|(n, _)| *n).collect();
            bad(format!(
                "unknown {what} '{given}': choose {}",
                all.join(", ")
            ))
        })
}

impl Server {
    /// Refuses an uploaded grid world larger than the page plays, from its text alone, before
    /// anything is built for it.
    pub fn check_upload(&self, req: &NewGame) -> Result<(), ApiError> {
        let Some(text) = &req.upload else {
            return Ok(());
        };
        if req.rules != "grid" && req.rules != "aima" {
            return Ok(());
        }
        wumpus::grid::parse_world_within(text, MAX_SIDE)
            .map(drop)
            .map_err(|e| {
                let name = req.upload_name.as_deref().unwrap_or("an upload");
                bad(wumpus::files::FileError::new(Path::new(name), e.line, e).to_string())
            })
    }

    /// A file of the worlds folder, by name, if the page offers it as `kind`.
    pub fn offered(&self, name: &str, kind: &str) -> Result<PathBuf, ApiError> {
        if self.files.iter().any(|(n, k)| n == name && *k == kind) {
            Ok(self.worlds.join(name))
        } else {
            Err(bad(format!(
                "'{name}' is not a {} file of the worlds folder",
                if kind == "grid" {
                    "grid world"
                } else {
                    "cave map"
                }
            )))
        }
    }

    /// The command-line flags that set up `req`'s game, checked as `play` checks them.
    pub fn rule_args(&self, req: &NewGame) -> Result<RuleArgs, ApiError> {
        use RulesArg::*;
        let rules = pick(
            "rule set",
            &req.rules,
            &[
                ("grid", Grid),
                ("cave", Cave),
                ("maze", Maze),
                ("aima", Aima),
            ],
        )?;
        let size = match &req.size {
            Some(s) => {
                let size: GridSize = s.parse().map_err(bad)?;
                if size.rows > MAX_SIDE || size.cols > MAX_SIDE {
                    return Err(bad(format!(
                        "the live page plays grids up to {MAX_SIDE}x{MAX_SIDE}; \
                         `wumpus trace` and `solve` take larger ones"
                    )));
                }
                Some(SizeArg::One(size))
            }
            None => None,
        };
        if let Some(p) = req.pit_prob {
            crate::cli::args::parse_probability(&p.to_string()).map_err(bad)?;
        }
        let scoring = req
            .scoring
            .as_deref()
            .map(|s| {
                pick(
                    "scoring",
                    s,
                    &[
                        ("standard", ScoringArg::Standard),
                        ("aima", ScoringArg::Aima),
                    ],
                )
            })
            .transpose()?;
        let variant = req
            .variant
            .as_deref()
            .map(|s| {
                pick(
                    "variant",
                    s,
                    &[("event", VariantArg::Event), ("yob", VariantArg::Yob)],
                )
            })
            .transpose()?;
        let agent = req
            .agent
            .as_deref()
            .map(|s| {
                pick(
                    "agent",
                    s,
                    &[
                        ("risk", AgentArg::Risk),
                        ("logic", AgentArg::Logic),
                        ("random", AgentArg::Random),
                    ],
                )
            })
            .transpose()?;
        let map = req
            .map
            .as_deref()
            .map(|m| self.offered(m, "map"))
            .transpose()?;
        let deal = req
            .deal
            .as_deref()
            .map(|s| {
                pick(
                    "deal",
                    s,
                    &[("uniform", DealArg::Uniform), ("course", DealArg::Course)],
                )
            })
            .transpose()?;
        if size.is_some() && deal == Some(DealArg::Course) {
            return Err(bad(
                "the course's deal draws its own sizes: give a size or the deal",
            ));
        }
        let args = RuleArgs {
            rules: Some(rules),
            size,
            deal,
            size_hidden: req.size_told == Some(false),
            size_told: req.size_told == Some(true),
            pit_prob: req.pit_prob,
            scoring,
            kb: None,
            map,
            variant,
            map_known: req.map_known.unwrap_or(false),
            agent,
            depth: req.depth,
            rollouts: None,
        };
        let deepest = crate::cli::args::MAX_DEPTH;
        if req.depth.is_some_and(|d| !(1..=deepest).contains(&d)) {
            return Err(bad(format!("depth must be 1 to {deepest}")));
        }
        args.check(&[]).map_err(|e| bad(format!("{e:#}")))?;
        Ok(args)
    }
}
