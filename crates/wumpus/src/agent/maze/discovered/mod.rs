//! The maze agent that knows only what the game has shown: the maze's default player.
//!
//! Seed 000's player is told a cave's name, which of its three tunnels lead to caves already
//! visited (by name; the rest read `unknown`) and what it smells, hears and feels there. It is
//! not told where unknown tunnels lead, and names repeat (five caves are "The Lost Caverns of
//! the Wyrm"). So this agent builds its own map as it walks: one *node* per cave it has stood
//! in, joined by the tunnels it has walked or can name for certain. Two nodes are never merged
//! unless that is certain, so a cave may be known twice, which only loses knowledge; a map
//! that merged two caves wrongly could prove a deadly tunnel safe.
//!
//! Where a cave cannot be told apart from others of its name, its node keeps the caves it may
//! be (`may_be`): its tunnels are theirs, so what is proven of a tunnel of every one of them is
//! proven of it, and where every one of them leads through a tunnel, so does it.
//!
//! **What is proven** is what the knowledge base proves (`seen`): the rules of
//! `kb/maze-seen.kb` over the agent's own map, told what the player stood in, sensed, entered,
//! was carried off in and hit. The agent never calls a tunnel free, or the pit, a wumpus or the
//! bats proven, on any other ground. `tests/logic/maze_bruteforce.rs` checks every proof against
//! every deal that fits what the player saw, `tests/cli/maze_discovered.rs` against the hidden
//! maze.
//!
//! **Odds** (printed as estimates): where a draft is felt, the pit is behind each of the
//! tunnels not proven free alike; where a wumpus is smelt, each such tunnel holds one with the
//! chance that a cave does (the expected wumpi left over the caves not yet visited), given
//! that at least one does, halved ([`MISS_DECAY`]) for each grenade through that tunnel that
//! missed while the smell stayed: a miss proves the cave was empty, but startles any wumpus
//! next to it, which may run in, so the evidence fades rather than proves. Without it two
//! caves next to each other trade a startled wumpus back and forth, and a player tossing into
//! them by turns spends every grenade. The agent is told the number of caves (the first line
//! of `caves.dat`) for that estimate, nothing else of the file.
//!
//! Decisions, in order: toss into a proven wumpus; step through an unknown tunnel proven free
//! of the pit and wumpi (walking the known map to the nearest one); toss where a kill is
//! likeliest when that is at least [`TOSS_AT_LEAST`] (more when the grenade is likely the last:
//! `toss_threshold`); otherwise the least-risk unknown tunnel, unless a toss is the better bet;
//! with nothing to try, toss the likeliest tunnel.
//!
//! It must never read the maze: only the views the player is shown and its own actions'
//! results.

mod decide;
mod seen;
mod words;

use self::seen::Seen;
use super::TunnelOdds;
use crate::agent::common::percent;
use crate::agent::{Decision, Knowledge, Reason, Rule};
use crate::cave::hazards::{MazeHazards, GRENADES_PER_WUMPUS};
use crate::cave::maze::{MazeAction, MazeResult, MazeView};
use crate::kb::{Observation, Proofs};
use crate::topology::Place;
use std::collections::{HashMap, VecDeque};

/// The least chance of a kill for which the agent tosses a grenade while an unknown tunnel is
/// still there to be risked, unless the grenade is likely the last.
pub const TOSS_AT_LEAST: f64 = 0.3;

/// How much each miss through a tunnel, while the smell stays, takes off the chance that the
/// wumpus is through it: a miss proves it was not there, but startles any wumpus next to the
/// blast, which may run in.
pub const MISS_DECAY: f64 = 0.5;

/// Moves after which the agent stops walking its map and tosses (a guard: a game whose map
/// keeps splitting caves it cannot tell apart must still end).
const MOVE_GUARD: u32 = 600;

/// Moves to unplaced visited caves allowed per cave of the maze: such moves are free and safe,
/// and where names repeat (the Lost Caverns) finding the way out may take many.
const REJOIN_CAP_PER_CAVE: u32 = 10;

/// What the player sensed in a cave, and when.
#[derive(Clone, Copy, Debug)]
struct Senses {
    feel: bool,
    hear: bool,
    smell: bool,
    /// The blast count when these were sensed: a smell only speaks of the wumpi since.
    epoch: u32,
}

/// One cave of the agent's own map.
#[derive(Clone, Debug)]
struct Node {
    /// Its name; `None` for the bats' cave until a tunnel into it shows the name.
    name: Option<String>,
    /// Its place in the knowledge base.
    place: Place,
    /// The places of the caves its tunnels lead to, fixed when the player first stands here.
    far: Vec<Place>,
    /// Where each tunnel leads, where that is certain.
    edges: Vec<Option<usize>>,
    /// Why each known tunnel leads where it does.
    links: Vec<Option<Link>>,
    /// What each tunnel showed when the player last stood here.
    shown: Vec<Option<String>>,
    /// What was sensed here last (none for the bats' cave).
    senses: Option<Senses>,
    /// The blast count when the player last stood here.
    stood: Option<u32>,
    /// The bats live here.
    bats: bool,
    /// For each tunnel, the blast count just after a grenade through it missed: its cave
    /// held no wumpus then, so until the next blast only a startled runner can be there.
    missed: Vec<Option<u32>>,
    /// For a node of a cave it could not tell apart from others of its name, the nodes it may
    /// be, one of which it is (its tunnels are theirs); empty for a node made where the player
    /// first stood in a cave, or was dropped by the bats.
    may_be: Vec<usize>,
    /// For each tunnel, the blast count when its cave was last told stood in, and whether it
    /// was told entered (so that neither is told twice).
    told_stood: Vec<Option<u32>>,
    told_entered: Vec<bool>,
    /// Grenades through each tunnel that missed while a wumpus was smelt here, since the
    /// smell began or a grenade from here last killed: evidence that the smell comes from
    /// elsewhere.
    misses: Vec<u32>,
}

