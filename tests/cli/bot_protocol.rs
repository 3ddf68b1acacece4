//! The bot protocol end to end: the project's own simulator plays host to the real
//! `wumpus bot` binary over pipes, game after game, and the games must go exactly as the same
//! agent plays them in the library (same seeds, same scores). Broken host lines exit with
//! status 2 and say which line, whatever the breakage (a property test mutates real streams).

use proptest::prelude::*;
use proptest::sample::Index;
use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use wumpus::agent::random::RandomAgent;
use wumpus::agent::{AgentKind, AgentOptions, Dice, Roster};
use wumpus::bot::cave::{host_lines, parse_bot_line};
use wumpus::bot::maze;
use wumpus::cave::{self, ClassicGame, Ending, MazeEnding, MazeGame, Variant};
use wumpus::cave::{ClassicSession, ClassicSetup, MazeSession, MazeSetup, MAZE_ACTION_LIMIT};
use wumpus::game::{self, Session};
use wumpus::run::play;

/// Hosts `seeds` games on `map` for a `wumpus bot` started with `args`; returns each game's
/// ending and moves.
fn host(
    map: &Arc<cave::CaveMap>,
    args: &[&str],
    seeds: std::ops::Range<u64>,
) -> Vec<(Ending, u32)> {
    let mut bot = Command::new(env!("CARGO_BIN_EXE_wumpus"))
        .arg("bot")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut to_bot = bot.stdin.take().unwrap();
    let mut from_bot = BufReader::new(bot.stdout.take().unwrap());
    let mut endings = Vec::new();
    for seed in seeds {
        let mut game = ClassicGame::new(map.clone(), Variant::Event, seed).unwrap();
        writeln!(to_bot, "game {}", map.len()).unwrap();
        writeln!(to_bot, "{}", game.status().protocol_line()).unwrap();
        loop {
            to_bot.flush().unwrap();
            let mut reply = String::new();
            assert!(
                from_bot.read_line(&mut reply).unwrap() > 0,
                "the bot answers"
            );
            let action = parse_bot_line(&reply, map.len()).expect("a well-formed action");
            let turn = game.act(&action);
            let status = game.status();
            for line in host_lines(turn.result, Some(&status)) {
                writeln!(to_bot, "{line}").unwrap();
            }
            if let Some(ending) = turn.result.ending() {
                endings.push((ending, game.moves()));
                break;
            }
        }
    }
    drop(to_bot);
    let status = bot.wait().unwrap();
    assert!(status.success(), "the bot ends cleanly at the end of input");
    endings
}

/// The same game played in the library by the classic cave's logic agent (given the map when
/// `map_known`), through the one turn loop: its ending and moves.
fn library_game(map: &Arc<cave::CaveMap>, map_known: bool, seed: u64) -> (Ending, u32) {
    let setup = ClassicSetup {
        map: map.clone(),
        map_name: "the test map".to_string(),
        variant: Variant::Event,
    };
    let options = AgentOptions {
        map_known,
        ..AgentOptions::default()
    };
    let agents = ClassicSession::prepare(AgentKind::Logic, &setup, &options).unwrap();
    let mut agent = agents
        .make(
            &ClassicSession::deal(&setup, seed).unwrap().briefing(),
            Dice::for_game(seed),
        )
        .unwrap();
    let mut session = ClassicSession::deal(&setup, seed).unwrap();
    let record = play(&mut session, Some(seed), agent.as_mut(), &|| false, None)
        .unwrap()
        .expect("a game nobody stops ends");
    assert_ne!(record.ending, game::Ending::Unfinished, "seed {seed}");
    assert_eq!(record.moves, session.game().moves());
    (
        session.game().ending().expect("the game ended"),
        record.moves,
    )
}

#[test]
fn the_bot_plays_game_after_game_as_the_library_agent_does() {
    for text in [
        cave::STANDARD_MAP,
        include_str!("../../worlds/cave-waterslide.txt"),
    ] {
        let map = Arc::new(cave::parse_map(text).unwrap());
        let played = host(&map, &[], 100..130);
        for (i, seed) in (100..130).enumerate() {
            assert_eq!(played[i], library_game(&map, false, seed), "seed {seed}");
        }
        assert!(played.iter().any(|(e, _)| matches!(e, Ending::Won { .. })));
    }
}

#[test]
fn the_bot_given_the_map_plays_as_the_agent_that_knows_it() {
    let map = Arc::new(cave::parse_map(include_str!("../../worlds/cave-risk.txt")).unwrap());
    let played = host(&map, &["--map", "worlds/cave-risk.txt"], 0..20);
    for (i, seed) in (0..20).enumerate() {
        assert_eq!(played[i], library_game(&map, true, seed), "seed {seed}");
    }
}

