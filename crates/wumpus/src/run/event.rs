//! The trace event: one step of a game as every rule set shows it, what the player was shown,
//! what the agent proved and why, what it knows, the odds, the choices it weighed and the
//! action it chose, with places named as a player names them. `trace --json` prints these,
//! `trace --html` and the live page draw them, `trace` and `hint` put them in words; the
//! schema is in `docs/trace-json.md`.

pub use crate::agent::common::percent;
use crate::agent::{Agent, Conclusion, Decision, Fact, Knowledge, Rule};
use crate::game::{Ending, Hidden, Percept, Session};
use crate::game_spec::GameSpec;
use crate::topology::{Place, Topology};
use serde::Serialize;
use std::sync::Arc;
use ustr::Ustr;

/// One step of a game: the moment the agent decided.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StepEvent {
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
    /// The ways on from here: tunnel numbers and where each leads, when known.
    pub exits: Vec<ExitView>,
    /// Rooms with a tunnel in that cannot be walked to (the classic cave).
    pub entries: Vec<String>,
    /// What became proven this step, with the observations each rests on.
    pub learned: Vec<Proof>,
    /// Places the player has stood in.
    pub visited: Vec<Label>,
    /// Places proven free of every hazard (visited ones included).
    pub proven_safe: Vec<Label>,
    /// Places proven to hold a pit.
    pub proven_pit: Vec<Label>,
    /// Places proven to hold a live wumpus.
    pub proven_wumpus: Vec<Label>,
    /// Places proven to hold bats.
    pub proven_bats: Vec<Label>,
    /// The exact odds where logic leaves a hazard open.
    pub odds: Vec<OddsView>,
    /// Where the player may be (the maze, when it is not certain).
    pub whereabouts: Vec<WhereView>,
    /// What is proven of each way on from here, for an agent that knows ways by tunnel and
    /// not by place (the maze without its map): `tunnel 2 (not yet seen): no pit, no wumpus`.
    pub proven_ways: Vec<String>,
    /// True while a wumpus lives, as far as the agent knows.
    pub wumpus_alive: bool,
    /// The choices the agent weighed.
    pub choices: Vec<ChoiceView>,
    /// The walk the agent plans, from where it stands to the place it heads for, when it
    /// plans one (the grid agents).
    pub route: Vec<Label>,
    /// The place the chosen action heads for or aims at, when it has one (a shot's: the room
    /// on the arrow's way the wumpus most likely holds).
    pub target: Option<String>,
    /// How deep the search behind the choice went, in the agent's actions.
    pub depth: Option<u32>,
    /// The action chosen, in the player's words.
    pub action: String,
    /// The rule that chose it.
    pub rule: Rule,
    /// Why, in words.
    pub reason: String,
}

/// A way on from the player's place.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ExitView {
    /// The tunnel's number.
    pub tunnel: usize,
    /// Where it leads, when the player knows.
    pub to: Option<String>,
}

/// A conclusion and the observations behind it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Proof {
    /// The place.
    pub place: String,
    /// What holds there.
    pub fact: Fact,
    /// The observations it rests on, in words (a minimal set).
    pub because: Vec<String>,
}

/// The odds at one place.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OddsView {
    /// The place.
    pub place: String,
    /// Chance of a pit.
    pub pit: f64,
    /// Chance of a live wumpus.
    pub wumpus: f64,
    /// Chance of bats.
    pub bats: f64,
    /// Chance of dying on stepping in (the agent's "to die").
    pub death: f64,
    /// The observations that drive these odds, in words, where a page asked for them
    /// ([`crate::run::view::explain_odds`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub because: Option<Vec<String>>,
}

/// One place the player may be in, and its chance.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct WhereView {
    /// The place.
    pub place: String,
    /// Its chance.
    pub chance: f64,
}

/// One choice weighed, in words.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ChoiceView {
    /// The choice: `step into 2,3`, `walk home and climb out`, `shoot 5 6 7`.
    pub what: String,
    /// The place it heads for.
    pub place: Option<String>,
    /// Its expected final score (or points).
    pub expected: Option<f64>,
    /// True when `expected` is only an upper bound.
    pub expected_is_bound: bool,
    /// The chance of dying by it.
    pub risk: Option<f64>,
    /// The chance of a pit where it leads.
    pub pit: Option<f64>,
    /// The chance of a live wumpus where it leads.
    pub wumpus: Option<f64>,
    /// The chance of a kill.
    pub kill: Option<f64>,
    /// True for the choice taken.
    pub chosen: bool,
    /// The observations that drive the odds where it leads, in words, where a page asked for
    /// them ([`crate::run::view::explain_odds`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub because: Option<Vec<String>>,
}

