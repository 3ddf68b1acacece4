//! What a page is sent of each step of a game, typed: the moment as the player sees it before
//! asking for a hint ([`Moment`]: the agent's action, reasons and walk kept back, each open
//! place's odds with the observations that drive them), earlier steps cut to what a drawing
//! reads ([`Compact`]), and the moment after the last action ([`final_moment`]).
//!
//! Nothing here may carry the agent's next action before the player asks for it, nor the
//! hidden world before the game is over.

use super::event::{ChoiceView, ExitView, Label, OddsView, Proof, StepEvent, WhereView};
use crate::agent::{Agent, Rule};
use crate::game::{Ending, Percept, Session};
use crate::kb::ground::Atom;
use crate::topology::Place;
use serde::Serialize;
use std::collections::{BTreeMap, HashMap, HashSet};

/// The most observations named for one place's odds; more are counted ("and 4 more").
const MOST_BECAUSE: usize = 12;

/// The observations that drive each open place's odds, in words, by the place's label.
pub type Because = BTreeMap<String, Vec<String>>;

/// A moment of a game as a page draws it.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Moment {
    /// The step's number, from 1.
    pub step: usize,
    /// Where the player stands.
    pub at: Option<String>,
    /// The way the player faces, where the rules give one.
    pub facing: Option<String>,
    /// What the player perceives here.
    pub percepts: Vec<Percept>,
    /// What the game said since the last step.
    pub messages: Vec<String>,
    /// Arrows (or grenades) left, where the player is told.
    pub arrows: Option<u32>,
    /// Actions (grid) or moves (caves) so far.
    pub moves: u32,
    /// The ways on from here.
    pub exits: Vec<ExitView>,
    /// Rooms with a tunnel in that cannot be walked to.
    pub entries: Vec<String>,
    /// What became proven this step.
    pub learned: Vec<Proof>,
    /// Places the player has stood in.
    pub visited: Vec<Label>,
    /// Places proven free of every hazard.
    pub proven_safe: Vec<Label>,
    /// Places proven to hold a pit.
    pub proven_pit: Vec<Label>,
    /// Places proven to hold a live wumpus.
    pub proven_wumpus: Vec<Label>,
    /// Places proven to hold bats.
    pub proven_bats: Vec<Label>,
    /// The exact odds where logic leaves a hazard open, with what drives them.
    pub odds: Vec<OddsView>,
    /// Where the player may be.
    pub whereabouts: Vec<WhereView>,
    /// What is proven of each way on from here.
    pub proven_ways: Vec<String>,
    /// True while a wumpus lives, as far as the player knows.
    pub wumpus_alive: bool,
    /// Of the choices weighed, only the odds of the places they lead to (the grid's
    /// frontier), until the player asks for a hint.
    pub choices: Vec<ChoiceOdds>,
    /// Kept back until asked for: always empty here.
    pub route: Vec<Label>,
    /// Kept back until asked for: always `None` here.
    pub target: Option<String>,
    /// Kept back until asked for: always `None` here.
    pub depth: Option<u32>,
    /// Kept back until asked for: always `None` here.
    pub action: Option<String>,
    /// Kept back until asked for: always `None` here.
    pub rule: Option<Rule>,
    /// Kept back until asked for: always `None` here.
    pub reason: Option<String>,
    /// The score, once the game is over.
    pub score: Option<i64>,
    /// The score as charged so far.
    pub score_so_far: Option<i64>,
    /// Whether the player carries the gold (grid).
    pub gold: Option<bool>,
    /// True for the moment after the last action.
    #[serde(rename = "final", skip_serializing_if = "std::ops::Not::not")]
    pub last: bool,
}

/// The odds of a place a choice leads to, without the choice.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChoiceOdds {
    /// Always empty: the choice itself is kept back.
    pub what: String,
    /// The place.
    pub place: Option<String>,
    /// The chance of a pit there.
    pub pit: Option<f64>,
    /// The chance of a live wumpus there.
    pub wumpus: Option<f64>,
    /// The chance of dying there.
    pub risk: Option<f64>,
    /// Kept back: `None`.
    pub expected: Option<f64>,
    /// Kept back: false.
    pub expected_is_bound: bool,
    /// Kept back: `None`.
    pub kill: Option<f64>,
    /// Kept back: false.
    pub chosen: bool,
    /// What drives its odds, in words.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub because: Option<Vec<String>>,
}

