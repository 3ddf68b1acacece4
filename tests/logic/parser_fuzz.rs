//! Fuzz-style property tests, on stable Rust, for every grid-side parser of outside input:
//! grid world files (`grid::parse_world`), `play` commands (`grid::parse_command`) and `--kb`
//! rule files (`kb::rules::parse_rules`, then grounding and a short game with the rules), and
//! the bot protocol's host lines of both cave rule sets (`bot::cave`, `bot::maze`).
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
use std::sync::{Arc, OnceLock};
use std::time::Duration;
use wumpus::agent::random::RandomAgent;
use wumpus::agent::roster::classic_bot_agent;
use wumpus::agent::{AgentKind, AgentOptions, Dice, Roster};
use wumpus::bot::cave::{host_lines, parse_bot_line, parse_host_line, ClassicBot, HostLine};
use wumpus::bot::maze;
use wumpus::bot::{BotSession, Line};
use wumpus::cave::{self, command, Action, CaveCommand, ClassicGame};
use wumpus::cave::{MazeAction, MazeGame, MazeSession, MazeSetup};
use wumpus::cave::{Rules, Variant};
use wumpus::game::Session;
use wumpus::grid::{self, file::WorldFileErrorKind, Command, GridSession, Scoring};
use wumpus::kb::rules::parse_rules;
use wumpus::kb::{KnowledgeBase, Proofs};
use wumpus::run::{play, Flow, StepEvent};
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
    include_str!("../../worlds/seed-example.txt"),
    include_str!("../../worlds/aima-4x4.txt"),
    include_str!("../../worlds/gold-in-pit.txt"),
    include_str!("../../worlds/gold-with-wumpus.txt"),
    include_str!("../../worlds/walled-in.txt"),
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
                        WorldFileErrorKind::Empty
                            | WorldFileErrorKind::NoWumpus
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
    include_str!("../../kb/grid.kb"),
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
            let mut game = GridSession::new(world, Scoring::default(), 0.2);
            let options = AgentOptions {
                explain: true,
                kb: Some(rules.clone()),
                ..AgentOptions::default()
            };
            // Rules that cannot play are refused here, as the old runner refused them.
            let Ok(agents) = GridSession::prepare(agent, &game.setup(), &options) else {
                continue;
            };
            let Ok(mut player) = agents.make(&game.briefing(), Dice::for_game(0)) else {
                continue;
            };
            // Each step traced, as `trace` shows it (the agent's knowledge asked every step).
            let mut watch = |_: &GridSession, _: StepEvent| Flow::Go;
            let _ = play(
                &mut game,
                None,
                player.as_mut(),
                &|| false,
                Some(&mut watch),
            );
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

// ---------------------------------------------------------------------------------------
// The bot protocol: host lines, and whole host streams fed to the bot's session

/// Real host streams: the project's simulator hosting a few games for a random player.
fn host_streams() -> &'static [String] {
    static STREAMS: OnceLock<Vec<String>> = OnceLock::new();
    STREAMS.get_or_init(|| {
        let maps = [
            cave::STANDARD_MAP,
            include_str!("../../worlds/cave-waterslide.txt"),
            include_str!("../../worlds/cave-risk.txt"),
        ];
        let mut streams = Vec::new();
        for (m, text) in maps.iter().enumerate() {
            let map = Arc::new(cave::parse_map(text).unwrap());
            for first in [0u64, 10] {
                let mut lines = Vec::new();
                for seed in first..first + 3 {
                    let seed = seed + 100 * m as u64;
                    let mut game = ClassicGame::new(map.clone(), Variant::Event, seed).unwrap();
                    let mut player = RandomAgent::new(wumpus::rng::Dice::for_game(seed));
                    lines.push(format!("game {}", map.len()));
                    lines.push(game.status().protocol_line());
                    for _ in 0..60 {
                        let action = player.draw(&game.status());
                        let turn = game.act(&action);
                        let status = game.status();
                        lines.extend(host_lines(turn.result, Some(&status)));
                        if turn.result.ending().is_some() {
                            break;
                        }
                    }
                }
                streams.push(lines.join("\n") + "\n");
            }
        }
        streams
    })
}

const HOST_WORDS: &[&str] = &[
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
    "3",
    "7",
    "19",
    "20",
    "21",
    "100000",
    "100001",
    "18446744073709551615",
    "99999999999999999999999",
    "-1",
    "move",
    "shoot",
    "GAME",
];