impl Node {
    /// Room in every per-tunnel list for `k` tunnels (a node made before its tunnels were
    /// shown has none).
    fn tunnels_at_least(&mut self, k: usize) {
        if self.edges.len() < k {
            self.edges.resize(k, None);
            self.links.resize(k, None);
        }
        if self.missed.len() < k {
            self.missed.resize(k, None);
        }
        if self.misses.len() < k {
            self.misses.resize(k, 0);
        }
        if self.told_stood.len() < k {
            self.told_stood.resize(k, None);
            self.told_entered.resize(k, false);
        }
    }

    fn new(name: Option<String>, tunnels: usize, place: Place) -> Node {
        Node {
            name,
            place,
            far: Vec::new(),
            edges: vec![None; tunnels],
            links: vec![None; tunnels],
            shown: vec![None; tunnels],
            senses: None,
            stood: None,
            bats: false,
            missed: vec![None; tunnels],
            misses: vec![0; tunnels],
            may_be: Vec::new(),
            told_stood: vec![None; tunnels],
            told_entered: vec![false; tunnels],
        }
    }
}

/// How the agent knows where a tunnel leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Link {
    /// The player walked it and arrived in a cave never stood in before.
    WalkedNew,
    /// The player walked it into a cave of a name seen before, which its tunnels' names and
    /// senses tell apart from every other cave of that name.
    WalkedKnown,
    /// The tunnel shows a name that only one cave the player has entered bears.
    Named,
    /// Bats in its cave carried the player off.
    Bats,
}

/// A hazard behind a tunnel: proven absent, proven present, or an estimated chance.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Hazard {
    Free,
    Proven,
    Chance(f64),
}

impl Hazard {
    fn chance(self) -> f64 {
        match self {
            Hazard::Free => 0.0,
            Hazard::Proven => 1.0,
            Hazard::Chance(p) => p,
        }
    }
}

/// What the agent holds of one tunnel of one node.
#[derive(Clone, Copy, Debug)]
struct Assessed {
    pit: Hazard,
    wumpus: Hazard,
    bats: Hazard,
    /// The tunnel showed `unknown`: it leads to a cave never visited (or, on a first stay,
    /// back to this one).
    unknown: bool,
}

/// The way to a node: the first tunnel towards it from the player's cave, and the steps.
type Way = (usize, usize);

/// The maze agent without the map.
#[derive(Debug)]
pub struct DiscoveredMazeAgent {
    caves: usize,
    nodes: Vec<Node>,
    at: usize,
    /// Grenade blasts so far.
    epoch: u32,
    kills: u32,
    tosses: u32,
    moves: u32,
    /// Moves through tunnels to visited caves the agent could not place, to find its way
    /// back onto its map (capped: where names repeat it may never find it).
    rejoins: u32,
    /// Caves not yet visited and the chance that one holds a wumpus, counted once a turn.
    unvisited: usize,
    density: f64,
    /// The knowledge base over the agent's own map: what it proves is all the agent calls
    /// proven.
    seen: Seen,
    /// The node each place of the knowledge base stands for, if it is a node's own.
    owner: Vec<Option<usize>>,
    /// What is proven of each tunnel of the player's cave, with the observations that prove it
    /// when explaining.
    here_proofs: Vec<Vec<String>>,
    /// The nodes of each name.
    named: HashMap<String, Vec<usize>>,
    /// Put the choices weighed in words (for `trace` and `hint`).
    pub(super) explain: bool,
}

impl DiscoveredMazeAgent {
    /// A fresh agent for one game in a maze of `caves` caves.
    pub fn new(caves: usize) -> DiscoveredMazeAgent {
        DiscoveredMazeAgent::with_proofs(caves, Proofs::Fast)
    }

    fn with_proofs(caves: usize, proofs: Proofs) -> DiscoveredMazeAgent {
        // Room for a node and its three tunnels' caves per cave, and some caves known twice.
        let seen = Seen::with_capacity(4 * caves.max(1) + 16, proofs)
            .expect("the built-in rules ground on any map");
        DiscoveredMazeAgent {
            caves: caves.max(1),
            nodes: Vec::new(),
            at: 0,
            epoch: 0,
            kills: 0,
            tosses: 0,
            moves: 0,
            rejoins: 0,
            unvisited: caves.max(1),
            density: 0.0,
            seen,
            owner: Vec::new(),
            here_proofs: Vec::new(),
            named: HashMap::new(),
            explain: false,
        }
    }

