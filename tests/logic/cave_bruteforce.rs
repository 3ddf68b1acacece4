//! The cave agent's knowledge checked against brute force. At every step of many games on
//! small caves with the whole map known, every hazard layout (two pits, two bat rooms, the
//! wumpus's first room) and every way the wumpus could have wandered after each wake is
//! enumerated and weighed as the game deals and moves them. Then:
//!
//! - the agent's odds of a pit, bats and the wumpus in each room equal the enumeration's, to
//!   1e-9;
//! - the knowledge base proves a fact exactly when the enumeration finds it in every
//!   consistent layout (no more, no less);
//! - the knowledge base's own weighted model count (`kb::odds`) gives the same probabilities,
//!   to 1e-9, on a map where every wumpus move is equally likely.
//!
//! On the four event maps, discovered room by room, every fact the agent proves holds in the
//! hidden game.

use std::sync::Arc;
use wumpus::agent::cave::{CaveAgent, CaveAgentConfig, OddsSource, RoomView};
use wumpus::agent::Agent;
use wumpus::cave::classic::{Action, ClassicGame, MoveResult, ShotResult, TurnResult, Variant};
use wumpus::cave::map::{parse_map, CaveMap};
use wumpus::kb::odds::Prior;
use wumpus::topology::Place;

/// The Petersen graph: ten rooms, three tunnels each, every tunnel both ways.
const PETERSEN: &str = "1\n10\n1 2 5 6\n2 1 3 7\n3 2 4 8\n4 3 5 9\n5 4 1 10\n\
    6 1 8 9\n7 2 9 10\n8 3 6 10\n9 4 6 7\n10 5 7 8\n";

/// Ten rooms with one-way tunnels, a tunnel to its own room and a doubled tunnel.
const CROOKED: &str = "1\n10\n1 2 3 4\n2 3 5 5\n3 4 6 1\n4 5 7 2\n5 6 8 3\n\
    6 7 9 4\n7 8 10 7\n8 9 1 6\n9 10 2 7\n10 1 3 8\n";

/// What the hunter observed, written down independently of the agent.
#[derive(Default)]
struct Notes {
    start: usize,
    /// (room, draft, bats heard)
    warnings: Vec<(usize, bool, bool)>,
    /// Rooms proven free of pits and bats (stood in).
    stood: Vec<usize>,
    snatched: Vec<usize>,
    /// Per wumpus epoch: (room, smelt) and rooms it is not in.
    stench: Vec<Vec<(usize, bool)>>,
    not_here: Vec<Vec<usize>>,
}

impl Notes {
    fn epoch(&self) -> usize {
        self.stench.len() - 1
    }
}

/// Probabilities by brute force: (pit, bats, wumpus now), each by room.
struct Brute {
    pit: Vec<f64>,
    bats: Vec<f64>,
    wumpus: Vec<f64>,
}

fn brute(map: &CaveMap, notes: &Notes) -> Brute {
    let n = map.len();
    let adj: Vec<Vec<bool>> = (0..n)
        .map(|r| {
            let mut v = vec![false; n];
            for x in map.topology().linked(Place::new(r)) {
                v[x.index()] = true;
            }
            v
        })
        .collect();
    let (mut pit, mut bats, mut wumpus) = (vec![0.0; n], vec![0.0; n], vec![0.0; n]);
    let mut total = 0.0;
    let epochs = notes.epoch();
    for p1 in 0..n {
        for p2 in p1 + 1..n {
            for b1 in 0..n {
                for b2 in b1 + 1..n {
                    let hazards = [p1, p2, b1, b2];
                    if hazards.contains(&notes.start)
                        || b1 == p1
                        || b1 == p2
                        || b2 == p1
                        || b2 == p2
                    {
                        continue;
                    }
                    let is_pit = |r: usize| r == p1 || r == p2;
                    let is_bats = |r: usize| r == b1 || r == b2;
                    let statics = notes.warnings.iter().all(|&(r, d, b)| {
                        (0..n).any(|x| adj[r][x] && is_pit(x)) == d
                            && (0..n).any(|x| adj[r][x] && is_bats(x)) == b
                    }) && notes.stood.iter().all(|&r| !is_pit(r) && !is_bats(r))
                        && notes.snatched.iter().all(|&r| is_bats(r));
                    if !statics {
                        continue;
                    }
                    for w0 in 0..n {
                        if w0 == notes.start || hazards.contains(&w0) {
                            continue;
                        }
                        // Walk every trajectory of the wumpus with its weight.
                        let mut ways: Vec<(usize, f64)> = vec![(w0, 1.0)];
                        for e in 0..=epochs {
                            if e > 0 {
                                let mut next = Vec::new();
                                for &(w, c) in &ways {
                                    next.push((w, c / 4.0));
                                    for &to in map.outs(Place::new(w)) {
                                        next.push((to.index(), c / 4.0));
                                    }
                                }
                                ways = next;
                            }
                            ways.retain(|&(w, _)| {
                                notes.stench[e].iter().all(|&(r, s)| adj[r][w] == s)
                                    && !notes.not_here[e].contains(&w)
                            });
                        }
                        for (w, c) in ways {
                            total += c;
                            pit[p1] += c;
                            pit[p2] += c;
                            bats[b1] += c;
                            bats[b2] += c;
                            wumpus[w] += c;
                        }
                    }
                }
            }
        }
    }
    assert!(total > 0.0, "the truth is always consistent");
    for v in [&mut pit, &mut bats, &mut wumpus] {
        for x in v.iter_mut() {
            *x /= total;
        }
    }
    Brute { pit, bats, wumpus }
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-9
}

