//! The cave's reasoning agent through the real binary: `solve --rules cave` (the logic agent
//! by default, `--map-known`, `--json`), `trace --rules cave` (text and JSON Lines) and `hint`
//! in `play --rules cave`. Figures are checked against the library playing the same seeds.

use std::sync::Arc;
use wumpus::agent::{AgentKind, AgentOptions, Dice, Roster};
use wumpus::cave::{self, ClassicSession, ClassicSetup, MazeSession, MazeSetup, Variant};
use wumpus::game::{RuleSet, Session};
use wumpus::run::{Batch, BatchId, Quiet, Summary};

use crate::common;
use common::wumpus;

/// The batch the library plays with the logic agent on `map_file`: what `solve` must print.
fn library(map_file: &str, known: bool, games: u64, seed: u64) -> Summary {
    let map = Arc::new(cave::read_map(std::path::Path::new(map_file)).unwrap());
    let setup = ClassicSetup {
        map,
        map_name: map_file.to_string(),
        variant: Variant::Event,
    };
    let options = AgentOptions {
        map_known: known,
        ..AgentOptions::default()
    };
    let agents = ClassicSession::prepare(AgentKind::Logic, &setup, &options).unwrap();
    let batch = Batch {
        worlds: games,
        seed,
        threads: Some(1),
        shard: None,
    };
    let id = BatchId {
        game: wumpus::game_spec::GameSpec::new(RuleSet::Cave).resolved(),
        files: None,
        player: None,
        seed,
        worlds: games,
        shard: None,
    };
    wumpus::run::solve(&setup, agents.as_ref(), &batch, id, &mut Quiet).unwrap()
}