const HOST_PIECES: &[&str] = &["status 0 0 0 0 out 1 2 3 in ", "0 ", "in ", "game 20\n"];

/// A host line that is nearly right: the right shape with random rooms and warnings, or a
/// game line with a random room count.
fn plausible_host_line() -> impl Strategy<Value = String> {
    let room = prop_oneof![8 => 0usize..21, 1 => Just(usize::MAX), 1 => 0usize..200_000];
    let rooms = prop::collection::vec(room.clone(), 0..5);
    let flag = prop_oneof![9 => prop::sample::select(&["0", "1"][..]), 1 => Just("2")];
    prop_oneof![
        1 => prop_oneof![1usize..30, Just(0usize), Just(100_000), Just(100_001), Just(usize::MAX)]
            .prop_map(|n| format!("game {n}")),
        6 => (room, flag.clone(), flag.clone(), flag, rooms.clone(), rooms).prop_map(
            |(r, p, b, w, outs, ins)| {
                let join = |v: &[usize]| {
                    v.iter().map(|r| r.to_string()).collect::<Vec<_>>().join(" ")
                };
                format!("status {r} {p} {b} {w} out {} in {}", join(&outs), join(&ins))
            }
        ),
        2 => prop::sample::select(
            &["moved", "snatched", "not_an_exit", "missed", "too_crooked", "exploded"][..]
        )
        .prop_map(|w| format!("result {w}")),
        1 => prop::sample::select(&["end won 97", "end lost 0", "end won -3", "end drawn 0"][..])
            .prop_map(str::to_string),
    ]
}

/// Feeds a host stream to the bot's session (the reasoning agent, learning the map or given
/// `map`) line by line, as `wumpus bot` does. It must answer each status with an action on the
/// status's own tunnels, or stop at the first bad line with an error that says what is wrong.
fn check_host_stream(text: String, map: Option<Arc<cave::CaveMap>>) {
    let copy = text.clone();
    let outcome = in_time("the bot session", move || {
        // The agent `wumpus bot` plays with (`CaveAgentConfig::for_bot`).
        let make = |rooms: usize| -> Result<ClassicBot, String> {
            classic_bot_agent(rooms, map.as_ref()).map(ClassicBot::new)
        };
        let mut session = BotSession::new(make);
        for (i, line) in copy.lines().enumerate() {
            match session.line(line) {
                Ok(None) => {}
                Ok(Some(reply)) => {
                    let status = match parse_host_line(line, None) {
                        Ok(HostLine::Status(s)) => s,
                        other => return Err(format!("a reply to {line:?} ({other:?})")),
                    };
                    let rooms = status.room.index().max(1) + 1_000_000;
                    match parse_bot_line(&reply, rooms) {
                        Ok(Action::Move(r)) if !status.outs.contains(&r) => {
                            return Err(format!("{reply:?} is not an out-tunnel of {line:?}"))
                        }
                        Ok(_) => {}
                        Err(e) => return Err(format!("a bad reply {reply:?} to {line:?}: {e}")),
                    }
                }
                Err(e) => return Ok(Some((i + 1, e.to_string()))),
            }
        }
        Ok(None)
    });
    match outcome {
        Err(why) => panic!("{why} in {text:?}"),
        Ok(Some((line, message))) => {
            assert!((1..=lines_in(&text)).contains(&line));
            assert!(!message.is_empty());
        }
        Ok(None) => {}
    }
}

proptest! {
    #![proptest_config(cases(1000))]

    #[test]
    fn host_lines_from_random_text(line in any::<String>(), rooms in prop::option::of(0usize..40)) {
        let copy = line.clone();
        let parsed = in_time("parse_host_line", move || parse_host_line(&copy, rooms));
        match parsed {
            Err(e) => prop_assert!(!e.to_string().is_empty()),
            // A line that parses writes back as itself (but for spacing).
            Ok(HostLine::Status(s)) => {
                let words: Vec<&str> = line.split_whitespace().collect();
                prop_assert_eq!(s.protocol_line(), words.join(" "));
            }
            Ok(_) => {}
        }
    }

    #[test]
    fn host_lines_from_host_words(
        words in prop::collection::vec(prop::sample::select(HOST_WORDS), 0..14),
        rooms in prop::option::of(0usize..40),
    ) {
        let line = words.join(" ");
        if let Ok(HostLine::Status(s)) = parse_host_line(&line, rooms) {
            prop_assert_eq!(s.protocol_line(), line.clone());
            if let Some(n) = rooms {
                prop_assert!(s.outs.iter().chain(&s.ins).all(|r| r.index() < n));
            }
        }
        let _ = parse_bot_line(&line, rooms.unwrap_or(20));
    }
}

