//! The one game interface every rule set implements: a [`Session`] is a game in progress that
//! says what the player is shown and takes an action. Everything that plays or shows a game
//! (the runner, the agents' adapters, every command, the live page) speaks to the rule sets
//! through it, so that each feature is written once for the grid Wumpus World, the classic
//! cave and the `caves.dat` maze.
//!
//! A session holds the hidden world; what it hands out is what a player is told: its
//! [`Session::Shown`] after each action (typed percepts and messages), and the public picture
//! of the world ([`Board`]). An agent ([`crate::agent::Agent`]) is handed only those, never
//! the session, so it cannot peek by construction.
//!
//! Architecture invariant: nothing here knows the knowledge base, the planner or an agent.

pub mod board;
mod briefing;
pub mod facts;
pub mod prior;

pub use board::{Board, BoardEdge, BoardPlace};
pub use briefing::Briefing;
pub use facts::{BuiltInMap, RuleFacts};
pub use prior::GridPrior;

use crate::topology::Place;
use serde::{Deserialize, Serialize};
use std::fmt;
use std::path::Path;

/// The rule sets.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize,
)]
#[serde(rename_all = "snake_case")]
pub enum RuleSet {
    /// The grid Wumpus World.
    #[default]
    Grid,
    /// The classic Hunt the Wumpus cave.
    Cave,
    /// The `caves.dat` maze.
    Maze,
    /// The grid Wumpus World under the textbook's own rules (AIMA): a heading, turns and
    /// `Forward`, every action costing 1.
    Aima,
}

impl RuleSet {
    /// Every rule set, in the order the help lists them.
    pub const ALL: [RuleSet; 4] = [RuleSet::Grid, RuleSet::Cave, RuleSet::Maze, RuleSet::Aima];

    /// The rule sets played on the grid (they share its world files).
    pub const ON_GRID: [RuleSet; 2] = [RuleSet::Grid, RuleSet::Aima];

    /// The rule sets played on a cave map (they share its maps and hazard files).
    pub const ON_MAP: [RuleSet; 2] = [RuleSet::Cave, RuleSet::Maze];

    /// The name on the command line and in JSON: `grid`, `cave`, `maze`, `aima`.
    pub fn name(self) -> &'static str {
        match self {
            RuleSet::Grid => "grid",
            RuleSet::Cave => "cave",
            RuleSet::Maze => "maze",
            RuleSet::Aima => "aima",
        }
    }

    /// The rule set named `name`, if any.
    pub fn parse(name: &str) -> Option<RuleSet> {
        RuleSet::ALL.into_iter().find(|r| r.name() == name)
    }
}

impl fmt::Display for RuleSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// What a player perceives, in the words every rule set shares.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Percept {
    /// A pit is next door (grid).
    Breeze,
    /// The wumpus is here or near (grid: "a terrible stench"; caves: "I smell a wumpus").
    Stench,
    /// The gold is here (grid).
    Glitter,
    /// The last move walked into a wall (grid).
    Bump,
    /// The last shot killed the wumpus (grid).
    Scream,
    /// A pit is near (caves: "I feel a draft").
    Draft,
    /// Bats are near (caves: "I hear bats", "the flapping of giant wings").
    Bats,
}

impl Percept {
    /// The percept's name: `breeze`, `stench`, `glitter`, `bump`, `scream`, `draft`, `bats`.
    pub fn name(self) -> &'static str {
        match self {
            Percept::Breeze => "breeze",
            Percept::Stench => "stench",
            Percept::Glitter => "glitter",
            Percept::Bump => "bump",
            Percept::Scream => "scream",
            Percept::Draft => "draft",
            Percept::Bats => "bats",
        }
    }
}

impl fmt::Display for Percept {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// `one` or `many`, as `n` counts things: `1 move`, `2 moves`.
pub fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// How a game ended, in the words every rule set shares: a win, the ways of losing, or no end
/// (the runner stopped an agent that would not finish).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Ending {
    /// Won: out with the gold (grid), the wumpus dead (cave), every wumpus dead (maze).
    Won,
    /// Climbed out without the gold (grid): neither a win nor a loss.
    ClimbedOut,
    /// Fell into a pit.
    Pit,
    /// Eaten by a wumpus.
    Wumpus,
    /// Hit by the hunter's own arrow (cave).
    OwnArrow,
    /// The last arrow missed (cave).
    OutOfArrows,
    /// The last grenade is gone and wumpi live (maze).
    OutOfGrenades,
    /// The 100th move (cave).
    Exhaustion,
    /// Stopped by the runner after more actions than any sensible game needs.
    Unfinished,
}