    /// An agent like this one (before its first turn) that weighs its choices in words for
    /// `trace` and `hint` when `explain`, its knowledge base then able to explain its proofs.
    pub fn explained(self, explain: bool) -> DiscoveredMazeAgent {
        let proofs = if explain {
            Proofs::Explained
        } else {
            Proofs::Fast
        };
        let mut agent = DiscoveredMazeAgent::with_proofs(self.caves, proofs);
        agent.explain = explain;
        agent
    }

    /// A new node for a cave named `name` (if shown) with `tunnels` tunnels, on `place` when
    /// that place stands for no node yet (the cave behind the tunnel just walked), else on a
    /// place of its own.
    fn add_node(&mut self, name: Option<String>, tunnels: usize, place: Option<Place>) -> usize {
        let place = match place {
            Some(p) if self.owner.get(p.index()).copied().flatten().is_none() => p,
            _ => self.seen.place(),
        };
        let id = self.nodes.len();
        if let Some(name) = &name {
            self.named.entry(name.clone()).or_default().push(id);
        }
        if self.owner.len() <= place.index() {
            self.owner.resize(place.index() + 1, None);
        }
        self.owner[place.index()] = Some(id);
        self.nodes.push(Node::new(name, tunnels, place));
        id
    }

    /// The place of the cave behind tunnel `k` of `node`, once the player has stood there.
    fn far(&self, node: usize, k: usize) -> Option<Place> {
        self.nodes[node].far.get(k - 1).copied()
    }

    /// Grenades tossed so far.
    pub fn tosses(&self) -> u32 {
        self.tosses
    }

    /// Caves on the agent's own map (a cave it could not tell apart from another counts
    /// twice).
    pub fn caves_mapped(&self) -> usize {
        self.nodes.len()
    }

    /// Takes in the last action, its result and the view that followed.
    pub fn observe_turn(
        &mut self,
        last: Option<MazeAction>,
        result: Option<MazeResult>,
        view: &MazeView,
    ) {
        let tunnels = view.tunnels.len();
        let w = self.seen.words;
        if matches!(result, Some(MazeResult::Ended(_))) {
            // The game is over; what the last view shows is not the player's to take in.
            if let Some(MazeAction::Toss(_)) = last {
                self.tosses += 1;
            }
            return;
        }
        let mut carried = false;
        if self.nodes.is_empty() {
            self.at = self.add_node(Some(view.name.clone()), tunnels, None);
        } else {
            match (last, result) {
                (Some(MazeAction::Move(k)), Some(MazeResult::Moved)) => {
                    self.moves += 1;
                    let from = self.at;
                    let node = &self.nodes[from];
                    if node.edges.get(k - 1).copied().flatten().is_none()
                        && node.shown.get(k - 1).is_some_and(|s| s.is_some())
                    {
                        self.rejoins += 1;
                    }
                    let walked = self.far(from, k);
                    self.at = self.walk(from, k, view);
                    if let Some(f) = walked {
                        self.seen.tell(w.stood, f, true);
                    }
                }
                (Some(MazeAction::Move(k)), Some(MazeResult::Carried)) => {
                    self.moves += 1;
                    let from = self.at;
                    let bats = self.bats_node(from, k, tunnels);
                    self.nodes[bats].bats = true;
                    self.set_edge(from, k, bats, Link::Bats);
                    if let Some(f) = self.far(from, k) {
                        self.seen.tell(w.carried, f, true);
                    }
                    carried = true;
                    // Dropped in some empty cave, maybe one already visited: which, the name
                    // cannot say for certain, so it is a new node.
                    self.at = self.add_node(Some(view.name.clone()), tunnels, None);
                }
                (Some(MazeAction::Toss(k)), Some(MazeResult::Missed)) => {
                    self.tosses += 1;
                    self.epoch += 1;
                    self.blasted(k, false);
                    let node = &mut self.nodes[self.at];
                    node.tunnels_at_least(k);
                    node.missed[k - 1] = Some(self.epoch);
                    if node.senses.is_some_and(|s| s.smell) {
                        node.misses[k - 1] += 1;
                    }
                }
                (Some(MazeAction::Toss(k)), Some(MazeResult::Killed)) => {
                    self.tosses += 1;
                    self.kills += 1;
                    self.epoch += 1;
                    self.blasted(k, true);
                    self.nodes[self.at].misses.fill(0);
                }
                _ => {}
            }
        }
        let here = self.at;
        let epoch = self.epoch;
        let node = &mut self.nodes[here];
        node.tunnels_at_least(tunnels);
        node.shown = view.tunnels.clone();
        if !view.smell {
            node.misses.fill(0);
        }
        node.senses = Some(Senses {
            feel: view.feel,
            hear: view.hear,
            smell: view.smell,
            epoch,
        });
        node.stood = Some(epoch);
        // A tunnel into the bats' cave names it once it shows a name.
        for k in 1..=tunnels {
            let to = self.nodes[here].edges[k - 1];
            let shown = self.nodes[here].shown[k - 1].clone();
            if let (Some(to), Some(name)) = (to, shown) {
                if self.nodes[to].name.is_none() {
                    self.named.entry(name.clone()).or_default().push(to);
                    self.nodes[to].name = Some(name);
                }
            }
        }
        // A tunnel showing a name leads to the one node of that name, when only one could be
        // it: certain, so it joins the map.
        for k in 1..=tunnels {
            if self.nodes[here].edges[k - 1].is_none() {
                if let Some(name) = self.nodes[here].shown[k - 1].clone() {
                    if let Some(to) = self.sole_candidate(&name, view.hear) {
                        self.set_edge(here, k, to, Link::Named);
                    }
                }
            }
        }
        self.take_in(view, carried);
        self.recount();
    }