proptest! {
    #![proptest_config(cases(300))]

    #[test]
    fn host_streams_from_random_bytes(text in bytes_text()) {
        check_host_stream(format!("game 20\n{text}"), None);
    }

    #[test]
    fn host_streams_from_host_words(text in vocabulary_text(HOST_WORDS)) {
        check_host_stream(text, None);
    }

    #[test]
    fn host_streams_of_plausible_lines(
        lines in prop::collection::vec(plausible_host_line(), 1..30),
        known in any::<bool>(),
    ) {
        let map = known.then(|| Arc::new(cave::parse_map(cave::STANDARD_MAP).unwrap()));
        check_host_stream(format!("game 20\n{}\n", lines.join("\n")), map);
    }

    #[test]
    fn mutated_host_streams(
        base in 0usize..6,
        edits in prop::collection::vec(mutation(HOST_WORDS, HOST_PIECES), 1..6),
        known in any::<bool>(),
    ) {
        let text = mutate(&host_streams()[base], &edits);
        let map = (known && base < 2)
            .then(|| Arc::new(cave::parse_map(cave::STANDARD_MAP).unwrap()));
        check_host_stream(text, map);
    }
}

// ---------------------------------------------------------------------------------------
// The maze's bot protocol: host lines, and whole host streams fed to a maze bot's session

/// Real maze host streams: the project's simulator hosting a few games for a simple player
/// (tunnels in turn, a toss every fourth action).
fn maze_host_streams() -> &'static [String] {
    static STREAMS: OnceLock<Vec<String>> = OnceLock::new();
    STREAMS.get_or_init(|| {
        let map = Arc::new(cave::parse_map(cave::STANDARD_CAVES_DAT).unwrap());
        let mut streams = Vec::new();
        for first in [0u64, 10, 20, 30] {
            let mut lines = Vec::new();
            for seed in first..first + 3 {
                let mut game = MazeGame::new(map.clone(), seed).unwrap();
                lines.push(format!("maze {}", map.len()));
                let status = maze::MazeStatus::of_view(&map, &game.view()).unwrap();
                lines.push(status.protocol_line());
                for step in 0..40u64 {
                    let tunnel = ((seed + step) % 3 + 1) as usize;
                    let action = if step % 4 == 3 {
                        MazeAction::Toss(tunnel)
                    } else {
                        MazeAction::Move(tunnel)
                    };
                    let turn = game.act(action);
                    lines.extend(maze::host_lines(&map, turn.result, &game.view()));
                    if game.ending().is_some() {
                        break;
                    }
                }
            }
            streams.push(lines.join("\n") + "\n");
        }
        streams
    })
}

const MAZE_HOST_WORDS: &[&str] = &[
    "maze",
    "status",
    "tunnels",
    "result",
    "end",
    "moved",
    "carried",
    "no_such_tunnel",
    "missed",
    "killed",
    "won",
    "lost",
    "pit",
    "wumpus",
    "out_of_grenades",
    "?",
    "??",
    "0",
    "1",
    "2",
    "3",
    "15",
    "19",
    "20",
    "21",
    "100001",
    "18446744073709551615",
    "99999999999999999999999",
    "-1",
    "move",
    "toss",
    "game",
    "out",
    "MAZE",
];

const MAZE_HOST_PIECES: &[&str] = &["status 0 0 0 0 tunnels ? ? ", "? ", "tunnels ", "maze 20\n"];

