//! The architecture's invariants that can be read off the crates (docs/ARCHITECTURE.md), read
//! as the compiler sees them rather than as text: the crates' dependencies from Cargo's own
//! metadata and lock files, and the modules' dependencies from every path the library's source
//! names, parsed (`syn`) and resolved through its `use` items, `crate::`, `super::` and `self::`
//! to the module they land in.
//!
//! - the library depends on no HTTP, async runtime, argument parser, line editor or progress
//!   bar, and neither does the Python crate;
//! - the library's top-level modules depend on each other without loops, the rules of the
//!   games on no reasoning or player, the knowledge base and the planner on no game;
//! - agents name nothing that holds the hidden world or deals one, and make no briefing;
//! - the command line and the page are written once for every rule set.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// What a library's front door must never bring into the library.
const DOOR_CRATES: [&str; 8] = [
    "axum",
    "tokio",
    "hyper",
    "tower",
    "clap",
    "rustyline",
    "indicatif",
    "ctrlc",
];

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

// ---------------------------------------------------------------------------------------------
// Crates.

/// Cargo's metadata of the workspace, resolved for this machine's platform (whose packages
/// the build has fetched already).
fn metadata() -> serde_json::Value {
    let rustc = std::process::Command::new("rustc")
        .arg("-vV")
        .output()
        .expect("rustc runs");
    let host = String::from_utf8(rustc.stdout)
        .unwrap()
        .lines()
        .find_map(|l| l.strip_prefix("host: ").map(str::to_string))
        .expect("rustc names its host");
    let cargo = option_env!("CARGO").unwrap_or("cargo");
    let out = std::process::Command::new(cargo)
        .args(["metadata", "--format-version", "1", "--locked", "--offline"])
        .args(["--filter-platform", &host])
        .current_dir(ROOT)
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

/// The names of every package `root` depends on through normal dependencies, transitively.
fn normal_closure(meta: &serde_json::Value, root: &str) -> BTreeSet<String> {
    let packages = meta["packages"].as_array().unwrap();
    let name_of = |id: &str| -> String {
        packages
            .iter()
            .find(|p| p["id"] == id)
            .map(|p| p["name"].as_str().unwrap().to_string())
            .unwrap_or_default()
    };
    let nodes = meta["resolve"]["nodes"].as_array().unwrap();
    let root_id = packages
        .iter()
        .find(|p| p["name"] == root && p["source"].is_null())
        .map(|p| p["id"].as_str().unwrap().to_string())
        .expect("the package");
    let mut seen = BTreeSet::new();
    let mut todo = vec![root_id];
    while let Some(id) = todo.pop() {
        let node = nodes.iter().find(|n| n["id"] == id.as_str()).unwrap();
        for dep in node["deps"].as_array().unwrap() {
            let normal = dep["dep_kinds"]
                .as_array()
                .unwrap()
                .iter()
                .any(|k| k["kind"].is_null());
            let pkg = dep["pkg"].as_str().unwrap().to_string();
            if normal && seen.insert(pkg.clone()) {
                todo.push(pkg);
            }
        }
    }
    seen.iter().map(|id| name_of(id)).collect()
}

#[test]
fn the_library_and_the_python_crate_depend_on_no_front_door() {
    let meta = metadata();
    let library = normal_closure(&meta, "wumpus");
    assert!(library.contains("varisat") && library.contains("petgraph"));
    let cli = normal_closure(&meta, "wumpus-cli");
    assert!(cli.contains("wumpus") && cli.contains("axum"));
    for door in DOOR_CRATES {
        assert!(!library.contains(door), "the library depends on {door}");
    }
    // The Python crate is a workspace of its own: its lock file lists what it builds.
    let lock = std::fs::read_to_string(Path::new(ROOT).join("python/Cargo.lock")).unwrap();
    let locked: BTreeSet<&str> = lock
        .lines()
        .filter_map(|l| l.strip_prefix("name = \""))
        .map(|n| n.trim_end_matches('"'))
        .collect();
    assert!(locked.contains("pyo3") && locked.contains("wumpus"));
    for door in DOOR_CRATES {
        assert!(!locked.contains(door), "python/Cargo.lock lists {door}");
    }
    let python = std::fs::read_to_string(Path::new(ROOT).join("python/Cargo.toml")).unwrap();
    assert!(
        python.contains("path = \"../crates/wumpus\""),
        "the Python crate depends on the library alone"
    );
}

// ---------------------------------------------------------------------------------------------
// Modules.

/// A module path inside the library, `["agent", "grid", "observe"]`.
type ModPath = Vec<String>;

/// The module path of a library file: `src/agent/grid/mod.rs` → `agent::grid`.
fn module_path(src: &Path, file: &Path) -> ModPath {
    let rel = file.strip_prefix(src).unwrap();
    let mut parts: Vec<String> = rel
        .components()
        .map(|c| c.as_os_str().to_str().unwrap().to_string())
        .collect();
    let last = parts.pop().unwrap();
    let stem = last.trim_end_matches(".rs");
    if stem != "mod" && stem != "lib" {
        parts.push(stem.to_string());
    }
    parts
}

/// Every path a file names outside its tests, resolved to the library's modules and items
/// where it lands in the library (`["kb", "KnowledgeBase"]`), and the methods it calls.
struct Named {
    paths: BTreeSet<Vec<String>>,
    methods: BTreeSet<String>,
}

struct Collector<'a> {
    module: &'a ModPath,
    /// Names brought in by `use`, to what they stand for.
    imports: BTreeMap<String, Vec<String>>,
    /// Child modules declared in the file.
    children: BTreeSet<String>,
    raw: Vec<Vec<String>>,
    methods: BTreeSet<String>,
}