impl Ending {
    /// Every ending, in report order.
    pub const ALL: [Ending; 9] = [
        Ending::Won,
        Ending::ClimbedOut,
        Ending::Pit,
        Ending::Wumpus,
        Ending::OwnArrow,
        Ending::OutOfArrows,
        Ending::OutOfGrenades,
        Ending::Exhaustion,
        Ending::Unfinished,
    ];

    /// The ending's name in reports and CSV rows: `won`, `climbed_out`, `pit`, `wumpus`,
    /// `own_arrow`, `out_of_arrows`, `out_of_grenades`, `exhaustion`, `unfinished`.
    pub fn name(self) -> &'static str {
        match self {
            Ending::Won => "won",
            Ending::ClimbedOut => "climbed_out",
            Ending::Pit => "pit",
            Ending::Wumpus => "wumpus",
            Ending::OwnArrow => "own_arrow",
            Ending::OutOfArrows => "out_of_arrows",
            Ending::OutOfGrenades => "out_of_grenades",
            Ending::Exhaustion => "exhaustion",
            Ending::Unfinished => "unfinished",
        }
    }

    /// The ending named `name`, if any.
    pub fn parse(name: &str) -> Option<Ending> {
        Ending::ALL.into_iter().find(|e| e.name() == name)
    }

    /// The ending in a few words for people: `won`, `fell into a pit`, ...
    pub fn words(self) -> &'static str {
        match self {
            Ending::Won => "won",
            Ending::ClimbedOut => "climbed out without the gold",
            Ending::Pit => "fell into a pit",
            Ending::Wumpus => "eaten by a wumpus",
            Ending::OwnArrow => "shot by your own arrow",
            Ending::OutOfArrows => "out of arrows",
            Ending::OutOfGrenades => "out of grenades",
            Ending::Exhaustion => "exhausted after 100 moves",
            Ending::Unfinished => "unfinished (stopped by the runner)",
        }
    }

    /// True for a loss: every ending but a win, climbing out and an unfinished game.
    pub fn is_loss(self) -> bool {
        !matches!(self, Ending::Won | Ending::ClimbedOut | Ending::Unfinished)
    }

    /// Its place in [`Ending::ALL`], for tallies kept as arrays.
    pub fn index(self) -> usize {
        self as usize
    }
}

impl fmt::Display for Ending {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Why a game cannot be set up, dealt or loaded.
#[derive(Debug, thiserror::Error)]
pub enum GameError {
    /// A file could not be read, written or parsed (the error names it).
    #[error(transparent)]
    File(#[from] crate::files::FileError),
    /// The grid cannot be built.
    #[error(transparent)]
    Topology(#[from] crate::topology::TopologyError),
    /// The rule set's own reason (hazards that cannot be dealt on a map, ...).
    #[error(transparent)]
    Rules(Box<dyn std::error::Error + Send + Sync>),
}

impl GameError {
    /// A rule set's own error.
    pub fn rules(e: impl std::error::Error + Send + Sync + 'static) -> GameError {
        GameError::Rules(Box::new(e))
    }
}

/// What a line a player types asks for: an action of the game, or one of the commands every
/// game shares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command<A> {
    /// An action of the game.
    Act(A),
    /// Print the commands.
    Help,
    /// Ask the agent what it would do, and why.
    Hint,
    /// Leave the game.
    Quit,
    /// Start a new game on the world or hazards in a file.
    Load(String),
    /// Save this game's world or hazards, as dealt, to a file.
    Save(String),
}

/// The public side of one moment of a game: where the player stands and what the player is
/// told, in the words every rule set shares. Built by [`Session::observation`] from a
/// [`Session::Shown`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Observation {
    /// Where the player stands, as far as the player knows it.
    pub at: Option<Place>,
    /// The way the player faces, where the rules give one.
    pub facing: Option<String>,
    /// What the player perceives.
    pub percepts: Vec<Percept>,
    /// What the game said since the last step, in order.
    pub messages: Vec<String>,
    /// Arrows (or grenades) left.
    pub arrows: Option<u32>,
    /// Actions (grid) or moves (caves) counted so far.
    pub moves: u32,
    /// The ways on from here that the player can see: tunnels, by number, and where each
    /// leads when the player knows it.
    pub exits: Vec<Exit>,
    /// Rooms with a tunnel into this one that cannot be walked to (the classic cave).
    pub entries: Vec<Place>,
}

/// A way on from the player's place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exit {
    /// Its number (a tunnel, 1 to 3).
    pub number: usize,
    /// Where it leads, when the player knows.
    pub to: Option<Place>,
}