    /// What the knowledge base proves of the cave behind tunnel `k` of `node`; for a node that
    /// may be any of several caves, also what it proves of that tunnel of every one of them.
    fn proven(&self, node: usize, k: usize) -> seen::Proven {
        let n = &self.nodes[node];
        let tunnel = |c: usize| {
            self.far(c, k)
                .map(|f| self.seen.proven(f))
                .unwrap_or_default()
        };
        // A tunnel learnt to lead to a node after its place was made: both places are that cave.
        let there = n.edges.get(k - 1).copied().flatten();
        let own = tunnel(node).or(there.map_or_else(Default::default, |to| {
            self.seen.proven(self.nodes[to].place)
        }));
        let mut each = n.may_be.iter().map(|&c| tunnel(c));
        match each.next() {
            Some(first) => own.or(each.fold(first, seen::Proven::alike)),
            None => own,
        }
    }

    /// The node of the bats' cave, once the player has been carried off.
    fn colony(&self) -> Option<usize> {
        self.nodes.iter().position(|n| n.bats)
    }

    /// Tells the knowledge base that a grenade through tunnel `k` of the player's cave hit a
    /// wumpus or missed, and that it blasted there.
    fn blasted(&mut self, k: usize, hit: bool) {
        if let Some(f) = self.far(self.at, k) {
            self.seen.tell(self.seen.words.hit, f, hit);
            self.seen.blast(f);
        }
    }

    /// Tells the knowledge base what the player stands in and senses, and what the map now
    /// says of every tunnel's cave, then works out what that proves.
    fn take_in(&mut self, view: &MazeView, carried: bool) {
        let w = self.seen.words;
        let here = self.at;
        if self.nodes[here].far.is_empty() {
            // Where the tunnels lead, fixed before anything sensed here is told: the node a
            // tunnel is known to lead to, or a place for a cave not yet placed.
            let far: Vec<Place> = (0..view.tunnels.len())
                .map(|i| match self.nodes[here].edges[i] {
                    Some(to) => self.nodes[to].place,
                    None => self.seen.place(),
                })
                .collect();
            self.nodes[here].far = far.clone();
            self.seen.set_tunnels(self.nodes[here].place, far);
        }
        let place = self.nodes[here].place;
        self.seen.tell(w.stood, place, true);
        self.seen.tell(w.smell, place, view.smell);
        self.seen.tell(w.hear, place, view.hear);
        self.seen.tell(w.feel, place, view.feel);
        // What the map says of a tunnel's cave changes only with the tunnels of the cave the
        // player stands in, those that lead or may lead here, or a new bats' cave.
        let name = self.nodes[here].name.clone();
        let colony = self.colony();
        // A tunnel that shows this cave's name may be proven empty now only when every cave of
        // that name has been stood in since the last blast.
        let by_name = name.as_ref().is_some_and(|name| {
            self.all_stood_now(name) && colony.is_none_or(|c| self.nodes[c].name.is_some())
        });
        for n in 0..self.nodes.len() {
            for k in 1..=self.nodes[n].far.len() {
                let node = &self.nodes[n];
                // A tunnel may lead to the bats' cave once they have carried the player off.
                let touches = n == here
                    || carried
                    || match node.edges[k - 1] {
                        Some(to) => to == here,
                        None => by_name && node.shown[k - 1].is_some() && node.shown[k - 1] == name,
                    };
                if touches {
                    self.tell_beyond(n, k, colony);
                }
            }
        }
        self.seen.prove();
        if self.explain {
            self.here_proofs = self.proofs_here();
        }
    }

    /// Tells what the map says of the cave behind tunnel `k` of `node`: the caves it may be
    /// are the node it is known to lead to, or every node of the name it shows (and the bats'
    /// cave while that has no name). Where every one of them has been entered it has no pit,
    /// where every one holds the bats it does, and where the player has stood in every one
    /// since the last blast it is empty now.
    fn tell_beyond(&mut self, node: usize, k: usize, colony: Option<usize>) {
        let Some(f) = self.far(node, k) else {
            return;
        };
        let n = &self.nodes[node];
        if n.told_entered[k - 1] && n.told_stood[k - 1] == Some(self.epoch) {
            return;
        }
        let (entered, carried, stood) = match (n.edges[k - 1], &n.shown[k - 1]) {
            (Some(to), _) => {
                let t = &self.nodes[to];
                (
                    t.stood.is_some() || t.bats,
                    t.bats,
                    t.stood == Some(self.epoch),
                )
            }
            (None, Some(name)) => {
                // Every node of the name, and the bats' cave while it has none: the bats'
                // cave is never stood in, and caves of a name are never all the bats'.
                let unnamed_colony = colony.is_some_and(|c| self.nodes[c].name.is_none());
                let stood = !unnamed_colony && self.all_stood_now(name);
                (true, false, stood)
            }
            (None, None) => return,
        };
        let w = self.seen.words;
        if entered && !self.nodes[node].told_entered[k - 1] {
            self.seen.tell(w.entered, f, true);
            self.nodes[node].told_entered[k - 1] = true;
        }
        if carried {
            self.seen.tell(w.carried, f, true);
        }
        if stood {
            self.seen.tell(w.stood, f, true);
            self.nodes[node].told_stood[k - 1] = Some(self.epoch);
        }
    }

