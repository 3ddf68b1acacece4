//! The grid *Wumpus World* simulator: seed 001's rules, exactly.
//!
//! A [`GridGame`] holds the hidden [`GridWorld`] and the player's state, takes one [`Action`]
//! at a time and answers with a [`Turn`]: the [`Percepts`] a player (or agent) gets and the
//! seed's [`Message`]s a human reads. The player is never told their position. The game knows
//! nothing of knowledge bases or agents; whoever drives it sees only turns.
//!
//! Messages follow seed 001's example game: a move reports what the new cell holds (breeze,
//! stench, glint, a wumpus); other actions report only their own result (a bump, a shot, a
//! grab); "It is very dark." stands in when there is nothing else to say. The [`Percepts`]
//! always describe the player's cell after the action, as the textbook's percept vector does.

use super::world::GridWorld;
use crate::topology::{Direction, Link, Place};
use serde::{Deserialize, Serialize};
use std::fmt;

/// One action of the player. Every action counts as a move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Step one cell in a direction (a wall gives a bump and no move).
    Move(Direction),
    /// Pick up the gold if it is here.
    Grab,
    /// Fire the one arrow in a direction.
    Fire(Direction),
    /// Climb out; works only at `0,0`.
    Climb,
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Move(d) => write!(f, "{d}"),
            Action::Grab => f.write_str("grab"),
            Action::Fire(d) => write!(f, "fire {d}"),
            Action::Climb => f.write_str("climb"),
        }
    }
}

/// What the player senses after an action, the textbook's five-part percept.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Percepts {
    /// A pit is in a neighbouring cell.
    pub breeze: bool,
    /// The wumpus (alive or dead) is in this cell or a neighbouring one.
    pub stench: bool,
    /// The gold is in this cell and not yet grabbed.
    pub glint: bool,
    /// The last move walked into a wall.
    pub bump: bool,
    /// The last shot killed the wumpus.
    pub scream: bool,
}

impl Percepts {
    /// The names of the percepts that are present, lowercase, in the order
    /// breeze, stench, glint, bump, scream.
    pub fn names(&self) -> Vec<&'static str> {
        [
            (self.breeze, "breeze"),
            (self.stench, "stench"),
            (self.glint, "glint"),
            (self.bump, "bump"),
            (self.scream, "scream"),
        ]
        .into_iter()
        .filter_map(|(on, name)| on.then_some(name))
        .collect()
    }
}

/// A line the game says to a human player; the text is seed 001's.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Message {
    /// Nothing specific to report.
    Dark,
    /// A pit is next door.
    Breeze,
    /// The wumpus is here or next door.
    Stench,
    /// The player walked into the live wumpus.
    LiveWumpusHere,
    /// The dead wumpus lies here.
    DeadWumpusHere,
    /// The arrow left the bow.
    ShootArrow,
    /// Fire with no arrow left.
    OutOfArrows,
    /// The arrow killed the wumpus.
    Scream,
    /// The gold is here.
    Glint,
    /// Grab took the gold.
    PickUpGold,
    /// Grab found nothing.
    PickUpNothing,
    /// A move into a wall.
    Bump,
    /// The player fell into a pit.
    FallIntoPit,
    /// The live wumpus ate the player.
    Eaten,
    /// Climb away from the start.
    CannotClimb,
    /// Climb at the start: the game ends.
    ClimbOut,
    /// A quarter turn to the left (the textbook's rules).
    TurnLeft,
    /// A quarter turn to the right (the textbook's rules).
    TurnRight,
}

impl Message {
    /// The sentence shown to the player.
    pub fn text(self) -> &'static str {
        match self {
            Message::Dark => "It is very dark.",
            Message::Breeze => "You feel a breeze.",
            Message::Stench => "You smell a terrible stench.",
            Message::LiveWumpusHere => "There is a live Wumpus here!",
            Message::DeadWumpusHere => "There is a dead Wumpus here.",
            Message::ShootArrow => "You shoot an arrow.",
            Message::OutOfArrows => "You try to fire but are out of arrows.",
            Message::Scream => "You hear a horrible scream.",
            Message::Glint => "You see a glint of something that looks like gold.",
            Message::PickUpGold => "You pick up a pile of gold.",
            Message::PickUpNothing => "You do not pick up anything.",
            Message::Bump => "You feel a bump as you walk into a wall.",
            Message::FallIntoPit => "You have fallen into a pit.",
            Message::Eaten => "The Wumpus eats you.",
            Message::CannotClimb => "You cannot climb up from here.",
            Message::ClimbOut => "You climb up out of Wumpus World.",
            Message::TurnLeft => "You turn left.",
            Message::TurnRight => "You turn right.",
        }
    }
}