/// The first line of a trace: which game this is.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceStart {
    /// The game in a few words.
    pub title: String,
    /// The seed that deals (and replays) it; none for a game on files.
    pub seed: Option<u64>,
    /// The game: its rule set, its agent and every option at its value (as in `solve
    /// --json`), with what its own world fixes (a world file's size).
    pub game: GameSpec,
    /// The rule set and its options in words, for a page's subtitle: `the grid Wumpus World:
    /// 5x5, pit probability 0.2, standard scoring`.
    pub described: String,
}

impl TraceStart {
    /// The start of the game titled `title`, dealt from `seed`, described by `game`.
    pub fn new(title: String, seed: Option<u64>, game: GameSpec) -> TraceStart {
        let facts = crate::game_spec::facts(game.rules);
        let words = game.words();
        TraceStart {
            title,
            seed,
            described: if words.is_empty() {
                facts.title.to_string()
            } else {
                format!("{}: {words}", facts.title)
            },
            game,
        }
    }
}

/// The last line of a trace: how the game ended, and the hidden world.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct TraceEnd {
    /// How it ended.
    pub outcome: Ending,
    /// The final score, where the rule set keeps one.
    pub score: Option<i64>,
    /// Moves counted.
    pub moves: u32,
    /// Arrows shot or grenades tossed.
    pub shots: u32,
    /// Steps the agent took.
    pub steps: usize,
    /// What the game said after the last action.
    pub messages: Vec<String>,
    /// Where everything was.
    pub hidden: Hidden,
}

/// A place's name as a player names it ([`Session::label`]), interned: the lists of an event
/// (every place visited and proven so far) name the same places at every step of a game, so
/// a step's lists copy a word a place and never a name. The names live as long as the
/// process, and there are only as many as places were ever named (a 64x64 grid has 4,096).
/// It serialises as the string.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Label(Ustr);

impl std::ops::Deref for Label {
    type Target = str;
    fn deref(&self) -> &str {
        self.0.as_str()
    }
}

impl std::fmt::Display for Label {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.0.as_str())
    }
}

impl From<&str> for Label {
    fn from(name: &str) -> Label {
        Label(Ustr::from(name))
    }
}

impl Serialize for Label {
    fn serialize<Z: serde::Serializer>(&self, serializer: Z) -> Result<Z::Ok, Z::Error> {
        serializer.serialize_str(self.0.as_str())
    }
}

/// Places named as a player names them, each named once: the game's places, and an agent's
/// places, on the grid it numbers them on ([`Agent::places_on`]) while that grid stays the
/// same.
#[derive(Clone, Debug, Default)]
pub struct Labels {
    game: Vec<Option<Label>>,
    /// The agent's own grid, when it is not the game's.
    model: Option<Arc<Topology>>,
    on_model: Vec<Option<Label>>,
}

/// The name of `place` from `cache`, named by `name` the first time.
fn cached(cache: &mut Vec<Option<Label>>, place: Place, name: impl FnOnce() -> String) -> Label {
    let i = place.index();
    if i >= cache.len() {
        cache.resize(i + 1, None);
    }
    *cache[i].get_or_insert_with(|| Label::from(name().as_str()))
}

impl Labels {
    /// The name of `place` in `session`.
    pub fn of<S: Session>(&mut self, session: &S, place: Place) -> Label {
        cached(&mut self.game, place, || session.label(place))
    }

    /// Names the agent's places from now on on `model`, the grid it numbers them on
    /// ([`Agent::places_on`]; `None`: the game's own places).
    pub fn agent_grid(&mut self, model: Option<Arc<Topology>>) {
        let same = match (&self.model, &model) {
            (Some(a), Some(b)) => a.shape() == b.shape() && a.len() == b.len(),
            (a, b) => a.is_none() && b.is_none(),
        };
        if !same {
            self.on_model.clear();
        }
        self.model = model;
    }

