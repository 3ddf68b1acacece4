//! Fuzz-style property tests, on stable Rust, for every grid-side parser of outside input:
//! grid world files (`grid::parse_world`), `play` commands (`grid::parse_command`) and `--kb`
//! rule files (`kb::rules::parse_rules`, then grounding and a short game with the rules).
//!
//! Each parser gets random bytes, random strings over its own vocabulary, and mutations of
//! valid files (lines deleted, duplicated, swapped, characters flipped, keywords and stray
//! text inserted). The properties: no panic, no hang (every call must finish within
//! [`LIMIT`]), and a typed error naming a line of the input where the format has lines.
//! Regressions found here live beside the code as ordinary tests (`kb::rules`, `kb::ground`,
//! `kb` unit tests).

use proptest::prelude::*;
use proptest::sample::Index;
use std::sync::mpsc;
use std::sync::Arc;
use std::time::Duration;
use wumpus::grid::{self, file::WorldFileErrorKind, Command};
use wumpus::kb::rules::parse_rules;
use wumpus::kb::{KnowledgeBase, Proofs};
use wumpus::run::{run_grid_game, AgentKind, GameOptions};
use wumpus::topology::Topology;

/// The longest any one parse (or a grounding and a short game) may take.
const LIMIT: Duration = Duration::from_secs(20);

/// `n` cases, or `WUMPUS_FUZZ_CASES` for a longer run (e.g. `WUMPUS_FUZZ_CASES=100000`).
fn cases(n: u32) -> ProptestConfig {
    let n = std::env::var("WUMPUS_FUZZ_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(n);
    ProptestConfig::with_cases(n)
}

/// Runs `f` on another thread and fails the test if it panics or takes longer than [`LIMIT`].
fn in_time<T: Send + 'static>(what: &str, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(LIMIT) {
        Ok(v) => v,
        Err(mpsc::RecvTimeoutError::Timeout) => panic!("{what}: no answer within {LIMIT:?}"),
        Err(mpsc::RecvTimeoutError::Disconnected) => panic!("{what}: panicked"),
    }
}

/// One edit of a text, by lines.
#[derive(Clone, Debug)]
enum Mutation {
    Delete(Index),
    Duplicate(Index),
    Swap(Index, Index),
    Flip(Index, Index, char),
    Insert(Index, String),
    /// A piece repeated many times at the start of a line (deep nesting, long chains).
    Repeat(Index, &'static str, usize),
    Truncate(Index),
}

fn mutation(
    words: &'static [&'static str],
    pieces: &'static [&'static str],
) -> impl Strategy<Value = Mutation> {
    let word = prop::sample::select(words).prop_map(str::to_string);
    let noise = prop::collection::vec(
        prop_oneof![
            prop::sample::select(words).prop_map(str::to_string),
            "[ -~]{0,4}",
            any::<char>().prop_map(String::from),
        ],
        0..6,
    )
    .prop_map(|parts| parts.join(" "));
    let flip_char = prop_oneof![
        prop::sample::select(&[' ', '#', '.', '(', ')', '-', '0', '9', 'X', 'x', '\t', '\n'][..]),
        any::<char>(),
    ];
    prop_oneof![
        any::<Index>().prop_map(Mutation::Delete),
        any::<Index>().prop_map(Mutation::Duplicate),
        (any::<Index>(), any::<Index>()).prop_map(|(a, b)| Mutation::Swap(a, b)),
        (any::<Index>(), any::<Index>(), flip_char).prop_map(|(l, c, ch)| Mutation::Flip(l, c, ch)),
        (any::<Index>(), word).prop_map(|(l, w)| Mutation::Insert(l, w)),
        (any::<Index>(), noise).prop_map(|(l, w)| Mutation::Insert(l, w)),
        any::<Index>().prop_map(Mutation::Truncate),
        (
            any::<Index>(),
            prop::sample::select(pieces),
            prop_oneof![1usize..100, 10_000usize..100_000]
        )
            .prop_map(|(l, p, n)| Mutation::Repeat(l, p, n)),
    ]
}

