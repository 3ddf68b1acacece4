//! Each rule set's actions by number and its observation as a short vector of small integers,
//! the score handed out step by step as rewards, and which actions the agent's knowledge
//! proves harmless (the action mask): what learners (the Python package's environments) and
//! any program that plays by numbers read.
//!
//! Everything here reads only what a player is shown (the session's `Shown`, the public
//! board) and what an agent proved; it must never read the hidden world into an observation,
//! a reward before the game says it, or a mask.

use crate::agent::Knowledge;
use crate::cave::classic::{Action as CaveAction, ArrowPath};
use crate::cave::{CaveShown, ClassicSession, MazeAction, MazeSession, MazeShown};
use crate::game::{Ending, Session};
use crate::grid::{Action, AimaSession, AimaShown, GridSession, HeadedAction, Turn};
use crate::topology::{Direction, Link, Place, Topology};

/// The compass in the order of the grid's actions: north, east, south, west.
const COMPASS: [Direction; 4] = [
    Direction::North,
    Direction::East,
    Direction::South,
    Direction::West,
];

/// A rule set played by numbers.
pub trait Numbered: Session {
    /// The actions, by number.
    const ACTIONS: &'static [&'static str];
    /// What each place of the observation vector means.
    const OBSERVATION: &'static [&'static str];
    /// How many values each place of the observation takes (0 to n - 1); 0 stands for the
    /// number of places of the world (a room number).
    const OBSERVATION_VALUES: &'static [i64];

    /// The action numbered `index` (below `ACTIONS.len()`), given what the player was last
    /// shown. An action that leads nowhere (a tunnel the room does not have) is one the game
    /// refuses.
    fn action(&self, shown: &Self::Shown, index: usize) -> Self::Action;

    /// Writes the observation of `shown` into `out` (`OBSERVATION.len()` values).
    fn observe(&self, shown: &Self::Shown, out: &mut [i8]);

    /// Writes into `out`, one per action, whether `knowledge` proves the action cannot kill
    /// the player this turn.
    fn harmless(&self, shown: &Self::Shown, knowledge: &Knowledge, out: &mut [bool]);

    /// Clears in `out`, one per action, each action the player can tell does nothing now: a
    /// move into a wall the player knows, a shot with no arrow left, a grab with no glitter,
    /// climbing away from the way out, a tunnel the room does not have. What is left is an
    /// action that may change the game.
    fn useful(&self, shown: &Self::Shown, out: &mut [bool]);

    /// The slot of `place` in a learner's arrays: a grid cell by its row and column on a board
    /// of `grid` (rows, columns: the largest the player may be on), a cave's room by its
    /// number, a maze's cave by its name (caves that share a name share a slot, as the player
    /// cannot tell them apart).
    fn slot(&self, place: Place, grid: Option<(usize, usize)>) -> Option<usize> {
        let _ = grid;
        Some(place.index())
    }

    /// The rewards handed out so far: the score so far ([`Session::score_so_far`]); the maze,
    /// which keeps no score, counts a win 1.
    fn reward_so_far(&self) -> i64 {
        self.score_so_far().unwrap_or(0)
    }
}

/// Moves that cannot kill on a grid: a wall (a bump) or a place proven safe.
fn step_harmless(topology: &Topology, at: Place, way: Direction, safe: &[Place]) -> bool {
    match topology.follow(at, Link::Step(way)) {
        None => true,
        Some(next) => safe.contains(&next),
    }
}

/// What the grid's player can tell of its actions now: which ways are walls it knows (the
/// board's edges, when it is told the size), whether it holds its arrow, sees glitter, and
/// stands at the way out.
fn grid_state<'a>(
    session: &'a GridSession,
    shown: &Turn,
) -> (impl Fn(Direction) -> bool + 'a, bool, bool, bool) {
    let game = session.game();
    let (topology, at) = (game.world().topology(), game.player());
    let told = session.briefing().grid_size().is_some();
    let known_wall = move |way: Direction| told && topology.follow(at, Link::Step(way)).is_none();
    let arrow = session.observation(shown).arrows.unwrap_or(0) > 0;
    (
        known_wall,
        arrow,
        shown.percepts.glint,
        at == game.world().start(),
    )
}

