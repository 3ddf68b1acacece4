//! Whole games traced with explanations, against the same games traced by the reference
//! knowledge base (one knowledge base answering and explaining under the observations'
//! selectors, `kb::reference`): every rule set's reasoning agents must decide the same, show the same and
//! prove the same facts at the same steps, with the same explanations but where several
//! minimal ones existed (the knowledge base's own test checks each explanation against brute
//! force). It must never let a game's decisions depend on whether it is explained.

use std::sync::Arc;

use super::{play_to_end, Flow, StepEvent};
use crate::agent::{AgentKind, AgentOptions, Dice, Roster};
use crate::cave::{self, ClassicSession, ClassicSetup, MazeSession, MazeSetup, Variant};
use crate::grid::{AimaSession, GridSession, GridSetup, Scoring};
use crate::kb::reference;

/// The trace of game `seed` of `setup`, played by `kind` with explanations.
fn trace<S: Roster>(
    setup: &S::Setup,
    kind: AgentKind,
    map_known: bool,
    seed: u64,
) -> Vec<StepEvent> {
    let options = AgentOptions {
        explain: true,
        map_known,
        ..AgentOptions::default()
    };
    let agents = S::prepare(kind, setup, &options).expect("the agent plays");
    let mut session = S::deal(setup, seed).expect("a game is dealt");
    let mut agent = agents
        .make(&session.briefing(), Dice::for_game(seed))
        .expect("an agent");
    let mut steps = Vec::new();
    let mut watch = |_: &S, e: StepEvent| {
        steps.push(e);
        Flow::Go
    };
    play_to_end(
        &mut session,
        Some(seed),
        agent.as_mut(),
        &|| false,
        Some(&mut watch),
    )
    .expect("the game is played");
    steps
}

/// `text` without its parenthesised parts (nested ones included).
fn without_parentheses(text: &str) -> String {
    let mut depth = 0usize;
    text.chars()
        .filter(|&c| {
            match c {
                '(' => depth += 1,
                ')' => {
                    depth = depth.saturating_sub(1);
                    return false;
                }
                _ => {}
            }
            depth == 0
        })
        .collect()
}

/// Counts of explanations compared and found the same.
#[derive(Default)]
struct Tally {
    games: usize,
    proofs: usize,
    same: usize,
}

/// Plays `seeds` both ways and compares them, adding to `tally`.
fn compare<S: Roster>(
    what: &str,
    setup: &S::Setup,
    kind: AgentKind,
    map_known: bool,
    seeds: std::ops::Range<u64>,
    tally: &mut Tally,
) {
    for seed in seeds {
        let now = trace::<S>(setup, kind, map_known, seed);
        let before = reference::with(|| trace::<S>(setup, kind, map_known, seed));
        assert_eq!(now.len(), before.len(), "{what} seed {seed}: steps");
        for (a, b) in now.iter().zip(&before) {
            let (mut a, mut b) = (a.clone(), b.clone());
            assert_eq!(
                a.learned.len(),
                b.learned.len(),
                "{what} seed {seed} step {}",
                a.step
            );
            for (p, q) in a.learned.iter_mut().zip(b.learned.iter_mut()) {
                assert!(
                    p.because.is_empty() == q.because.is_empty(),
                    "{what} seed {seed} step {}: {p:?} against {q:?}",
                    a.step
                );
                tally.proofs += 1;
                if p.because == q.because {
                    tally.same += 1;
                }
                p.because.clear();
                q.because.clear();
            }
            // The map-discovered maze agent words each tunnel's proofs with their explanations,
            // which may differ where several minimal ones exist: compared without them.
            for ways in [&mut a.proven_ways, &mut b.proven_ways] {
                for way in ways.iter_mut() {
                    *way = without_parentheses(way);
                }
            }
            // Odds are counted in another order by each knowledge base: equal to rounding.
            for odds in [&mut a.odds, &mut b.odds] {
                for o in odds.iter_mut() {
                    for x in [&mut o.pit, &mut o.wumpus, &mut o.bats, &mut o.death] {
                        *x = (*x * 1e9).round() / 1e9;
                    }
                }
            }
            assert_eq!(a, b, "{what} seed {seed}");
        }
        tally.games += 1;
    }
}

#[test]
fn traces_decide_and_prove_as_before_on_every_rule_set() {
    let mut tally = Tally::default();
    for (rows, cols) in [(4, 4), (5, 5), (6, 8)] {
        let setup = GridSetup::new(rows, cols, 0.2, Scoring::Standard).unwrap();
        for kind in [AgentKind::Risk, AgentKind::Logic] {
            compare::<GridSession>("grid", &setup, kind, false, 0..24, &mut tally);
        }
    }
    let setup = GridSetup::new(4, 4, 0.2, Scoring::Aima).unwrap();
    compare::<AimaSession>("aima", &setup, AgentKind::Risk, false, 0..12, &mut tally);
    let map = Arc::new(cave::parse_map(cave::STANDARD_MAP).unwrap());
    let classic = ClassicSetup {
        map,
        map_name: "the standard dodecahedron".into(),
        variant: Variant::Event,
    };
    for map_known in [false, true] {
        compare::<ClassicSession>(
            "cave",
            &classic,
            AgentKind::Logic,
            map_known,
            0..12,
            &mut tally,
        );
    }
    let map = Arc::new(cave::parse_map(cave::STANDARD_CAVES_DAT).unwrap());
    let maze = MazeSetup {
        map,
        map_name: "the standard caves.dat".into(),
    };
    for map_known in [false, true] {
        compare::<MazeSession>(
            "maze",
            &maze,
            AgentKind::Logic,
            map_known,
            0..12,
            &mut tally,
        );
    }
    eprintln!(
        "{} games, {} of {} explanations as the reference's",
        tally.games, tally.same, tally.proofs
    );
    assert!(tally.proofs > 1000, "{}", tally.proofs);
    assert!(
        tally.same * 100 >= tally.proofs * 90,
        "{} of {}",
        tally.same,
        tally.proofs
    );
}