    /// True when the player has stood in every cave named `name` it knows since the last
    /// blast.
    fn all_stood_now(&self, name: &str) -> bool {
        self.named
            .get(name)
            .is_some_and(|all| all.iter().all(|&i| self.nodes[i].stood == Some(self.epoch)))
    }

    /// Counts, once a turn, what the odds of every tunnel share.
    fn recount(&mut self) {
        self.unvisited = self.count_unvisited();
        self.density = self.wumpus_density();
    }

    fn set_edge(&mut self, from: usize, k: usize, to: usize, link: Link) {
        let node = &mut self.nodes[from];
        node.tunnels_at_least(k);
        node.edges[k - 1] = Some(to);
        node.links[k - 1] = Some(link);
    }

    /// The only node that a tunnel showing `name` can lead to (a visited cave of that name,
    /// or the bats' cave while its name is unknown), if there is exactly one;
    /// `bats_possible`: false where no wings are heard, so no tunnel leads to the bats.
    fn sole_candidate(&self, name: &str, bats_possible: bool) -> Option<usize> {
        let mut found = None;
        for (i, n) in self.nodes.iter().enumerate() {
            if (n.bats && !bats_possible) || !n.may_be.is_empty() {
                continue;
            }
            if n.name.as_deref().is_none_or(|m| m == name) {
                if found.is_some() {
                    return None;
                }
                found = Some(i);
            }
        }
        found
    }

    /// The node reached by walking tunnel `k` of `from` into the cave `view` shows.
    fn walk(&mut self, from: usize, k: usize, view: &MazeView) -> usize {
        let name = view.name.as_str();
        let known = self.nodes[from].edges.get(k - 1).copied().flatten();
        if let Some(to) = known {
            if self.nodes[to].name.as_deref() == Some(name) {
                return to;
            }
        }
        let shown = self.nodes[from].shown.get(k - 1).cloned().flatten();
        if shown.as_deref() == Some(name) {
            // A cave visited before, and not the bats' (the player stands in it): one of the
            // nodes of that name, since every cave stood in has one. Which one, its
            // signature may tell: names shown stay shown, a draft or wings stay, a smell
            // stays until a blast.
            let fits = |n: &Node| {
                n.name.as_deref() == Some(name)
                    && !n.bats
                    && n.senses.is_some_and(|s| {
                        s.feel == view.feel
                            && s.hear == view.hear
                            && (s.epoch != self.epoch || s.smell == view.smell)
                    })
                    && n.shown
                        .iter()
                        .zip(&view.tunnels)
                        .all(|(was, now)| was.is_none() || was == now)
            };
            // Only the first node of each cave can be it: a node made for a cave the agent
            // could not tell apart is one of those. Leaving such a node, the caves it may be
            // say where the tunnel may lead, where each of them knows.
            let tracked = self.through_each(from, k);
            let fitting: Vec<usize> = tracked
                .or_else(|| self.named.get(name).cloned())
                .unwrap_or_default()
                .into_iter()
                .filter(|&i| fits(&self.nodes[i]))
                .collect();
            if let [to] = fitting[..] {
                self.set_edge(from, k, to, Link::WalkedKnown);
                return to;
            }
            let may_be = if fitting.is_empty() {
                self.named.get(name).cloned().unwrap_or_default()
            } else {
                fitting
            };
            let to = self.add_node(
                Some(name.to_string()),
                view.tunnels.len(),
                self.far(from, k),
            );
            if !may_be.is_empty() {
                // A second node of a cave already known: not one the names can lead to.
                if let Some(all) = self.named.get_mut(name) {
                    all.retain(|&i| i != to);
                }
                self.nodes[to].may_be = may_be;
            }
            self.set_edge(from, k, to, Link::WalkedNew);
            return to;
        }
        let to = self.add_node(
            Some(name.to_string()),
            view.tunnels.len(),
            self.far(from, k),
        );
        self.set_edge(from, k, to, Link::WalkedNew);
        to
    }

    /// For a node that may be any of several caves, the first nodes of the caves tunnel `k`
    /// leads to from each of them, when every one of them knows where it leads.
    fn through_each(&self, from: usize, k: usize) -> Option<Vec<usize>> {
        let may_be = &self.nodes[from].may_be;
        if may_be.is_empty() {
            return None;
        }
        let mut found = Vec::new();
        for &c in may_be {
            let to = self.nodes[c].edges.get(k - 1).copied().flatten()?;
            let t = &self.nodes[to];
            if t.may_be.is_empty() {
                found.push(to);
            } else {
                found.extend_from_slice(&t.may_be);
            }
        }
        found.sort_unstable();
        found.dedup();
        Some(found)
    }

