//! What a learner is shown, as fixed-shape arrays ([`Features`]): the percepts of this turn
//! alone, a memory of what the player perceived where, or that memory with what the knowledge
//! base proves of each place and the exact odds where logic runs out. An array is planes (one
//! value a place: a grid's cells, a cave's rooms), then in the caves the tunnels known (a row
//! a room), then scalars: this turn's percepts and what the player knows that lasts (its
//! heading, its arrow, the gold carried, the wumpus dead), one value each rather than a plane
//! of copies. One routine for every rule set, over what a session shows
//! ([`crate::game::Session::observation`]) and what a follower proves ([`Knowledge`]).
//!
//! It must never read the hidden world: a memory is built from what each turn showed, and a
//! maze cave is known by its name alone (caves sharing a name share a slot), as the player
//! knows it.

use crate::agent::Knowledge;
use crate::game::{Briefing, Observation, Percept, RuleFacts};
use crate::numbered::Numbered;
use crate::topology::{Place, Topology};
use std::sync::Arc;

/// What an observation holds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Mode {
    /// This turn's percepts (and, in the classic cave, the room): [`Numbered::observe`].
    Percepts,
    /// What the player has perceived where, this turn's percepts, and what it knows that
    /// lasts.
    Memory,
    /// The memory, and what the knowledge base proves and the odds.
    Knowledge,
}

impl Mode {
    /// Every mode, by name: `percepts`, `memory`, `knowledge`.
    pub const ALL: [(Mode, &'static str); 3] = [
        (Mode::Percepts, "percepts"),
        (Mode::Memory, "memory"),
        (Mode::Knowledge, "knowledge"),
    ];

    /// The mode named `name`.
    pub fn parse(name: &str) -> Option<Mode> {
        Mode::ALL.iter().find(|(_, n)| *n == name).map(|(m, _)| *m)
    }
}

/// Where each value sits in a memory or knowledge array, and its shape.
#[derive(Clone, Debug, PartialEq)]
pub struct Layout {
    /// The planes, in order; each holds one value a place.
    pub channels: Vec<&'static str>,
    /// The places' slots: a grid's cells (of the largest board the player may be on), or a
    /// cave's rooms.
    pub slots: usize,
    /// A grid's rows and columns, for the planes' shape (channels, rows, columns).
    pub grid: Option<(usize, usize)>,
    /// True when the planes are followed by the tunnels known: a row a slot, each a slot's
    /// tunnels to every slot (shape (slots, slots)).
    pub tunnels: bool,
    /// The scalars at the end, in order: one value each.
    pub scalars: Vec<&'static str>,
}

impl Layout {
    /// The shape of the planes (with the tunnels' rows after them in a cave): the array's
    /// first [`Layout::planes_len`] values.
    pub fn shape(&self) -> Vec<usize> {
        match self.grid {
            Some((rows, cols)) => vec![self.channels.len(), rows, cols],
            None if self.tunnels => vec![self.channels.len() + self.slots, self.slots],
            None => vec![self.channels.len(), self.slots],
        }
    }

    /// Values the planes (and tunnels) hold.
    pub fn planes_len(&self) -> usize {
        self.shape().iter().product()
    }

    /// Values in all: the planes, then the scalars.
    pub fn len(&self) -> usize {
        self.planes_len() + self.scalars.len()
    }

    /// True when the array is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn channel(&self, name: &str) -> Option<usize> {
        self.channels.iter().position(|c| *c == name)
    }

    fn scalar(&self, name: &str) -> Option<usize> {
        self.scalars.iter().position(|c| *c == name)
    }
}

