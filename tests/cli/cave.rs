//! End-to-end tests of the cave rule sets through the real binary: commands are piped into
//! `wumpus play --rules cave|maze`, `wumpus solve` and `wumpus world`, and the output is checked.
//!
//! Where a course depends on chance, the test finds a seed whose course it knows by playing the
//! same layout through the library first, then checks the binary follows it from that seed.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use wumpus::cave::{
    self, Action, ArrowPath, CaveMap, ClassicGame, ClassicHazards, Ending, Event, LossCause,
    Variant,
};
use wumpus::rng::seeded;
use wumpus::topology::Place;

/// The output of one run of the binary.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    fn lines(&self) -> Vec<&str> {
        self.stdout.lines().collect()
    }
}

/// Runs `wumpus ARGS` in the crate's folder with `input` on standard input.
fn wumpus(args: &[&str], input: &str) -> Run {
    wumpus_in(Path::new(env!("CARGO_MANIFEST_DIR")), args, input)
}

fn wumpus_in(dir: &Path, args: &[&str], input: &str) -> Run {
    let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_wumpus"))
        .current_dir(dir)
        .args(args)
        .write_stdin(input)
        .output()
        .expect("the binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).unwrap(),
        stderr: String::from_utf8(out.stderr).unwrap(),
    }
}

/// Writes `text` to a file in `dir` and returns its path as a string.
fn file(dir: &tempfile::TempDir, name: &str, text: &str) -> String {
    let path: PathBuf = dir.path().join(name);
    std::fs::write(&path, text).unwrap();
    path.to_string_lossy().into_owned()
}

fn standard() -> Arc<CaveMap> {
    Arc::new(cave::parse_map(cave::STANDARD_MAP).unwrap())
}

/// Room `n` of an event map (1-based).
fn r(n: usize) -> Place {
    Place::new(n - 1)
}

/// Two caves that never meet: rooms 1–3 (each joined to the others and to itself) and rooms
/// 4–9, where the hazards live.
const TWO_CAVES: &str = "1\n9\n1 2 3 1\n2 1 3 2\n3 1 2 3\n\
    4 5 9 6\n5 4 6 7\n6 5 7 4\n7 6 8 5\n8 7 9 9\n9 8 4 8\n";

/// The first seed under which `play` on this layout goes as `wanted` says.
fn find_seed(
    hazards: &ClassicHazards,
    variant: Variant,
    actions: &[Action],
    wanted: impl Fn(&ClassicGame, &[Event]) -> bool,
) -> u64 {
    (0..10_000)
        .find(|&seed| {
            let mut g =
                ClassicGame::with_hazards(standard(), hazards.clone(), variant, seeded(seed));
            let mut events = Vec::new();
            for a in actions {
                events.extend(g.act(a).events);
            }
            wanted(&g, &events)
        })
        .expect("some seed does it")
}