    /// The bats' cave behind tunnel `k` of `from`: the node already known to hold them, or a
    /// new one named as the tunnel showed it.
    fn bats_node(&mut self, from: usize, k: usize, tunnels: usize) -> usize {
        if let Some(b) = self.colony() {
            return b;
        }
        if let Some(to) = self.nodes[from].edges.get(k - 1).copied().flatten() {
            return to;
        }
        let name = self.nodes[from].shown.get(k - 1).cloned().flatten();
        self.add_node(name, tunnels, self.far(from, k))
    }

    /// True when the tunnel leads to a cave the player has been in (so no pit is there).
    fn leads_to_visited(&self, node: usize, k: usize) -> bool {
        let n = &self.nodes[node];
        n.shown.get(k - 1).is_some_and(|s| s.is_some())
            || n.edges.get(k - 1).copied().flatten().is_some_and(|to| {
                let t = &self.nodes[to];
                t.stood.is_some() || t.bats
            })
    }

    /// What the agent holds of each tunnel of `node`, from what it sensed there last.
    fn assess(&self, node: usize) -> Vec<Assessed> {
        let n = &self.nodes[node];
        let tunnels = n.shown.len();
        let senses = n.senses;
        let bats_known = self.colony().is_some();
        let visited: Vec<bool> = (1..=tunnels)
            .map(|k| self.leads_to_visited(node, k))
            .collect();
        // What the knowledge base proves of each tunnel's cave.
        let proven: Vec<seen::Proven> = (1..=tunnels).map(|k| self.proven(node, k)).collect();
        let pit_free: Vec<bool> = proven.iter().map(|p| p.pit == Some(false)).collect();
        let wumpus_free: Vec<bool> = proven.iter().map(|p| p.wumpus == Some(false)).collect();
        let bats_free: Vec<bool> = proven.iter().map(|p| p.bats == Some(false)).collect();
        let q = self.density;
        let open = |free: &[bool]| free.iter().filter(|f| !**f).count();
        // A tunnel a grenade just missed: likely empty, but not proven (a wumpus startled by
        // that very blast may have run in).
        let just_missed: Vec<bool> = (0..tunnels)
            .map(|i| n.missed.get(i).copied().flatten() == Some(self.epoch))
            .collect();
        let (pits_open, bats_open) = (open(&pit_free), open(&bats_free));
        let likely: Vec<bool> = (0..tunnels)
            .map(|i| wumpus_free[i] || just_missed[i])
            .collect();
        let wumpi_open = open(&wumpus_free);
        let wumpi_likely = open(&likely).max(1);
        (0..tunnels)
            .map(|i| {
                let pit = if pit_free[i] {
                    Hazard::Free
                } else if proven[i].pit == Some(true) {
                    Hazard::Proven
                } else {
                    Hazard::Chance(1.0 / pits_open as f64)
                };
                let wumpus = if wumpus_free[i] {
                    Hazard::Free
                } else if proven[i].wumpus == Some(true) {
                    Hazard::Proven
                } else if just_missed[i] && wumpi_open > 1 {
                    Hazard::Chance(q)
                } else if senses.is_some_and(|s| s.smell) {
                    // A smell since the last blast proves; an older one still says where
                    // the wumpus most likely is (only wumpi next to a blast run).
                    // At least one of the open tunnels holds a wumpus; each miss through this
                    // one since the smell began makes it less likely the one.
                    let none = (1.0 - q).powi(wumpi_likely as i32);
                    let misses = n.misses.get(i).copied().unwrap_or(0);
                    let decay = MISS_DECAY.powi(misses as i32);
                    Hazard::Chance((q / (1.0 - none).max(q)).min(1.0) * decay)
                } else {
                    // Nothing smelt, but before the last blast: a wumpus may have run in.
                    Hazard::Chance(q)
                };
                let bats = if bats_free[i] {
                    Hazard::Free
                } else if proven[i].bats == Some(true) {
                    Hazard::Proven
                } else if !visited[i] && bats_known {
                    // One colony, and its cave has been entered: a tunnel that shows no name
                    // leads elsewhere. True, but not told to the knowledge base (which holds no
                    // counts), so given as a chance of none rather than a proof.
                    Hazard::Chance(0.0)
                } else if senses.is_some_and(|s| s.hear) {
                    Hazard::Chance(1.0 / bats_open as f64)
                } else {
                    Hazard::Chance(1.0 / self.unvisited as f64)
                };
                Assessed {
                    pit,
                    wumpus,
                    bats,
                    unknown: !visited[i],
                }
            })
            .collect()
    }

    /// Caves not yet stood in, as far as the agent can count them: by names, since a cave may
    /// be on its map twice (so caves sharing a name count once, and the count may be high).
    fn count_unvisited(&self) -> usize {
        let mut names: Vec<&str> = self
            .nodes
            .iter()
            .filter(|n| n.stood.is_some())
            .filter_map(|n| n.name.as_deref())
            .collect();
        names.sort_unstable();
        names.dedup();
        self.caves.saturating_sub(names.len()).max(1)
    }