    /// The name of an agent's `place` (see [`Labels::agent_grid`]).
    pub fn agent<S: Session>(&mut self, session: &S, place: Place) -> Label {
        match &self.model {
            Some(model) => cached(&mut self.on_model, place, || model.label(place)),
            None => self.of(session, place),
        }
    }

    /// The names of an agent's `places`, in order: one step's list of every place visited
    /// or proven so far, thousands long on a big board, so it is one pass over the cache.
    pub fn agent_list<S: Session>(&mut self, session: &S, places: &[Place]) -> Vec<Label> {
        let Labels {
            game,
            model,
            on_model,
        } = self;
        let cache = if model.is_some() { on_model } else { game };
        if let Some(last) = places.iter().map(|p| p.index()).max() {
            if last >= cache.len() {
                cache.resize(last + 1, None);
            }
        }
        places
            .iter()
            .map(|&p| {
                *cache[p.index()].get_or_insert_with(|| {
                    let name = match model {
                        Some(model) => model.label(p),
                        None => session.label(p),
                    };
                    Label::from(name.as_str())
                })
            })
            .collect()
    }
}

/// The event of step `step`: `session` has just shown `shown`, the agent proved `learned`,
/// knows `knowledge`, and chose `decision`; places are named through `names`, told the grid
/// the agent numbers its places on when that is not the game's ([`Labels::agent_grid`]).
pub fn step_event<S: Session>(
    session: &S,
    step: usize,
    shown: &S::Shown,
    learned: &[Conclusion],
    knowledge: &Knowledge,
    decision: &Decision<S::Action>,
    names: &mut Labels,
) -> StepEvent {
    let names = std::cell::RefCell::new(names);
    let label = |p: Place| names.borrow_mut().of(session, p).to_string();
    // What the agent says of a place is named on its own grid; where the player is, the game
    // says.
    let agent_named = |p: Place| names.borrow_mut().agent(session, p);
    let agent_label = |p: Place| agent_named(p).to_string();
    let labels = |ps: &[Place]| names.borrow_mut().agent_list(session, ps);
    // A name several places share (the maze's) is said proven only when it is proven of
    // every one of them, and its odds only when they are the same for all.
    let shared = knowledge_names_shared(session, knowledge);
    let proven = |ps: &[Place]| match &shared {
        None => labels(ps),
        Some(_) => of_every_namesake(session, ps, labels(ps)),
    };
    let obs = session.observation(shown);
    StepEvent {
        step,
        at: obs.at.map(label),
        facing: obs.facing,
        percepts: obs.percepts,
        messages: obs.messages,
        arrows: obs.arrows,
        moves: obs.moves,
        exits: obs
            .exits
            .iter()
            .map(|e| ExitView {
                tunnel: e.number,
                to: e.to.map(label),
            })
            .collect(),
        entries: obs.entries.iter().map(|&p| label(p)).collect(),
        learned: learned
            .iter()
            .filter(|c| {
                shared.is_none()
                    || session.namesakes(c.place) == 1
                    || learned
                        .iter()
                        .filter(|d| {
                            d.fact == c.fact && agent_named(d.place) == agent_named(c.place)
                        })
                        .count()
                        == session.namesakes(c.place)
            })
            .map(|c| Proof {
                place: agent_label(c.place),
                fact: c.fact,
                because: c.because.clone(),
            })
            .collect(),
        visited: dedup_labels(labels(&knowledge.visited)),
        proven_safe: proven(&knowledge.safe),
        proven_pit: proven(&knowledge.pit),
        proven_wumpus: proven(&knowledge.wumpus),
        proven_bats: proven(&knowledge.bats),
        odds: merge_odds(
            knowledge
                .odds
                .iter()
                .map(|o| {
                    let view = OddsView {
                        place: agent_label(o.place),
                        pit: o.pit,
                        wumpus: o.wumpus,
                        bats: o.bats,
                        death: o.death,
                        because: None,
                    };
                    (view, session.namesakes(o.place))
                })
                .collect(),
        ),
        // Only an agent given the map knows where it may be, and says it as the map does.
        whereabouts: knowledge
            .whereabouts
            .iter()
            .map(|&(p, chance)| WhereView {
                place: session.map_label(p),
                chance,
            })
            .collect(),
        proven_ways: knowledge.ways.clone(),
        wumpus_alive: knowledge.wumpus_alive,
        choices: decision
            .choices
            .iter()
            .map(|c| ChoiceView {
                what: c.what.clone(),
                place: c.place.map(agent_label),
                expected: c.expected,
                expected_is_bound: c.bound,
                risk: c.risk,
                pit: c.pit,
                wumpus: c.wumpus,
                kill: c.kill,
                chosen: c.chosen,
                because: None,
            })
            .collect(),
        route: labels(&knowledge.route),
        target: decision.reason.target.map(agent_label),
        depth: decision.depth,
        action: session.action_text(&decision.action),
        rule: decision.reason.rule,
        reason: decision.reason.text.clone(),
    }
}