#[test]
fn a_classic_game_is_won_by_a_shot() {
    let dir = tempfile::tempdir().unwrap();
    let h = file(&dir, "h.txt", "HUNTER 1\nWUMPUS 3\nPIT 20\nBATS 19\n");
    let run = wumpus(
        &["play", "--rules", "cave", "--hazards", &h, "--seed", "1"],
        "m 2\nMOVE 10\nshoot 2 3\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines = run.lines();
    assert!(lines[1].starts_with("You are in room 1. Tunnels lead to 2, 5, 8."));
    assert!(run
        .stdout
        .contains("You are in room 2. Tunnels lead to 1, 3, 10.\nI smell a wumpus!"));
    assert!(run.stdout.contains("Moves: 2 of 100."));
    assert!(run
        .stdout
        .contains("AHA! You got the wumpus!\nYou win!\nScore: 98\n"));
    assert_eq!(lines.last(), Some(&"Score: 98"));
}

#[test]
fn not_an_exit_and_bad_input_are_refused_without_counting() {
    let dir = tempfile::tempdir().unwrap();
    let h = file(&dir, "h.txt", "HUNTER 1\nWUMPUS 20\n");
    let run = wumpus(
        &["play", "--rules", "cave", "--hazards", &h, "--seed", "1"],
        "m 3\nm 21\nm\nfly 2\nt 2\ns 2 1\ns 1 2 3 4 5 6\nm 2\n",
    );
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("BONK! That's not a possible move"));
    assert!(run
        .stdout
        .contains("Invalid command: there is no room 21: rooms are numbered 1 to 20."));
    assert!(run
        .stdout
        .contains("Invalid command: move needs one room number"));
    assert!(run
        .stdout
        .contains("Invalid command: 'fly' is not a command"));
    assert!(run.stdout.contains("'t' is not a command here"));
    assert!(run
        .stdout
        .contains("Arrows aren't that crooked - try another room."));
    assert!(run.stdout.contains("at most 5 rooms, not 6"));
    // The one real move is the first counted.
    assert!(run
        .stdout
        .contains("You are in room 2. Tunnels lead to 1, 3, 10.\nArrows: 5. Moves: 1 of 100."));
    assert!(run
        .stdout
        .ends_with("End of input: the game is left unfinished after 1 move.\n"));
}