    /// The fewest wumpi the game can have dealt, from its answers: while it goes on one is
    /// alive, so more than were killed, and a grenade is left, so more than a quarter of those
    /// tossed (four a wumpus).
    pub fn fewest_dealt(&self) -> u32 {
        (self.kills + 1).max(self.tosses / GRENADES_PER_WUMPUS + 1)
    }

    /// The fewest grenades the player can still hold.
    pub fn grenades_at_least(&self) -> u32 {
        GRENADES_PER_WUMPUS * self.fewest_dealt() - self.tosses
    }

    /// The chance that the next grenade is the last: the deal's count of wumpi (1 to caves/4
    /// alike) given the fewest it can have been, with exactly one grenade left.
    pub fn last_grenade(&self) -> f64 {
        let (fewest, most) = (self.fewest_dealt(), self.most_dealt());
        if fewest > most {
            return 0.0;
        }
        let last = (fewest..=most)
            .filter(|&w| GRENADES_PER_WUMPUS * w == self.tosses + 1)
            .count();
        last as f64 / (most - fewest + 1) as f64
    }

    fn most_dealt(&self) -> u32 {
        MazeHazards::most_wumpi(self.caves) as u32
    }

    /// The estimated chance that a cave not yet visited holds a live wumpus: the wumpi the
    /// deal leaves alive on average, given the fewest it can have dealt, over the caves not yet
    /// visited.
    fn wumpus_density(&self) -> f64 {
        let (fewest, most) = (
            self.fewest_dealt(),
            self.most_dealt().max(self.fewest_dealt()),
        );
        let mean = (fewest + most) as f64 / 2.0;
        let left = (mean - self.kills as f64).max(1.0);
        (left / self.unvisited as f64).min(1.0)
    }

    /// The estimated odds of each tunnel of the player's cave.
    pub fn tunnels(&self) -> Vec<TunnelOdds> {
        if self.nodes.is_empty() {
            return Vec::new();
        }
        let here = &self.nodes[self.at];
        self.assess(self.at)
            .iter()
            .enumerate()
            .map(|(i, a)| TunnelOdds {
                tunnel: i + 1,
                name: here.shown[i].clone().unwrap_or_else(|| "unknown".into()),
                wumpus: a.wumpus.chance(),
                pit: a.pit.chance(),
                bats: a.bats.chance(),
                devour: 0.0,
                estimated: true,
                safe: a.pit == Hazard::Free && a.wumpus == Hazard::Free,
                proven_wumpus: a.wumpus == Hazard::Proven,
            })
            .collect()
    }

    /// What the agent knows, in places of the real maze: nothing it could place, since it
    /// does not hold the map (its knowledge is in its reasons, by tunnel).
    pub(super) fn known(&self) -> Knowledge {
        Knowledge {
            wumpus_alive: true,
            ways: self.proven_ways(),
            ..Knowledge::default()
        }
    }

    /// Breadth-first over the agent's map from the player's cave, through tunnels whose known
    /// caves are proven free of the pit and wumpi: each node reached with the first tunnel
    /// towards it and the steps, and what the agent holds of its tunnels.
    fn reachable(&self) -> (Vec<Option<Way>>, Vec<Vec<Assessed>>) {
        let mut way: Vec<Option<Way>> = vec![None; self.nodes.len()];
        let mut judged: Vec<Vec<Assessed>> = vec![Vec::new(); self.nodes.len()];
        let mut queue = VecDeque::new();
        way[self.at] = Some((0, 0));
        queue.push_back(self.at);
        while let Some(n) = queue.pop_front() {
            let (first, steps) = way[n].expect("queued nodes have a way");
            judged[n] = self.assess(n);
            let assessed = &judged[n];
            let node = &self.nodes[n];
            for (i, a) in assessed.iter().enumerate() {
                if a.pit != Hazard::Free || a.wumpus != Hazard::Free {
                    continue;
                }
                // Where the tunnel leads: certain, or else the one node of the name it shows
                // (the bats' cave aside, which a plan never enters). A plan may so head for a
                // cave of the same name the agent has not met, which costs only steps: every
                // step is judged again, safe or not, where it is taken.
                let target = match (node.edges[i], &node.shown[i]) {
                    (Some(to), _) => Some(to),
                    // Leaving a cave known only as one of several: where every one of them
                    // leads through this tunnel, if that is one cave.
                    (None, Some(_)) if !node.may_be.is_empty() => {
                        match self.through_each(n, i + 1).as_deref() {
                            Some(&[to]) => Some(to),
                            _ => None,
                        }
                    }
                    (None, Some(name)) => match self.named.get(name).map(Vec::as_slice) {
                        Some(&[j]) if !self.nodes[j].bats => Some(j),
                        _ => None,
                    },
                    (None, None) => None,
                };
                if let Some(to) = target {
                    if way[to].is_some() || self.nodes[to].bats || self.nodes[to].stood.is_none() {
                        continue;
                    }
                    way[to] = Some((if n == self.at { i + 1 } else { first }, steps + 1));
                    queue.push_back(to);
                }
            }
        }
        (way, judged)
    }
}