const GRID_MEMORY: [&str; 6] = ["here", "visited", "visits", "breeze", "stench", "glitter"];
const GRID_SCALARS: [&str; 11] = [
    "now_stench",
    "now_breeze",
    "now_glitter",
    "now_bump",
    "now_scream",
    "arrow",
    "gold",
    "wumpus_dead",
    "at_start",
    "moves",
    "home_distance",
];
const HEADING_SCALARS: [&str; 4] = ["facing_north", "facing_east", "facing_south", "facing_west"];
const CAVE_MEMORY: [&str; 6] = ["here", "visited", "visits", "draft", "bats", "stench"];
const CAVE_SCALARS: [&str; 5] = ["now_stench", "now_draft", "now_bats", "arrows", "moves"];
/// The knowledge's scalars: the share of places proven safe and not yet visited (none: the
/// proofs have nothing left to explore).
const KNOWLEDGE_SCALARS: [&str; 1] = ["safe_unvisited"];
/// The knowledge's routes on a grid without a heading: the first step, by the compass, of the
/// shortest walk over proven-safe cells to the nearest proven-safe cell not yet visited
/// (`explore_`) and to the way out (`home_`); all 0 where there is none.
const COMPASS_ROUTES: [&str; 8] = [
    "explore_north",
    "explore_east",
    "explore_south",
    "explore_west",
    "home_north",
    "home_east",
    "home_south",
    "home_west",
];
/// The same routes under the textbook's rules, by the player's heading: the first step is
/// ahead, to the right, behind or to the left.
const HEADING_ROUTES: [&str; 8] = [
    "explore_ahead",
    "explore_right",
    "explore_behind",
    "explore_left",
    "home_ahead",
    "home_right",
    "home_behind",
    "home_left",
];
const GRID_KNOWLEDGE: [&str; 6] = [
    "proven_safe",
    "proven_pit",
    "proven_wumpus",
    "p_pit",
    "p_wumpus",
    "p_death",
];
const CAVE_KNOWLEDGE: [&str; 8] = [
    "proven_safe",
    "proven_pit",
    "proven_wumpus",
    "proven_bats",
    "p_pit",
    "p_wumpus",
    "p_bats",
    "p_death",
];

/// The layout of `mode` for games of `rules` whose player was told `briefing`; `None` for
/// [`Mode::Percepts`], which is a short vector.
pub fn layout(rules: &RuleFacts, briefing: &Briefing, mode: Mode) -> Option<Layout> {
    if mode == Mode::Percepts {
        return None;
    }
    let knowledge = mode == Mode::Knowledge;
    let mut channels: Vec<&'static str>;
    let mut scalars: Vec<&'static str>;
    let (slots, grid, tunnels) = if rules.on_grid {
        let (rows, cols) = briefing
            .grid_size()
            .or_else(|| briefing.grid_prior().map(|p| p.largest()))
            .unwrap_or((0, 0));
        channels = GRID_MEMORY.to_vec();
        if knowledge {
            channels.extend(GRID_KNOWLEDGE);
        }
        scalars = GRID_SCALARS.to_vec();
        if rules.input == "heading" {
            scalars.extend(HEADING_SCALARS);
        }
        if knowledge {
            scalars.extend(KNOWLEDGE_SCALARS);
            scalars.extend(if rules.input == "heading" {
                HEADING_ROUTES
            } else {
                COMPASS_ROUTES
            });
        }
        (rows * cols, Some((rows, cols)), false)
    } else {
        channels = CAVE_MEMORY.to_vec();
        if knowledge {
            channels.extend(CAVE_KNOWLEDGE);
        }
        scalars = CAVE_SCALARS.to_vec();
        if knowledge {
            scalars.extend(KNOWLEDGE_SCALARS);
        }
        if !rules.tells_shots {
            // The maze never tells the player its grenades.
            scalars.retain(|c| *c != "arrows");
        }
        (briefing.places(), None, true)
    };
    Some(Layout {
        channels,
        slots,
        grid,
        tunnels,
        scalars,
    })
}

/// A player's memory, kept over one game, and the arrays a learner is shown.
#[derive(Clone, Debug)]
pub struct Features {
    /// The memory's layout ([`Mode::Memory`]).
    layout: Layout,
    /// The memory's values (planes, the tunnels, then the scalars).
    memory: Vec<f32>,
    /// The slot the player was last in.
    here: Option<usize>,
}

impl Features {
    /// An empty memory for games of `rules` whose player was told `briefing`.
    pub fn new(rules: &RuleFacts, briefing: &Briefing) -> Features {
        let layout = layout(rules, briefing, Mode::Memory).expect("a memory has a layout");
        let memory = vec![0.0; layout.len()];
        Features {
            layout,
            memory,
            here: None,
        }
    }