fn is_test(attrs: &[syn::Attribute]) -> bool {
    attrs.iter().any(|a| {
        a.path().is_ident("cfg")
            && a.parse_args::<syn::Meta>()
                .is_ok_and(|m| m.path().is_ident("test"))
    })
}

impl Collector<'_> {
    fn use_tree(&mut self, prefix: &[String], tree: &syn::UseTree) {
        match tree {
            syn::UseTree::Path(p) => {
                let mut next = prefix.to_vec();
                next.push(p.ident.to_string());
                self.use_tree(&next, &p.tree);
            }
            syn::UseTree::Name(n) => {
                let mut full = prefix.to_vec();
                let name = n.ident.to_string();
                if name != "self" {
                    full.push(name.clone());
                }
                let key = if name == "self" {
                    prefix.last().cloned().unwrap_or_default()
                } else {
                    name
                };
                self.imports.insert(key, full.clone());
                self.raw.push(full);
            }
            syn::UseTree::Rename(r) => {
                let mut full = prefix.to_vec();
                full.push(r.ident.to_string());
                self.imports.insert(r.rename.to_string(), full.clone());
                self.raw.push(full);
            }
            syn::UseTree::Glob(_) => self.raw.push(prefix.to_vec()),
            syn::UseTree::Group(g) => {
                for t in &g.items {
                    self.use_tree(prefix, t);
                }
            }
        }
    }

    /// `path`, resolved to an absolute path in the library (`crate` dropped), or `None` when
    /// it lands outside it.
    fn resolve(&self, path: &[String]) -> Option<Vec<String>> {
        let (first, rest) = path.split_first()?;
        let mut base: Vec<String> = match first.as_str() {
            "crate" => Vec::new(),
            "self" => self.module.clone(),
            "super" => {
                let mut m = self.module.clone();
                m.pop();
                let mut rest = rest;
                while rest.first().is_some_and(|s| s == "super") {
                    m.pop();
                    rest = &rest[1..];
                }
                m.extend(rest.iter().cloned());
                return Some(m);
            }
            name if self.children.contains(name) => {
                let mut m = self.module.clone();
                m.push(name.to_string());
                m
            }
            name => {
                let target = self.imports.get(name)?;
                if target.first().is_some_and(|f| f == first) {
                    return None;
                }
                let mut resolved = self.resolve(target)?;
                resolved.extend(rest.iter().cloned());
                return Some(resolved);
            }
        };
        base.extend(rest.iter().cloned());
        Some(base)
    }
}

impl<'ast> syn::visit::Visit<'ast> for Collector<'_> {
    fn visit_item(&mut self, item: &'ast syn::Item) {
        let attrs = match item {
            syn::Item::Mod(m) => &m.attrs,
            syn::Item::Fn(f) => &f.attrs,
            syn::Item::Impl(i) => &i.attrs,
            syn::Item::Use(u) => &u.attrs,
            _ => return syn::visit::visit_item(self, item),
        };
        if !is_test(attrs) {
            syn::visit::visit_item(self, item);
        }
    }

    fn visit_item_use(&mut self, u: &'ast syn::ItemUse) {
        self.use_tree(&[], &u.tree);
    }

    fn visit_item_mod(&mut self, m: &'ast syn::ItemMod) {
        self.children.insert(m.ident.to_string());
        syn::visit::visit_item_mod(self, m);
    }

    fn visit_path(&mut self, p: &'ast syn::Path) {
        self.raw
            .push(p.segments.iter().map(|s| s.ident.to_string()).collect());
        syn::visit::visit_path(self, p);
    }

    fn visit_expr_method_call(&mut self, m: &'ast syn::ExprMethodCall) {
        self.methods.insert(m.method.to_string());
        syn::visit::visit_expr_method_call(self, m);
    }
}

