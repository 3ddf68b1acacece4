use super::*;
use crate::cave::maze::{MazeResult, MazeView};

fn view(name: &str, tunnels: [Option<&str>; 3], smell: bool, hear: bool, feel: bool) -> MazeView {
    MazeView {
        name: name.into(),
        tunnels: tunnels.iter().map(|t| t.map(String::from)).collect(),
        smell,
        hear,
        feel,
    }
}

#[test]
fn nothing_sensed_proves_every_tunnel_free() {
    let mut a = DiscoveredMazeAgent::new(20);
    a.observe_turn(
        None,
        None,
        &view("A", [None, None, None], false, false, false),
    );
    assert!(a.tunnels().iter().all(|t| t.safe));
    assert_eq!(a.choose().reason.rule, Rule::Explore);
}

#[test]
fn a_draft_with_one_unknown_tunnel_proves_the_pit_there() {
    let mut a = DiscoveredMazeAgent::new(20);
    a.observe_turn(
        None,
        None,
        &view("A", [None, None, None], false, false, false),
    );
    a.observe_turn(
        Some(MazeAction::Move(1)),
        Some(MazeResult::Moved),
        &view("B", [Some("A"), None, Some("A")], false, false, true),
    );
    let t = a.tunnels();
    assert_eq!(t[1].pit, 1.0);
    assert_eq!(t[0].pit, 0.0);
    // Never stepped into: the one unknown way on is the pit.
    assert_ne!(a.choose().action, MazeAction::Move(2));
}

#[test]
fn a_smell_with_one_open_tunnel_is_tossed_into() {
    let mut a = DiscoveredMazeAgent::new(20);
    a.observe_turn(
        None,
        None,
        &view("A", [None, None, None], false, false, false),
    );
    a.observe_turn(
        Some(MazeAction::Move(2)),
        Some(MazeResult::Moved),
        &view("B", [Some("A"), Some("A"), None], true, false, false),
    );
    assert_eq!(a.choose().action, MazeAction::Toss(3));
}

#[test]
fn after_a_blast_an_old_smell_proves_nothing() {
    let mut a = DiscoveredMazeAgent::new(20);
    a.observe_turn(
        None,
        None,
        &view("A", [None, None, None], true, false, false),
    );
    a.observe_turn(
        Some(MazeAction::Toss(1)),
        Some(MazeResult::Missed),
        &view("A", [None, None, None], true, false, false),
    );
    assert!(a.tunnels().iter().all(|t| !t.safe && t.wumpus > 0.0));
}

#[test]
fn misses_under_a_lasting_smell_stop_the_tossing() {
    // Two unknown tunnels and a smell that stays after every miss: a startled wumpus can
    // run between the two caves for ever, so the agent must not toss into them by turns
    // until its grenades are gone.
    let mut a = DiscoveredMazeAgent::new(20);
    // A draft in A: nothing there is safe to explore.
    a.observe_turn(
        None,
        None,
        &view("A", [None, None, None], false, false, true),
    );
    let smelly = view("B", [Some("A"), None, None], true, false, false);
    a.observe_turn(Some(MazeAction::Move(1)), Some(MazeResult::Moved), &smelly);
    let mut tosses = 0;
    while let MazeAction::Toss(k) = a.choose().action {
        tosses += 1;
        assert!(tosses <= 3, "tossed {tosses} times without new evidence");
        a.observe_turn(Some(MazeAction::Toss(k)), Some(MazeResult::Missed), &smelly);
    }
    assert!(
        tosses >= 1,
        "a fresh smell with two open tunnels is worth a grenade"
    );
}

#[test]
fn the_games_answers_bound_the_grenades_held() {
    let mut a = DiscoveredMazeAgent::new(20);
    let here = view("A", [None, None, None], true, false, false);
    a.observe_turn(None, None, &here);
    // Nothing thrown: one wumpus at least, so four grenades.
    assert_eq!((a.fewest_dealt(), a.grenades_at_least()), (1, 4));
    assert_eq!(a.last_grenade(), 0.0);
    for _ in 0..3 {
        a.observe_turn(Some(MazeAction::Toss(1)), Some(MazeResult::Missed), &here);
    }
    // Three misses: still one wumpus at least, and one grenade if that is all.
    assert_eq!((a.fewest_dealt(), a.grenades_at_least()), (1, 1));
    assert!(
        (a.last_grenade() - 0.2).abs() < 1e-12,
        "{}",
        a.last_grenade()
    );
    a.observe_turn(Some(MazeAction::Toss(2)), Some(MazeResult::Missed), &here);
    // A fourth and the game goes on: two wumpi were dealt at least.
    assert_eq!((a.fewest_dealt(), a.grenades_at_least()), (2, 4));
    a.observe_turn(Some(MazeAction::Toss(3)), Some(MazeResult::Killed), &here);
    assert_eq!((a.fewest_dealt(), a.grenades_at_least()), (2, 3));
}