    /// The memory's layout.
    pub fn layout(&self) -> &Layout {
        &self.layout
    }

    /// Forgets the game: a new one begins.
    pub fn clear(&mut self) {
        self.memory.fill(0.0);
        self.here = None;
    }

    fn at(&mut self, channel: &str, slot: usize) -> Option<&mut f32> {
        let c = self.layout.channel(channel)?;
        self.memory.get_mut(c * self.layout.slots + slot)
    }

    fn set_scalar(&mut self, name: &str, value: f32) {
        if let Some(k) = self.layout.scalar(name) {
            let at = self.layout.planes_len() + k;
            self.memory[at] = value;
        }
    }

    /// Takes in what `session` showed this turn (`observation`, its public side).
    pub fn observe<S: Numbered>(&mut self, session: &S, observation: &Observation) {
        let slot = observation
            .at
            .and_then(|p| session.slot(p, self.layout.grid));
        let arrived = self.here != slot;
        if let Some(old) = self.here.take() {
            if let Some(v) = self.at("here", old) {
                *v = 0.0;
            }
        }
        let on = |p: Percept| f32::from(u8::from(observation.percepts.contains(&p)));
        if let Some(s) = slot {
            self.here = Some(s);
            for (channel, value) in [("here", 1.0), ("visited", 1.0)] {
                if let Some(v) = self.at(channel, s) {
                    *v = value;
                }
            }
            // Each arrival counts an eighth, up to 1: a walk in circles shows.
            if arrived {
                if let Some(v) = self.at("visits", s) {
                    *v = (*v + 0.125).min(1.0);
                }
            }
            // What is perceived in a place: the latest visit's.
            for (percept, channel) in [
                (Percept::Breeze, "breeze"),
                (Percept::Stench, "stench"),
                (Percept::Glitter, "glitter"),
                (Percept::Draft, "draft"),
                (Percept::Bats, "bats"),
            ] {
                if let Some(v) = self.at(channel, s) {
                    *v = on(percept);
                }
            }
        }
        for (percept, scalar) in [
            (Percept::Stench, "now_stench"),
            (Percept::Breeze, "now_breeze"),
            (Percept::Glitter, "now_glitter"),
            (Percept::Bump, "now_bump"),
            (Percept::Scream, "now_scream"),
            (Percept::Draft, "now_draft"),
            (Percept::Bats, "now_bats"),
        ] {
            self.set_scalar(scalar, on(percept));
        }
        // A scream is heard once; the wumpus stays dead.
        if observation.percepts.contains(&Percept::Scream) {
            self.set_scalar("wumpus_dead", 1.0);
        }
        for (way, scalar) in [
            ("north", "facing_north"),
            ("east", "facing_east"),
            ("south", "facing_south"),
            ("west", "facing_west"),
        ] {
            let facing = observation.facing.as_deref() == Some(way);
            self.set_scalar(scalar, f32::from(u8::from(facing)));
        }
        if let Some(arrows) = observation.arrows {
            self.set_scalar("arrow", f32::from(u8::from(arrows > 0)));
            self.set_scalar("arrows", arrows as f32 / 5.0);
        }
        // The actions (moves) taken, over 100, up to 1: how long the game has gone on.
        self.set_scalar("moves", (observation.moves as f32 / 100.0).min(1.0));
        let gold = session.carries_gold().unwrap_or(false);
        self.set_scalar("gold", f32::from(u8::from(gold)));
        let at_start = slot.is_some() && slot == Some(0) && self.layout.grid.is_some();
        self.set_scalar("at_start", f32::from(u8::from(at_start)));
        // The walk home to 0,0 in steps, over the longest the board can need.
        if let (Some(s), Some((rows, cols))) = (slot, self.layout.grid) {
            let (r, c) = (s / cols, s % cols);
            let most = (rows + cols).saturating_sub(2).max(1);
            self.set_scalar("home_distance", (r + c) as f32 / most as f32);
        }
        if self.layout.tunnels {
            let n = self.layout.slots;
            let base = self.layout.channels.len() * n;
            if let Some(s) = slot {
                for exit in &observation.exits {
                    if let Some(to) = exit.to.and_then(|p| session.slot(p, self.layout.grid)) {
                        self.memory[base + s * n + to] = 1.0;
                    }
                }
                for &from in &observation.entries {
                    if let Some(from) = session.slot(from, self.layout.grid) {
                        self.memory[base + from * n + s] = 1.0;
                    }
                }
            }
        }
    }