impl Moment {
    /// `e`, the hint agent's view of this moment, with its decision kept back, and `because`
    /// beside each open place's odds; with the score, the score so far and the gold carried
    /// in `session`.
    pub fn kept_back<S: Session>(e: &StepEvent, because: &Because, session: &S) -> Moment {
        let why = |place: &str| because.get(place).cloned();
        let choices = e
            .choices
            .iter()
            .filter(|c| c.place.is_some() && (c.pit.is_some() || c.wumpus.is_some()))
            .map(|c: &ChoiceView| ChoiceOdds {
                what: String::new(),
                because: c.place.as_deref().and_then(why),
                place: c.place.clone(),
                pit: c.pit,
                wumpus: c.wumpus,
                risk: c.risk,
                expected: None,
                expected_is_bound: false,
                kill: None,
                chosen: false,
            })
            .collect();
        Moment {
            step: e.step,
            at: e.at.clone(),
            facing: e.facing.clone(),
            percepts: e.percepts.clone(),
            messages: e.messages.clone(),
            arrows: e.arrows,
            moves: e.moves,
            exits: e.exits.clone(),
            entries: e.entries.clone(),
            learned: e.learned.clone(),
            visited: e.visited.clone(),
            proven_safe: e.proven_safe.clone(),
            proven_pit: e.proven_pit.clone(),
            proven_wumpus: e.proven_wumpus.clone(),
            proven_bats: e.proven_bats.clone(),
            odds: e
                .odds
                .iter()
                .map(|o| OddsView {
                    because: why(&o.place),
                    ..o.clone()
                })
                .collect(),
            whereabouts: e.whereabouts.clone(),
            proven_ways: e.proven_ways.clone(),
            wumpus_alive: e.wumpus_alive,
            choices,
            route: Vec::new(),
            target: None,
            depth: None,
            action: None,
            rule: None,
            reason: None,
            score: session.score(),
            score_so_far: session.score_so_far(),
            gold: session.carries_gold(),
            last: false,
        }
    }
}

/// `e` with `because` beside each open place's odds and each choice's: the step a hint gives
/// a page.
pub fn explain_odds(mut e: StepEvent, because: &Because) -> StepEvent {
    for o in &mut e.odds {
        o.because = because.get(&o.place).cloned();
    }
    for c in &mut e.choices {
        c.because = c.place.as_deref().and_then(|p| because.get(p)).cloned();
    }
    e
}

/// An earlier step, only what a drawing reads of it: where the player stood and perceived
/// what, the tunnels seen from there (the maze's map as discovered), what it proved (for
/// explanations), and the wumpus it had proven (to draw it dead); for a watched game also what
/// the agent did and why, the counts, and what the game said.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Compact {
    /// The step's number.
    pub step: usize,
    /// Where the player stood.
    pub at: Option<String>,
    /// What the player perceived there.
    pub percepts: Vec<Percept>,
    /// The ways on from there.
    pub exits: Vec<ExitView>,
    /// What became proven.
    pub learned: Vec<Proof>,
    /// The places proven to hold a live wumpus.
    pub proven_wumpus: Vec<Label>,
    /// True while a wumpus lived.
    pub wumpus_alive: bool,
    /// A watched game's action, reason and counts.
    #[serde(flatten, skip_serializing_if = "Option::is_none")]
    pub told: Option<Told>,
}

/// What a watched game's earlier step keeps besides what is drawn.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Told {
    /// Moves so far.
    pub moves: u32,
    /// Arrows or grenades left.
    pub arrows: Option<u32>,
    /// The way the player faced.
    pub facing: Option<String>,
    /// What the game said.
    pub messages: Vec<String>,
    /// The action.
    pub action: Option<String>,
    /// The rule that chose it.
    pub rule: Option<Rule>,
    /// Why.
    pub reason: Option<String>,
}

impl Compact {
    /// A played game's earlier step.
    pub fn drawn(e: &StepEvent) -> Compact {
        Compact {
            step: e.step,
            at: e.at.clone(),
            percepts: e.percepts.clone(),
            exits: e.exits.clone(),
            learned: e.learned.clone(),
            proven_wumpus: e.proven_wumpus.clone(),
            wumpus_alive: e.wumpus_alive,
            told: None,
        }
    }

    /// A watched game's earlier step, with its action and reason.
    pub fn of_watched(e: &StepEvent) -> Compact {
        Compact {
            step: e.step,
            at: e.at.clone(),
            percepts: e.percepts.clone(),
            exits: e.exits.clone(),
            learned: e.learned.clone(),
            proven_wumpus: e.proven_wumpus.clone(),
            wumpus_alive: e.wumpus_alive,
            told: Some(Told {
                moves: e.moves,
                arrows: e.arrows,
                facing: e.facing.clone(),
                messages: e.messages.clone(),
                action: Some(e.action.clone()),
                rule: Some(e.rule),
                reason: Some(e.reason.clone()),
            }),
        }
    }
}