fn toss(tunnel: usize, rule: Rule, text: String) -> Decision<MazeAction> {
    Decision {
        action: MazeAction::Toss(tunnel),
        reason: reason(rule, text),
        choices: Vec::new(),
        depth: None,
    }
}

fn reason(rule: Rule, text: String) -> Reason {
    Reason {
        rule,
        target: None,
        steps: 0,
        text,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn view(
        name: &str,
        tunnels: [Option<&str>; 3],
        smell: bool,
        hear: bool,
        feel: bool,
    ) -> MazeView {
        MazeView {
            name: name.into(),
            tunnels: tunnels.iter().map(|t| t.map(String::from)).collect(),
            smell,
            hear,
            feel,
        }
    }

    #[test]
    fn nothing_sensed_proves_every_tunnel_free() {
        let mut a = DiscoveredMazeAgent::new(20);
        a.observe_turn(
            None,
            None,
            &view("A", [None, None, None], false, false, false),
        );
        assert!(a.tunnels().iter().all(|t| t.safe));
        assert_eq!(a.choose().reason.rule, Rule::Explore);
    }

    #[test]
    fn a_draft_with_one_unknown_tunnel_proves_the_pit_there() {
        let mut a = DiscoveredMazeAgent::new(20);
        a.observe_turn(
            None,
            None,
            &view("A", [None, None, None], false, false, false),
        );
        a.observe_turn(
            Some(MazeAction::Move(1)),
            Some(MazeResult::Moved),
            &view("B", [Some("A"), None, Some("A")], false, false, true),
        );
        let t = a.tunnels();
        assert_eq!(t[1].pit, 1.0);
        assert_eq!(t[0].pit, 0.0);
        // Never stepped into: the one unknown way on is the pit.
        assert_ne!(a.choose().action, MazeAction::Move(2));
    }

    #[test]
    fn a_smell_with_one_open_tunnel_is_tossed_into() {
        let mut a = DiscoveredMazeAgent::new(20);
        a.observe_turn(
            None,
            None,
            &view("A", [None, None, None], false, false, false),
        );
        a.observe_turn(
            Some(MazeAction::Move(2)),
            Some(MazeResult::Moved),
            &view("B", [Some("A"), Some("A"), None], true, false, false),
        );
        assert_eq!(a.choose().action, MazeAction::Toss(3));
    }

    #[test]
    fn after_a_blast_an_old_smell_proves_nothing() {
        let mut a = DiscoveredMazeAgent::new(20);
        a.observe_turn(
            None,
            None,
            &view("A", [None, None, None], true, false, false),
        );
        a.observe_turn(
            Some(MazeAction::Toss(1)),
            Some(MazeResult::Missed),
            &view("A", [None, None, None], true, false, false),
        );
        assert!(a.tunnels().iter().all(|t| !t.safe && t.wumpus > 0.0));
    }

    #[test]
    fn misses_under_a_lasting_smell_stop_the_tossing() {
        // Two unknown tunnels and a smell that stays after every miss: a startled wumpus can
        // run between the two caves for ever, so the agent must not toss into them by turns
        // until its grenades are gone.
        let mut a = DiscoveredMazeAgent::new(20);
        // A draft in A: nothing there is safe to explore.
        a.observe_turn(
            None,
            None,
            &view("A", [None, None, None], false, false, true),
        );
        let smelly = view("B", [Some("A"), None, None], true, false, false);
        a.observe_turn(Some(MazeAction::Move(1)), Some(MazeResult::Moved), &smelly);
        let mut tosses = 0;
        while let MazeAction::Toss(k) = a.choose().action {
            tosses += 1;
            assert!(tosses <= 3, "tossed {tosses} times without new evidence");
            a.observe_turn(Some(MazeAction::Toss(k)), Some(MazeResult::Missed), &smelly);
        }
        assert!(
            tosses >= 1,
            "a fresh smell with two open tunnels is worth a grenade"
        );
    }

    #[test]
    fn the_games_answers_bound_the_grenades_held() {
        let mut a = DiscoveredMazeAgent::new(20);
        let here = view("A", [None, None, None], true, false, false);
        a.observe_turn(None, None, &here);
        // Nothing thrown: one wumpus at least, so four grenades.
        assert_eq!((a.fewest_dealt(), a.grenades_at_least()), (1, 4));
        assert_eq!(a.last_grenade(), 0.0);
        for _ in 0..3 {
            a.observe_turn(Some(MazeAction::Toss(1)), Some(MazeResult::Missed), &here);
        }
        // Three misses: still one wumpus at least, and one grenade if that is all.
        assert_eq!((a.fewest_dealt(), a.grenades_at_least()), (1, 1));
        assert!(
            (a.last_grenade() - 0.2).abs() < 1e-12,
            "{}",
            a.last_grenade()
        );
        a.observe_turn(Some(MazeAction::Toss(2)), Some(MazeResult::Missed), &here);
        // A fourth and the game goes on: two wumpi were dealt at least.
        assert_eq!((a.fewest_dealt(), a.grenades_at_least()), (2, 4));
        a.observe_turn(Some(MazeAction::Toss(3)), Some(MazeResult::Killed), &here);
        assert_eq!((a.fewest_dealt(), a.grenades_at_least()), (2, 3));
    }
}
