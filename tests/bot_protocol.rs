//! The bot protocol end to end: the project's own simulator plays host to the real
//! `wumpus bot` binary over pipes, game after game, and the games must go exactly as the same
//! agent plays them in the library (same seeds, same scores). Broken host lines exit with
//! status 2 and say which line.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use wumpus::agent::cave::{CaveAgent, CaveAgentConfig};
use wumpus::cave::protocol::{host_lines, parse_bot_line};
use wumpus::cave::{self, play_game, ClassicGame, Ending, Variant};

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

#[test]
fn the_bot_plays_game_after_game_as_the_library_agent_does() {
    for text in [
        cave::STANDARD_MAP,
        include_str!("../worlds/cave-waterslide.txt"),
    ] {
        let map = Arc::new(cave::parse_map(text).unwrap());
        let played = host(&map, &[], 100..130);
        for (i, seed) in (100..130).enumerate() {
            let mut agent = CaveAgent::new(CaveAgentConfig::for_map(&map, false)).unwrap();
            let record = play_game(&map, Variant::Event, seed, &mut agent).unwrap();
            assert_eq!(
                played[i],
                (record.ending.unwrap(), record.moves),
                "seed {seed}"
            );
        }
        assert!(played.iter().any(|(e, _)| matches!(e, Ending::Won { .. })));
    }
}

#[test]
fn the_bot_given_the_map_plays_as_the_agent_that_knows_it() {
    let map = Arc::new(cave::parse_map(include_str!("../worlds/cave-risk.txt")).unwrap());
    let played = host(&map, &["--map", "worlds/cave-risk.txt"], 0..20);
    for (i, seed) in (0..20).enumerate() {
        let mut agent = CaveAgent::new(CaveAgentConfig::for_map(&map, true)).unwrap();
        let record = play_game(&map, Variant::Event, seed, &mut agent).unwrap();
        assert_eq!(
            played[i],
            (record.ending.unwrap(), record.moves),
            "seed {seed}"
        );
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
    // aborted (out of memory), and a few hundred rooms took minutes a decision.
    for (game, says) in [
        ("game 18446744073709551615", "1 to 100000 rooms"),
        ("game 100001", "1 to 100000 rooms"),
        ("game 100000", "up to 100 rooms"),
        ("game 500", "up to 100 rooms"),
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
    let (code, _, err) = run_bot(&["--rules", "maze"], "");
    assert_eq!(code, 2);
    assert!(err.contains("classic cave"), "{err}");
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