fn run_bot(args: &[&str], input: &str) -> (i32, String, String) {
    let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_wumpus"))
        .arg("bot")
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .write_stdin(input)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

#[test]
fn broken_host_lines_exit_2_naming_the_line() {
    let (code, out, err) = run_bot(&[], "game 20\nstatus 0 0 0 1 out 1 4 7 in 1 4 99\n");
    assert_eq!(code, 2, "{err}");
    assert!(out.is_empty());
    assert!(err.contains("line 2") && err.contains("room 99"), "{err}");
    let (code, _, err) = run_bot(&[], "status 0 0 0 0 out 1 4 7 in 1 4 7\n");
    assert_eq!(code, 2);
    assert!(err.contains("out of turn"), "{err}");
    let (code, _, err) = run_bot(&[], "hello\n");
    assert_eq!(code, 2);
    assert!(err.contains("unknown line"), "{err}");
    let (code, _, err) = run_bot(&["--map", "worlds/cave-risk.txt"], "game 12\n");
    assert_eq!(code, 2);
    assert!(err.contains("20 rooms"), "{err}");
    // Found by tests/parser_fuzz.rs: a huge room count panicked (capacity overflow) or
    // aborted (out of memory), and a few hundred rooms took minutes a decision; a cave is now
    // at most wumpus::cave::map::MAX_ROOMS rooms, the most the agents serve within a second.
    for (game, says) in [
        ("game 18446744073709551615", "1 to 30 rooms"),
        ("game 100001", "1 to 30 rooms"),
        ("game 100000", "1 to 30 rooms"),
        ("game 31", "1 to 30 rooms"),
    ] {
        let (code, out, err) = run_bot(&[], &format!("{game}\nstatus 0 0 0 0 out 1 2 3 in 1\n"));
        assert_eq!(code, 2, "{game}: {err}");
        assert!(out.is_empty(), "{game}: {out}");
        assert!(
            err.contains("line 1") && err.contains(says),
            "{game}: {err}"
        );
        assert!(!err.contains("panicked"), "{err}");
    }
    let (code, _, err) = run_bot(&["--rules", "grid"], "");
    assert_eq!(code, 2);
    assert!(err.contains("[possible values: cave, maze]"), "{err}");
    // An answer for each status; blank lines and the end of input are fine.
    let (code, out, _) = run_bot(
        &[],
        "game 20\n\nstatus 0 0 0 0 out 1 4 7 in 1 4 7\nresult moved\nstatus 1 0 0 0 out 0 2 9 in 0 2 9\n",
    );
    assert_eq!(code, 0);
    assert_eq!(out.lines().count(), 2);
    assert!(out
        .lines()
        .all(|l| l.starts_with("move ") || l.starts_with("shoot ")));
}

/// A real host stream: the project's simulator hosting three games for a random player.
fn host_stream(map: &Arc<cave::CaveMap>, first_seed: u64) -> Vec<String> {
    let mut lines = Vec::new();
    for seed in first_seed..first_seed + 3 {
        let mut game = ClassicGame::new(map.clone(), Variant::Event, seed).unwrap();
        let mut player = RandomAgent::new(wumpus::rng::Dice::for_game(seed));
        lines.push(format!("game {}", map.len()));
        lines.push(game.status().protocol_line());
        for _ in 0..40 {
            let action = player.draw(&game.status());
            let turn = game.act(&action);
            let status = game.status();
            lines.extend(host_lines(turn.result, Some(&status)));
            if turn.result.ending().is_some() {
                break;
            }
        }
    }
    lines
}

/// One edit of a host stream.
#[derive(Clone, Debug)]
enum Edit {
    Delete(Index),
    Duplicate(Index),
    Swap(Index, Index),
    /// Replace a word of a line.
    Word(Index, Index, &'static str),
    /// Insert a line of words.
    Insert(Index, Vec<&'static str>),
    /// Bytes that are not UTF-8, spliced into a line.
    Bytes(Index),
}

const WORDS: &[&str] = &[
    "game",
    "status",
    "result",
    "end",
    "out",
    "in",
    "moved",
    "snatched",
    "not_an_exit",
    "missed",
    "too_crooked",
    "won",
    "lost",
    "0",
    "1",
    "2",
    "19",
    "20",
    "99",
    "x",
    "-1",
    "",
    "\t",
    "18446744073709551616",
];

fn edit() -> impl Strategy<Value = Edit> {
    let word = prop::sample::select(WORDS);
    prop_oneof![
        any::<Index>().prop_map(Edit::Delete),
        any::<Index>().prop_map(Edit::Duplicate),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Edit::Swap(a, b)),
        (any::<Index>(), any::<Index>(), word.clone()).prop_map(|(l, w, s)| Edit::Word(l, w, s)),
        (any::<Index>(), prop::collection::vec(word, 0..10)).prop_map(|(l, w)| Edit::Insert(l, w)),
        any::<Index>().prop_map(Edit::Bytes),
    ]
}

fn apply(lines: &[String], edits: &[Edit]) -> Vec<u8> {
    let mut lines: Vec<Vec<u8>> = lines.iter().map(|l| l.as_bytes().to_vec()).collect();
    for e in edits {
        let n = lines.len().max(1);
        if lines.is_empty() {
            lines.push(Vec::new());
        }
        match e {
            Edit::Delete(i) => {
                lines.remove(i.index(n));
            }
            Edit::Duplicate(i) => {
                let l = lines[i.index(n)].clone();
                lines.insert(i.index(n), l);
            }
            Edit::Swap(a, b) => lines.swap(a.index(n), b.index(n)),
            Edit::Word(l, w, s) => {
                let line = String::from_utf8_lossy(&lines[l.index(n)]).into_owned();
                let mut words: Vec<&str> = line.split(' ').collect();
                let at = w.index(words.len());
                words[at] = s;
                lines[l.index(n)] = words.join(" ").into_bytes();
            }
            Edit::Insert(l, words) => lines.insert(l.index(n + 1), words.join(" ").into_bytes()),
            Edit::Bytes(l) => lines[l.index(n)].extend_from_slice(&[0xff, 0xfe, b' ', 0xc3]),
        }
    }
    let mut out = lines.join(&b'\n');
    out.push(b'\n');
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Broken host streams through the real binary: the bot answers every status it can with an
    /// action, and at a line that breaks the protocol stops with status 2, nothing more on
    /// standard output, and `wumpus: line N: what is wrong` on standard error. Never a panic.
    #[test]
    fn broken_host_streams_through_the_binary(
        first_seed in 0u64..1000,
        known in any::<bool>(),
        edits in prop::collection::vec(edit(), 1..5),
    ) {
        let map = Arc::new(cave::parse_map(cave::STANDARD_MAP).unwrap());
        let input = apply(&host_stream(&map, first_seed), &edits);
        let args: &[&str] = if known { &["--map", "worlds/cave-standard.txt"] } else { &[] };
        let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_wumpus"))
            .arg("bot")
            .args(args)
            .current_dir(env!("CARGO_MANIFEST_DIR"))
            .timeout(std::time::Duration::from_secs(120))
            .write_stdin(input.clone())
            .output()
            .unwrap();
        let stdout = String::from_utf8(out.stdout).unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
        let shown = String::from_utf8_lossy(&input).into_owned();
        prop_assert!(!stderr.contains("panicked"), "{}\n{}", stderr, shown);
        prop_assert!(
            stdout.lines().all(|l| l.starts_with("move ") || l.starts_with("shoot ")),
            "{}", stdout
        );
        match out.status.code() {
            Some(0) => prop_assert!(stderr.is_empty(), "{}", stderr),
            Some(2) => {
                let lines = input.split(|&b| b == b'\n').count();
                let n: usize = stderr
                    .strip_prefix("wumpus: line ")
                    .and_then(|rest| rest.split(':').next())
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| panic!("no line number in {stderr:?}"));
                prop_assert!((1..=lines).contains(&n), "{}", stderr);
                prop_assert_eq!(stderr.lines().count(), 1, "{}", stderr);
            }
            other => prop_assert!(false, "exit {:?}: {}\n{}", other, stderr, shown),
        }
    }
}

#[test]
fn text_that_is_not_utf8_is_a_bad_line() {
    let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_wumpus"))
        .arg("bot")
        .write_stdin(&b"game 20\nstatus 0 0 0 0 out 1 4 7 in 1 4 7\nresult \xffmoved\n"[..])
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("line 3: not UTF-8"), "{err}");
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 1);
}

