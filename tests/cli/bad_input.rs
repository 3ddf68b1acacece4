//! Bad input through the real binary: pathological rule and world files end with status 2 and
//! `file:line: reason`, never with an abort, a panic or a hang. (The parsers themselves are
//! fuzzed in `tests/parser_fuzz.rs`.)

use assert_cmd::Command;
use predicates::prelude::*;
use std::path::{Path, PathBuf};

fn wumpus() -> Command {
    let mut cmd = Command::cargo_bin("wumpus").unwrap();
    cmd.timeout(std::time::Duration::from_secs(60));
    cmd
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    path
}

/// The rest of the built-in grid rules, after the first line of a test file.
const GRID_TAIL: &str = "hidden wumpus(X).\n\
    percept breeze(X) <-> any N in adj(X): pit(N).\n\
    percept stench(X) <-> wumpus(X) | any N in adj(X): wumpus(N).\n\
    percept visited(X) -> not pit(X).\n\
    percept unharmed(X) -> not wumpus(X).\n\
    percept missed(X) -> not wumpus(X).\n";

#[test]
fn deeply_nested_rules_are_refused_with_their_line() {
    let dir = tempfile::tempdir().unwrap();
    let nots = write(
        dir.path(),
        "nots.kb",
        &format!(
            "hidden pit(X).\n{GRID_TAIL}{}pit(start).\n",
            "not ".repeat(100_000)
        ),
    );
    let parens = write(
        dir.path(),
        "parens.kb",
        &format!(
            "hidden pit(X).\n{GRID_TAIL}{}pit(start){}.\n",
            "(".repeat(100_000),
            ")".repeat(100_000)
        ),
    );
    for file in [&nots, &parens] {
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        for args in [
            &["solve", "--worlds", "2"][..],
            &["trace", "--seed", "1"][..],
            &["play", "--seed", "1"][..],
        ] {
            wumpus()
                .args(args)
                .arg("--kb")
                .arg(file)
                .write_stdin("")
                .assert()
                .code(2)
                .stderr(predicate::str::contains(format!("{name}:8: ")))
                .stderr(predicate::str::contains("nests more than 64 levels"));
        }
    }
}

/// Quantifiers nested k deep expand to 4^k places on the grid: grounding is bounded before
/// anything is built, and such a rule is refused with its line, under `->` and `<->` alike.
#[test]
fn rules_whose_grounding_would_explode_are_refused_on_their_line() {
    let dir = tempfile::tempdir().unwrap();
    for (k, arrow) in [(10, "->"), (11, "<->"), (13, "->"), (40, "<->")] {
        let mut body = String::new();
        let mut centre = "X".to_string();
        for i in 1..=k {
            body.push_str(&format!("any N{i} in adj({centre}): "));
            centre = format!("N{i}");
        }
        body.push_str(&format!("pit({centre})"));
        let file = write(
            dir.path(),
            &format!("nested{k}.kb"),
            &format!("hidden pit(X).\n{GRID_TAIL}percept draught(X) {arrow} {body}.\n"),
        );
        let name = file.file_name().unwrap().to_string_lossy().to_string();
        wumpus()
            .args(["solve", "--worlds", "2", "--kb"])
            .arg(&file)
            .timeout(std::time::Duration::from_secs(20))
            .assert()
            .code(2)
            .stderr(predicate::str::contains(format!("{name}:8: ")))
            .stderr(predicate::str::contains("split it into smaller rules"));
    }
}

#[test]
fn a_long_disjunction_and_a_huge_count_end_quickly() {
    let dir = tempfile::tempdir().unwrap();
    // 200,000 terms: one clause, grounded in linear time.
    let long = write(
        dir.path(),
        "long.kb",
        &format!(
            "hidden pit(X).\n{GRID_TAIL}hidden a.\n{}not pit(start).\n",
            "a | ".repeat(200_000)
        ),
    );
    wumpus()
        .args(["solve", "--worlds", "20", "--agent", "logic", "--kb"])
        .arg(&long)
        .assert()
        .success()
        .stdout(predicate::str::contains(
            "losses                    0 (0.0%)",
        ));
    // A count no grid can meet: the rules contradict every game, which is the user's rule
    // file at fault: status 2.
    let huge = write(
        dir.path(),
        "huge.kb",
        &format!("hidden pit(X).\n{GRID_TAIL}exactly 100000000000 X: wumpus(X).\n"),
    );
    wumpus()
        .args(["solve", "--worlds", "2", "--kb"])
        .arg(&huge)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("contradict"));
}

#[test]
fn binary_garbage_is_refused_with_a_line() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("garbage.txt");
    std::fs::write(&path, b"SIZE 4 4\nWUMPUS 1 1\n\xff\xfe\x00GOLD 2 2\n").unwrap();
    wumpus()
        .args(["world", "check"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("garbage.txt:3: not valid UTF-8"));
    wumpus()
        .args(["solve", "--worlds", "1", "--kb"])
        .arg(&path)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("garbage.txt:3: not valid UTF-8"));
}

/// Runs `wumpus ARGS` on the first `bytes` bytes of `/dev/zero` (no line ends at all) and on
/// one long `status` line: each command that reads lines refuses a line over its limit with
/// status 2, naming the limit, and never holds more than the limit in memory.
#[test]
fn every_line_reader_is_bounded() {
    for args in [
        &["bot"][..],
        &["bot", "--rules", "maze"],
        &["play"],
        &["play", "--rules", "cave"],
        &["trace", "--step", "--seed", "1"],
    ] {
        let zeros = vec![0u8; 1 << 20];
        let out = wumpus().args(args).write_stdin(zeros).output().unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.contains("longer than") && err.contains("bytes"),
            "{args:?}: {err}"
        );
    }
    // One 60 MB status line to the bot is refused once it passes the limit.
    let mut line = b"game 20\nstatus 0 0 0 1 out 1 4 7 in ".to_vec();
    line.extend(std::iter::repeat_n(b'7', 60 << 20));
    let out = wumpus().arg("bot").write_stdin(line).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("line 2"));
}

#[test]
fn control_characters_from_input_are_escaped_on_the_terminal() {
    let out = wumpus()
        .args(["play", "--world", "worlds/seed-example.txt"])
        .write_stdin("\x1b]0;pwned\x07\x1b[2J\nload \x1b[31mno-such-file.txt\n")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(!text.contains('\x1b') && !text.contains('\x07'), "{text:?}");
    assert!(text.contains("\\u{1b}]0;pwned"), "{text}");
    let bot = wumpus()
        .arg("bot")
        .write_stdin("game 20\nstatus \x1b[2J\n")
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&bot.stderr);
    assert_eq!(bot.status.code(), Some(2));
    assert!(!err.contains('\x1b'), "{err:?}");
}