/// A game in progress under one rule set, as its rules define it: it holds the hidden world,
/// takes actions, and says what the player is shown. The runner and every command play games
/// through this trait; a game's files are [`Files`], and its words for a person at a terminal
/// [`Words`].
///
/// Invariant: nothing a session returns but [`Session::hidden`] and [`Session::winnable`]
/// (which the runner keeps from agents) reveals the hidden world beyond what the rules tell the
/// player.
pub trait Session: Sized + Send + 'static {
    /// Which rule set this is.
    const RULES: RuleSet;
    /// What every game of the rule set shares, stated once, beside the session.
    const FACTS: &'static RuleFacts;
    /// What the games of a batch share (the map or grid, the scoring, the variant): the frame
    /// games are dealt in, public to players and agents alike.
    type Setup: Clone + Send + Sync;
    /// One action of the player.
    type Action: Clone + fmt::Debug + PartialEq + Send + Sync;
    /// What the player is shown after an action (and at the start): typed percepts and
    /// messages, exactly what an agent is handed.
    type Shown: Clone + fmt::Debug + Send;

    /// The setup this game belongs to: what an agent for it is prepared from.
    fn setup(&self) -> Self::Setup;

    /// What `setup` fixes of its games beyond the options that made it (a world file's own
    /// size), for the game's description in summaries and traces.
    fn fixed(setup: &Self::Setup) -> Fixed {
        let _ = setup;
        Fixed::default()
    }

    /// A game dealt from `seed` (the same seed, the same game).
    fn deal(setup: &Self::Setup, seed: u64) -> Result<Self, GameError>;

    /// What the player is told at the start of this game, before the first action: what an
    /// agent for it is built from.
    fn briefing(&self) -> Briefing;

    /// What the player is shown before the first action.
    fn start(&self) -> Self::Shown;

    /// Takes one action and says what the player is shown.
    fn act(&mut self, action: &Self::Action) -> Self::Shown;

    /// How the game ended, or `None` while it goes on.
    fn ending(&self) -> Option<Ending>;

    /// The final score once the game is over, for rule sets that keep one.
    fn score(&self) -> Option<i64>;

    /// The score as the rules have charged it so far (the final score once the game is over):
    /// what a game stopped now scores, for rule sets that charge as the game goes (the grid's
    /// actions and arrow); `None` while a game of a rule set that scores only at its end goes
    /// on.
    fn score_so_far(&self) -> Option<i64> {
        self.score()
    }

    /// Actions (grid) or moves (caves) counted so far.
    fn moves(&self) -> u32;

    /// Arrows shot or grenades tossed so far.
    fn shots(&self) -> u32;

    /// Whether the player carries the gold, for rule sets with gold to carry.
    fn carries_gold(&self) -> Option<bool> {
        None
    }

    /// After this many actions the runner stops an agent that will not end the game.
    fn action_limit(&self) -> u32;

    /// Whether an all-knowing player could win this game, where the rule set can tell.
    fn winnable(&self) -> Option<bool> {
        None
    }

    /// The public side of `shown`, in shared words.
    fn observation(&self, shown: &Self::Shown) -> Observation;

    /// True when `shown` answers an action the game refused (nothing changed).
    fn refused(shown: &Self::Shown) -> bool;

    /// How a player names `place`: `2,3` on the grid, `5` in a classic cave, the cave's name
    /// in the maze.
    fn label(&self, place: Place) -> String;

    /// `place` as its map names it, for an agent (and a player) given the map: the label,
    /// but for the maze's caves of one name, told apart by their number in the map file.
    fn map_label(&self, place: Place) -> String {
        self.label(place)
    }

    /// How many places share `place`'s label (the maze's caves of one name): a fact the
    /// player is told of a label must hold of every one of them.
    fn namesakes(&self, place: Place) -> usize {
        let _ = place;
        1
    }

    /// The public picture of the world: its places and the ways between them.
    fn board(&self) -> Board;

    /// The hidden world, for showing once a game is over.
    fn hidden(&self) -> Hidden;

    /// An action in the player's words (`north`, `move 5`, `toss 2`).
    fn action_text(&self, action: &Self::Action) -> String;
}