#[test]
fn bats_drop_the_hunter_into_a_pit() {
    let map = standard();
    let h = ClassicHazards::new(&map, r(1), r(20), &[r(10), r(15)], &[r(2)]).unwrap();
    let seed = find_seed(&h, Variant::Event, &[Action::Move(r(2))], |g, events| {
        g.ending() == Some(Ending::Lost(LossCause::Pit)) && events[0] == Event::Snatched
    });
    let dir = tempfile::tempdir().unwrap();
    let hf = file(
        &dir,
        "h.txt",
        "HUNTER 1\nWUMPUS 20\nPIT 10\nPIT 15\nBATS 2\n",
    );
    let run = wumpus(
        &[
            "play",
            "--rules",
            "cave",
            "--hazards",
            &hf,
            "--seed",
            &seed.to_string(),
        ],
        "m 2\n",
    );
    assert_eq!(run.code, 0);
    assert!(
        run.stdout.contains(
            "ZAP -- Super Bat snatch! Elsewhereville for you!\n\
             YYYIIIIEEEE . . . Fell in a pit.\nYou lose (a pit).\nScore: 0\n"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn an_arrow_swerves_into_the_hunter() {
    let map = standard();
    let h = ClassicHazards::new(&map, r(1), r(20), &[], &[]).unwrap();
    let path = Action::Shoot(ArrowPath::new(vec![r(2), r(4)]).unwrap());
    let seed = find_seed(&h, Variant::Event, &[path], |g, _| {
        g.ending() == Some(Ending::Lost(LossCause::OwnArrow))
    });
    let dir = tempfile::tempdir().unwrap();
    let hf = file(&dir, "h.txt", "HUNTER 1\nWUMPUS 20\n");
    let run = wumpus(
        &[
            "play",
            "--rules",
            "cave",
            "--hazards",
            &hf,
            "--seed",
            &seed.to_string(),
        ],
        "s 2 4\n",
    );
    assert!(run
        .stdout
        .ends_with("LOOK OUT! Thunk! You shot yourself.\nYou lose (your own arrow).\nScore: 0\n"));
}

#[test]
fn yob_variant_wakes_the_bumped_wumpus() {
    let map = standard();
    let h = ClassicHazards::new(&map, r(1), r(2), &[], &[]).unwrap();
    let walk = [Action::Move(r(2))];
    let survives = find_seed(&h, Variant::Yob, &walk, |g, _| g.ending().is_none());
    let eaten = find_seed(&h, Variant::Yob, &walk, |g, _| g.ending().is_some());
    let dir = tempfile::tempdir().unwrap();
    let hf = file(&dir, "h.txt", "HUNTER 1\nWUMPUS 2\n");
    let play = |variant: &str, seed: u64| {
        wumpus(
            &[
                "play",
                "--rules",
                "cave",
                "--variant",
                variant,
                "--hazards",
                &hf,
                "--seed",
                &seed.to_string(),
            ],
            "m 2\n",
        )
    };
    let run = play("yob", survives);
    assert!(run
        .stdout
        .contains("... OOPS! Bumped a wumpus!\nYou are in room 2."));
    let run = play("yob", eaten);
    assert!(run
        .stdout
        .contains("... OOPS! Bumped a wumpus!\nTSK TSK TSK - Wumpus got you!\n"));
    // The event host's rules: walking in is always death.
    let run = play("event", survives);
    assert!(run
        .stdout
        .contains("TSK TSK TSK - Wumpus got you!\nYou lose (the wumpus).\nScore: 0"));
}

#[test]
fn a_room_with_a_tunnel_to_itself() {
    // The classic rules on caves.dat: cave 15's first tunnel leads back to 15.
    let dir = tempfile::tempdir().unwrap();
    let hf = file(&dir, "h.txt", "HUNTER 15\nWUMPUS 2\nPIT 9\n");
    let run = wumpus(
        &[
            "play",
            "--rules",
            "cave",
            "--map",
            "worlds/caves.dat",
            "--hazards",
            &hf,
            "--seed",
            "0",
        ],
        "m 15\ns 15\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let status = "You are in room 15 (The Lost Caverns of the Wyrm). Tunnels lead to 15, 16, 19.";
    let seen = "You can also see (but cannot get to) 14.";
    assert!(
        run.stdout
            .contains(&format!("{status}\n{seen}\nArrows: 5. Moves: 1 of 100.")),
        "{}",
        run.stdout
    );
    assert!(run
        .stdout
        .ends_with("LOOK OUT! Thunk! You shot yourself.\nYou lose (your own arrow).\nScore: 0\n"));
}

#[test]
fn the_100th_move_and_the_fifth_miss() {
    let dir = tempfile::tempdir().unwrap();
    let map = file(&dir, "two.txt", TWO_CAVES);
    let hf = file(&dir, "h.txt", "HUNTER 1\nWUMPUS 9\nPIT 8\nBATS 5\n");
    let mut moves = String::new();
    for i in 1..100 {
        moves.push_str(if i % 2 == 1 { "m 2\n" } else { "m 3\n" });
    }
    moves.push_str("m 1\n");
    let run = wumpus(
        &["play", "--rules", "cave", "--map", &map, "--hazards", &hf],
        &moves,
    );
    assert!(run.stdout.contains("Moves: 99 of 100."));
    assert!(run
        .stdout
        .ends_with("OOF! You collapse from exhaustion.\nYou lose (exhaustion).\nScore: 0\n"));
    let run = wumpus(
        &[
            "play",
            "--rules",
            "cave",
            "--map",
            &map,
            "--hazards",
            &hf,
            "--seed",
            "5",
        ],
        "s 2\ns 3\ns 2\ns 3\ns 2\n",
    );
    assert!(run.stdout.contains("Arrows: 1. Moves: 0 of 100."));
    assert!(run.stdout.ends_with(
        "WHIZZ! Oh no! Out of arrows. At night the ice weasels come for you...\nYou lose (out of arrows).\nScore: 0\n"
    ));
}

#[test]
fn save_and_load_a_classic_games_hazards() {
    let dir = tempfile::tempdir().unwrap();
    let saved = dir.path().join("saved.txt").to_string_lossy().into_owned();
    let run = wumpus(
        &["play", "--rules", "cave", "--seed", "11"],
        &format!("save {saved}\nquit\n"),
    );
    assert!(run
        .stdout
        .contains(&format!("Saved this game's hazards to {saved}.")));
    assert!(run
        .stdout
        .ends_with("You leave the game unfinished after 0 moves.\n"));
    let first_status = |run: &Run| run.lines()[1].to_string();
    let replay = wumpus(
        &[
            "play",
            "--rules",
            "cave",
            "--hazards",
            &saved,
            "--seed",
            "11",
        ],
        "",
    );
    assert_eq!(first_status(&replay), first_status(&run));
    let loaded = wumpus(
        &["play", "--rules", "cave", "--seed", "12"],
        &format!("load {saved}\n"),
    );
    let after = loaded
        .stdout
        .split(&format!("Loaded {saved}: a new game begins ("))
        .nth(1)
        .unwrap_or_else(|| panic!("{}", loaded.stdout));
    assert_eq!(after.lines().nth(1), Some(first_status(&run).as_str()));
    let bad = wumpus(&["play", "--rules", "cave"], "load /no/such/file.txt\n");
    assert!(bad
        .stdout
        .contains("Cannot load: /no/such/file.txt: no such file"));
    assert_eq!(bad.code, 0);
}

#[test]
fn the_maze_plays_the_seeds_sample_game() {
    // Seed 000's sample: a wumpus in cave 16, startled by the grenade tossed back into the
    // player's own cave, runs into it (16's other caves hold the pit and a second wumpus).
    let dir = tempfile::tempdir().unwrap();
    let hf = file(
        &dir,
        "h.txt",
        "PLAYER 0\nWUMPUS 16\nWUMPUS 19\nPIT 17\nBATS 7\n",
    );
    let run = wumpus(
        &["play", "--rules", "maze", "--hazards", &hf],
        "m 2\nm 3\nm 3\nt 1\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let sample = "\
You are currently in The Fountainhead
     (1) unknown
     (2) unknown
     (3) unknown
You are currently in The Silver Mirror
     (1) The Fountainhead
     (2) unknown
     (3) unknown
You are currently in Shelob's Lair
     (1) The Silver Mirror
     (2) unknown
     (3) unknown
You are currently in The Lost Caverns of the Wyrm
     (1) unknown
     (2) unknown
     (3) unknown
You smell a WUMPUS!
Missed, dagnabit!
DANGER: Any nearby wumpi are on the move.
A wumpus is coming toward you with big, gnarly teeth... CHOMP CHOMP CHOMP
GAME OVER
";
    // Piped play echoes each command after the prompt; the seed's transcript has none.
    let echoed: Vec<&str> = run
        .stdout
        .lines()
        .filter(|l| l.starts_with("What do you want to do? "))
        .collect();
    assert_eq!(
        echoed,
        [
            "What do you want to do? m 2",
            "What do you want to do? m 3",
            "What do you want to do? m 3",
            "What do you want to do? t 1"
        ]
    );
    let transcript: String = run
        .stdout
        .lines()
        .filter(|l| !l.starts_with("What do you want to do? "))
        .map(|l| format!("{l}\n"))
        .collect();
    assert!(transcript.ends_with(sample), "{}", run.stdout);
    assert!(run
        .stdout
        .contains("HUNT THE WUMPUS: Your mission is to explore the maze of caves"));
}

#[test]
fn the_lost_caverns_trap_and_the_only_way_out() {
    let dir = tempfile::tempdir().unwrap();
    let hf = file(&dir, "h.txt", "PLAYER 14\nWUMPUS 2\nPIT 6\nBATS 9\n");
    let run = wumpus(
        &["play", "--rules", "maze", "--hazards", &hf],
        "m 3\nm 2\nm 2\nm 3\nm 1\n",
    );
    let screens: Vec<&str> = run.stdout.split("You are currently in ").skip(1).collect();
    assert_eq!(screens.len(), 6);
    assert!(screens[0].starts_with("Shelob's Lair"));
    for s in &screens[1..5] {
        assert!(s.starts_with("The Lost Caverns of the Wyrm"));
        assert!(!s.contains("Shelob's Lair"), "no way back: {s}");
    }
    assert!(screens[4].contains("(2) The Lost Caverns of the Wyrm"));
    assert!(screens[5].starts_with("Ephemeron"));
}

#[test]
fn maze_refusals_and_end_of_input() {
    let run = wumpus(
        &["play", "--rules", "maze", "--seed", "4"],
        "m 4\ns 1\nt\nhelp\n",
    );
    assert_eq!(run.code, 0);
    assert!(run
        .stdout
        .contains("Invalid command: there is no tunnel 4: tunnels are numbered 1 to 3."));
    assert!(run
        .stdout
        .contains("'s' is not a command here: in the maze you toss grenades"));
    assert!(run
        .stdout
        .contains("Invalid command: toss needs one tunnel number"));
    assert!(run.stdout.contains("toss TUNNEL (t TUNNEL)"));
    assert!(run
        .stdout
        .ends_with("End of input: the game is left unfinished after 0 moves.\n"));
}

#[test]
fn built_in_maps_work_from_any_folder() {
    let dir = tempfile::tempdir().unwrap();
    for rules in ["cave", "maze"] {
        let run = wumpus_in(
            dir.path(),
            &["play", "--rules", rules, "--seed", "3"],
            "quit\n",
        );
        assert_eq!(run.code, 0, "{}", run.stderr);
        assert!(run.stdout.contains("seed 3 (replay with --seed 3)"));
    }
}

#[test]
fn bad_files_exit_2_naming_file_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let bad = file(&dir, "bad.txt", "1\n3\n1 2 3 4\n");
    for args in [
        vec!["play", "--rules", "cave", "--map", bad.as_str()],
        vec!["world", "check", bad.as_str()],
        vec!["world", "show", bad.as_str()],
    ] {
        let run = wumpus(&args, "");
        assert_eq!(run.code, 2, "{args:?}");
        assert_eq!(
            run.stderr,
            format!(
                "wumpus: {bad}:3: room 1 has a tunnel to room 4, but rooms are numbered 1 to 3\n"
            )
        );
    }
    let damaged = file(
        &dir,
        "caves.dat",
        "20\n0 1 4 9The Fountainhead\n   2 4 7The Hall of Kings\n",
    );
    let run = wumpus(&["play", "--rules", "maze", "--map", &damaged], "");
    assert_eq!(run.code, 2);
    assert!(run
        .stderr
        .contains("caves.dat:3: a room line is 'id a1 a2 a3 name', found 3 numbers"));
    let hazards = file(&dir, "h.txt", "HUNTER 1\nWUMPUS 1\n");
    let run = wumpus(&["play", "--rules", "cave", "--hazards", &hazards], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("h.txt:2: room 1 holds both the hunter and a wumpus"),
        "{}",
        run.stderr
    );
    let run = wumpus(
        &[
            "play",
            "--rules",
            "maze",
            "--world",
            "worlds/seed-example.txt",
        ],
        "",
    );
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("the option --world does not apply to the caves.dat maze (--rules maze)"),
        "{}",
        run.stderr
    );
    let run = wumpus(&["play", "--map", "worlds/caves.dat"], "");
    assert_eq!(run.code, 2);
    assert!(
        run.stderr
            .contains("the option --map does not apply to the grid Wumpus World (--rules grid)"),
        "{}",
        run.stderr
    );
}

#[test]
fn solve_reports_the_random_agent_and_matches_the_library() {
    let run = wumpus(
        &[
            "solve",
            "--rules",
            "cave",
            "--map",
            "worlds/cave-mobius.txt",
            "--agent",
            "random",
            "--worlds",
            "300",
            "--seed",
            "9",
            "--json",
        ],
        "",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    let map = Arc::new(
        cave::read_map(Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/worlds/cave-mobius.txt"
        )))
        .unwrap(),
    );
    // The oracle: a turn loop of its own, not the runner's, over the same seeds.
    let setup = wumpus::cave::ClassicSetup {
        map,
        map_name: "mobius".into(),
        variant: Variant::Event,
    };
    let (mut wins, mut score, mut pit, mut eaten) = (0u64, 0i64, 0u64, 0u64);
    for seed in 9..309 {
        use wumpus::agent::Agent;
        use wumpus::game::Session;
        let mut game = wumpus::cave::ClassicSession::deal(&setup, seed).unwrap();
        let mut agent = wumpus::agent::random::RandomAgent::new(wumpus::rng::Dice::for_game(seed));
        let mut shown = game.start();
        let mut last = None;
        while game.ending().is_none() {
            agent.observe(last.as_ref(), &shown).unwrap();
            let action = agent.decide().action;
            shown = game.act(&action);
            last = Some(action);
        }
        score += game.score().unwrap();
        match game.ending().unwrap() {
            wumpus::game::Ending::Won => wins += 1,
            wumpus::game::Ending::Pit => pit += 1,
            wumpus::game::Ending::Wumpus => eaten += 1,
            _ => {}
        }
    }
    assert_eq!(json["games"], 300);
    assert_eq!(json["wins"], wins);
    assert_eq!(json["totals"]["score_sum"], score);
    assert_eq!(json["endings"]["pit"], pit);
    assert_eq!(json["endings"]["wumpus"], eaten);
    assert!(json["games_per_second"].as_f64().unwrap() > 0.0);
    let text = wumpus(&["solve", "--rules", "cave", "--worlds", "50"], "");
    assert_eq!(text.code, 0);
    for want in [
        "games                     50 (seeds 0 to 49)",
        "mean score",
        "wins ",
        "  pit ",
        "arrows ",
        "mean moves",
        "games per second",
    ] {
        assert!(text.stdout.contains(want), "{want}: {}", text.stdout);
    }
    let none = wumpus(&["solve", "--rules", "cave", "--worlds", "0"], "");
    assert_eq!(none.code, 2);
}

#[test]
fn world_show_draws_cave_maps_with_hazards_on_request() {
    let run = wumpus(&["world", "show", "worlds/caves.dat"], "");
    assert_eq!(run.code, 0);
    assert!(run
        .stdout
        .contains("15 The Lost Caverns of the Wyrm: to 15 (itself), 16, 19; one-way in from 14"));
    assert!(!run.stdout.contains('['));
    let dir = tempfile::tempdir().unwrap();
    let hf = file(&dir, "h.txt", "HUNTER 1\nWUMPUS 7\nPIT 3\nBATS 12\n");
    let run = wumpus(
        &[
            "world",
            "show",
            "worlds/cave-standard.txt",
            "--hazards",
            &hf,
        ],
        "",
    );
    assert!(
        run.stdout.contains(" 7: to 8, 6, 17  [wumpus]"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(" 1: to 2, 5, 8  [start]"));
    let run = wumpus(
        &["world", "show", "worlds/cave-standard.txt", "--seed", "4"],
        "",
    );
    assert_eq!(run.stdout.matches("[pit]").count(), 2);
    assert_eq!(run.stdout.matches("[bats]").count(), 2);
    let run = wumpus(&["world", "check", "worlds/cave-waterslide.txt"], "");
    assert!(run.stdout.contains("ok (classic cave map, 20 rooms"));
    // Grid worlds still go to the grid.
    let run = wumpus(&["world", "show", "worlds/seed-example.txt"], "");
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("rows go north"));
}

mod typed_nonsense {
    //! Random command lines through the real binary: `play --rules cave|maze` (and the grid's
    //! `play`) answer each with a move or a reason, never a panic, and end cleanly.
    use proptest::prelude::*;

    const WORDS: &[&str] = &[
        "m",
        "move",
        "s",
        "shoot",
        "t",
        "toss",
        "hint",
        "help",
        "save",
        "load",
        "h.txt",
        "1",
        "2",
        "3",
        "4",
        "5",
        "9",
        "10",
        "18",
        "20",
        "21",
        "0",
        "-1",
        "1,2",
        ",",
        "x",
        "north",
        "fire",
        "\t",
        "é",
        "99999999999999999999999",
    ];

    fn line() -> impl Strategy<Value = Vec<u8>> {
        prop_oneof![
            8 => prop::collection::vec(prop::sample::select(WORDS), 0..6)
                .prop_map(|w| w.join(" ").into_bytes()),
            1 => prop::collection::vec(any::<u8>(), 0..12)
                .prop_map(|b| b.into_iter().filter(|&c| c != b'\n').collect()),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(32))]

        #[test]
        fn random_commands_never_break_play(
            rules in prop::sample::select(&["cave", "maze", "grid"][..]),
            seed in 0u64..1000,
            lines in prop::collection::vec(line(), 0..40),
        ) {
            let dir = tempfile::tempdir().unwrap();
            let mut input = lines.join(&b'\n');
            input.push(b'\n');
            let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_wumpus"))
                .current_dir(dir.path())
                .args(["play", "--rules", rules, "--seed", &seed.to_string()])
                .timeout(std::time::Duration::from_secs(120))
                .write_stdin(input)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&out.stderr);
            prop_assert_eq!(out.status.code(), Some(0), "{}", stderr);
            prop_assert!(stderr.is_empty(), "{}", stderr);
        }
    }
}