/// What `file` (module `module`) names, resolved.
fn named(file: &Path, module: &ModPath) -> Named {
    let text = std::fs::read_to_string(file).unwrap();
    let ast = syn::parse_file(&text).unwrap_or_else(|e| panic!("{}: {e}", file.display()));
    let mut c = Collector {
        module,
        imports: BTreeMap::new(),
        children: BTreeSet::new(),
        raw: Vec::new(),
        methods: BTreeSet::new(),
    };
    // `use` items and child modules first, so that paths before them resolve too.
    for item in &ast.items {
        match item {
            syn::Item::Use(u) if !is_test(&u.attrs) => c.use_tree(&[], &u.tree),
            syn::Item::Mod(m) if !is_test(&m.attrs) => {
                c.children.insert(m.ident.to_string());
            }
            _ => {}
        }
    }
    c.raw.clear();
    syn::visit::Visit::visit_file(&mut c, &ast);
    let paths = c.raw.iter().filter_map(|p| c.resolve(p)).collect();
    Named {
        paths,
        methods: c.methods,
    }
}

/// Every library file with its module path and what it names.
fn library() -> Vec<(ModPath, PathBuf, Named)> {
    let src = Path::new(ROOT).join("crates/wumpus/src");
    let mut files = Vec::new();
    rust_files(&src, &mut files);
    files
        .into_iter()
        .map(|f| {
            let m = module_path(&src, &f);
            let n = named(&f, &m);
            (m, f, n)
        })
        .collect()
}

/// Which top-level modules each top-level module depends on.
fn top_level_graph() -> BTreeMap<String, BTreeSet<String>> {
    let mut graph: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (module, _, named) in library() {
        let Some(top) = module.first() else {
            continue;
        };
        let uses = graph.entry(top.clone()).or_default();
        for p in &named.paths {
            if let Some(first) = p.first().filter(|f| *f != top) {
                uses.insert(first.clone());
            }
        }
    }
    graph
}

#[test]
fn the_library_modules_depend_on_each_other_without_loops() {
    let graph = top_level_graph();
    assert!(graph.len() >= 10, "modules found: {graph:?}");
    assert!(graph["agent"].contains("kb"), "{graph:?}");
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
            panic!("dependency loop: {} -> {m}", path[at..].join(" -> "));
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
    let graph = top_level_graph();
    for rules in ["topology", "game", "grid", "cave"] {
        let uses = &graph[rules];
        for player in [
            "kb",
            "planner",
            "agent",
            "run",
            "bot",
            "game_spec",
            "numbered",
        ] {
            assert!(
                !uses.contains(player),
                "{rules} depends on {player}: {uses:?}"
            );
        }
    }
    // The knowledge base and the planner know no game and no agent.
    for reasoning in ["kb", "planner"] {
        for other in ["game", "grid", "cave", "agent", "run", "game_spec"] {
            assert!(
                !graph[reasoning].contains(other),
                "{reasoning} depends on {other}"
            );
        }
    }
}

#[test]
fn the_agents_are_built_from_what_a_player_is_told() {
    // An agent is built from the session's `Briefing` and learns from what it is shown: no
    // module of `agent` names a dealt world or game, deals one, asks for a hidden state, or
    // makes a briefing of its own.
    let banned_items: [&[&str]; 8] = [
        &["grid", "GridWorld"],
        &["grid", "world", "GridWorld"],
        &["grid", "GridGame"],
        &["grid", "game", "GridGame"],
        &["cave", "MazeGame"],
        &["cave", "maze", "MazeGame"],
        &["game", "Hidden"],
        &["bot", "host_briefing"],
    ];
    let banned_methods = [
        "topology_of",
        "draw_topology",
        "deal",
        "deal_world",
        "hidden",
        "winnable",
    ];
    let mut agents = 0;
    for (module, file, named) in library() {
        if module.first().map(String::as_str) != Some("agent") {
            continue;
        }
        agents += 1;
        let name = file.display();
        for item in banned_items {
            let item: Vec<String> = item.iter().map(|s| s.to_string()).collect();
            assert!(
                !named.paths.iter().any(|p| p.starts_with(&item)),
                "{name} names {}",
                item.join("::")
            );
        }
        for p in &named.paths {
            let briefing_made = p.len() >= 2
                && p[p.len() - 2] == "Briefing"
                && ["grid", "grid_hidden", "rooms"].contains(&p[p.len() - 1].as_str());
            assert!(!briefing_made, "{name} makes a briefing: {}", p.join("::"));
        }
        for m in banned_methods {
            assert!(!named.methods.contains(m), "{name} calls .{m}()");
        }
    }
    assert!(agents >= 10);
}