#[test]
fn solve_defaults_to_the_logic_agent_and_matches_the_library() {
    let run = wumpus(
        &[
            "solve",
            "--rules",
            "cave",
            "--map",
            "worlds/cave-mobius.txt",
            "--worlds",
            "300",
            "--seed",
            "7",
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["game"]["agent"], "logic");
    assert_eq!(json["game"]["map_known"], false);
    let want = library("worlds/cave-mobius.txt", false, 300, 7);
    let got = &json["totals"];
    assert_eq!(got["score_sum"], want.totals.score_sum);
    assert_eq!(json["wins"], want.wins);
    assert_eq!(
        json["endings"],
        serde_json::to_value(&want.endings).unwrap()
    );
    assert_eq!(got["moves_sum"], want.totals.moves_sum);
    // Far better than the random player's 26 points.
    let mean = want.mean_score.unwrap();
    assert!(mean > 55.0, "{mean}");
}

#[test]
fn solve_with_the_map_known_prints_the_table() {
    let run = wumpus(
        &[
            "solve",
            "--rules",
            "cave",
            "--map-known",
            "--worlds",
            "200",
            "--seed",
            "3",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let want = library("worlds/cave-standard.txt", true, 200, 3);
    assert!(
        run.stdout.contains("map known), agent logic"),
        "{}",
        run.stdout
    );
    let mean = want.mean_score.unwrap();
    assert!(
        run.stdout
            .contains(&format!("mean score                {mean:.2} ± ")),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("\nlosses                    "));
    assert!(mean > 85.0, "{mean}");
}

#[test]
fn refusals_exit_2() {
    let run = wumpus(
        &[
            "solve",
            "--rules",
            "cave",
            "--variant",
            "yob",
            "--worlds",
            "5",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(run.stderr.contains("--agent random"), "{}", run.stderr);
    let run = wumpus(&["solve", "--map-known", "--worlds", "5"], "");
    assert_eq!(run.code, 2);
    let run = wumpus(&["play", "--map-known"], "");
    assert_eq!(run.code, 2);
    let run = wumpus(&["trace", "--map", "worlds/cave-risk.txt"], "");
    assert_eq!(run.code, 2);
    let run = wumpus(&["trace", "--rules", "cave", "--kb", "kb/cave.kb"], "");
    assert_eq!(run.code, 2);
}

#[test]
fn trace_shows_proofs_odds_and_reasons_to_the_end() {
    let run = wumpus(&["trace", "--rules", "cave", "--seed", "3"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(
        out.starts_with("Trace of Hunt the Wumpus: the classic cave"),
        "{out}"
    );
    assert!(out.contains("\nStep 1 at 19: draft, bats"), "{out}");
    assert!(out.contains("  odds: wumpus "));
    assert!(out.contains("proved 11 holds bats: snatched by bats in room 11"));
    assert!(out.contains("  why: "));
    let score: i64 = out
        .lines()
        .last()
        .unwrap()
        .strip_prefix("Score: ")
        .unwrap()
        .parse()
        .unwrap();
    // The library's game from seed 3 ends the same way.
    let map = Arc::new(cave::parse_map(cave::STANDARD_MAP).unwrap());
    let setup = ClassicSetup {
        map,
        map_name: "the standard dodecahedron".into(),
        variant: Variant::Event,
    };
    let agents =
        ClassicSession::prepare(AgentKind::Logic, &setup, &AgentOptions::default()).unwrap();
    let mut game = ClassicSession::deal(&setup, 3).unwrap();
    let mut agent = agents.make(&game.briefing(), Dice::for_game(3)).unwrap();
    let record = wumpus::run::play(&mut game, Some(3), agent.as_mut(), &|| false, None)
        .unwrap()
        .unwrap();
    assert_eq!(Some(score), record.score);
}

#[test]
fn trace_json_lines_follow_the_schema() {
    let run = wumpus(
        &[
            "trace",
            "--rules",
            "cave",
            "--seed",
            "3",
            "--json",
            "--map-known",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<serde_json::Value> = run
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines[0]["game"]["rules"], "cave");
    assert_eq!(lines[0]["game"]["map_known"], true);
    let steps = &lines[1..lines.len() - 1];
    assert!(!steps.is_empty());
    for (i, s) in steps.iter().enumerate() {
        assert_eq!(s["step"], i + 1);
        for key in [
            "at", "percepts", "exits", "arrows", "moves", "learned", "odds", "action", "rule",
            "reason",
        ] {
            assert!(!s[key].is_null(), "step {i} lacks {key}");
        }
        // The wumpus is somewhere: its odds over the open rooms and the proven one add to 1.
        let open: f64 = s["odds"]
            .as_array()
            .unwrap()
            .iter()
            .map(|o| o["wumpus"].as_f64().unwrap())
            .sum();
        let proven = s["proven_wumpus"].as_array().unwrap().len() as f64;
        assert!(
            (open + proven - 1.0).abs() < 1e-9,
            "step {i}: {open} + {proven}"
        );
    }
    let last = lines.last().unwrap();
    let outcome = last["outcome"].as_str().unwrap();
    assert!(wumpus::game::Ending::parse(outcome).is_some(), "{outcome}");
    assert!(last["hidden"]["pits"].as_array().unwrap().len() == 2);
}

#[test]
fn hint_in_play_says_what_the_agent_would_do() {
    let run = wumpus(
        &["play", "--rules", "cave", "--seed", "3"],
        "hint\nm 11\nhint\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let out = &run.stdout;
    assert!(
        out.contains("Hint: move 11 -- nothing safe is left to explore"),
        "{out}"
    );
    assert!(out.contains("pit 11 34%, 18 34%, 20 34%"), "{out}");
    // After the snatch the hint agent knows room 11 holds bats.
    assert!(out.contains("proven pits: 18; bats: 11"), "{out}");
    let run = wumpus(&["play", "--rules", "maze", "--seed", "3"], "hint\n");
    assert!(run.stdout.contains("Hint: "), "{}", run.stdout);
    assert!(run.stdout.contains("Hint: move 1 -- "), "{}", run.stdout);
}

#[test]
fn solve_and_trace_the_maze() {
    let run = wumpus(
        &[
            "solve", "--rules", "maze", "--worlds", "30", "--seed", "5", "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(json["game"]["rules"], "maze");
    let map = Arc::new(cave::parse_map(cave::STANDARD_CAVES_DAT).unwrap());
    let setup = MazeSetup {
        map,
        map_name: "the standard caves.dat".into(),
    };
    let agents = MazeSession::prepare(AgentKind::Logic, &setup, &AgentOptions::default()).unwrap();
    let mut wins = 0;
    for seed in 5..35 {
        let mut game = MazeSession::deal(&setup, seed).unwrap();
        let mut agent = agents.make(&game.briefing(), Dice::for_game(seed)).unwrap();
        let record = wumpus::run::play(&mut game, Some(seed), agent.as_mut(), &|| false, None)
            .unwrap()
            .unwrap();
        wins += u64::from(record.ending == wumpus::game::Ending::Won);
    }
    assert_eq!(json["wins"], wins);
    let ended: u64 = json["endings"]
        .as_object()
        .unwrap()
        .values()
        .map(|v| v.as_u64().unwrap())
        .sum();
    assert_eq!(ended, 30);
    let run = wumpus(&["trace", "--rules", "maze", "--seed", "3"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run
        .stdout
        .contains("\nStep 1 at The Lost Caverns of the Wyrm"));
    // Without the map the agent cannot say which cave it may be in; given it, it can.
    assert!(!run.stdout.contains("  where am I: "), "{}", run.stdout);
    let known = wumpus(
        &["trace", "--rules", "maze", "--seed", "3", "--map-known"],
        "",
    );
    assert!(known.stdout.contains("  where am I: "), "{}", known.stdout);
    assert!(run.stdout.contains("  tunnels 1 to "));
    assert!(run.stdout.contains("\nOutcome: "), "{}", run.stdout);
    let run = wumpus(&["trace", "--rules", "maze", "--seed", "3", "--json"], "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    for line in run.stdout.lines() {
        let _: serde_json::Value = serde_json::from_str(line).unwrap();
    }
    let run = wumpus(&["solve", "--rules", "maze", "--agent", "random"], "");
    assert_eq!(run.code, 2);
}

/// The maze's hints and reasons name a cave only once the player has been shown it: the cave
/// stood in, or where a tunnel leads after walking it.
#[test]
fn maze_reasons_name_only_caves_the_player_was_shown() {
    let map = cave::parse_map(cave::STANDARD_CAVES_DAT).unwrap();
    let names: Vec<String> = (0..map.len())
        .map(|i| map.name(wumpus::topology::Place::new(i)))
        .collect();
    let base = |label: &str| label.split(" (cave ").next().unwrap().to_string();
    let mut checked = 0;
    for seed in 0..12u64 {
        let run = wumpus(
            &[
                "trace",
                "--rules",
                "maze",
                "--seed",
                &seed.to_string(),
                "--json",
            ],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let mut shown: Vec<String> = Vec::new();
        for line in run.stdout.lines() {
            let e: serde_json::Value = serde_json::from_str(line).unwrap();
            if e.get("step").is_none() {
                continue;
            }
            // Where the player stands is shown by name (the most likely cave when several
            // share it: they share the name), and so is every tunnel's end once walked.
            if let Some(at) = e["at"].as_str() {
                shown.push(base(at));
            }
            for exit in e["exits"].as_array().unwrap() {
                if let Some(to) = exit["to"].as_str() {
                    shown.push(base(to));
                }
            }
            let mut said = vec![e["reason"].as_str().unwrap().to_string()];
            for c in e["choices"].as_array().unwrap() {
                said.push(c["what"].as_str().unwrap().to_string());
            }
            for text in &said {
                for name in &names {
                    if text.contains(name.as_str()) {
                        assert!(
                            shown.contains(name),
                            "seed {seed} step {}: {text:?} names {name:?}, not yet shown",
                            e["step"]
                        );
                        checked += 1;
                    }
                }
            }
        }
    }
    assert!(checked > 10, "only {checked} names checked");
}

#[test]
fn the_look_ahead_with_the_map_lists_each_step_and_the_best_shot() {
    // Seed 1,000,033 on the standard map: a draft at the start, three arrows missed,
    // nothing proven safe; --depth 2 weighs each way out by what may be felt there.
    let args = [
        "trace",
        "--rules",
        "cave",
        "--map-known",
        "--seed",
        "1000033",
    ];
    let plain = wumpus(&args, "");
    assert_eq!(plain.code, 0, "{}", plain.stderr);
    assert!(
        !plain.stdout.contains("choices weighed"),
        "{}",
        plain.stdout
    );
    let deep = wumpus(&[&args[..], &["--depth", "2"]].concat(), "");
    assert_eq!(deep.code, 0, "{}", deep.stderr);
    let blocks = common::weighed(&deep.stdout);
    assert!(!blocks.is_empty(), "{}", deep.stdout);
    for (_, listed) in blocks {
        let block = listed.join("\n");
        // Each way out of the room (three tunnels) and the best shot, one of them taken.
        assert!(
            listed.iter().filter(|l| l.contains("step into")).count() >= 1,
            "{block}"
        );
        assert_eq!(
            listed.iter().filter(|l| l.starts_with("    *")).count(),
            1,
            "{block}"
        );
        assert!(listed.iter().all(|l| l.contains("expected")), "{block}");
    }
    // A batch plays with it too.
    let batch = "solve --rules cave --map-known --worlds 50 --depth 3";
    let batch = wumpus(&batch.split(' ').collect::<Vec<_>>(), "");
    assert_eq!(batch.code, 0, "{}", batch.stderr);
    assert!(batch.stdout.contains("map known"), "{}", batch.stdout);
}

#[test]
fn rollouts_weigh_the_choices_and_replay_from_the_seed() {
    // Seed 1,000,003 on the risk map: the wumpus smelt at the start; the rules shoot, and the
    // rollouts weigh that shot against walking out.
    let args = [
        "trace",
        "--rules",
        "cave",
        "--map",
        "worlds/cave-risk.txt",
        "--map-known",
        "--seed",
        "1000003",
        "--rollouts",
        "64",
    ];
    let run = wumpus(&args, "");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let blocks = common::weighed(&run.stdout);
    assert!(!blocks.is_empty(), "{}", run.stdout);
    for (header, listed) in &blocks {
        let block = listed.join("\n");
        assert!(!header.contains("steps ahead"), "{header}");
        assert!(listed.len() >= 2, "{block}");
        assert_eq!(
            listed.iter().filter(|l| l.starts_with("    *")).count(),
            1,
            "{block}"
        );
        assert!(listed.iter().all(|l| l.contains("expected")), "{block}");
    }
    assert!(run.stdout.contains("rollouts: "), "{}", run.stdout);
    // The draws are seeded by what the agent saw: the same game replays.
    assert_eq!(wumpus(&args, "").stdout, run.stdout);
    // A batch plays with them too, the same twice whatever the threads.
    let batch = "solve --rules cave --map-known --worlds 20 --rollouts 16 --json";
    let batch: Vec<&str> = batch.split(' ').collect();
    let one = wumpus(&batch, "");
    assert_eq!(one.code, 0, "{}", one.stderr);
    let threads = [&batch[..], &["--threads", "1"]].concat();
    // What the games did, without the timings.
    let played = |json: &str| -> Vec<String> {
        [
            "\"score_sum\":",
            "\"moves_sum\":",
            "\"shots_sum\":",
            "\"endings\":",
        ]
        .iter()
        .map(|key| {
            let at = json.find(key).unwrap_or_else(|| panic!("{key} in {json}"));
            json[at..].split([',', '}']).next().unwrap().to_string()
        })
        .collect()
    };
    assert_eq!(played(&wumpus(&threads, "").stdout), played(&one.stdout));
}

#[test]
fn rollouts_need_the_map_and_the_logic_agent() {
    for args in [
        "solve --rules cave --rollouts 8 --worlds 2",
        "solve --rules cave --map-known --agent random --rollouts 8 --worlds 2",
        "solve --rules grid --rollouts 8 --worlds 2",
        "solve --rules cave --map-known --rollouts 0 --worlds 2",
    ] {
        let run = wumpus(&args.split(' ').collect::<Vec<_>>(), "");
        assert_eq!(run.code, 2, "{args}: {}", run.stderr);
        assert!(run.stderr.contains("rollouts"), "{args}: {}", run.stderr);
    }
}

#[test]
fn a_step_likely_to_kill_waits_for_arrows_into_unseen_tunnels() {
    // The standard map, a draft in room 8 and in room 1: once the hunter has survived the
    // step into 1, every way on (2, 5, 7, 9) is a pit one time in two and nothing is proven
    // safe. The wumpus (room 16) is smelt nowhere, so it cannot be next door; an arrow through
    // 8 and 7 can fly on into tunnels nobody has seen. It flies before the step is taken,
    // each time while two arrows or more are left.
    let (run, steps) = trace_hazards(
        "gamble",
        "ROOMS 20\nHUNTER 8\nWUMPUS 16\nPIT 2\nPIT 7\nBATS 13\nBATS 19\n",
    );
    // The first step is the forced gamble: no arrow from the first room can go on safely.
    assert_eq!(steps[0]["rule"], "gamble", "{}", run.stdout);
    assert_eq!(steps[1]["at"], "1", "{}", run.stdout);
    let gamble_at = steps
        .iter()
        .skip(1)
        .position(|s| s["rule"] == "gamble")
        .map(|i| i + 1);
    let shots: Vec<&serde_json::Value> = steps[1..gamble_at.unwrap_or(steps.len())]
        .iter()
        .filter(|s| s["rule"] == "blind_shot")
        .collect();
    assert!(!shots.is_empty(), "{}", run.stdout);
    for shot in &shots {
        assert!(shot["arrows"].as_u64().unwrap() >= 2, "{shot}");
        assert!(
            shot["reason"].as_str().unwrap().contains("50% to die"),
            "{shot}"
        );
    }
    if let Some(i) = gamble_at {
        // The last arrow is kept: a fifth miss would lose.
        assert_eq!(steps[i]["arrows"], 1, "{}", run.stdout);
    }
}

/// `trace --json` of the classic agent on the standard map dealt by `hazards` (a hazard file's
/// text, written to a temporary directory named after `name`): the run and its steps.
fn trace_hazards(name: &str, hazards: &str) -> (common::Run, Vec<serde_json::Value>) {
    let dir = std::env::temp_dir().join(format!("wumpus-{name}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("hazards.txt");
    std::fs::write(&file, hazards).unwrap();
    let mut args: Vec<&str> = "trace --rules cave --seed 1 --json --hazards"
        .split(' ')
        .collect();
    args.push(file.to_str().unwrap());
    let run = wumpus(&args, "");
    std::fs::remove_dir_all(&dir).ok();
    assert_eq!(run.code, 0, "{}", run.stderr);
    let steps = run
        .stdout
        .lines()
        .skip(1)
        .map(|l| serde_json::from_str(l).unwrap())
        .filter(|s: &serde_json::Value| s.get("step").is_some())
        .collect();
    (run, steps)
}

#[test]
fn an_arrow_along_known_tunnels_flies_on_into_unseen_ones() {
    // The standard map: the hunter survives the step from 6 into 5, smells the wumpus there
    // (in 1 or 4, one time in two each), and steps back to 6 so that a woken wumpus cannot
    // walk in. The arrow through 5 into 1 is all the known tunnels give; past 1, which is not
    // next to the hunter, it flies on into tunnels nobody has seen instead of stopping.
    let (run, steps) = trace_hazards(
        "tail",
        "ROOMS 20\nHUNTER 6\nWUMPUS 4\nPIT 7\nPIT 12\nBATS 17\nBATS 19\n",
    );
    let shot = steps
        .iter()
        .find(|s| s["action"].as_str().is_some_and(|a| a.starts_with("shoot")))
        .expect("an arrow is shot");
    assert_eq!(shot["at"], "6", "{}", run.stdout);
    let rooms: Vec<&str> = shot["action"]
        .as_str()
        .unwrap()
        .split(' ')
        .skip(1)
        .collect();
    assert_eq!(rooms[..2], ["5", "1"], "{shot}");
    assert!(rooms.len() > 2, "the arrow stops at room 1: {shot}");
    assert!(
        shot["reason"]
            .as_str()
            .unwrap()
            .contains("flies on into tunnels not yet seen"),
        "{shot}"
    );
}

#[test]
fn a_walk_to_a_better_shooting_room_never_leads_back_to_a_room_it_left() {
    // While the map is being discovered, each step toward a better shooting room shows new
    // tunnels and moves the values; rule 3 once walked round in circles after them (in about
    // one game in five of these, such as seed 3). Since the last arrow, no walk to shoot may
    // head for a room an earlier such walk left.
    let mut walks = 0;
    for seed in 1..=100 {
        let seed = seed.to_string();
        let run = wumpus(
            &[
                "trace",
                "--rules",
                "cave",
                "--map",
                "worlds/cave-standard.txt",
                "--json",
                "--seed",
                &seed,
            ],
            "",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        let mut left: Vec<String> = Vec::new();
        for line in run.stdout.lines().skip(1) {
            let step: serde_json::Value = serde_json::from_str(line).unwrap();
            let Some(action) = step["action"].as_str() else {
                continue;
            };
            if action.starts_with("move") && step["rule"] == "best_shot" {
                let reason = step["reason"].as_str().unwrap();
                let goal = reason
                    .strip_prefix("walk to room ")
                    .and_then(|r| r.split(' ').next())
                    .unwrap_or_else(|| panic!("a walk to shoot names its room: {reason}"));
                assert!(
                    !left.iter().any(|r| r == goal),
                    "seed {seed}, step {}: back to room {goal}, left on the way to shoot: {left:?}",
                    step["step"]
                );
                left.push(step["at"].as_str().unwrap().to_string());
                walks += 1;
            } else {
                left.clear();
            }
        }
    }
    assert!(walks > 50, "only {walks} walks to shoot were seen");
}
