//! The maze agent that learns the map (`agent::maze::discovered`, the maze's default) is sound:
//! in thousands of games, every tunnel it calls free of the pit and wumpi is, every pit and
//! wumpus it calls proven is there, and an explore step never kills. Checked against the
//! hidden game on the standard `caves.dat` and on a maze where every cave has the same name
//! (the hardest case for telling caves apart).

use crate::common;

use common::wumpus;
use std::sync::Arc;
use wumpus::agent::maze::discovered::DiscoveredMazeAgent;
use wumpus::agent::Agent;
use wumpus::agent::Rule;
use wumpus::cave::map::{parse_map, CaveMap};
use wumpus::cave::maze::{MazeAction, MazeGame, MazeResult};
use wumpus::cave::STANDARD_CAVES_DAT;

/// Plays `games` games from seed `first` and checks every claim; returns the wins.
fn check(map: &Arc<CaveMap>, first: u64, games: u64) -> u64 {
    let mut wins = 0;
    for seed in first..first + games {
        let mut game = MazeGame::new(map.clone(), seed).expect("dealt");
        let mut agent = DiscoveredMazeAgent::new(map.len());
        let mut last: Option<MazeAction> = None;
        let mut result: Option<MazeResult> = None;
        for _ in 0..2_000 {
            agent.observe_turn(last, result, &game.view());
            let pits = game.hazards().pits().to_vec();
            let wumpi = game.wumpi();
            for t in agent.tunnels() {
                let to = map.tunnel(game.player(), t.tunnel).expect("a tunnel");
                let (pit, wumpus) = (pits.contains(&to), wumpi.contains(&to));
                assert!(
                    !(t.safe && (pit || wumpus)),
                    "seed {seed}: tunnel {} called free of the pit and wumpi",
                    t.tunnel
                );
                assert!(t.pit < 1.0 || pit, "seed {seed}: a pit proven wrongly");
                assert!(
                    !t.proven_wumpus || wumpus,
                    "seed {seed}: a wumpus proven wrongly"
                );
            }
            let d = agent.decide();
            let turn = game.act(d.action);
            if d.reason.rule == Rule::Explore {
                assert!(
                    !matches!(turn.result, MazeResult::Ended(e) if e != wumpus::cave::maze::MazeEnding::Won),
                    "seed {seed}: an explore step killed: {}",
                    d.reason.text
                );
            }
            last = Some(d.action);
            result = Some(turn.result);
            if let MazeResult::Ended(e) = turn.result {
                wins += u64::from(e == wumpus::cave::maze::MazeEnding::Won);
                break;
            }
        }
    }
    wins
}

#[test]
fn the_discovered_maze_agent_never_proves_a_falsehood_on_caves_dat() {
    let map = Arc::new(parse_map(STANDARD_CAVES_DAT).expect("caves.dat"));
    let wins = check(&map, 0, 1_500);
    // It can win: a test that could not fail this way would say nothing of its play.
    assert!(wins > 100, "won {wins} of 1,500");
}

#[test]
fn the_discovered_maze_agent_stays_sound_where_every_name_repeats() {
    let mut text = String::from("20\n");
    for line in STANDARD_CAVES_DAT.lines().skip(1) {
        let numbers: Vec<&str> = line.split_whitespace().take(4).collect();
        if numbers.len() == 4 {
            text.push_str(&format!("{} Same Old Cave\n", numbers.join(" ")));
        }
    }
    let map = Arc::new(parse_map(&text).expect("a maze"));
    check(&map, 10_000, 800);
}

#[test]
fn a_hint_without_the_map_says_what_is_proven_of_each_tunnel_and_why() {
    // Seed 2 starts in a cave with a draft; tunnel 1 leads to one where nothing is sensed.
    let run = wumpus(&["play", "--rules", "maze", "--seed", "2"], "m 1\nhint\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let proofs = run
        .stdout
        .split("What your percepts prove so far:\n")
        .nth(1)
        .unwrap_or_else(|| panic!("no proofs in: {}", run.stdout));
    assert!(
        proofs.contains(
            "tunnel 2 (not yet seen): no pit (no draft here); no wumpus (nothing smelt here)"
        ),
        "{proofs}"
    );
    // The tunnel back is proven by the knowledge base from where the player stood, and where
    // it leads from the name it shows.
    assert!(
        proofs.contains(
            "tunnel 1 to The Fountainhead: no pit (you stood in The Fountainhead); no wumpus \
             (you stood in The Fountainhead)"
        ),
        "{proofs}"
    );
    assert!(
        proofs.contains("when it first showed that name, only one cave you had been in bore it"),
        "{proofs}"
    );
}

#[test]
fn the_map_known_agent_reasons_on_one_way_mazes() {
    // One-way tunnels can lead many into one cave; the blast's rules must still ground there
    // (they once refused, and the agent walked blind into the first cave). The maze is
    // `world new --rules maze --one-way --seed 111`, one of those the agents were tuned on.
    let run = wumpus(
        &[
            "solve",
            "--rules",
            "maze",
            "--map",
            "worlds/mazes/tuning/one-111.dat",
            "--map-known",
            "--worlds",
            "200",
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let summary: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let endings = &summary["totals"]["endings"];
    let won = endings["won"].as_u64().unwrap_or(0);
    assert!(won > 100, "{}", run.stdout);
    assert!(endings.get("unfinished").is_none(), "{}", run.stdout);
}