/// Applies `edits` to `text`, line by line.
fn mutate(text: &str, edits: &[Mutation]) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    for edit in edits {
        if lines.is_empty() {
            lines.push(String::new());
        }
        let n = lines.len();
        match edit {
            Mutation::Delete(i) => {
                lines.remove(i.index(n));
            }
            Mutation::Duplicate(i) => {
                let l = lines[i.index(n)].clone();
                lines.insert(i.index(n), l);
            }
            Mutation::Swap(a, b) => lines.swap(a.index(n), b.index(n)),
            Mutation::Flip(l, c, ch) => {
                let line = &mut lines[l.index(n)];
                let chars: Vec<char> = line.chars().collect();
                let mut chars = chars;
                if chars.is_empty() {
                    chars.push(*ch);
                } else {
                    let at = c.index(chars.len());
                    chars[at] = *ch;
                }
                *line = chars.into_iter().collect();
            }
            Mutation::Insert(l, words) => {
                // Either a line of its own or spliced into a line at a word boundary.
                let at = l.index(n + 1);
                if at == n || words.len() % 2 == 0 {
                    lines.insert(at.min(n), words.clone());
                } else {
                    let line = &mut lines[at];
                    let cut = line
                        .char_indices()
                        .map(|(i, _)| i)
                        .nth(words.len() % (line.chars().count() + 1))
                        .unwrap_or(line.len());
                    line.insert_str(cut, &format!(" {words} "));
                }
            }
            Mutation::Repeat(l, piece, times) => {
                let line = &mut lines[l.index(n)];
                line.insert_str(0, &piece.repeat(*times));
            }
            Mutation::Truncate(i) => {
                let cut = i.index(n + 1);
                lines.truncate(cut.max(1));
            }
        }
    }
    let mut out = lines.join("\n");
    out.push('\n');
    out
}

/// Text from random bytes, as a file read with invalid UTF-8 replaced.
fn bytes_text() -> impl Strategy<Value = String> {
    prop::collection::vec(any::<u8>(), 0..400).prop_map(|b| String::from_utf8_lossy(&b).into())
}

/// Random lines over a vocabulary, with spaces and stray characters.
fn vocabulary_text(words: &'static [&'static str]) -> impl Strategy<Value = String> {
    let token = prop_oneof![
        4 => prop::sample::select(words).prop_map(str::to_string),
        1 => "[0-9]{1,3}",
        1 => "[ -~]",
        1 => any::<char>().prop_map(String::from),
    ];
    let line = prop::collection::vec(token, 0..8).prop_map(|t| t.join(" "));
    prop::collection::vec(line, 0..12).prop_map(|l| l.join("\n"))
}

fn lines_in(text: &str) -> usize {
    text.lines().count().max(1)
}

// ---------------------------------------------------------------------------------------
// Grid world files

const WORLD_FILES: [&str; 5] = [
    include_str!("../worlds/seed-example.txt"),
    include_str!("../worlds/aima-4x4.txt"),
    include_str!("../worlds/gold-in-pit.txt"),
    include_str!("../worlds/gold-with-wumpus.txt"),
    include_str!("../worlds/walled-in.txt"),
];

const WORLD_WORDS: &[&str] = &[
    "SIZE",
    "PIT",
    "WUMPUS",
    "GOLD",
    "size",
    "Pit",
    "gold",
    "#",
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "9",
    "12",
    "-1",
    "x",
    "1.5",
    "99999999999999999999999",
];

