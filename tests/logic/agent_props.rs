//! Property tests over random worlds: the logic agent never dies, and no agent ever dies in a
//! cell it had called proven safe.

use proptest::prelude::*;
use std::sync::Arc;
use wumpus::agent::grid::{CellView, GridAgent, Strategy};
use wumpus::agent::Agent;
use wumpus::agent::Insight;
use wumpus::grid::{Action, GridGame, GridWorld, Scoring};
use wumpus::rng::seeded;
use wumpus::topology::{Link, Topology};

/// Plays one game, the risk agent looking `depth` steps ahead; returns (died, died in a cell
/// called safe).
fn play(
    rows: usize,
    cols: usize,
    pit_prob: f64,
    seed: u64,
    strategy: Strategy,
    depth: u32,
) -> (bool, bool) {
    let topology = Arc::new(Topology::grid(rows, cols).unwrap());
    let world = GridWorld::random(topology.clone(), pit_prob, &mut seeded(seed));
    let mut game = GridGame::new(world);
    let mut agent = GridAgent::new(topology.clone(), None, Insight::Decisions)
        .unwrap()
        .with_strategy(strategy)
        .with_depth(depth);
    let mut percepts = game.start().percepts;
    let mut last = None;
    let mut entered_safe = false;
    for _ in 0..10_000 {
        if game.outcome().is_some() {
            break;
        }
        agent.observe_percepts(last, &percepts).unwrap();
        let decision = agent.decide();
        // The agent keeps its proven cells as it goes; they must be what a scan finds.
        let scanned: Vec<_> = topology
            .places()
            .filter(|&p| matches!(agent.view(p), CellView::Visited | CellView::Safe))
            .collect();
        assert_eq!(agent.proven_safe(), scanned);
        let pits: Vec<_> = topology
            .places()
            .filter(|&p| agent.view(p) == CellView::Pit)
            .collect();
        assert_eq!(agent.proven_pits(), pits);
        if let Action::Move(d) = decision.action {
            let target = topology.follow(agent.position(), Link::Step(d));
            entered_safe =
                target.is_some_and(|t| matches!(agent.view(t), CellView::Visited | CellView::Safe));
        }
        percepts = game.act(decision.action).percepts;
        last = Some(decision.action);
    }
    let died = game.outcome().is_some_and(|o| o.is_death());
    (died, died && entered_safe)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn the_logic_agent_never_dies(
        rows in 2usize..7, cols in 2usize..7, pit_prob in 0.0f64..0.45, seed in any::<u64>()
    ) {
        let (died, _) = play(rows, cols, pit_prob, seed, Strategy::Logic, 1);
        prop_assert!(!died);
    }

    #[test]
    fn no_agent_dies_where_it_proved_safety(
        rows in 2usize..7, cols in 2usize..7, pit_prob in 0.0f64..0.45, seed in any::<u64>(),
        aima in any::<bool>(), depth in 1u32..4
    ) {
        let scoring = if aima { Scoring::Aima } else { Scoring::Standard };
        let strategy = Strategy::Risk { pit_prob, scoring };
        let (_, betrayed) = play(rows, cols, pit_prob, seed, strategy, depth);
        prop_assert!(!betrayed);
    }
}

#[test]
fn many_logic_games_without_a_death() {
    let mut games = 0;
    for seed in 0..20_000u64 {
        let (rows, cols) = (3 + (seed % 4) as usize, 3 + (seed / 4 % 4) as usize);
        let (died, _) = play(rows, cols, 0.2, seed, Strategy::Logic, 1);
        assert!(!died, "{rows}x{cols} seed {seed}");
        games += 1;
    }
    assert_eq!(games, 20_000);
}

/// Plays one game of the textbook's rules through the one interface with `kind`; returns its
/// record.
fn play_aima(
    rows: usize,
    cols: usize,
    pit_prob: f64,
    seed: u64,
    kind: wumpus::agent::AgentKind,
    depth: u32,
) -> wumpus::run::GameRecord {
    use wumpus::agent::{AgentOptions, Dice, Roster};
    use wumpus::game::Session;
    use wumpus::grid::{AimaSession, GridSetup};
    let setup = GridSetup::new(rows, cols, pit_prob, Scoring::Aima).unwrap();
    let mut session = AimaSession::deal(&setup, seed).unwrap();
    let options = AgentOptions {
        depth: Some(depth),
        ..AgentOptions::default()
    };
    let agents = AimaSession::prepare(kind, &setup, &options).unwrap();
    let mut agent = agents
        .make(&session.briefing(), Dice::for_game(seed))
        .unwrap();
    wumpus::run::play(&mut session, Some(seed), agent.as_mut(), &|| false, None)
        .unwrap()
        .expect("not stopped")
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Under the textbook's rules the logic agent never dies either, always ends the game,
    /// and its score is the textbook's: -1 an action (turns included), -10 for the arrow,
    /// +1000 out with the gold.
    #[test]
    fn the_logic_agent_never_dies_under_the_textbooks_rules(
        rows in 2usize..7, cols in 2usize..7, pit_prob in 0.0f64..0.45, seed in any::<u64>()
    ) {
        use wumpus::game::Ending;
        let record = play_aima(rows, cols, pit_prob, seed, wumpus::agent::AgentKind::Logic, 1);
        prop_assert!(matches!(record.ending, Ending::Won | Ending::ClimbedOut), "{:?}", record.ending);
        let gold = if record.ending == Ending::Won { 1000 } else { 0 };
        let expected = gold - record.moves as i64 - 10 * record.shots as i64;
        prop_assert_eq!(record.score, Some(expected));
    }

    /// The risk agent looking 1 to 3 steps ahead under the textbook's rules: every plan it
    /// makes (walks with turns, shots the way it faces) is carried out to an end of the game,
    /// scored as the textbook scores it.
    #[test]
    fn the_risk_agent_ends_every_textbook_game_at_any_depth(
        rows in 2usize..7, cols in 2usize..7, pit_prob in 0.0f64..0.45, seed in any::<u64>(),
        depth in 1u32..4
    ) {
        use wumpus::game::Ending;
        let record = play_aima(rows, cols, pit_prob, seed, wumpus::agent::AgentKind::Risk, depth);
        let end = match record.ending {
            Ending::Won => 1000,
            Ending::ClimbedOut => 0,
            Ending::Pit | Ending::Wumpus => -1000,
            other => return Err(TestCaseError::fail(format!("{other:?}"))),
        };
        let expected = end - record.moves as i64 - 10 * record.shots as i64;
        prop_assert_eq!(record.score, Some(expected));
    }
}