/// The moment after the game's last action: where it left the player (the pit, the wumpus's
/// room, the cave out), what the player perceived and was told, the counts as the end gives
/// them. What the player had proven stays (`before`: the moment before, with its lists), the
/// place of death now known, and nothing is left open (no odds); it is marked `final`.
pub fn final_moment<S: Session>(
    session: &S,
    step: usize,
    shown: &S::Shown,
    before: Option<Moment>,
) -> Moment {
    let label = |p| session.label(p);
    let obs = session.observation(shown);
    let at = obs.at.map(label);
    let hidden = session.hidden();
    let mut m = before.unwrap_or_else(|| Moment {
        step,
        at: None,
        facing: None,
        percepts: Vec::new(),
        messages: Vec::new(),
        arrows: None,
        moves: 0,
        exits: Vec::new(),
        entries: Vec::new(),
        learned: Vec::new(),
        visited: Vec::new(),
        proven_safe: Vec::new(),
        proven_pit: Vec::new(),
        proven_wumpus: Vec::new(),
        proven_bats: Vec::new(),
        odds: Vec::new(),
        whereabouts: Vec::new(),
        proven_ways: Vec::new(),
        wumpus_alive: false,
        choices: Vec::new(),
        route: Vec::new(),
        target: None,
        depth: None,
        action: None,
        rule: None,
        reason: None,
        score: None,
        score_so_far: None,
        gold: None,
        last: false,
    });
    if let Some(place) = &at {
        let proven = match session.ending() {
            Some(Ending::Pit) => Some(&mut m.proven_pit),
            Some(Ending::Wumpus) if !hidden.wumpus.is_empty() => Some(&mut m.proven_wumpus),
            _ => None,
        };
        if let Some(list) = proven {
            if !list.iter().any(|l| &**l == place) {
                list.push(Label::from(place.as_str()));
            }
        }
    }
    m.step = step;
    m.at = at;
    m.facing = obs.facing;
    m.percepts = obs.percepts;
    m.messages = obs.messages;
    m.arrows = obs.arrows;
    m.moves = obs.moves;
    m.exits = obs
        .exits
        .iter()
        .map(|e| ExitView {
            tunnel: e.number,
            to: e.to.map(label),
        })
        .collect();
    m.entries = obs.entries.iter().map(|&p| label(p)).collect();
    m.learned.clear();
    m.odds.clear();
    m.whereabouts.clear();
    m.proven_ways.clear();
    m.choices.clear();
    m.wumpus_alive = !hidden.wumpus.is_empty();
    (m.route, m.target, m.depth) = (Vec::new(), None, None);
    (m.action, m.rule, m.reason) = (None, None, None);
    m.score = session.score();
    m.score_so_far = session.score_so_far();
    m.gold = session.carries_gold();
    m.last = true;
    m
}