/// Parses a world file and checks the error's line; a world that parses must round-trip.
fn check_world(text: String) {
    let copy = text.clone();
    let result = in_time("parse_world", move || grid::parse_world(&copy));
    match result {
        Ok(world) => {
            let again = grid::format_world(&world);
            let reparsed = grid::parse_world(&again).expect("a formatted world parses");
            assert_eq!(grid::format_world(&reparsed), again);
        }
        Err(e) => {
            assert!(!e.to_string().is_empty());
            match e.line {
                Some(line) => assert!(
                    (1..=lines_in(&text)).contains(&line),
                    "line {line} of {} in {text:?}: {e}",
                    lines_in(&text)
                ),
                // Only a fault of the file as a whole has no line.
                None => assert!(
                    matches!(
                        e.kind,
                        WorldFileErrorKind::NoWumpus
                            | WorldFileErrorKind::NoGold
                            | WorldFileErrorKind::Layout(_)
                    ),
                    "no line for {e} in {text:?}"
                ),
            }
        }
    }
}

proptest! {
    #![proptest_config(cases(1000))]

    #[test]
    fn world_files_from_random_bytes(text in bytes_text()) {
        check_world(text);
    }

    #[test]
    fn world_files_from_random_words(text in vocabulary_text(WORLD_WORDS)) {
        check_world(text);
    }

    #[test]
    fn mutated_world_files(
        base in prop::sample::select(&WORLD_FILES[..]),
        edits in prop::collection::vec(mutation(WORLD_WORDS, WORLD_PIECES), 1..6),
    ) {
        check_world(mutate(base, &edits));
    }
}

// ---------------------------------------------------------------------------------------
// Play commands

const COMMAND_WORDS: &[&str] = &[
    "north",
    "south",
    "east",
    "west",
    "n",
    "s",
    "e",
    "w",
    "N",
    "S",
    "grab",
    "G",
    "climb",
    "c",
    "fire",
    "F",
    "Fire",
    "hint",
    "help",
    "quit",
    "load",
    "save",
    "world.txt",
    "norbert",
    "  ",
    "\t",
    "é",
    "\u{0}",
];

fn check_command(line: String) {
    let copy = line.clone();
    match in_time("parse_command", move || grid::parse_command(&copy)) {
        Ok(Command::Load(file)) | Ok(Command::Save(file)) => {
            assert!(
                !file.is_empty() && file == file.trim(),
                "{line:?} -> {file:?}"
            )
        }
        Ok(_) => {}
        Err(e) => assert!(!e.to_string().is_empty()),
    }
}

proptest! {
    #![proptest_config(cases(2000))]

    #[test]
    fn commands_from_random_text(line in any::<String>()) {
        check_command(line);
    }

    #[test]
    fn commands_from_random_bytes(text in bytes_text()) {
        // `play` reads lines; a line never holds a newline, but the parser must not care.
        check_command(text);
    }

    #[test]
    fn commands_from_command_words(
        words in prop::collection::vec(prop::sample::select(COMMAND_WORDS), 0..5),
        sep in prop::sample::select(&[" ", "  ", "\t", " \u{a0}"][..]),
    ) {
        let line = words.join(sep);
        check_command(line.clone());
        // Any mix of case parses the same as lower case, but for file names.
        let lower = grid::parse_command(&line.to_lowercase());
        let upper = grid::parse_command(&line.to_uppercase());
        if !words.iter().any(|w| matches!(*w, "load" | "save")) {
            prop_assert_eq!(lower.is_ok(), upper.is_ok(), "{:?}", line);
        }
    }
}

// ---------------------------------------------------------------------------------------
// Rule files

const RULE_FILES: [&str; 3] = [
    include_str!("../kb/grid.kb"),
    "hidden a(X).\nhidden b.\natleast 1 X: a(X).\natmost places/4 X: a(X).\n\
     not (a(X) & b).\npercept p(X) -> all N in out(X): not a(N).\n\
     percept q <-> b.\npercept r(X) <-> any N in in(X): (a(N) | b).\n",
    "hidden pit(X).\nhidden wumpus(X).\nnot pit(start).\nexactly 1 X: wumpus(X).\n\
     percept breeze(X) <-> any N in adj(X): pit(N).\n\
     percept stench(X) <-> wumpus(X) | any N in adj(X): wumpus(N).\n\
     percept visited(X) -> not pit(X).\npercept unharmed(X) -> not wumpus(X).\n\
     percept missed(X) -> not wumpus(X).\nnot (pit(X) & wumpus(X)).\n",
];