/// The percept vector of the grid: `[stench, breeze, glitter, bump, scream]`.
fn grid_percepts(turn: &Turn, out: &mut [i8]) {
    let p = turn.percepts;
    out[0] = p.stench as i8;
    out[1] = p.breeze as i8;
    out[2] = p.glint as i8;
    out[3] = p.bump as i8;
    out[4] = p.scream as i8;
}

const GRID_PERCEPTS: &[&str] = &["stench", "breeze", "glitter", "bump", "scream"];

/// A grid cell's slot: its row and column on a board of `grid`.
fn grid_slot(topology: &Topology, place: Place, grid: Option<(usize, usize)>) -> Option<usize> {
    let (rows, cols) = grid?;
    let (r, c) = topology.coords(place);
    (r < rows && c < cols).then_some(r * cols + c)
}

impl Numbered for GridSession {
    const ACTIONS: &'static [&'static str] = &[
        "north",
        "east",
        "south",
        "west",
        "fire north",
        "fire east",
        "fire south",
        "fire west",
        "grab",
        "climb",
    ];
    const OBSERVATION: &'static [&'static str] = GRID_PERCEPTS;
    const OBSERVATION_VALUES: &'static [i64] = &[2; 5];

    fn action(&self, _: &Turn, index: usize) -> Action {
        match index {
            0..=3 => Action::Move(COMPASS[index]),
            4..=7 => Action::Fire(COMPASS[index - 4]),
            8 => Action::Grab,
            _ => Action::Climb,
        }
    }

    fn observe(&self, shown: &Turn, out: &mut [i8]) {
        grid_percepts(shown, out);
    }

    fn harmless(&self, _: &Turn, knowledge: &Knowledge, out: &mut [bool]) {
        let game = self.game();
        let topology = game.world().topology();
        out.fill(true);
        for (i, &way) in COMPASS.iter().enumerate() {
            out[i] = step_harmless(topology, game.player(), way, &knowledge.safe);
        }
    }

    fn useful(&self, shown: &Turn, out: &mut [bool]) {
        let (known_wall, arrow, glitter, at_start) = grid_state(self, shown);
        for (i, &way) in COMPASS.iter().enumerate() {
            out[i] &= !known_wall(way);
            out[4 + i] &= arrow && !known_wall(way);
        }
        out[8] &= glitter;
        out[9] &= at_start;
    }

    fn slot(&self, place: Place, grid: Option<(usize, usize)>) -> Option<usize> {
        grid_slot(self.game().world().topology(), place, grid)
    }
}

impl Numbered for AimaSession {
    const ACTIONS: &'static [&'static str] = &[
        "forward",
        "turn left",
        "turn right",
        "grab",
        "shoot",
        "climb",
    ];
    const OBSERVATION: &'static [&'static str] = GRID_PERCEPTS;
    const OBSERVATION_VALUES: &'static [i64] = &[2; 5];

    fn action(&self, _: &AimaShown, index: usize) -> HeadedAction {
        HeadedAction::ALL[index]
    }

    fn observe(&self, shown: &AimaShown, out: &mut [i8]) {
        grid_percepts(&shown.turn, out);
    }

    fn harmless(&self, shown: &AimaShown, knowledge: &Knowledge, out: &mut [bool]) {
        let game = self.grid().game();
        out.fill(true);
        out[0] = step_harmless(
            game.world().topology(),
            game.player(),
            shown.facing,
            &knowledge.safe,
        );
    }

    fn useful(&self, shown: &AimaShown, out: &mut [bool]) {
        let (known_wall, arrow, glitter, at_start) = grid_state(self.grid(), &shown.turn);
        out[0] &= !known_wall(shown.facing);
        out[3] &= glitter;
        out[4] &= arrow && !known_wall(shown.facing);
        out[5] &= at_start;
    }

    fn slot(&self, place: Place, grid: Option<(usize, usize)>) -> Option<usize> {
        grid_slot(self.grid().game().world().topology(), place, grid)
    }
}

