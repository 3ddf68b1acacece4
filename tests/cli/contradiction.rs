//! Impossible percepts: the knowledge base reports a contradiction, naming the observations
//! that clash, and never goes on to "prove" everything from it. Through the library (an agent
//! fed percepts no world can give) and through the binary (a rule file the game contradicts).

use assert_cmd::Command;
use predicates::prelude::*;
use std::sync::Arc;
use wumpus::agent::grid::{CellView, GridAgent};
use wumpus::agent::Insight;
use wumpus::grid::{Action, Percepts};
use wumpus::kb::KbError;
use wumpus::topology::{Direction, Topology};

fn wumpus() -> Command {
    Command::cargo_bin("wumpus").unwrap()
}

#[test]
fn an_agent_fed_impossible_percepts_reports_the_contradiction() {
    // A breeze at 0,0 needs a pit at 0,1 or 1,0; walking 1,0 and feeling no breeze at 1,1
    // rules out both.
    let topology = Arc::new(Topology::grid(3, 3).unwrap());
    let mut agent = GridAgent::new(topology.clone(), None, Insight::Explained).unwrap();
    let breeze = Percepts {
        breeze: true,
        ..Percepts::default()
    };
    agent.observe_percepts(None, &breeze).unwrap();
    agent
        .observe_percepts(Some(Action::Move(Direction::North)), &Percepts::default())
        .unwrap();
    let err = agent
        .observe_percepts(Some(Action::Move(Direction::East)), &Percepts::default())
        .unwrap_err();
    let KbError::Contradiction(why) = &err else {
        panic!("expected a contradiction, got {err}");
    };
    assert!(why.contains("breeze at 0,0"), "{why}");
    assert!(why.contains("no breeze at 1,1"), "{why}");
    // Nothing is believed from it: every question reports the contradiction again, and no
    // unvisited cell became proven anything.
    let mut kb_err = 0;
    let pit = agent.kb().rules().predicate("pit").unwrap();
    let mut kb = wumpus::kb::KnowledgeBase::new(
        agent.kb().rules().clone(),
        topology.clone(),
        topology.cell(0, 0),
        wumpus::kb::Proofs::Fast,
    )
    .unwrap();
    let breeze_pred = kb.rules().predicate("breeze").unwrap();
    kb.tell(breeze_pred, topology.cell(0, 0), true).unwrap();
    kb.tell(breeze_pred, topology.cell(1, 1), false).unwrap();
    for place in topology.places() {
        for value in [true, false] {
            let atom = kb.atom(pit, Some(place));
            match kb.entails((atom, value)) {
                Err(KbError::Contradiction(_)) => kb_err += 1,
                other => panic!("{place:?} {value}: {other:?}"),
            }
        }
    }
    assert_eq!(kb_err, 18);
    // 0,1 was proven to hold a pit before the clash (no breeze at 1,0 left it the only
    // place for the pit); the clash proves it nothing more, safe least of all.
    let unvisited = topology.cell(0, 1).unwrap();
    assert_eq!(agent.view(unvisited), CellView::Pit);
}

/// The built-in rules plus "no pits anywhere", which a breeze contradicts.
fn no_pit_rules(dir: &std::path::Path) -> std::path::PathBuf {
    let path = dir.join("no-pits.kb");
    std::fs::write(
        &path,
        format!("{}\nnot pit(X).\n", wumpus::kb::rules::GRID_RULES),
    )
    .unwrap();
    path
}

#[test]
fn hint_says_the_percepts_contradict_the_rules() {
    let dir = tempfile::tempdir().unwrap();
    let kb = no_pit_rules(dir.path());
    let world = dir.path().join("breezy.txt");
    std::fs::write(&world, "SIZE 3 3\nPIT 0 1\nWUMPUS 2 2\nGOLD 2 0\n").unwrap();
    let out = wumpus()
        .args(["play", "--world"])
        .arg(&world)
        .arg("--kb")
        .arg(&kb)
        .write_stdin("hint\nnorth\nhint\n")
        .assert()
        .success();
    let text = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let hints: Vec<&str> = text.lines().filter(|l| l.starts_with("No hint")).collect();
    assert_eq!(hints.len(), 2, "{text}");
    for hint in hints {
        assert!(
            hint.contains("contradicts the rules (these cannot all hold: breeze at 0,0)"),
            "{hint}"
        );
        assert!(hint.contains("nothing can be proven"), "{hint}");
    }
    // The game itself goes on.
    assert!(text.contains("You feel a breeze."), "{text}");
    // trace and solve refuse with the clash named, as bad input (the rule file's fault).
    wumpus()
        .args(["trace", "--world"])
        .arg(&world)
        .arg("--kb")
        .arg(&kb)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "contradict each other or the rules: these cannot all hold: breeze at 0,0",
        ));
    wumpus()
        .args(["solve", "--worlds", "50", "--threads", "1", "--kb"])
        .arg(&kb)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("in the game of seed"))
        .stderr(predicate::str::contains("trace --seed"));
}
