//! What a rule set is, in one place: [`RuleFacts`], stated once beside each rule set's
//! session ([`super::Session::FACTS`]) and read by everything that speaks of a rule set (the
//! catalogue the doors build from, summaries, traces, the words of the commands).
//!
//! It holds no behaviour and nothing dealt: only what is true of every game of the rule set.

use serde::Serialize;

/// What every game of a rule set shares, for people and for the code that reports on games.
#[derive(Debug, Serialize)]
pub struct RuleFacts {
    /// What the rule set is, in a few words: `the grid Wumpus World`.
    pub title: &'static str,
    /// What it is, in a sentence.
    pub summary: &'static str,
    /// What the player must do.
    pub goal: &'static str,
    /// How a player gives actions: `compass` (north, east, south, west), `heading` (forward
    /// and turns), `rooms` (a room by number) or `tunnels` (a tunnel by number).
    pub input: &'static str,
    /// What a shot is called, one and many: `arrow`, `arrows`.
    pub shot: [&'static str; 2],
    /// What a place proven safe is free of, in words.
    pub safe_means: &'static str,
    /// True when the rule set keeps a score.
    pub scored: bool,
    /// What a game's file holds, as the file is called: `world` (the grid's whole world) or
    /// `hazards` (a cave's, on a map).
    pub file: &'static str,
    /// True when that file holds the whole game; false when the game still draws later
    /// events (bats, a woken wumpus) from its seed.
    pub file_holds_all: bool,
    /// True for the rule sets played on the grid: they share its world, files and setup.
    pub on_grid: bool,
    /// True when the player is told the shots left.
    pub tells_shots: bool,
    /// True when the rule set can tell whether an all-knowing player could win a game.
    pub tells_winnable: bool,
    /// The best score one game can come to (0 where the rule set keeps none).
    pub best_score: i64,
    /// The worst score one game can come to before its moves: each move may cost one more.
    pub worst_score: i64,
    /// What a learner is paid a point of score (`reward_scale` of the Python environments):
    /// about one over a win's points, so that a game's return is near 1, the scale a
    /// learner's value estimates fit.
    pub learner_scale: f64,
    /// The map played when none is given (`None` off a map).
    #[serde(skip)]
    pub default_map: Option<BuiltInMap>,
}

/// A map the library carries, played when no map is given.
#[derive(Clone, Copy, Debug)]
pub struct BuiltInMap {
    /// Its name for people: `the standard dodecahedron`.
    pub name: &'static str,
    /// Its text, in one of the map formats.
    pub text: &'static str,
}

impl RuleFacts {
    /// What the rule set calls a shot, one and many.
    pub fn shot_names(&self) -> (&'static str, &'static str) {
        (self.shot[0], self.shot[1])
    }
}