/// The event of the agent's next step in `session` without playing it: what `hint` and the
/// live page show. `learned` is what the last observation proved.
pub fn hint_event<S: Session>(
    session: &S,
    step: usize,
    shown: &S::Shown,
    learned: &[Conclusion],
    agent: &mut dyn Agent<S>,
) -> StepEvent {
    let decision = agent.decide();
    let knowledge = agent.knowledge();
    let mut names = Labels::default();
    names.agent_grid(agent.places_on());
    step_event(
        session, step, shown, learned, &knowledge, &decision, &mut names,
    )
}

/// `Some(())` when some place the agent speaks of shares its name with another place.
fn knowledge_names_shared<S: Session>(session: &S, knowledge: &Knowledge) -> Option<()> {
    let lists = [
        &knowledge.visited,
        &knowledge.safe,
        &knowledge.pit,
        &knowledge.wumpus,
        &knowledge.bats,
    ];
    let places = lists.into_iter().flatten().copied();
    let odds = knowledge.odds.iter().map(|o| o.place);
    places
        .chain(odds)
        .any(|p| session.namesakes(p) > 1)
        .then_some(())
}

/// The labels of `places` (named `labels`) whose every namesake is among `places`, once each.
fn of_every_namesake<S: Session>(session: &S, places: &[Place], labels: Vec<Label>) -> Vec<Label> {
    let mut count: std::collections::HashMap<Label, usize> = std::collections::HashMap::new();
    for l in &labels {
        *count.entry(*l).or_default() += 1;
    }
    let mut kept = Vec::with_capacity(labels.len());
    for (&p, l) in places.iter().zip(labels) {
        if count.get(&l) == Some(&session.namesakes(p)) {
            count.remove(&l);
            kept.push(l);
        }
    }
    kept
}

/// `labels` with each label once, in first order.
fn dedup_labels(labels: Vec<Label>) -> Vec<Label> {
    let mut seen = std::collections::HashSet::new();
    labels.into_iter().filter(|l| seen.insert(*l)).collect()
}

/// Odds by label: a label its `namesakes` share keeps odds only when all of them have the
/// same odds.
fn merge_odds(odds: Vec<(OddsView, usize)>) -> Vec<OddsView> {
    if odds.iter().all(|(_, n)| *n == 1) {
        return odds.into_iter().map(|(o, _)| o).collect();
    }
    let same = |a: &OddsView, b: &OddsView| {
        [
            (a.pit, b.pit),
            (a.wumpus, b.wumpus),
            (a.bats, b.bats),
            (a.death, b.death),
        ]
        .iter()
        .all(|(x, y)| (x - y).abs() < 1e-9)
    };
    let mut out: Vec<OddsView> = Vec::new();
    for (i, (o, n)) in odds.iter().enumerate() {
        if out.iter().any(|k| k.place == o.place) {
            continue;
        }
        let twins: Vec<&OddsView> = odds[i..]
            .iter()
            .filter(|(k, _)| k.place == o.place)
            .map(|(k, _)| k)
            .collect();
        if twins.len() == *n && twins.iter().all(|k| same(k, o)) {
            out.push(o.clone());
        }
    }
    out
}

/// The last line of a traced game.
pub fn trace_end<S: Session>(session: &S, steps: usize, last: Option<&S::Shown>) -> TraceEnd {
    TraceEnd {
        outcome: session.ending().unwrap_or(Ending::Unfinished),
        score: session.score(),
        moves: session.moves(),
        shots: session.shots(),
        steps,
        messages: last.map_or_else(Vec::new, |s| session.observation(s).messages),
        hidden: session.hidden(),
    }
}