/// The library's modules a door may name: the game's description and catalogue, the jobs,
/// the one game interface, files, numbers for learners and the bot protocols. The engine (a
/// rule set's module, an agent, the knowledge base, the planner, an RNG) is the library's own.
const FRONT: [&str; 6] = ["game_spec", "run", "game", "files", "numbered", "bot"];

/// Every door's Rust files: the command line and server, and the Python extension.
fn door_files() -> Vec<PathBuf> {
    let mut files = Vec::new();
    rust_files(&Path::new(ROOT).join("src"), &mut files);
    rust_files(&Path::new(ROOT).join("python/src"), &mut files);
    files
}

#[test]
fn the_doors_use_the_librarys_front_only() {
    let files = door_files();
    assert!(files.len() >= 20, "{files:?}");
    let mut named = 0;
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        let ast = syn::parse_file(&text).unwrap();
        let mut c = Collector {
            module: &Vec::new(),
            imports: BTreeMap::new(),
            children: BTreeSet::new(),
            raw: Vec::new(),
            methods: BTreeSet::new(),
        };
        syn::visit::Visit::visit_file(&mut c, &ast);
        for p in &c.raw {
            if p.first().map(String::as_str) != Some("wumpus") {
                continue;
            }
            named += 1;
            let module = p.get(1).map(String::as_str).unwrap_or("");
            assert!(
                FRONT.contains(&module),
                "{} names the library's engine: {}",
                file.display(),
                p.join("::")
            );
        }
    }
    assert!(named > 50, "the doors name the library: {named} paths");
}

#[test]
fn the_command_line_and_the_page_are_written_once_for_every_rule_set() {
    let cli = Path::new(ROOT).join("src/cli");
    let mut files = Vec::new();
    rust_files(&cli, &mut files);
    assert!(files.len() >= 8);
    let sessions = [
        "GridSession",
        "AimaSession",
        "ClassicSession",
        "MazeSession",
    ];
    let variants = ["Grid", "Cave", "Maze", "Aima"];
    for file in &files {
        let name = file.file_name().unwrap().to_str().unwrap();
        let lines = std::fs::read_to_string(file).unwrap().lines().count();
        assert!(lines <= 550, "{name} has {lines} lines");
        let text = std::fs::read_to_string(file).unwrap();
        let ast = syn::parse_file(&text).unwrap();
        let mut c = Collector {
            module: &Vec::new(),
            imports: BTreeMap::new(),
            children: BTreeSet::new(),
            raw: Vec::new(),
            methods: BTreeSet::new(),
        };
        syn::visit::Visit::visit_file(&mut c, &ast);
        for p in &c.raw {
            let last = p.last().map(String::as_str).unwrap_or("");
            assert!(
                !sessions.contains(&last),
                "{name} names a rule set's session: {}",
                p.join("::")
            );
            let branch = p.len() >= 2
                && p[p.len() - 2] == "RuleSet"
                && variants.contains(&p[p.len() - 1].as_str());
            assert!(!branch, "{name} branches on a rule set: {}", p.join("::"));
        }
        assert!(
            !c.methods.contains("on_grid"),
            "{name} branches on the grid"
        );
    }
    // The page builds its form and controls from the catalogue: its own code holds no rule
    // set's name.
    for page in ["live.js", "live.html"] {
        let text = std::fs::read_to_string(cli.join("web").join(page)).unwrap();
        for rules in ["grid", "aima", "cave", "maze"] {
            for quoted in [format!("\"{rules}\""), format!("'{rules}'")] {
                assert!(
                    !text.contains(&quoted),
                    "{page} names the rule set {quoted}"
                );
            }
        }
    }
}
