//! The discovered-maze agent's knowledge in the player's words: where each tunnel leads and
//! how the agent knows, what the knowledge base proves of each tunnel's cave and the
//! observations that prove it, and what the game's answers prove of the grenades.
//!
//! It must never name a cave the player has not been shown.

use super::*;

impl DiscoveredMazeAgent {
    /// Tunnel `tunnel` of the player's cave in the player's words.
    pub fn through(&self, tunnel: usize) -> String {
        let shown = self
            .nodes
            .get(self.at)
            .and_then(|n| n.shown.get(tunnel - 1).cloned())
            .flatten();
        match shown {
            Some(name) => format!("tunnel {tunnel} to {name}"),
            None => format!("tunnel {tunnel} (not yet seen)"),
        }
    }

    /// What is proven of each tunnel of the player's cave, with what proves it (when
    /// explaining), in words.
    pub fn proven_ways(&self) -> Vec<String> {
        if self.nodes.is_empty() {
            return Vec::new();
        }
        let tunnels = self.nodes[self.at].shown.len();
        (1..=tunnels)
            .map(|k| {
                let mut facts: Vec<String> = match self.here_proofs.get(k - 1) {
                    Some(proved) if self.explain => proved.clone(),
                    _ => self.facts_of(k).iter().map(|f| f.0.to_string()).collect(),
                };
                if facts.is_empty() {
                    facts.push("nothing proven".into());
                }
                if let Some(why) = self.seen.broken() {
                    facts.push(format!("the knowledge base stopped: {why}"));
                }
                if let Some(leads) = self.leads(self.at, k) {
                    facts.push(leads);
                }
                format!("{}: {}", self.through(k), facts.join("; "))
            })
            .chain(self.whereabouts_words())
            .chain(std::iter::once(self.arsenal_words()))
            .collect()
    }

    /// What the knowledge base proves of the cave behind tunnel `k` of the player's cave (for a
    /// cave the agent cannot place, what it proves of that tunnel of every cave it may be): the
    /// words, the hidden predicate and its value, and last "proven safe" (free of the pit and
    /// wumpi) where it is.
    fn facts_of(&self, k: usize) -> Vec<(&'static str, Option<(usize, bool)>)> {
        let w = self.seen.words;
        let p = self.proven(self.at, k);
        let mut facts = Vec::new();
        for (value, pred, yes, no) in [
            (p.pit, w.pit, "the pit", "no pit"),
            (p.wumpus, w.wumpus, "a wumpus", "no wumpus"),
            (p.bats, w.bats, "the bats", "no bats"),
        ] {
            match value {
                Some(true) => facts.push((yes, Some((pred, true)))),
                Some(false) => facts.push((no, Some((pred, false)))),
                None => {}
            }
        }
        if p.pit == Some(false) && p.wumpus == Some(false) {
            facts.push(("so it is proven safe", None));
        }
        facts
    }

    /// [`Self::facts_of`] each tunnel of the player's cave, each with the observations the
    /// knowledge base says prove it.
    pub(super) fn proofs_here(&mut self) -> Vec<Vec<String>> {
        let tunnels = self.nodes[self.at].shown.len();
        (1..=tunnels)
            .map(|k| {
                // The places that stand for the tunnel's cave: its own, and the node it is
                // known to lead to.
                let here = &self.nodes[self.at];
                let places: Vec<Place> = self
                    .far(self.at, k)
                    .into_iter()
                    .chain(here.edges[k - 1].map(|to| self.nodes[to].place))
                    .collect();
                self.facts_of(k)
                    .into_iter()
                    .map(|(words, fact)| {
                        let Some((pred, value)) = fact else {
                            return words.to_string();
                        };
                        let w = self.seen.words;
                        let at = places.iter().copied().find(|&f| {
                            let p = self.seen.proven(f);
                            let known = match pred {
                                x if x == w.pit => p.pit,
                                x if x == w.wumpus => p.wumpus,
                                _ => p.bats,
                            };
                            known == Some(value)
                        });
                        let Some(at) = at else {
                            return format!(
                                "{words} (proven through this tunnel of every cave you may be in)"
                            );
                        };
                        let why: Vec<String> = self
                            .seen
                            .why(pred, at, value)
                            .iter()
                            .map(|o| self.describe(o))
                            .collect();
                        if why.is_empty() {
                            words.to_string()
                        } else {
                            format!("{words} ({})", why.join(", "))
                        }
                    })
                    .collect()
            })
            .collect()
    }

