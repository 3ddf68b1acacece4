//! Random games per rule set (grid, classic cave, maze), spread over the cores with rayon: the grid's logic agent never dies, and no agent ever steps into a cell or room it had
//! proven safe and dies there.
//!
//! The grid's agents also play the course's deal with the size hidden (a fifth as many games):
//! the walls they learn from bumps always bound the true board, and the same holds.
//!
//! "Proven safe" is read from each agent at the moment it decides to move, before the move:
//!
//! - grid (logic and risk): `GridAgent::view(target)` is `Visited` or `Safe`; a step anywhere
//!   else must be a gamble (`Reason::rule == Rule::Gamble`), and only the risk agent gambles;
//! - classic cave: `CaveAgent::is_safe(room)` (no pit, no bats, no wumpus in the wumpus's
//!   current epoch);
//! - maze: `MazeAgent::tunnels()[t].safe` (no pit and no wumpus on every hypothesis of where
//!   the player is); without the map (the maze's default agent),
//!   `DiscoveredMazeAgent::tunnels()[t].safe`.
//!
//! A death is charged to the step when the step's own result ended the game by a pit or the
//! wumpus in the room stepped into (not a wumpus that ran in after a blast, nor bats dropping
//! the hunter elsewhere). The classic cave agent must also never shoot itself: its arrows,
//! blind tails into unseen tunnels included, are planned never to come back. The agents also
//! must never find their own game's rules contradicted
//! (`lost()` stays `None`): that would silently void every proof after it.
//!
//! The default, 10,000 games per rule set, keeps the test run to a sitting; the soak is
//! `WUMPUS_SAFETY_GAMES=100000 cargo test --release --test logic safety` (about 11 minutes on
//! two cores).

use rayon::prelude::*;
use std::sync::Arc;
use wumpus::agent::cave::{CaveAgent, CaveAgentConfig};
use wumpus::agent::grid::{CellView, GridAgent, Strategy};
use wumpus::agent::maze::discovered::DiscoveredMazeAgent;
use wumpus::agent::maze::MazeAgent;
use wumpus::agent::Agent;
use wumpus::agent::Insight;
use wumpus::agent::Rule;
use wumpus::cave::classic::{LossCause, MoveResult};
use wumpus::cave::maze::MazeEvent;
use wumpus::cave::{self, Action as CaveAction, ClassicGame, Ending, MazeAction, MazeGame};
use wumpus::cave::{MazeEnding, MazeLoss, TurnResult, Variant};
use wumpus::game::GridPrior;
use wumpus::grid::{Action, GridGame, GridWorld, Scoring};
use wumpus::rng::seeded;
use wumpus::topology::{Link, Topology};