impl Numbered for ClassicSession {
    const ACTIONS: &'static [&'static str] = &[
        "move 1", "move 2", "move 3", "shoot 1", "shoot 2", "shoot 3",
    ];
    const OBSERVATION: &'static [&'static str] = &["room", "stench", "draft", "bats"];
    const OBSERVATION_VALUES: &'static [i64] = &[0, 2, 2, 2];

    fn action(&self, shown: &CaveShown, index: usize) -> CaveAction {
        let s = &shown.status;
        match s.outs.get(index % 3) {
            Some(&to) if index < 3 => CaveAction::Move(to),
            Some(&to) => CaveAction::Shoot(ArrowPath::new(vec![to]).expect("one room")),
            // No such tunnel: a move to the hunter's own room, which the game refuses.
            None => CaveAction::Move(s.room),
        }
    }

    fn observe(&self, shown: &CaveShown, out: &mut [i8]) {
        let s = &shown.status;
        out[0] = s.room.index() as i8;
        out[1] = s.wumpus as i8;
        out[2] = s.pit as i8;
        out[3] = s.bats as i8;
    }

    fn useful(&self, shown: &CaveShown, out: &mut [bool]) {
        let s = &shown.status;
        for (i, slot) in out.iter_mut().enumerate() {
            *slot &= i % 3 < s.outs.len() && (i < 3 || s.arrows > 0);
        }
    }

    fn harmless(&self, shown: &CaveShown, knowledge: &Knowledge, out: &mut [bool]) {
        // A missed arrow wakes the wumpus, which may walk in: no shot is proven harmless.
        out.fill(false);
        for (i, to) in shown.status.outs.iter().take(3).enumerate() {
            out[i] = knowledge.safe.contains(to);
        }
    }
}

impl Numbered for MazeSession {
    const ACTIONS: &'static [&'static str] =
        &["move 1", "move 2", "move 3", "toss 1", "toss 2", "toss 3"];
    const OBSERVATION: &'static [&'static str] = &["stench", "draft", "bats"];
    const OBSERVATION_VALUES: &'static [i64] = &[2; 3];

    fn action(&self, _: &MazeShown, index: usize) -> MazeAction {
        if index < 3 {
            MazeAction::Move(index + 1)
        } else {
            MazeAction::Toss(index - 2)
        }
    }

    fn observe(&self, shown: &MazeShown, out: &mut [i8]) {
        let v = &shown.view;
        out[0] = v.smell as i8;
        out[1] = v.feel as i8;
        out[2] = v.hear as i8;
    }

    fn useful(&self, shown: &MazeShown, out: &mut [bool]) {
        let tunnels = shown.view.tunnels.len();
        for (i, slot) in out.iter_mut().enumerate() {
            *slot &= i % 3 < tunnels;
        }
    }

    fn harmless(&self, shown: &MazeShown, _: &Knowledge, out: &mut [bool]) {
        // The maze's agent knows ways by tunnel, not by place; what this cave's senses prove
        // is enough for a sound mask: with nothing felt, heard or smelt, every way on is free
        // of the pit, bats and wumpi. A toss startles wumpi: never proven harmless.
        let v = &shown.view;
        let quiet = !(v.smell || v.feel || v.hear);
        out.fill(false);
        for slot in out.iter_mut().take(v.tunnels.len().min(3)) {
            *slot = quiet;
        }
    }

    fn reward_so_far(&self) -> i64 {
        i64::from(self.ending() == Some(Ending::Won))
    }

    fn slot(&self, place: Place, _: Option<(usize, usize)>) -> Option<usize> {
        let map = self.game().map();
        let name = map.name(place);
        map.rooms().find(|&p| map.name(p) == name).map(Place::index)
    }
}