// ---------------------------------------------------------------------------------------
// The maze

/// Hosts `seeds` maze games on `map` for a `wumpus bot --rules maze` started with `args`;
/// returns each game's ending (`None`: stopped after [`MAZE_ACTION_LIMIT`] actions, as the
/// library stops it), moves and grenades.
fn host_maze(
    map: &Arc<cave::CaveMap>,
    args: &[&str],
    seeds: std::ops::Range<u64>,
) -> Vec<(Option<MazeEnding>, u32, u32)> {
    let mut bot = Command::new(env!("CARGO_BIN_EXE_wumpus"))
        .args(["bot", "--rules", "maze"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .expect("the binary runs");
    let mut to_bot = bot.stdin.take().unwrap();
    let mut from_bot = BufReader::new(bot.stdout.take().unwrap());
    let mut endings = Vec::new();
    for seed in seeds {
        let mut game = MazeGame::new(map.clone(), seed).unwrap();
        writeln!(to_bot, "maze {}", map.len()).unwrap();
        let status = maze::MazeStatus::of_view(map, &game.view()).unwrap();
        writeln!(to_bot, "{}", status.protocol_line()).unwrap();
        let mut actions = 0;
        while game.ending().is_none() && actions < MAZE_ACTION_LIMIT {
            to_bot.flush().unwrap();
            let mut reply = String::new();
            assert!(
                from_bot.read_line(&mut reply).unwrap() > 0,
                "the bot answers"
            );
            let action = maze::parse_bot_line(&reply).expect("a well-formed action");
            let turn = game.act(action);
            actions += 1;
            for line in maze::host_lines(map, turn.result, &game.view()) {
                writeln!(to_bot, "{line}").unwrap();
            }
        }
        if game.ending().is_none() {
            // The library stops such a game; the next game line begins a fresh one, but the
            // bot has a status to answer first.
            let mut reply = String::new();
            to_bot.flush().unwrap();
            assert!(from_bot.read_line(&mut reply).unwrap() > 0);
        }
        endings.push((game.ending(), game.moves(), game.tosses()));
    }
    drop(to_bot);
    let status = bot.wait().unwrap();
    assert!(status.success(), "the bot ends cleanly at the end of input");
    endings
}

/// The same games played by the library's own maze agent, through the one turn loop.
fn library_maze(
    map: &Arc<cave::CaveMap>,
    seeds: std::ops::Range<u64>,
) -> Vec<(Option<MazeEnding>, u32, u32)> {
    let setup = MazeSetup {
        map: map.clone(),
        map_name: "the test maze".to_string(),
    };
    // The maze bot plays the agent given the map (the host numbers caves).
    let options = AgentOptions {
        map_known: true,
        ..AgentOptions::default()
    };
    let agents = MazeSession::prepare(AgentKind::Logic, &setup, &options).unwrap();
    seeds
        .map(|seed| {
            let mut session = MazeSession::deal(&setup, seed).unwrap();
            assert_eq!(session.action_limit(), MAZE_ACTION_LIMIT);
            let mut agent = agents
                .make(&session.briefing(), Dice::for_game(seed))
                .unwrap();
            let r = play(&mut session, Some(seed), agent.as_mut(), &|| false, None)
                .unwrap()
                .expect("a game nobody stops ends");
            let g = session.game();
            assert_eq!(r.ending == game::Ending::Unfinished, g.ending().is_none());
            assert_eq!((r.moves, r.shots), (g.moves(), g.tosses()));
            (g.ending(), g.moves(), g.tosses())
        })
        .collect()
}

#[test]
fn the_maze_bot_plays_game_after_game_as_the_library_agent_does() {
    let map = Arc::new(cave::parse_map(cave::STANDARD_CAVES_DAT).unwrap());
    let played = host_maze(&map, &[], 0..40);
    let library = library_maze(&map, 0..40);
    for (seed, (p, l)) in played.iter().zip(&library).enumerate() {
        assert_eq!(p, l, "seed {seed}");
    }
    assert!(
        played.iter().all(|(e, _, _)| e.is_some()),
        "every game ends"
    );
    assert!(played.iter().any(|(e, _, _)| *e == Some(MazeEnding::Won)));
    assert!(played
        .iter()
        .any(|(e, _, _)| matches!(e, Some(MazeEnding::Lost(_)))));
}

#[test]
fn the_maze_bot_plays_on_the_map_it_is_given() {
    // A maze of the same shape with other names: two caves share the Fountainhead's name, so
    // the bot must read the numbers as this map's names, not the standard ones.
    let text = cave::STANDARD_CAVES_DAT
        .replace("The Rumpus Room", "The Fountainhead")
        .replace("Ess four", "Ess Five");
    let path = std::env::temp_dir().join(format!("wumpus-bot-maze-{}.dat", std::process::id()));
    std::fs::write(&path, &text).unwrap();
    let map = Arc::new(cave::parse_map(&text).unwrap());
    let played = host_maze(&map, &["--map", path.to_str().unwrap()], 100..115);
    std::fs::remove_file(&path).unwrap();
    assert_eq!(played, library_maze(&map, 100..115));
}

fn run_maze_bot(args: &[&str], input: &[u8]) -> (i32, String, String) {
    let out = assert_cmd::Command::new(env!("CARGO_BIN_EXE_wumpus"))
        .args(["bot", "--rules", "maze"])
        .args(args)
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .write_stdin(input)
        .output()
        .unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn broken_maze_host_lines_exit_2_naming_the_line() {
    let start = "maze 20\nstatus 0 0 0 0 tunnels ? ? ?\n";
    for (input, line, says) in [
        (
            "maze 21\n".to_string(),
            1,
            "the map has 20 caves, the game 21",
        ),
        ("maze 0\n".to_string(), 1, "1 to 30 caves"),
        (
            "game 20\n".to_string(),
            1,
            "expected maze, status, result or end",
        ),
        (
            "status 0 0 0 0 tunnels ? ? ?\n".to_string(),
            1,
            "out of turn",
        ),
        (
            "maze 20\nstatus 20 0 0 0 tunnels ? ? ?\n".to_string(),
            2,
            "cave 20 is not in a maze of 20 caves",
        ),
        (
            "maze 20\nstatus 0 0 0 0 tunnels ? ?\n".to_string(),
            2,
            "expected 3 tunnels",
        ),
        (
            "maze 20\nstatus 0 0 0 0 out 1 2 3 in 1\n".to_string(),
            2,
            "'tunnels'",
        ),
        (
            "maze 20\nstatus 0 0 x 0 tunnels ? ? ?\n".to_string(),
            2,
            "not 0 or 1",
        ),
        (
            format!("{start}result killed\n"),
            3,
            "'result killed' does not answer 'move",
        ),
        (
            format!("{start}result snatched\n"),
            3,
            "unknown result 'snatched'",
        ),
        (
            format!("{start}status 0 0 0 0 tunnels ? ? ?\n"),
            3,
            "out of turn",
        ),
        (
            format!("{start}result moved\nresult moved\n"),
            4,
            "out of turn",
        ),
        (format!("{start}end lost 0\n"), 3, "unknown loss '0'"),
        (format!("{start}end won\nend won\n"), 4, "out of turn"),
    ] {
        let (code, _, err) = run_maze_bot(&[], input.as_bytes());
        assert_eq!(code, 2, "{input}: {err}");
        assert!(
            err.starts_with(&format!("wumpus: line {line}: ")) && err.contains(says),
            "{input}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
    let (code, out, err) = run_maze_bot(
        &[],
        b"maze 20\nstatus 0 0 0 0 tunnels ? ? ?\nresult \xffmoved\n",
    );
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("line 3: not UTF-8"), "{err}");
    assert_eq!(out.lines().count(), 1);
    // A map the agent cannot play, or no map at all, is refused before any line.
    let (code, _, err) = run_maze_bot(&["--map", "worlds/no-such-map.dat"], b"");
    assert_eq!(code, 2, "{err}");
    // Blank lines, \r\n, and a game left unfinished at the end of input are fine.
    let (code, out, err) = run_maze_bot(
        &[],
        b"maze 20\r\n\nstatus 0 0 0 0 tunnels ? ? ?\r\nresult moved\nstatus 1 0 0 0 tunnels 0 ? ?\n",
    );
    assert_eq!(code, 0, "{err}");
    assert_eq!(out.lines().count(), 2);
    assert!(
        out.lines().all(|l| maze::parse_bot_line(l).is_ok()),
        "{out}"
    );
}

/// The maze bot plays the agent given the map (the host numbers caves): a maze too large for
/// that agent is refused before any line is read, with status 2.
#[test]
fn the_maze_bot_refuses_a_map_its_agent_cannot_hold() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("big.dat");
    let n = 25;
    let mut text = format!("{n}\n");
    for i in 0..n {
        text.push_str(&format!(
            "{i} {} {} {} Cave {i}\n",
            (i + 1) % n,
            (i + n - 1) % n,
            (i + 5) % n
        ));
    }
    std::fs::write(&file, text).unwrap();
    let out = Command::new(env!("CARGO_BIN_EXE_wumpus"))
        .args(["bot", "--rules", "maze", "--map"])
        .arg(&file)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let said = String::from_utf8_lossy(&out.stderr);
    assert!(said.contains("24 caves"), "{said}");
}