const WORLD_PIECES: &[&str] = &["PIT 1 1\n", "# ", "0", " ", "SIZE 3 3\n"];

const RULE_PIECES: &[&str] = &[
    "not ",
    "(",
    "a(X) | ",
    "pit(N) | ",
    "any N in adj(X): ",
    "pit(X) & ",
    "# ",
];

const RULE_WORDS: &[&str] = &[
    "hidden",
    "percept",
    "not",
    "any",
    "all",
    "in",
    "adj",
    "out",
    "exactly",
    "atmost",
    "atleast",
    "start",
    "places",
    "<->",
    "->",
    "(",
    ")",
    ".",
    ":",
    "|",
    "&",
    "/",
    ",",
    "X",
    "N",
    "Y",
    "pit",
    "wumpus",
    "breeze",
    "stench",
    "pit(X)",
    "pit(N)",
    "wumpus(start)",
    "0",
    "1",
    "4",
    "#",
    "a",
    "b",
    "c",
    "$",
    "99999999999999999999999",
];

/// Parses a rule file and checks the error's line; rules that parse are grounded on a small
/// grid, asked questions and given a short game, none of which may panic.
fn check_rules(text: String) {
    let copy = text.clone();
    let parsed = in_time("parse_rules", move || parse_rules(&copy));
    let rules = match parsed {
        Err(e) => {
            assert!(
                (1..=lines_in(&text)).contains(&e.line),
                "line {} of {} in {text:?}: {e}",
                e.line,
                lines_in(&text)
            );
            assert!(!e.message.is_empty());
            return;
        }
        Ok(rules) => Arc::new(rules),
    };
    in_time("grounding and a game", move || {
        let topology = Arc::new(Topology::grid(3, 3).unwrap());
        let start = topology.cell(0, 0);
        if let Ok(mut kb) =
            KnowledgeBase::new(rules.clone(), topology.clone(), start, Proofs::Explained)
        {
            // Tell every percept somewhere, then ask about every hidden atom.
            for (id, p) in rules.predicates.iter().enumerate() {
                let place = p.per_place.then(|| topology.cell(1, id % 3).unwrap());
                if p.kind == wumpus::kb::rules::PredKind::Percept {
                    let _ = kb.tell(id, place, id % 2 == 0);
                } else {
                    let atom = kb.atom(id, place);
                    let _ = kb.possible(&[(atom, true)]);
                    let _ = kb.explain(&[(atom, false)]);
                }
            }
            let _ = kb.to_dimacs();
        }
        for agent in [AgentKind::Logic, AgentKind::Risk] {
            let world = grid::parse_world("SIZE 3 3\nWUMPUS 2 0\nGOLD 2 2\nPIT 1 1\n").unwrap();
            let options = GameOptions {
                agent,
                explain: true,
                rules: Some(rules.clone()),
                ..GameOptions::default()
            };
            let _ = run_grid_game(world, None, &options, |_| {});
        }
    });
}

proptest! {
    #![proptest_config(cases(600))]

    #[test]
    fn rule_files_from_random_bytes(text in bytes_text()) {
        check_rules(text);
    }

    #[test]
    fn rule_files_from_random_words(text in vocabulary_text(RULE_WORDS)) {
        check_rules(text);
    }

    #[test]
    fn mutated_rule_files(
        base in prop::sample::select(&RULE_FILES[..]),
        edits in prop::collection::vec(mutation(RULE_WORDS, RULE_PIECES), 1..5),
    ) {
        check_rules(mutate(base, &edits));
    }
}

#[test]
fn the_base_files_are_valid() {
    for text in WORLD_FILES {
        grid::parse_world(text).unwrap();
    }
    for text in RULE_FILES {
        parse_rules(text).unwrap();
    }
}
