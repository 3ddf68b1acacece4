//! What the live page is sent of each step of a game: a step as the player sees it before
//! asking for a hint (the agent's action and reasons kept back), earlier steps cut to what the
//! drawing reads, and the moment after the last action. It must never send the agent's next
//! action before the player asks for it, nor the hidden world before the game is over.

use serde_json::{json, Map, Value};
use std::collections::{HashMap, HashSet};
use wumpus::game_spec::Playable;
use wumpus::kb::ground::Atom;
use wumpus::kb::KnowledgeBase;
use wumpus::run::StepEvent;
use wumpus::topology::Place;

/// The most observations named for one place's odds; more are counted ("and 4 more").
const MOST_BECAUSE: usize = 12;

/// For each place whose odds the step gives (its odds, or the choices' odds on the grid), the
/// observations that drive them, in words ([`KnowledgeBase::drivers`]): what the page says
/// when the player asks about the place. Places are named by label.
pub(super) fn odds_because(kb: &KnowledgeBase, e: &StepEvent) -> Map<String, Value> {
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
        return Map::new();
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
    let mut out = Map::new();
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
        out.insert(label.to_string(), json!(words));
    }
    out
}

/// `v` (a step as sent) with each place's odds, and each choice's, carrying `because`.
pub(super) fn with_because(mut v: Value, because: &Map<String, Value>) -> Value {
    for list in ["odds", "choices"] {
        if let Some(Value::Array(items)) = v.get_mut(list) {
            for item in items.iter_mut() {
                let why = item["place"].as_str().and_then(|l| because.get(l)).cloned();
                if let (Some(why), Some(map)) = (why, item.as_object_mut()) {
                    map.insert("because".into(), why);
                }
            }
        }
    }
    v
}

/// A step as the player sees it before asking for a hint: without the agent's action, rule and
/// reason, and of the choices only their odds.
pub(super) fn hidden_action(e: &StepEvent) -> Value {
    let mut v = json!(e);
    if let Some(map) = v.as_object_mut() {
        map.insert("action".into(), Value::Null);
        map.insert("rule".into(), Value::Null);
        map.insert("reason".into(), Value::Null);
        // Of the choices, only the odds the drawing reads from them (the grid's frontier).
        if let Some(Value::Array(choices)) = map.get_mut("choices") {
            choices.retain(|c| {
                !c["place"].is_null() && (!c["pit"].is_null() || !c["wumpus"].is_null())
            });
            for c in choices.iter_mut() {
                *c = json!({"what": "", "place": c["place"], "pit": c["pit"], "wumpus": c["wumpus"],
                    "expected": null, "expected_is_bound": false, "risk": c["risk"], "kill": null,
                    "chosen": false});
            }
        }
        map.insert("depth".into(), Value::Null);
    }
    v
}

/// The moment after the game's last action: where it left the player (the pit, the wumpus's
/// room, the cave out), what the player perceived and was told, the counts as the end gives
/// them. What the player had proven stays, with the place of death now known, and nothing is
/// left open (no odds); `final` marks it. `before` is the step before, in full.
pub(super) fn final_step<S: Playable>(
    session: &S,
    step: usize,
    shown: &S::Shown,
    before: Option<Value>,
) -> Value {
    let label = |p| session.label(p);
    let obs = session.observation(shown);
    let at = obs.at.map(label);
    let mut v = before.unwrap_or_else(|| {
        json!({"learned": [], "visited": [], "proven_safe": [],
        "proven_pit": [], "proven_wumpus": [], "proven_bats": [], "depth": null})
    });
    let ending = json!(session.ending());
    let hidden = session.hidden();
    if let Some(map) = v.as_object_mut() {
        if let Some(place) = &at {
            let proven = match ending.as_str() {
                Some("pit") => Some("proven_pit"),
                Some("wumpus") if !hidden.wumpus.is_empty() => Some("proven_wumpus"),
                _ => None,
            };
            if let Some(Value::Array(list)) = proven.and_then(|k| map.get_mut(k)) {
                if !list.iter().any(|l| l == place) {
                    list.push(json!(place));
                }
            }
        }
        let exits: Vec<Value> = obs
            .exits
            .iter()
            .map(|e| json!({"tunnel": e.number, "to": e.to.map(label)}))
            .collect();
        let entries: Vec<String> = obs.entries.iter().map(|&p| label(p)).collect();
        for (k, x) in [
            ("step", json!(step)),
            ("at", json!(at)),
            ("facing", json!(obs.facing)),
            ("percepts", json!(obs.percepts)),
            ("messages", json!(obs.messages)),
            ("arrows", json!(obs.arrows)),
            ("moves", json!(obs.moves)),
            ("exits", json!(exits)),
            ("entries", json!(entries)),
            ("learned", json!([])),
            ("odds", json!([])),
            ("whereabouts", json!([])),
            ("proven_ways", json!([])),
            ("choices", json!([])),
            ("wumpus_alive", json!(!hidden.wumpus.is_empty())),
            ("action", Value::Null),
            ("rule", Value::Null),
            ("reason", Value::Null),
            ("final", json!(true)),
        ] {
            map.insert(k.into(), x);
        }
    }
    v
}

/// What [`compact`] keeps of a step.
const DRAWN: [&str; 7] = [
    "step",
    "at",
    "percepts",
    "exits",
    "learned",
    "proven_wumpus",
    "wumpus_alive",
];

/// What [`compact_watched`] keeps besides.
const TOLD: [&str; 7] = [
    "moves", "arrows", "facing", "messages", "action", "rule", "reason",
];

/// `v`'s fields named in `keep`.
fn keep_only(v: Value, keep: &[&[&str]]) -> Value {
    match v {
        Value::Object(map) => Value::Object(
            map.into_iter()
                .filter(|(k, _)| keep.iter().any(|names| names.contains(&k.as_str())))
                .collect(),
        ),
        v => v,
    }
}

/// An earlier step, only what the drawing reads of it: where the player stood and perceived
/// what, the tunnels seen from there (the maze's map as discovered), what it proved (for
/// explanations), and the wumpus it had proven (to draw it dead).
pub(super) fn compact(v: Value) -> Value {
    keep_only(v, &[&DRAWN])
}

/// An earlier step of the watched game: what [`compact`] keeps, with the agent's action and
/// its reason, the counts and what the game said (all small); the page fills in the rest
/// (the places visited, and proven from what was learned).
pub(super) fn compact_watched(v: Value) -> Value {
    keep_only(v, &[&DRAWN, &TOLD])
}

/// The length of `e` in JSON, without writing it out. Its lists of places, thousands long on
/// a big board, are counted from their names' lengths: a place's name needs no escaping
/// (coordinates, room numbers, cave names), and if one did the count would be a few bytes
/// short, which a budget allows.
pub(super) fn json_len(e: &mut StepEvent) -> usize {
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

/// `e` without the lists that [`compact_watched`] drops anyway (the places visited and
/// proven, the odds, the choices), so that its JSON value is small to make.
pub(super) fn without_lists(mut e: StepEvent) -> StepEvent {
    e.visited.clear();
    e.proven_safe.clear();
    e.proven_pit.clear();
    e.proven_bats.clear();
    e.odds.clear();
    e.whereabouts.clear();
    e.proven_ways.clear();
    e.choices.clear();
    e.entries.clear();
    e
}

#[cfg(test)]
mod tests {
    use super::json_len;
    use wumpus::agent::{AgentKind, AgentOptions, Dice, Roster};
    use wumpus::game::Session;
    use wumpus::grid::{GridSession, GridSetup, Scoring};
    use wumpus::run::{play_to_end, Flow, StepEvent};

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