/// For each place whose odds `e` gives (its odds, or the choices' odds on the grid), the
/// observations of `agent`'s knowledge base that drive them, in words
/// ([`crate::kb::KnowledgeBase::drivers`]): what a page says when the player asks about the
/// place. Empty when the agent keeps no knowledge base of the game's places.
pub fn odds_because<S: Session>(agent: &dyn Agent<S>, e: &StepEvent) -> Because {
    let Some(kb) = agent.knowledge_base() else {
        return Because::new();
    };
    let open_chance = |c: Option<f64>| c.is_some_and(|c| c > 0.0 && c < 1.0);
    // Each place's open hazards: [pit, wumpus, bats].
    let mut chances: Vec<(&str, [bool; 3])> = e
        .odds
        .iter()
        .map(|o| {
            let c = [Some(o.pit), Some(o.wumpus), Some(o.bats)];
            (o.place.as_str(), c.map(open_chance))
        })
        .collect();
    chances.extend(e.choices.iter().filter_map(|c| {
        Some((
            c.place.as_deref()?,
            [open_chance(c.pit), open_chance(c.wumpus), false],
        ))
        .filter(|(_, open)| open.iter().any(|&o| o))
    }));
    if chances.is_empty() {
        return Because::new();
    }
    let topology = kb.topology();
    let place_of: HashMap<String, Place> = (0..topology.len())
        .map(Place::new)
        .map(|p| (topology.label(p), p))
        .collect();
    let rules = kb.rules();
    let hazards = ["pit", "wumpus", "bats"].map(|name| rules.predicate(name));
    let atoms_of = |label: &str, open: [bool; 3]| -> Vec<Atom> {
        let Some(&p) = place_of.get(label) else {
            return Vec::new();
        };
        hazards
            .iter()
            .zip(open)
            .filter_map(|(&h, o)| Some(kb.atom(h.filter(|_| o)?, Some(p))))
            .collect()
    };
    let open_atoms: HashSet<Atom> = chances
        .iter()
        .flat_map(|&(label, open)| atoms_of(label, open))
        .collect();
    let stood: HashSet<Place> = e
        .visited
        .iter()
        .filter_map(|l| place_of.get(&**l))
        .copied()
        .collect();
    let mut out = Because::new();
    for (label, open) in chances {
        if out.contains_key(label) {
            continue;
        }
        let mut named: Vec<usize> = kb
            .drivers(
                &atoms_of(label, open),
                |a| open_atoms.contains(&a),
                |q| stood.contains(&q),
            )
            .concat();
        named.sort_unstable();
        named.dedup();
        let mut words: Vec<String> = named
            .iter()
            .take(MOST_BECAUSE)
            .map(|&k| kb.describe(&kb.observations()[k]))
            .collect();
        if named.len() > MOST_BECAUSE {
            words.push(format!("and {} more", named.len() - MOST_BECAUSE));
        }
        out.insert(label.to_string(), words);
    }
    out
}

/// The length of `e` in JSON, without writing it out. Its lists of places, thousands long on
/// a big board, are counted from their names' lengths: a place's name needs no escaping
/// (coordinates, room numbers, cave names), and if one did the count would be a few bytes
/// short, which a budget allows.
pub fn json_len(e: &mut StepEvent) -> usize {
    struct Count(usize);
    impl std::io::Write for Count {
        fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
            self.0 += buf.len();
            Ok(buf.len())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }
    let lists = [
        &mut e.visited,
        &mut e.proven_safe,
        &mut e.proven_pit,
        &mut e.proven_wumpus,
        &mut e.proven_bats,
    ]
    .map(std::mem::take);
    let mut count = Count(0);
    let rest = serde_json::to_writer(&mut count, &*e).map_or(0, |()| count.0);
    // Each list was counted as `[]`; with its names it is `["a","b"]`.
    let names: usize = lists
        .iter()
        .map(|l| {
            l.iter()
                .map(|name| name.len() + 3)
                .sum::<usize>()
                .saturating_sub(1)
        })
        .sum();
    [
        e.visited,
        e.proven_safe,
        e.proven_pit,
        e.proven_wumpus,
        e.proven_bats,
    ] = lists;
    rest + names
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::{AgentKind, AgentOptions, Dice, Roster};
    use crate::grid::{GridSession, GridSetup, Scoring};
    use crate::run::{play_to_end, Flow};

    #[test]
    fn the_counted_length_is_the_length_of_the_json() {
        let setup = GridSetup::new(8, 8, 0.1, Scoring::Standard).unwrap();
        let options = AgentOptions {
            explain: true,
            ..AgentOptions::default()
        };
        let agents = GridSession::prepare(AgentKind::Risk, &setup, &options).unwrap();
        let mut steps = 0;
        for seed in 0..5 {
            let mut session = GridSession::deal(&setup, seed).unwrap();
            let mut agent = agents
                .make(&session.briefing(), Dice::for_game(seed))
                .unwrap();
            let mut check = |_: &GridSession, mut e: StepEvent| {
                let json = serde_json::to_string(&e).unwrap();
                assert_eq!(json_len(&mut e), json.len());
                assert_eq!(serde_json::to_string(&e).unwrap(), json, "lists put back");
                // The moment shown before a hint keeps the decision back.
                let m = Moment::kept_back(
                    &e,
                    &Because::new(),
                    &GridSession::deal(&setup, seed).unwrap(),
                );
                let shown = serde_json::to_value(&m).unwrap();
                for kept in ["action", "rule", "reason", "depth", "target"] {
                    assert!(shown[kept].is_null(), "{kept} is kept back: {shown}");
                }
                assert_eq!(shown["route"], serde_json::json!([]));
                steps += 1;
                Flow::Go
            };
            play_to_end(
                &mut session,
                Some(seed),
                agent.as_mut(),
                &|| false,
                Some(&mut check),
            )
            .unwrap();
        }
        assert!(steps > 20);
    }
}