/// How a game that is over ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Outcome {
    /// Climbed out carrying the gold.
    Won,
    /// Climbed out without the gold.
    ClimbedOut,
    /// Fell into a pit.
    FellIntoPit,
    /// Eaten by the live wumpus.
    Eaten,
}

impl Outcome {
    /// True for the two ways of dying.
    pub fn is_death(self) -> bool {
        matches!(self, Outcome::FellIntoPit | Outcome::Eaten)
    }

    /// The outcome's name in reports (`won`, `climbed_out`, `fell_into_pit`, `eaten`).
    pub fn name(self) -> &'static str {
        match self {
            Outcome::Won => "won",
            Outcome::ClimbedOut => "climbed_out",
            Outcome::FellIntoPit => "fell_into_pit",
            Outcome::Eaten => "eaten",
        }
    }
}

/// How a finished game is scored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Scoring {
    /// Seed 001: +1000 out with gold, +100 out without, −10 for firing, −1 a move; 0 if dead.
    #[default]
    Standard,
    /// The textbook's (AIMA): +1000 out with gold, −1000 for dying, −10 for firing, −1 a move.
    Aima,
}

impl Scoring {
    /// The final score of a game that ended in `outcome` after `moves` actions.
    pub fn score(self, outcome: Outcome, moves: u32, fired: bool) -> i64 {
        let costs = -(moves as i64) - if fired { 10 } else { 0 };
        match (self, outcome) {
            (_, Outcome::Won) => 1000 + costs,
            (Scoring::Standard, Outcome::ClimbedOut) => 100 + costs,
            (Scoring::Aima, Outcome::ClimbedOut) => costs,
            (Scoring::Standard, _) => 0,
            (Scoring::Aima, _) => -1000 + costs,
        }
    }

    /// The scoring's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Scoring::Standard => "standard",
            Scoring::Aima => "aima",
        }
    }
}

/// The answer to one action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Turn {
    /// What the player senses now.
    pub percepts: Percepts,
    /// What the game says, in order.
    pub messages: Messages,
}

/// What the game says after one action: a few lines, kept inline (no allocation an action).
pub type Messages = smallvec::SmallVec<[Message; 4]>;

/// A game of grid Wumpus World in progress (or over).
#[derive(Clone, Debug)]
pub struct GridGame {
    world: GridWorld,
    player: Place,
    has_gold: bool,
    has_arrow: bool,
    fired: bool,
    wumpus_alive: bool,
    moves: u32,
    outcome: Option<Outcome>,
}

impl GridGame {
    /// A new game on `world`, the player at `0,0` with one arrow.
    pub fn new(world: GridWorld) -> GridGame {
        let player = world.start();
        GridGame {
            world,
            player,
            has_gold: false,
            has_arrow: true,
            fired: false,
            wumpus_alive: true,
            moves: 0,
            outcome: None,
        }
    }

    /// What the player is told before the first action.
    pub fn start(&self) -> Turn {
        let mut messages = Messages::new();
        self.describe_cell(&mut messages);
        if messages.is_empty() {
            messages.push(Message::Dark);
        }
        Turn {
            percepts: self.percepts(false, false),
            messages,
        }
    }

    /// The world the game is played on, as it was dealt.
    pub fn world(&self) -> &GridWorld {
        &self.world
    }

    /// The number of actions taken so far.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// How the game ended, or `None` while it goes on.
    pub fn outcome(&self) -> Option<Outcome> {
        self.outcome
    }

    /// True when the player has fired the arrow.
    pub fn fired(&self) -> bool {
        self.fired
    }

    /// True when the player carries the gold.
    pub fn has_gold(&self) -> bool {
        self.has_gold
    }

    /// The final score under `scoring`, once the game is over.
    pub fn score(&self, scoring: Scoring) -> Option<i64> {
        self.outcome
            .map(|outcome| scoring.score(outcome, self.moves, self.fired))
    }

