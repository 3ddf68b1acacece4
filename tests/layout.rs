//! The architecture's invariants that can be read off the source (docs/ARCHITECTURE.md):
//! the library's top-level modules import each other without loops; the rules of the games
//! know nothing of the knowledge base, the planner, the agents or the runner; and the command
//! line is written once for every rule set (no command branches on the rule set), in files of
//! a readable size.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const SRC: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/src");

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            rust_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

/// A file's code lines: comments and the unit tests at its end left out (a test may use any
/// module to build its fixtures).
fn code(path: &Path) -> Vec<String> {
    let text = std::fs::read_to_string(path).unwrap();
    text.lines()
        .take_while(|l| l.trim() != "#[cfg(test)]")
        .filter(|l| !l.trim_start().starts_with("//"))
        .map(str::to_string)
        .collect()
}

/// The top-level module a library file belongs to: `src/agent/cave/map.rs` → `agent`.
fn module_of(path: &Path) -> Option<String> {
    let rel = path.strip_prefix(SRC).ok()?;
    let first = rel.components().next()?.as_os_str().to_str()?.to_string();
    let name = first.trim_end_matches(".rs").to_string();
    (!["cli", "main", "lib"].contains(&name.as_str())).then_some(name)
}

/// Which top-level modules each library module names (`crate::x`).
fn imports() -> BTreeMap<String, BTreeSet<String>> {
    let mut files = Vec::new();
    rust_files(Path::new(SRC), &mut files);
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for file in files {
        let Some(module) = module_of(&file) else {
            continue;
        };
        let uses = graph.entry(module.clone()).or_default();
        for line in code(&file) {
            for (i, _) in line.match_indices("crate::") {
                let name: String = line[i + 7..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '_')
                    .collect();
                if !name.is_empty() && name != module {
                    uses.insert(name);
                }
            }
        }
    }
    graph
}

#[test]
fn the_library_modules_import_each_other_without_loops() {
    let graph = imports();
    assert!(graph.len() >= 10, "modules found: {graph:?}");
    // Depth-first search for a cycle, reporting its path.
    fn visit(
        m: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) {
        if done.contains(m) {
            return;
        }
        if let Some(at) = path.iter().position(|p| p == m) {
            panic!("import loop: {} -> {m}", path[at..].join(" -> "));
        }
        path.push(m.to_string());
        for next in graph.get(m).into_iter().flatten() {
            visit(next, graph, path, done);
        }
        path.pop();
        done.insert(m.to_string());
    }
    let mut done = BTreeSet::new();
    for m in graph.keys() {
        visit(m, &graph, &mut Vec::new(), &mut done);
    }
}

#[test]
fn the_rules_know_nothing_of_reasoning_or_players() {
    let graph = imports();
    for rules in ["topology", "game", "grid", "cave"] {
        let uses = &graph[rules];
        for player in ["kb", "planner", "agent", "run", "bot"] {
            assert!(!uses.contains(player), "{rules} imports {player}: {uses:?}");
        }
    }
    // The knowledge base and the planner know no game and no agent.
    for reasoning in ["kb", "planner"] {
        for other in ["game", "grid", "cave", "agent", "run"] {
            assert!(
                !graph[reasoning].contains(other),
                "{reasoning} imports {other}"
            );
        }
    }
}

#[test]
fn the_command_line_is_written_once_for_every_rule_set() {
    let mut files = Vec::new();
    rust_files(&Path::new(SRC).join("cli"), &mut files);
    assert!(files.len() >= 8);
    for file in &files {
        let name = file.file_name().unwrap().to_str().unwrap();
        let lines = std::fs::read_to_string(file).unwrap().lines().count();
        assert!(lines <= 550, "{name} has {lines} lines");
        // Only the dispatch (and the bot, whose protocols are per rule set) names a rule
        // set's session type or branches on the rule set: every other command is generic over
        // the game interface (the rules, the files, the words). The live page's request reads
        // a rule set's name, as the command line's arguments do.
        if !["args.rs", "bot.rs"].contains(&name) {
            let mut named = vec![
                "GridSession",
                "AimaSession",
                "ClassicSession",
                "MazeSession",
                ".on_grid()",
                "S::RULES ==",
                "rules ==",
            ];
            if name != "request.rs" {
                for rules in ["RuleSet", "RulesArg"] {
                    for one in ["Grid", "Cave", "Maze", "Aima"] {
                        named.push(Box::leak(format!("{rules}::{one}").into_boxed_str()));
                    }
                }
            }
            for what in named {
                assert!(
                    !code(file).iter().any(|l| l.contains(what)),
                    "{name} branches on the rule set: it names {what}"
                );
            }
        }
    }
}

#[test]
fn the_agents_are_built_from_what_a_player_is_told() {
    // An agent is built from the session's `Briefing` and learns from what it is shown: no
    // file of `agent/` deals a game, replays a seed's deal, holds a dealt grid world or asks a
    // session for its hidden state, and none makes a briefing of its own.
    let mut files = Vec::new();
    rust_files(&Path::new(SRC).join("agent"), &mut files);
    assert!(files.len() >= 10);
    let banned = [
        "topology_of",
        "draw_topology",
        "deal(",
        "GridWorld",
        "GridGame",
        "MazeGame",
        "hidden(",
        "game::Hidden",
        "winnable(",
        "Briefing::grid",
        "Briefing::rooms",
        "host_briefing",
    ];
    for file in &files {
        let name = file.strip_prefix(SRC).unwrap().display().to_string();
        for line in code(file) {
            for word in banned {
                assert!(!line.contains(word), "{name} names {word}: {line}");
            }
        }
    }
}