    /// Writes the array of `layout` (a memory's or a knowledge's, of this game) into `out`
    /// ([`Layout::len`] values): the memory's planes, then what `knowledge` proves and its
    /// odds, then the tunnels known, then the scalars. `places_on` is the grid the knowledge
    /// numbers its places on when that is not the game's ([`crate::agent::Agent::places_on`]).
    /// Without knowledge its planes are -1 throughout.
    pub fn write<S: Numbered>(
        &self,
        layout: &Layout,
        session: &S,
        knowledge: Option<(&Knowledge, Option<&Arc<Topology>>)>,
        out: &mut [f32],
    ) {
        let n = layout.slots;
        let memory = &self.layout;
        for (c, name) in layout.channels.iter().enumerate() {
            let row = &mut out[c * n..(c + 1) * n];
            match memory.channel(name) {
                Some(m) => row.copy_from_slice(&self.memory[m * n..(m + 1) * n]),
                None => row.fill(-1.0),
            }
        }
        if layout.tunnels {
            let (from, to) = (memory.channels.len() * n, layout.channels.len() * n);
            out[to..to + n * n].copy_from_slice(&self.memory[from..from + n * n]);
        }
        let (from, to) = (memory.planes_len(), layout.planes_len());
        for (k, name) in layout.scalars.iter().enumerate() {
            out[to + k] = match memory.scalar(name) {
                Some(m) => self.memory[from + m],
                None => -1.0,
            };
        }
        let Some((k, places_on)) = knowledge else {
            return;
        };
        let slot = |p: Place| -> Option<usize> {
            match (places_on, layout.grid) {
                (Some(t), Some((_, cols))) => {
                    let (r, c) = t.coords(p);
                    (c < cols).then_some(r * cols + c).filter(|&s| s < n)
                }
                _ => session.slot(p, layout.grid),
            }
        };
        // Proofs: 0 or 1. Odds: -1 where nothing was computed, the exact chance where logic
        // leaves the place open, 0 or 1 where it is proven.
        for channel in ["proven_safe", "proven_pit", "proven_wumpus", "proven_bats"] {
            if let Some(c) = layout.channel(channel) {
                out[c * n..(c + 1) * n].fill(0.0);
            }
        }
        let mut set = |channel: &str, p: Place, value: f32| {
            if let (Some(c), Some(s)) = (layout.channel(channel), slot(p)) {
                out[c * n + s] = value;
            }
        };
        for &p in k.safe.iter().chain(&k.visited) {
            set("proven_safe", p, 1.0);
            for channel in ["p_pit", "p_wumpus", "p_bats", "p_death"] {
                set(channel, p, 0.0);
            }
        }
        for (list, proven, chance) in [
            (&k.pit, "proven_pit", "p_pit"),
            (&k.wumpus, "proven_wumpus", "p_wumpus"),
            (&k.bats, "proven_bats", "p_bats"),
        ] {
            for &p in list {
                set(proven, p, 1.0);
                set(chance, p, 1.0);
            }
        }
        for &p in k.pit.iter().chain(&k.wumpus) {
            set("p_death", p, 1.0);
        }
        for o in &k.odds {
            set("p_pit", o.place, o.pit as f32);
            set("p_wumpus", o.place, o.wumpus as f32);
            set("p_bats", o.place, o.bats as f32);
            set("p_death", o.place, o.death as f32);
        }
        if let Some(at) = layout.scalar("safe_unvisited") {
            let visited: std::collections::HashSet<Place> = k.visited.iter().copied().collect();
            let open = k.safe.iter().filter(|p| !visited.contains(p)).count();
            out[layout.planes_len() + at] = open as f32 / n.max(1) as f32;
        }
        if let (Some((rows, cols)), Some(here)) = (layout.grid, self.here) {
            let mut safe = vec![false; n];
            let mut visited = vec![false; n];
            for &p in &k.safe {
                if let Some(s) = slot(p) {
                    safe[s] = true;
                }
            }
            for &p in &k.visited {
                if let Some(s) = slot(p) {
                    safe[s] = true;
                    visited[s] = true;
                }
            }
            let explore = first_step(rows, cols, here, &safe, |s| !visited[s]);
            let home = first_step(rows, cols, here, &safe, |s| s == 0);
            // Under a heading, the compass way is turned to the player's: 0 ahead, 1 right.
            let facing = ["facing_north", "facing_east", "facing_south", "facing_west"]
                .iter()
                .position(|f| {
                    self.layout
                        .scalar(f)
                        .is_some_and(|m| self.memory[memory.planes_len() + m] == 1.0)
                });
            let to = layout.planes_len();
            for (prefix, way) in [("explore_", explore), ("home_", home)] {
                for (i, name) in layout.scalars.iter().enumerate() {
                    let Some(side) = name.strip_prefix(prefix) else {
                        continue;
                    };
                    let Some(compass) = way else {
                        out[to + i] = 0.0;
                        continue;
                    };
                    let turned = match facing {
                        Some(f) => ["ahead", "right", "behind", "left"][(compass + 4 - f) % 4],
                        None => ["north", "east", "south", "west"][compass],
                    };
                    out[to + i] = f32::from(u8::from(side == turned));
                }
            }
        }
    }
}