/// What a setup fixes of its games beyond the options that made it ([`Session::fixed`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Fixed {
    /// The grid's one size, rows then columns, when every game of the setup has it.
    pub size: Option<(usize, usize)>,
    /// Whether the player is told the grid's size, when the setup decides it.
    pub size_told: Option<bool>,
}

/// A game's files: the world (grid) or the hazards (caves) it is played on, read and written
/// in the rule set's own format.
pub trait Files: Session {
    /// A game on the world (grid) or hazards (caves) in a file, its later random events drawn
    /// from `seed`.
    fn load(setup: &Self::Setup, path: &Path, seed: u64) -> Result<Self, GameError>;

    /// Saves the game's world or hazards, as dealt, atomically.
    fn save(&self, path: &Path) -> Result<(), GameError>;

    /// A new file of what this rule set's games are played on, dealt from `seed`: a grid world
    /// of the setup's size and deal, or a cave map in the rule set's format (`shape` says its
    /// rooms and tunnels).
    fn new_file(setup: &Self::Setup, seed: u64, shape: &MapShape) -> Result<NewFile, GameError>;

    /// True when `text` reads as a file this rule set's games are played on (a grid world
    /// file, a map in this rule set's format), for commands given a file and no rule set.
    fn plays_file(text: &str) -> bool;

    /// Checks `text`, read from `path`, as a file this rule set's games are played on (a world
    /// file, or a map): what it holds, in a few words (`5x5, 3 pits`).
    fn check_text(path: &Path, text: &str) -> Result<String, crate::files::FileError>;

    /// Draws a file this rule set's games are played on, with a cave's hazards from a hazard
    /// file or dealt from a seed when given.
    fn draw_file(
        path: &Path,
        hazards: Option<&Path>,
        seed: Option<u64>,
    ) -> Result<String, GameError>;
}

/// The shape of a new cave map ([`Files::new_file`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MapShape {
    /// Its rooms.
    pub rooms: usize,
    /// Three one-way tunnels a room (every room still reaching every other), not three
    /// two-way tunnels.
    pub one_way: bool,
}

/// A file dealt by [`Files::new_file`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NewFile {
    /// Its text.
    pub text: String,
    /// What it holds, in a few words (`5x5`, `20 rooms, two-way tunnels`).
    pub words: String,
    /// Whether its format takes `#` comments.
    pub comments: bool,
}

/// A game's words for a person at a terminal or on the page: its title, its commands and how
/// it reads them, and what it says after each action.
pub trait Words: Session {
    /// Reads a line the player typed.
    fn parse_command(&self, line: &str) -> Result<Command<Self::Action>, String>;

    /// The commands, for `help`.
    fn help(&self) -> &'static str;

    /// What the game is, in a few words: `Wumpus World, 5x5`.
    fn title(&self) -> String;

    /// The lines a person reads at the start of a game, after the title line.
    fn intro(&self) -> Vec<String>;

    /// The lines a person reads after an action: the game's messages, then where things
    /// stand, or how the game ended and its score.
    fn describe(&self, shown: &Self::Shown) -> Vec<String>;

    /// The prompt `play` shows on a terminal.
    fn prompt(&self) -> &'static str {
        "> "
    }
}

/// The hidden world, revealed once a game is over: where each hazard is.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct Hidden {
    /// Where pits are.
    pub pits: Vec<String>,
    /// Where the wumpus (or each wumpus) is.
    pub wumpus: Vec<String>,
    /// Where the dead wumpi lie.
    pub dead_wumpus: Vec<String>,
    /// Where bats are.
    pub bats: Vec<String>,
    /// Where the gold is.
    pub gold: Vec<String>,
    /// Where the player started.
    pub start: Option<String>,
}