fn games() -> u64 {
    std::env::var("WUMPUS_SAFETY_GAMES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(10_000)
}

/// What a batch of games came to.
#[derive(Clone, Debug, Default, PartialEq)]
struct Tally {
    games: u64,
    deaths: u64,
    /// Deaths in a place proven safe when the agent chose to step there.
    betrayed: Vec<String>,
    /// Steps into a place not proven safe under a rule other than a gamble.
    unjustified: Vec<String>,
    /// Games in which the agent found its own rules contradicted.
    lost: Vec<String>,
}

impl Tally {
    fn add(mut self, other: Tally) -> Tally {
        self.games += other.games;
        self.deaths += other.deaths;
        for (mine, theirs) in [
            (&mut self.betrayed, other.betrayed),
            (&mut self.unjustified, other.unjustified),
            (&mut self.lost, other.lost),
        ] {
            // Keep a few examples; the counts are what matter.
            mine.extend(theirs);
            mine.truncate(20);
        }
        self
    }

    fn assert_clean(&self, what: &str, expected_games: u64) {
        eprintln!("{what}: {} games, {} deaths", self.games, self.deaths);
        assert_eq!(self.games, expected_games, "{what}");
        assert!(
            self.betrayed.is_empty(),
            "{what}: died where proven safe: {:?}",
            self.betrayed
        );
        assert!(
            self.unjustified.is_empty(),
            "{what}: unproven steps: {:?}",
            self.unjustified
        );
        assert!(
            self.lost.is_empty(),
            "{what}: own rules contradicted: {:?}",
            self.lost
        );
    }
}

// -----------------------------------------------------------------------------------------
// Grid

/// One grid game; `seed` chooses the size (3x3 to 6x6), the pit probability (0.05 to 0.40)
/// and the world.
fn grid_game(seed: u64, strategy: impl Fn(f64) -> Strategy) -> Tally {
    let rows = 3 + (seed % 4) as usize;
    let cols = 3 + (seed / 4 % 4) as usize;
    let pit_prob = 0.05 + 0.05 * (seed / 16 % 8) as f64;
    let topology = Arc::new(Topology::grid(rows, cols).unwrap());
    let world = GridWorld::random(topology.clone(), pit_prob, &mut seeded(seed));
    let strategy = strategy(pit_prob);
    let agent = GridAgent::new(topology.clone(), None, Insight::Decisions)
        .unwrap()
        .with_strategy(strategy);
    play_grid(
        world,
        agent,
        format!("{rows}x{cols} p={pit_prob} seed {seed}"),
    )
}

/// One game of the course's deal with the size hidden from the agent (looking two steps
/// ahead, as it plays by default).
fn hidden_grid_game(seed: u64, strategy: Strategy) -> Tally {
    let world = wumpus::grid::course::deal_course_world(0.2, &mut seeded(seed));
    let (rows, cols) = world.size();
    let agent = GridAgent::learning_size(None, Insight::Decisions, GridPrior::Course, 0.2)
        .unwrap()
        .with_strategy(strategy)
        .with_depth(2);
    play_grid(world, agent, format!("course {rows}x{cols} seed {seed}"))
}

/// Plays `agent` on `world` to the end; `what` names the game in a failure. With the size
/// hidden, the walls the agent has learned must bound the true board at every turn.
fn play_grid(world: GridWorld, mut agent: GridAgent, what: String) -> Tally {
    let (rows, cols) = world.size();
    let mut game = GridGame::new(world);
    let mut percepts = game.start().percepts;
    let mut last = None;
    let mut tally = Tally {
        games: 1,
        ..Tally::default()
    };
    let mut stepped_into_safe = false;
    for _ in 0..100_000 {
        if game.outcome().is_some() {
            break;
        }
        agent.observe_percepts(last, &percepts).unwrap();
        if let Some(((r0, r1), (c0, c1))) = agent.size_bounds() {
            if !(r0..=r1).contains(&rows) || !(c0..=c1).contains(&cols) {
                tally.lost.push(format!(
                    "{what}: learned rows {r0}..{r1}, columns {c0}..{c1}"
                ));
                break;
            }
        }
        let decision = agent.decide();
        if let Action::Move(d) = decision.action {
            // On the grid the agent reasons on (with the size hidden, its model).
            let target = agent.topology().follow(agent.position(), Link::Step(d));
            stepped_into_safe =
                target.is_some_and(|t| matches!(agent.view(t), CellView::Visited | CellView::Safe));
            let gamble = decision.reason.rule == Rule::Gamble;
            if target.is_some() && !stepped_into_safe && !gamble {
                tally.unjustified.push(format!(
                    "{what}: {:?} ({})",
                    decision.action, decision.reason
                ));
            }
        }
        percepts = game.act(decision.action).percepts;
        last = Some(decision.action);
    }
    if game.outcome().is_some_and(|o| o.is_death()) {
        tally.deaths = 1;
        if stepped_into_safe {
            tally.betrayed.push(what);
        }
    }
    tally
}

#[test]
fn grid_size_hidden_logic_never_dies_and_no_agent_dies_where_proven_safe() {
    let n = games() / 5;
    let logic = (0..n)
        .into_par_iter()
        .map(|seed| hidden_grid_game(seed, Strategy::Logic))
        .reduce(Tally::default, Tally::add);
    logic.assert_clean("grid, size hidden, logic agent", n);
    assert_eq!(logic.deaths, 0, "the logic agent never dies");
    let risk = (0..n)
        .into_par_iter()
        .map(|seed| {
            let scoring = Scoring::Aima;
            hidden_grid_game(
                seed,
                Strategy::Risk {
                    pit_prob: 0.2,
                    scoring,
                },
            )
        })
        .reduce(Tally::default, Tally::add);
    risk.assert_clean("grid, size hidden, risk agent", n);
    assert!(risk.deaths > 0);
}

#[test]
fn grid_100k_games_logic_never_dies_and_no_agent_dies_where_proven_safe() {
    let n = games();
    let logic = (0..n)
        .into_par_iter()
        .map(|seed| grid_game(seed, |_| Strategy::Logic))
        .reduce(Tally::default, Tally::add);
    logic.assert_clean("grid, logic agent", n);
    assert_eq!(logic.deaths, 0, "the logic agent never dies");
    let risk = (0..n)
        .into_par_iter()
        .map(|seed| {
            let scoring = if seed % 2 == 0 {
                Scoring::Standard
            } else {
                Scoring::Aima
            };
            grid_game(seed, |pit_prob| Strategy::Risk { pit_prob, scoring })
        })
        .reduce(Tally::default, Tally::add);
    risk.assert_clean("grid, risk agent", n);
    // The risk agent does gamble, and some gambles lose: the test would see a betrayal.
    assert!(risk.deaths > 0);
}

// -----------------------------------------------------------------------------------------
// Classic cave

const CAVE_MAPS: [&str; 4] = [
    cave::STANDARD_MAP,
    include_str!("../../worlds/cave-waterslide.txt"),
    include_str!("../../worlds/cave-risk.txt"),
    include_str!("../../worlds/cave-mobius.txt"),
];

/// One classic-cave game (the event's rules) on one of the event maps, the map known to the
/// agent or discovered, by `seed`.
fn cave_game(maps: &[Arc<cave::CaveMap>], seed: u64) -> Tally {
    let map = &maps[(seed % maps.len() as u64) as usize];
    let known = seed / maps.len() as u64 % 2 == 0;
    let what = || format!("map {} known {known} seed {seed}", seed % maps.len() as u64);
    cave_play(map, known, seed, what)
}

/// One classic-cave game on `map` by `seed`, the map known to the agent or not; `what` names
/// the game in a failure.
fn cave_play(map: &Arc<cave::CaveMap>, known: bool, seed: u64, what: impl Fn() -> String) -> Tally {
    let mut game = ClassicGame::new(map.clone(), Variant::Event, seed).unwrap();
    let mut agent = CaveAgent::new(CaveAgentConfig::for_map(map, known)).unwrap();
    let (mut last, mut result) = (None, None);
    let mut tally = Tally {
        games: 1,
        ..Tally::default()
    };
    for _ in 0..cave::CLASSIC_ACTION_LIMIT {
        if game.ending().is_some() {
            break;
        }
        let status = game.status();
        let _ = agent.observe_turn(last.as_ref(), result.as_ref(), &status);
        if let Some(why) = agent.lost() {
            tally.lost.push(format!("{}: {why}", what()));
            return tally;
        }
        let decision = agent.decide();
        let safe = match decision.action {
            CaveAction::Move(r) => agent.is_safe(r),
            CaveAction::Shoot(_) => false,
        };
        let turn = game.act(&decision.action);
        if let (CaveAction::Move(r), TurnResult::Move(MoveResult::Ended(Ending::Lost(cause)))) =
            (&decision.action, turn.result)
        {
            let killed_there =
                matches!(cause, LossCause::Pit | LossCause::Wumpus) && game.hunter() == *r;
            if safe && killed_there {
                tally
                    .betrayed
                    .push(format!("{}: {cause:?} in room {}", what(), r.index()));
            }
        }
        if game.ending() == Some(Ending::Lost(LossCause::OwnArrow)) {
            // Arrows, blind tails included, are planned never to come back.
            tally.betrayed.push(format!("{}: shot itself", what()));
        }
        last = Some(decision.action);
        result = Some(turn.result);
    }
    if matches!(game.ending(), Some(Ending::Lost(_))) {
        tally.deaths = 1;
    }
    tally
}

#[test]
fn cave_100k_games_no_death_where_proven_safe() {
    let n = games();
    let maps: Vec<Arc<cave::CaveMap>> = CAVE_MAPS
        .iter()
        .map(|t| Arc::new(cave::parse_map(t).unwrap()))
        .collect();
    let tally = (0..n)
        .into_par_iter()
        .map(|seed| cave_game(&maps, seed))
        .reduce(Tally::default, Tally::add);
    tally.assert_clean("classic cave", n);
    assert!(tally.deaths > 0, "the cave agent takes risks; some lose");
}

/// A cave map nobody chose anything on, dealt from `seed` (`wumpus world new --rules cave`):
/// 6 rooms to the most a map may have (`cave::map::MAX_ROOMS`), three two-way tunnels a room, three one-way ones, or three to any room at
/// all; the wumpus smelt one
/// tunnel away, or two in a quarter of the maps when the agent is given the map.
fn unseen_map(seed: u64, known: bool) -> Arc<cave::CaveMap> {
    use cave::MapFormat::Event;
    use rand::Rng;
    let mut rng = seeded(seed);
    let rooms = rng.random_range(6..=cave::map::MAX_ROOMS);
    let distance = if known && rng.random_bool(0.25) { 2 } else { 1 };
    let map = match rng.random_range(0..3) {
        0 if rooms % 2 == 0 => {
            cave::random_map(rooms, cave::Tunnels::TwoWay, distance, Event, &mut rng)
        }
        1 => cave::random_map(rooms, cave::Tunnels::OneWay, distance, Event, &mut rng),
        // What the rules allow beyond both: tunnels to any room, looping back or doubled, and
        // rooms that cannot be left or reached.
        _ => {
            let tunnels: Vec<[usize; 3]> = (0..rooms)
                .map(|_| std::array::from_fn(|_| rng.random_range(0..rooms)))
                .collect();
            Ok(cave::CaveMap::new(&tunnels, Event, distance, Vec::new(), Vec::new()).unwrap())
        }
    };
    Arc::new(map.expect("a dealable map"))
}

#[test]
fn cave_unseen_maps_no_death_where_proven_safe() {
    // A thirtieth of the event maps' games, on maps of every shape the rules allow: the
    // proofs must hold on maps no rule or number was chosen on.
    let n = (games() / 30).max(200);
    let tally = (0..n)
        .into_par_iter()
        .map(|seed| {
            let known = seed % 2 == 0;
            // Ten games a map.
            let map_seed = 7_000_000 + seed / 20 * 2 + u64::from(known);
            let map = unseen_map(map_seed, known);
            let what = || format!("unseen map {map_seed} known {known} seed {seed}");
            cave_play(&map, known, seed, what)
        })
        .reduce(Tally::default, Tally::add);
    tally.assert_clean("classic cave, unseen maps", n);
}

// -----------------------------------------------------------------------------------------
// Maze

/// One maze game: `decide` is told the view, the last action and its result, and answers the
/// action and whether it called the way proven safe (or why its reasoning broke down).
fn maze_play(
    map: &Arc<cave::CaveMap>,
    seed: u64,
    mut decide: impl FnMut(
        &cave::maze::MazeView,
        Option<MazeAction>,
        Option<cave::maze::MazeResult>,
    ) -> Result<(MazeAction, bool), String>,
) -> Tally {
    let mut game = MazeGame::new(map.clone(), seed).unwrap();
    let (mut last, mut result) = (None, None);
    let mut tally = Tally {
        games: 1,
        ..Tally::default()
    };
    for _ in 0..cave::MAZE_ACTION_LIMIT {
        if game.ending().is_some() {
            break;
        }
        let (action, safe) = match decide(&game.view(), last, result) {
            Ok(d) => d,
            Err(why) => {
                tally.lost.push(format!("seed {seed}: {why}"));
                return tally;
            }
        };
        let turn = game.act(action);
        let walked_into_death = turn
            .events
            .iter()
            .any(|e| matches!(e, MazeEvent::WalkedIntoWumpus | MazeEvent::FellInPit));
        if safe && walked_into_death {
            tally
                .betrayed
                .push(format!("seed {seed}: {action:?} -> {:?}", turn.events));
        }
        last = Some(action);
        result = Some(turn.result);
    }
    if matches!(
        game.ending(),
        Some(MazeEnding::Lost(MazeLoss::Pit | MazeLoss::Wumpus))
    ) {
        tally.deaths = 1;
    }
    tally
}

fn maze_game(map: &Arc<cave::CaveMap>, seed: u64) -> Tally {
    let mut agent = MazeAgent::new(map.clone(), Insight::Decisions).unwrap();
    maze_play(map, seed, |view, last, result| {
        let _ = agent.observe_turn(last, result, view);
        if let Some(why) = agent.lost() {
            return Err(why.to_string());
        }
        let action = agent.decide().action;
        let safe = match action {
            MazeAction::Move(t) => agent.tunnels()[t - 1].safe,
            MazeAction::Toss(_) => false,
        };
        Ok((action, safe))
    })
}

/// The same for the maze's default agent, which learns the map as the player does: a step
/// through a tunnel it called free of the pit and wumpi never kills.
fn maze_discovered_game(map: &Arc<cave::CaveMap>, seed: u64) -> Tally {
    let mut agent = DiscoveredMazeAgent::new(map.len());
    maze_play(map, seed, |view, last, result| {
        agent.observe_turn(last, result, view);
        let action = agent.decide().action;
        let safe = match action {
            MazeAction::Move(t) => agent.tunnels()[t - 1].safe,
            MazeAction::Toss(_) => false,
        };
        Ok((action, safe))
    })
}

#[test]
fn maze_100k_games_no_death_where_proven_safe() {
    let n = games();
    let map = Arc::new(cave::parse_map(cave::STANDARD_CAVES_DAT).unwrap());
    let tally = (0..n)
        .into_par_iter()
        .map(|seed| maze_game(&map, seed))
        .reduce(Tally::default, Tally::add);
    tally.assert_clean("maze", n);
    assert!(tally.deaths > 0, "the maze agent takes risks; some lose");
}

#[test]
fn maze_discovered_100k_games_no_death_where_proven_free() {
    let n = games();
    let map = Arc::new(cave::parse_map(cave::STANDARD_CAVES_DAT).unwrap());
    let tally = (0..n)
        .into_par_iter()
        .map(|seed| maze_discovered_game(&map, seed))
        .reduce(Tally::default, Tally::add);
    tally.assert_clean("maze without the map", n);
    assert!(tally.deaths > 0, "the maze agent takes risks; some lose");
}