/// A maze host line that is nearly right: the right shape with random caves and warnings,
/// or a maze line with a random cave count.
fn plausible_maze_host_line() -> impl Strategy<Value = String> {
    let cave = prop_oneof![8 => 0usize..21, 1 => Just(usize::MAX), 1 => 0usize..200_000];
    let tunnel = prop_oneof![
        3 => cave.clone().prop_map(|c| c.to_string()),
        2 => Just("?".to_string()),
    ];
    let tunnels = prop::collection::vec(tunnel, 2..5).prop_map(|t| t.join(" "));
    let flag = prop_oneof![9 => prop::sample::select(&["0", "1"][..]), 1 => Just("2")];
    prop_oneof![
        1 => prop_oneof![Just(20usize), 0usize..30, Just(100_001), Just(usize::MAX)]
            .prop_map(|n| format!("maze {n}")),
        6 => (cave, flag.clone(), flag.clone(), flag, tunnels)
            .prop_map(|(c, s, h, f, t)| format!("status {c} {s} {h} {f} tunnels {t}")),
        2 => prop::sample::select(
            &["moved", "carried", "no_such_tunnel", "missed", "killed", "snatched"][..]
        )
        .prop_map(|w| format!("result {w}")),
        1 => prop::sample::select(
            &["end won", "end lost pit", "end lost wumpus", "end lost out_of_grenades",
              "end lost 0", "end won 97", "end drawn"][..]
        )
        .prop_map(str::to_string),
    ]
}

/// Feeds a maze host stream to a maze bot's session (the reasoning agent given the standard
/// caves.dat) line by line, as `wumpus bot --rules maze` does. It must answer each status with
/// a tunnel 1 to 3, or stop at the first bad line with an error that says what is wrong.
fn check_maze_host_stream(text: String) {
    let copy = text.clone();
    let outcome = in_time("the maze bot session", move || {
        let map = Arc::new(cave::parse_map(cave::STANDARD_CAVES_DAT).unwrap());
        let setup = MazeSetup {
            map: map.clone(),
            map_name: "caves.dat".to_string(),
        };
        // The maze's reasoning agent, without explanations, as `wumpus bot --rules maze` makes it.
        let agents = MazeSession::prepare(AgentKind::Logic, &setup, &AgentOptions::default())
            .map_err(|e| format!("the maze agent: {e}"))?;
        let mut session = BotSession::new(|caves: usize| -> Result<_, String> {
            let agent = agents
                .make(&wumpus::bot::host_briefing(caves), Dice::for_game(0))
                .map_err(|e| e.to_string())?;
            maze::MazeBot::new(map.clone(), caves, agent)
        });
        for (i, line) in copy.lines().enumerate() {
            match session.line(line) {
                Ok(None) => {}
                Ok(Some(reply)) => {
                    if !matches!(maze::parse_host_line(line, None), Ok(Line::Status(_))) {
                        return Err(format!("a reply to {line:?}"));
                    }
                    if let Err(e) = maze::parse_bot_line(&reply) {
                        return Err(format!("a bad reply {reply:?} to {line:?}: {e}"));
                    }
                }
                Err(e) => return Ok(Some((i + 1, e.to_string()))),
            }
        }
        Ok(None)
    });
    match outcome {
        Err(why) => panic!("{why} in {text:?}"),
        Ok(Some((line, message))) => {
            assert!((1..=lines_in(&text)).contains(&line));
            assert!(!message.is_empty());
        }
        Ok(None) => {}
    }
}

proptest! {
    #![proptest_config(cases(1000))]

    #[test]
    fn maze_host_lines_from_random_text(line in any::<String>(), caves in prop::option::of(0usize..40)) {
        let copy = line.clone();
        let parsed = in_time("maze::parse_host_line", move || maze::parse_host_line(&copy, caves));
        if let Err(e) = parsed {
            prop_assert!(!e.to_string().is_empty());
        }
        let _ = maze::parse_bot_line(&line);
    }

    #[test]
    fn maze_host_lines_from_host_words(
        words in prop::collection::vec(prop::sample::select(MAZE_HOST_WORDS), 0..12),
        caves in prop::option::of(0usize..40),
    ) {
        let line = words.join(" ");
        match maze::parse_host_line(&line, caves) {
            // A status that parses writes back as itself, its caves inside the maze.
            Ok(Line::Status(s)) => {
                prop_assert_eq!(s.protocol_line(), line.clone());
                if let Some(n) = caves {
                    prop_assert!(s.cave.index() < n);
                    prop_assert!(s.tunnels.iter().flatten().all(|c| c.index() < n));
                }
            }
            Ok(_) => {}
            Err(e) => prop_assert!(!e.to_string().is_empty()),
        }
        let _ = maze::parse_bot_line(&line);
    }
}