    /// Takes one action. An action after the game is over changes nothing and says nothing.
    pub fn act(&mut self, action: Action) -> Turn {
        if self.outcome.is_some() {
            return Turn {
                percepts: Percepts::default(),
                messages: Messages::new(),
            };
        }
        self.moves += 1;
        let mut messages = Messages::new();
        let (mut bump, mut scream) = (false, false);
        match action {
            Action::Move(dir) => match self.world.topology().follow(self.player, Link::Step(dir)) {
                Some(next) => {
                    self.player = next;
                    self.enter(&mut messages);
                }
                None => {
                    bump = true;
                    messages.push(Message::Bump);
                }
            },
            Action::Grab => {
                if self.player == self.world.gold() && !self.has_gold {
                    self.has_gold = true;
                    messages.push(Message::PickUpGold);
                } else {
                    messages.push(Message::PickUpNothing);
                }
            }
            Action::Fire(dir) => {
                if self.has_arrow {
                    self.has_arrow = false;
                    self.fired = true;
                    messages.push(Message::ShootArrow);
                    let topology = self.world.topology();
                    if self.wumpus_alive
                        && topology
                            .ray(self.player, dir)
                            .contains(&self.world.wumpus())
                    {
                        self.wumpus_alive = false;
                        scream = true;
                        messages.push(Message::Scream);
                    }
                } else {
                    messages.push(Message::OutOfArrows);
                }
            }
            Action::Climb => {
                if self.player == self.world.start() {
                    messages.push(Message::ClimbOut);
                    self.outcome = Some(if self.has_gold {
                        Outcome::Won
                    } else {
                        Outcome::ClimbedOut
                    });
                } else {
                    messages.push(Message::CannotClimb);
                }
            }
        }
        if messages.is_empty() {
            messages.push(Message::Dark);
        }
        Turn {
            percepts: self.percepts(bump, scream),
            messages,
        }
    }

    /// An action that changes nothing in the world but costs one (the textbook's quarter
    /// turns; the heading is the caller's): it counts, says `message`, and answers with this
    /// cell's percepts. After the game is over it changes nothing and says nothing.
    pub fn count_in_place(&mut self, message: Message) -> Turn {
        if self.outcome.is_some() {
            return Turn {
                percepts: Percepts::default(),
                messages: Messages::new(),
            };
        }
        self.moves += 1;
        Turn {
            percepts: self.percepts(false, false),
            messages: smallvec::smallvec![message],
        }
    }

    /// The player steps into the current cell: hazards strike, then the senses report.
    fn enter(&mut self, messages: &mut Messages) {
        let here = self.player;
        if here == self.world.wumpus() && self.wumpus_alive {
            messages.push(Message::LiveWumpusHere);
            messages.push(Message::Eaten);
            self.outcome = Some(Outcome::Eaten);
            return;
        }
        if self.world.has_pit(here) {
            messages.push(Message::FallIntoPit);
            self.outcome = Some(Outcome::FellIntoPit);
            return;
        }
        self.describe_cell(messages);
    }

    /// The sensations of the current cell, in the seed's order.
    fn describe_cell(&self, messages: &mut Messages) {
        let p = self.percepts(false, false);
        if p.breeze {
            messages.push(Message::Breeze);
        }
        if p.stench {
            messages.push(Message::Stench);
        }
        if self.player == self.world.wumpus() && !self.wumpus_alive {
            messages.push(Message::DeadWumpusHere);
        }
        if p.glint {
            messages.push(Message::Glint);
        }
    }

    fn percepts(&self, bump: bool, scream: bool) -> Percepts {
        let topology = self.world.topology();
        let here = self.player;
        let wumpus = self.world.wumpus();
        Percepts {
            breeze: topology.neighbours(here).any(|n| self.world.has_pit(n)),
            stench: here == wumpus || topology.neighbours(here).any(|n| n == wumpus),
            glint: here == self.world.gold() && !self.has_gold,
            bump,
            scream,
        }
    }

    /// True until the wumpus is shot.
    pub fn wumpus_alive(&self) -> bool {
        self.wumpus_alive
    }

    /// The player's cell. Only the simulator's owner (a test, the save command, a replay
    /// drawing) may ask; agents are never given it.
    pub fn player(&self) -> Place {
        self.player
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::topology::Topology;
    use std::sync::Arc;
    use Direction::*;

    /// Seed 001's example world: a pit at 0,2, the wumpus at 2,0, the gold at 3,2.
    fn example() -> GridGame {
        let topo = Arc::new(Topology::grid(5, 5).unwrap());
        GridGame::new(GridWorld::new(topo, &[(0, 2)], (2, 0), (3, 2)).unwrap())
    }

    fn say(game: &mut GridGame, action: Action) -> Vec<&'static str> {
        game.act(action)
            .messages
            .into_iter()
            .map(Message::text)
            .collect()
    }