    /// Where `place` is, in the player's words, with its preposition: "here", "in NAME", or
    /// "behind tunnel K of NAME".
    fn at_words(&self, place: Place) -> String {
        if let Some(n) = self.owner.get(place.index()).copied().flatten() {
            return if n == self.at {
                "here".into()
            } else {
                format!("in {}", self.cave_words(n))
            };
        }
        for (n, node) in self.nodes.iter().enumerate() {
            if let Some(k) = node.far.iter().position(|&f| f == place) {
                // The name the tunnel shows, or the node it is known to lead to.
                if let Some(name) = node.shown.get(k).cloned().flatten() {
                    return format!("in {name}");
                }
                if let Some(to) = node.edges.get(k).copied().flatten() {
                    return format!("in {}", self.cave_words(to));
                }
                let of = if n == self.at {
                    "here".to_string()
                } else {
                    format!("of {}", self.cave_words(n))
                };
                return format!("behind tunnel {} {of}", k + 1);
            }
        }
        "somewhere".into()
    }

    fn cave_words(&self, node: usize) -> String {
        self.nodes[node]
            .name
            .clone()
            .unwrap_or_else(|| "the bats' cave".into())
    }

    /// An observation the knowledge base was told, in the player's words.
    fn describe(&self, obs: &Observation) -> String {
        let w = self.seen.words;
        let at = obs.place.map(|p| self.at_words(p)).unwrap_or_default();
        let when = match obs.time {
            0 => String::new(),
            1 => " after 1 blast".into(),
            t => format!(" after {t} blasts"),
        };
        // A grenade's result is told before its own blast.
        let grenade = match obs.time + 1 {
            1 => "the 1st grenade".to_string(),
            2 => "the 2nd grenade".to_string(),
            3 => "the 3rd grenade".to_string(),
            g => format!("the {g}th grenade"),
        };
        let been = if at.starts_with("behind") {
            format!("you have been in the cave {at}")
        } else {
            format!("you have been {at}")
        };
        match (obs.pred, obs.present) {
            (p, true) if p == w.smell => format!("a wumpus smelt {at}{when}"),
            (p, false) if p == w.smell => format!("nothing smelt {at}{when}"),
            (p, true) if p == w.hear => format!("wings heard {at}"),
            (p, false) if p == w.hear => format!("no wings heard {at}"),
            (p, true) if p == w.feel => format!("a draft {at}"),
            (p, false) if p == w.feel => format!("no draft {at}"),
            (p, _) if p == w.stood => format!("you stood {at}{when}"),
            (p, _) if p == w.entered => been,
            (p, _) if p == w.carried => format!("bats carried you off {at}"),
            (p, true) if p == w.hit => format!("{grenade} killed a wumpus {at}"),
            (p, false) if p == w.hit => format!("{grenade} missed {at}"),
            _ => String::new(),
        }
    }

    /// Where tunnel `k` of `node` leads, and how the agent knows, when it does.
    fn leads(&self, node: usize, k: usize) -> Option<String> {
        let n = &self.nodes[node];
        let to = n.edges.get(k - 1).copied().flatten()?;
        let name = n.shown[k - 1]
            .clone()
            .unwrap_or_else(|| self.cave_words(to));
        let link = n.links.get(k - 1).copied().flatten()?;
        if !self.nodes[to].may_be.is_empty() {
            return Some(format!(
                "it leads to one of the caves named {name} you have been in, since you walked \
                 it (which one, the names and senses cannot tell, so the agent keeps them \
                 apart)"
            ));
        }
        let how = match link {
            Link::WalkedNew => "you walked it",
            Link::WalkedKnown => {
                "you walked it, and of the caves of that name you had been in only that one \
                 showed the same tunnels and senses"
            }
            Link::Named => "when it first showed that name, only one cave you had been in bore it",
            Link::Bats => "bats there carried you off",
        };
        Some(format!(
            "it leads to the cave you know as {name}, since {how}"
        ))
    }

    /// Where the player may be, when the agent cannot place its cave.
    fn whereabouts_words(&self) -> Option<String> {
        let here = &self.nodes[self.at];
        if here.may_be.len() < 2 {
            return None;
        }
        Some(format!(
            "where you are: in one of the caves named {} you have been in, which names and senses \
             cannot tell apart ({} places on the agent's map, some perhaps one cave); what is \
             proven through a tunnel of every one of them holds here",
            self.cave_words(self.at),
            here.may_be.len()
        ))
    }

    /// What the game's answers prove of the grenades, in words.
    fn arsenal_words(&self) -> String {
        format!(
            "grenades: at least {} left (at least {} {} dealt: {} killed, {} tossed){}",
            self.grenades_at_least(),
            self.fewest_dealt(),
            if self.fewest_dealt() == 1 {
                "wumpus was"
            } else {
                "wumpi were"
            },
            self.kills,
            self.tosses,
            match self.last_grenade() {
                l if l > 0.0 => format!("; the next one is the last with chance {}", percent(l)),
                _ => String::new(),
            }
        )
    }
}