proptest! {
    #![proptest_config(cases(200))]

    #[test]
    fn maze_host_streams_from_random_bytes(text in bytes_text()) {
        check_maze_host_stream(format!("maze 20\n{text}"));
    }

    #[test]
    fn maze_host_streams_from_host_words(text in vocabulary_text(MAZE_HOST_WORDS)) {
        check_maze_host_stream(text);
    }

    #[test]
    fn maze_host_streams_of_plausible_lines(
        lines in prop::collection::vec(plausible_maze_host_line(), 1..30),
    ) {
        check_maze_host_stream(format!("maze 20\n{}\n", lines.join("\n")));
    }

    #[test]
    fn mutated_maze_host_streams(
        base in 0usize..4,
        edits in prop::collection::vec(mutation(MAZE_HOST_WORDS, MAZE_HOST_PIECES), 1..6),
    ) {
        check_maze_host_stream(mutate(&maze_host_streams()[base], &edits));
    }
}

// ---------------------------------------------------------------------------------------
// Cave and maze play commands

const CAVE_COMMAND_WORDS: &[&str] = &[
    "move",
    "m",
    "M",
    "shoot",
    "s",
    "S",
    "toss",
    "t",
    "T",
    "help",
    "hint",
    "quit",
    "load",
    "save",
    "0",
    "1",
    "2",
    "3",
    "4",
    "5",
    "6",
    "20",
    "21",
    "-1",
    "1,2",
    ",",
    ",,",
    "x",
    "18446744073709551616",
    "  ",
    "\t",
    "é",
    "\u{0}",
];

fn cave_maps() -> &'static [cave::CaveMap; 2] {
    static MAPS: OnceLock<[cave::CaveMap; 2]> = OnceLock::new();
    MAPS.get_or_init(|| {
        [
            cave::parse_map(cave::STANDARD_MAP).unwrap(),
            cave::parse_map(cave::STANDARD_CAVES_DAT).unwrap(),
        ]
    })
}

fn check_cave_command(line: String) {
    for rules in [Rules::Classic, Rules::Maze] {
        let copy = line.clone();
        let parsed = in_time("cave parse_command", move || {
            cave::parse_command(&copy, rules)
        });
        match parsed {
            Ok(CaveCommand::Load(file) | CaveCommand::Save(file)) => {
                assert!(
                    !file.is_empty() && file == file.trim(),
                    "{line:?} -> {file:?}"
                )
            }
            Ok(CaveCommand::Move(t) | CaveCommand::Toss(t)) => {
                assert_eq!(rules, Rules::Maze);
                assert!((1..=3).contains(&t), "{line:?}");
            }
            Ok(CaveCommand::Shoot(rooms)) => {
                assert_eq!(rules, Rules::Classic);
                assert!((1..=5).contains(&rooms.len()), "{line:?}");
            }
            Ok(CaveCommand::MoveTo(_)) => assert_eq!(rules, Rules::Classic),
            Ok(_) => {}
            Err(e) => assert!(!e.to_string().is_empty()),
        }
        if let Ok(command) = cave::parse_command(&line, rules) {
            for map in cave_maps() {
                match command::classic_action(&command, map) {
                    Some(Ok(Action::Move(r))) => assert!(r.index() < map.len()),
                    Some(Ok(Action::Shoot(path))) => {
                        assert!(path.rooms().iter().all(|r| r.index() < map.len()))
                    }
                    Some(Err(e)) => assert!(!e.to_string().is_empty()),
                    None => {}
                }
                let _ = command::maze_action(&command);
            }
        }
    }
}

proptest! {
    #![proptest_config(cases(2000))]

    #[test]
    fn cave_commands_from_random_text(line in any::<String>()) {
        check_cave_command(line);
    }

    #[test]
    fn cave_commands_from_random_bytes(text in bytes_text()) {
        check_cave_command(text);
    }

    #[test]
    fn cave_commands_from_command_words(
        words in prop::collection::vec(prop::sample::select(CAVE_COMMAND_WORDS), 0..8),
        sep in prop::sample::select(&[" ", "  ", "\t", ",", " \u{a0}"][..]),
    ) {
        let line = words.join(sep);
        check_cave_command(line.clone());
        // Case does not matter, but for file names.
        if !words.iter().any(|w| matches!(*w, "load" | "save")) {
            for rules in [Rules::Classic, Rules::Maze] {
                prop_assert_eq!(
                    cave::parse_command(&line.to_lowercase(), rules).ok(),
                    cave::parse_command(&line.to_uppercase(), rules).ok(),
                    "{:?}", line
                );
            }
        }
    }
}