/// Plays `games` games on `text`'s map with the map known, checking every step (and the
/// knowledge base's model counts in the first `wmc_games`, which are slow to count).
fn check_map(text: &str, games: u64, wmc_games: u64) -> usize {
    let map = Arc::new(parse_map(text).unwrap());
    let n = map.len();
    let mut checked = 0;
    for seed in 0..games {
        let mut game = ClassicGame::new(map.clone(), Variant::Event, seed).unwrap();
        let mut agent = CaveAgent::new(CaveAgentConfig::for_map(&map, true)).unwrap();
        let mut notes = Notes {
            start: game.status().room.index(),
            stench: vec![Vec::new()],
            not_here: vec![Vec::new()],
            ..Notes::default()
        };
        let (mut last, mut result): (Option<Action>, Option<TurnResult>) = (None, None);
        while game.ending().is_none() && notes.epoch() <= 3 {
            let status = game.status();
            match (&last, &result) {
                (Some(Action::Move(to)), Some(TurnResult::Move(MoveResult::Snatched))) => {
                    notes.snatched.push(to.index());
                    notes.not_here[notes.stench.len() - 1].push(to.index());
                }
                (Some(Action::Shoot(path)), Some(TurnResult::Shot(ShotResult::Missed))) => {
                    let e = notes.epoch();
                    notes.not_here[e].extend(path.rooms().iter().map(|r| r.index()));
                    notes.stench.push(Vec::new());
                    notes.not_here.push(Vec::new());
                }
                _ => {}
            }
            let here = status.room.index();
            notes.warnings.push((here, status.pit, status.bats));
            notes.stood.push(here);
            let e = notes.epoch();
            notes.not_here[e].push(here);
            notes.stench[e].push((here, status.wumpus));
            agent
                .observe_turn(last.as_ref(), result.as_ref(), &status)
                .unwrap();
            let truth = brute(&map, &notes);
            let odds = agent.odds().unwrap().clone();
            for r in 0..n {
                assert!(close(odds.pit[r], truth.pit[r]), "seed {seed} pit {r}");
                assert!(close(odds.bats[r], truth.bats[r]), "seed {seed} bats {r}");
                assert!(
                    close(odds.wumpus[r], truth.wumpus[r]),
                    "seed {seed} wumpus {r}: {} vs {}",
                    odds.wumpus[r],
                    truth.wumpus[r]
                );
            }
            let kb = agent.knowledge_base_mut().unwrap();
            let rules = kb.rules().clone();
            let preds = ["pit", "bats", "wumpus"].map(|p| rules.predicate(p).unwrap());
            for (pred, probs) in preds.iter().zip([&truth.pit, &truth.bats, &truth.wumpus]) {
                let atoms: Vec<_> = (0..n)
                    .map(|r| kb.atom(*pred, Some(Place::new(r))))
                    .collect();
                for (r, &atom) in atoms.iter().enumerate() {
                    let can_be = kb.possible(&[(atom, true)]).unwrap();
                    let can_not = kb.possible(&[(atom, false)]).unwrap();
                    assert_eq!(can_be, probs[r] > 0.0, "seed {seed}: pred {pred} room {r}");
                    assert_eq!(can_not, probs[r] < 1.0, "seed {seed}: pred {pred} room {r}");
                }
                if seed < wmc_games {
                    let counted = kb.marginals(&atoms, &Prior::uniform(&rules)).unwrap();
                    for r in 0..n {
                        assert!(
                            close(counted[r], probs[r]),
                            "seed {seed}: pred {pred} room {r}: {} vs {}",
                            counted[r],
                            probs[r]
                        );
                    }
                }
            }
            checked += 1;
            let decision = agent.decide();
            let turn = game.act(&decision.action);
            last = Some(decision.action);
            result = Some(turn.result);
        }
    }
    checked
}