#[test]
fn a_line_that_is_not_utf8_is_an_invalid_command() {
    for (rules, first) in [("cave", "m 8"), ("maze", "help"), ("grid", "north")] {
        let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_wumpus"))
            .args(["play", "--rules", rules, "--seed", "1"])
            .write_stdin(
                format!("{first}\n\u{0}\n")
                    .into_bytes()
                    .into_iter()
                    .chain(*b"\xff\xfe\nquit\n")
                    .collect::<Vec<u8>>(),
            )
            .output()
            .unwrap();
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert_eq!(
            out.status.code(),
            Some(0),
            "{rules}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(stdout.contains("not UTF-8 text"), "{rules}: {stdout}");
        assert!(
            stdout.contains("You leave the game")
                || stdout.contains("GAME OVER")
                || stdout.contains("Score:"),
            "{rules}: {stdout}"
        );
    }
}

#[test]
fn world_new_deals_cave_maps_that_every_cave_command_reads() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("unseen.txt");
    let path = path.to_str().unwrap();
    let made = wumpus(
        &["world", "new", "--rules", "cave", "--seed", "3", "-o", path],
        "",
    );
    assert_eq!(made.code, 0, "{}", made.stderr);
    assert!(made.stdout.contains("20-room map, two-way tunnels, seed 3"));
    // The same seed prints the same map.
    let printed = wumpus(&["world", "new", "--rules", "cave", "--seed", "3"], "");
    assert_eq!(printed.stdout, std::fs::read_to_string(path).unwrap());
    assert!(printed.stderr.contains("seed 3"));
    let checked = wumpus(&["world", "check", path], "");
    assert!(checked
        .stdout
        .contains("20 rooms, 0 one-way tunnels, 0 tunnels to their own room"));
    let solved = wumpus(
        &["solve", "--rules", "cave", "--map", path, "--worlds", "20"],
        "",
    );
    assert_eq!(solved.code, 0, "{}", solved.stderr);
    assert!(solved.stdout.contains("games"), "{}", solved.stdout);
    // One-way maps, and the maze's format, which names its caves.
    let one_way = wumpus(
        &[
            "world",
            "new",
            "--rules",
            "maze",
            "--one-way",
            "--rooms",
            "9",
            "--seed",
            "1",
        ],
        "",
    );
    assert_eq!(one_way.code, 0, "{}", one_way.stderr);
    assert_eq!(one_way.lines()[0], "9");
    assert!(one_way.stdout.contains("Cave 8"));
    // Shapes no map can have are refused, with the reason, and status 2.
    let odd = wumpus(&["world", "new", "--rules", "cave", "--rooms", "21"], "");
    assert_eq!(odd.code, 2);
    assert!(odd.stderr.contains("even room count"), "{}", odd.stderr);
    let grid = wumpus(&["world", "new", "--one-way"], "");
    assert_eq!(grid.code, 2);
    assert!(
        grid.stderr
            .contains("the option --one-way does not apply to the grid"),
        "{}",
        grid.stderr
    );
}