/// The first step (0 north, 1 east, 2 south, 3 west) of a shortest walk on a grid of `rows` by
/// `cols` cells from `from` over the cells `open` allows to the nearest cell `goal` accepts
/// (`from` itself excluded); `None` when no such cell can be reached.
fn first_step(
    rows: usize,
    cols: usize,
    from: usize,
    open: &[bool],
    goal: impl Fn(usize) -> bool,
) -> Option<usize> {
    let mut first: Vec<Option<usize>> = vec![None; open.len()];
    let mut queue = std::collections::VecDeque::from([from]);
    let mut seen = vec![false; open.len()];
    *seen.get_mut(from)? = true;
    while let Some(s) = queue.pop_front() {
        let (r, c) = (s / cols, s % cols);
        // North is a row up, east a column up (0,0 is the way out, in the south-west).
        let steps = [
            (r + 1 < rows).then(|| s + cols),
            (c + 1 < cols).then(|| s + 1),
            (r > 0).then(|| s - cols),
            (c > 0).then(|| s - 1),
        ];
        for (way, next) in steps.into_iter().enumerate() {
            let Some(next) = next.filter(|&t| t < open.len() && open[t] && !seen[t]) else {
                continue;
            };
            seen[next] = true;
            first[next] = if s == from { Some(way) } else { first[s] };
            if goal(next) {
                return first[next];
            }
            queue.push_back(next);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::agent::{AgentKind, AgentOptions, Roster};
    use crate::game::Session;
    use crate::grid::{parse_world, AimaSession, GridSession, Scoring};
    use crate::rng::Dice;
    use crate::run::Follower;

    #[test]
    fn the_memory_holds_what_was_perceived_where_and_the_knowledge_what_is_proven() {
        let world = parse_world("PIT 0 2\nWUMPUS 2 0\nGOLD 3 2\n").unwrap();
        let mut game = GridSession::new(world, Scoring::Standard, 0.2);
        let layout = layout(GridSession::FACTS, &game.briefing(), Mode::Knowledge).unwrap();
        assert_eq!(layout.shape(), vec![12, 5, 5]);
        assert_eq!(layout.len(), 12 * 25 + 20);
        let agents =
            GridSession::prepare(AgentKind::Logic, &game.setup(), &AgentOptions::default())
                .unwrap();
        let mut follower = Follower::new(agents.as_ref(), &game, Dice::for_game(0));
        let mut features = Features::new(GridSession::FACTS, &game.briefing());
        features.observe(&game, &game.observation(follower.shown()));
        let action = follower.decide().unwrap().action;
        let shown = game.act(&action);
        follower.tell(&action, &shown);
        features.observe(&game, &game.observation(&shown));
        let mut out = vec![0.0; layout.len()];
        let knowledge = follower.knowledge().unwrap();
        features.write(&layout, &game, Some((&knowledge, None)), &mut out);
        let value = |channel: &str, row: usize, col: usize| {
            let c = layout.channel(channel).unwrap();
            out[c * 25 + row * 5 + col]
        };
        // The agent stepped north to 1,0: a stench there, none at 0,0.
        assert_eq!(value("visited", 0, 0), 1.0);
        assert_eq!(value("here", 1, 0), 1.0);
        assert_eq!(value("here", 0, 0), 0.0);
        assert_eq!(value("stench", 1, 0), 1.0);
        assert_eq!(value("stench", 0, 0), 0.0);
        let scalar = |name: &str| out[layout.planes_len() + layout.scalar(name).unwrap()];
        assert_eq!(scalar("arrow"), 1.0);
        assert_eq!(scalar("now_stench"), 1.0);
        assert_eq!(scalar("at_start"), 0.0);
        assert_eq!(value("proven_safe", 0, 1), 1.0);
        assert_eq!(value("p_pit", 0, 1), 0.0);
        // No percept reaches 4,4: its odds are the deal's.
        assert!((value("p_pit", 4, 4) - 0.2).abs() < 1e-6);
        // The nearest cell proven safe and not visited is 0,1, through 0,0: south, as home is.
        for (name, expected) in [
            ("explore_south", 1.0),
            ("explore_north", 0.0),
            ("explore_east", 0.0),
            ("home_south", 1.0),
            ("home_west", 0.0),
        ] {
            assert_eq!(scalar(name), expected, "{name}");
        }
    }

    #[test]
    fn the_heading_is_a_scalar_under_the_textbooks_rules() {
        let world = parse_world("PIT 0 2\nWUMPUS 2 0\nGOLD 3 2\n").unwrap();
        let game = AimaSession::new(GridSession::new(world, Scoring::Aima, 0.2));
        let layout = layout(AimaSession::FACTS, &game.briefing(), Mode::Memory).unwrap();
        let mut features = Features::new(AimaSession::FACTS, &game.briefing());
        features.observe(&game, &game.observation(&game.start()));
        let mut out = vec![0.0; layout.len()];
        features.write(&layout, &game, None, &mut out);
        let east = layout.planes_len() + layout.scalar("facing_east").unwrap();
        assert_eq!(out[east], 1.0);
        assert_eq!(
            out[layout.planes_len() + layout.scalar("at_start").unwrap()],
            1.0
        );
        assert_eq!(
            out[layout.planes_len() + layout.scalar("facing_north").unwrap()],
            0.0
        );
    }

    #[test]
    fn routes_are_turned_to_the_players_heading() {
        let world = parse_world("PIT 0 2\nWUMPUS 2 0\nGOLD 3 2\n").unwrap();
        let game = AimaSession::new(GridSession::new(world, Scoring::Aima, 0.2));
        let layout = layout(AimaSession::FACTS, &game.briefing(), Mode::Knowledge).unwrap();
        let agents =
            AimaSession::prepare(AgentKind::Logic, &game.setup(), &AgentOptions::default())
                .unwrap();
        let mut follower = Follower::new(agents.as_ref(), &game, Dice::for_game(0));
        let mut features = Features::new(AimaSession::FACTS, &game.briefing());
        features.observe(&game, &game.observation(&game.start()));
        let mut out = vec![0.0; layout.len()];
        let knowledge = follower.knowledge().unwrap();
        features.write(&layout, &game, Some((&knowledge, None)), &mut out);
        let scalar = |name: &str| out[layout.planes_len() + layout.scalar(name).unwrap()];
        // Nothing perceived at 0,0 facing east: 0,1 (ahead) and 1,0 (to the left) are safe and
        // equally near; the walk tries north before east, so the left.
        assert_eq!(scalar("explore_left"), 1.0);
        assert_eq!(scalar("explore_ahead"), 0.0);
        // Already at the way out: no walk home.
        for side in ["ahead", "right", "behind", "left"] {
            assert_eq!(scalar(&format!("home_{side}")), 0.0);
        }
    }
}