#[test]
fn odds_proofs_and_model_counts_match_brute_force_on_the_petersen_cave() {
    assert!(check_map(PETERSEN, 60, 8) > 60);
}

#[test]
fn the_agent_can_take_its_odds_from_the_knowledge_base() {
    let map = Arc::new(parse_map(PETERSEN).unwrap());
    for seed in 0..6 {
        let mut fast = CaveAgent::new(CaveAgentConfig::for_map(&map, true)).unwrap();
        let mut config = CaveAgentConfig::for_map(&map, true);
        config.odds = OddsSource::KnowledgeBase;
        let mut counted = CaveAgent::new(config).unwrap();
        let mut game = ClassicGame::new(map.clone(), Variant::Event, seed).unwrap();
        let (mut last, mut result): (Option<Action>, Option<TurnResult>) = (None, None);
        while game.ending().is_none() {
            let status = game.status();
            fast.observe_turn(last.as_ref(), result.as_ref(), &status)
                .unwrap();
            counted
                .observe_turn(last.as_ref(), result.as_ref(), &status)
                .unwrap();
            let (a, b) = (fast.odds().unwrap(), counted.odds().unwrap());
            for r in 0..map.len() {
                for (x, y) in [
                    (a.pit[r], b.pit[r]),
                    (a.bats[r], b.bats[r]),
                    (a.wumpus[r], b.wumpus[r]),
                    (a.pit_and_wumpus[r], b.pit_and_wumpus[r]),
                    (a.bats_and_wumpus[r], b.bats_and_wumpus[r]),
                ] {
                    assert!(close(x, y), "seed {seed} room {r}: {x} vs {y}");
                }
            }
            let decision = fast.decide();
            let turn = game.act(&decision.action);
            last = Some(decision.action);
            result = Some(turn.result);
        }
    }
}

#[test]
fn odds_and_proofs_match_brute_force_with_one_way_and_doubled_tunnels() {
    assert!(check_map(CROOKED, 60, 0) > 60);
}

#[test]
fn every_proven_fact_holds_in_the_hidden_game_on_the_event_maps() {
    for (name, text) in [
        ("standard", include_str!("../../worlds/cave-standard.txt")),
        ("mobius", include_str!("../../worlds/cave-mobius.txt")),
        (
            "waterslide",
            include_str!("../../worlds/cave-waterslide.txt"),
        ),
        ("risk", include_str!("../../worlds/cave-risk.txt")),
    ] {
        let map = Arc::new(parse_map(text).unwrap());
        for known in [false, true] {
            for seed in 0..40 {
                let mut game = ClassicGame::new(map.clone(), Variant::Event, seed).unwrap();
                let mut agent = CaveAgent::new(CaveAgentConfig::for_map(&map, known)).unwrap();
                let (mut last, mut result): (Option<Action>, Option<TurnResult>) = (None, None);
                while game.ending().is_none() {
                    let status = game.status();
                    agent
                        .observe_turn(last.as_ref(), result.as_ref(), &status)
                        .unwrap();
                    let h = game.hazards();
                    for r in map.rooms() {
                        let (pit, bats) = (h.pits().contains(&r), h.bats().contains(&r));
                        let holds = match agent.view(r) {
                            RoomView::Here => true,
                            RoomView::Wumpus => game.wumpus() == r,
                            RoomView::Pit => pit,
                            RoomView::Bats => bats,
                            RoomView::Visited | RoomView::Safe => {
                                !pit && !bats && game.wumpus() != r
                            }
                            RoomView::Unknown => true,
                        };
                        assert!(holds, "{name} known={known} seed {seed} room {}", r.index());
                    }
                    let decision = agent.decide();
                    let turn = game.act(&decision.action);
                    last = Some(decision.action);
                    result = Some(turn.result);
                }
            }
        }
    }
}