    #[test]
    fn seed_example_game() {
        let mut g = example();
        assert_eq!(
            g.start()
                .messages
                .iter()
                .map(|m| m.text())
                .collect::<Vec<_>>(),
            ["It is very dark."]
        );
        assert_eq!(
            say(&mut g, Action::Move(West)),
            ["You feel a bump as you walk into a wall."]
        );
        assert_eq!(say(&mut g, Action::Move(East)), ["You feel a breeze."]);
        assert_eq!(say(&mut g, Action::Move(West)), ["It is very dark."]);
        assert_eq!(
            say(&mut g, Action::Move(North)),
            ["You smell a terrible stench."]
        );
        let shot = g.act(Action::Fire(North));
        assert!(shot.percepts.scream);
        assert_eq!(
            shot.messages.iter().map(|m| m.text()).collect::<Vec<_>>(),
            ["You shoot an arrow.", "You hear a horrible scream."]
        );
        assert_eq!(
            say(&mut g, Action::Move(North)),
            [
                "You smell a terrible stench.",
                "There is a dead Wumpus here."
            ]
        );
        assert_eq!(g.moves(), 6);
    }

    #[test]
    fn walking_into_the_live_wumpus_kills() {
        let mut g = example();
        g.act(Action::Move(North));
        let t = g.act(Action::Move(North));
        assert_eq!(t.messages[..], [Message::LiveWumpusHere, Message::Eaten]);
        assert_eq!(g.outcome(), Some(Outcome::Eaten));
        assert_eq!(g.score(Scoring::Standard), Some(0));
        assert_eq!(g.score(Scoring::Aima), Some(-1002));
        assert!(g.act(Action::Climb).messages.is_empty());
        assert_eq!(g.moves(), 2);
    }

    #[test]
    fn pits_kill() {
        let mut g = example();
        g.act(Action::Move(East));
        let t = g.act(Action::Move(East));
        assert_eq!(t.messages[..], [Message::FallIntoPit]);
        assert_eq!(g.outcome(), Some(Outcome::FellIntoPit));
    }

    #[test]
    fn second_shot_is_out_of_arrows_and_still_a_move() {
        let mut g = example();
        assert_eq!(
            g.act(Action::Fire(East)).messages[..],
            [Message::ShootArrow]
        );
        assert_eq!(
            g.act(Action::Fire(North)).messages[..],
            [Message::OutOfArrows]
        );
        assert_eq!(g.moves(), 2);
        g.act(Action::Climb);
        assert_eq!(g.score(Scoring::Standard), Some(100 - 3 - 10));
    }

    #[test]
    fn arrow_flies_to_the_wall_past_pits() {
        let topo = Arc::new(Topology::grid(5, 5).unwrap());
        let world = GridWorld::new(topo, &[(0, 2)], (0, 4), (3, 2)).unwrap();
        let mut g = GridGame::new(world);
        let t = g.act(Action::Fire(East));
        assert!(t.percepts.scream);
    }

    #[test]
    fn gold_glints_is_grabbed_once_and_wins() {
        let topo = Arc::new(Topology::grid(2, 2).unwrap());
        let world = GridWorld::new(topo, &[], (1, 1), (0, 1)).unwrap();
        let mut g = GridGame::new(world);
        assert_eq!(g.act(Action::Grab).messages[..], [Message::PickUpNothing]);
        let t = g.act(Action::Move(East));
        assert!(t.percepts.glint && t.percepts.stench);
        assert_eq!(t.messages[..], [Message::Stench, Message::Glint]);
        assert_eq!(g.act(Action::Grab).messages[..], [Message::PickUpGold]);
        assert!(!g.act(Action::Grab).percepts.glint);
        assert_eq!(g.act(Action::Climb).messages[..], [Message::CannotClimb]);
        g.act(Action::Move(West));
        assert_eq!(g.act(Action::Climb).messages[..], [Message::ClimbOut]);
        assert_eq!(g.outcome(), Some(Outcome::Won));
        assert_eq!(g.score(Scoring::Standard), Some(1000 - 7));
        assert_eq!(g.score(Scoring::Aima), Some(1000 - 7));
    }

    #[test]
    fn scoring_rules() {
        assert_eq!(Scoring::Standard.score(Outcome::ClimbedOut, 1, false), 99);
        assert_eq!(Scoring::Aima.score(Outcome::ClimbedOut, 1, false), -1);
        assert_eq!(Scoring::Standard.score(Outcome::FellIntoPit, 9, true), 0);
        assert_eq!(Scoring::Aima.score(Outcome::FellIntoPit, 9, true), -1019);
        assert_eq!(Scoring::Standard.score(Outcome::Won, 20, true), 970);
    }

    #[test]
    fn bump_percept_and_wall() {
        let mut g = example();
        let t = g.act(Action::Move(South));
        assert!(t.percepts.bump);
        assert_eq!(g.player(), g.world().start());
    }
}
