//! How fast the live page (`wumpus serve`) answers: for each rule set and size, games are
//! played the way the page plays them when its user follows every hint, and each turn's work
//! is timed: telling the hint agent what the player was shown (`Agent::observe`), then
//! the hint (`run::event::hint_event`: `decide` and `knowledge`) (the agent's next action, its reason, and everything it knows, which the page
//! draws). That is what one request to the page costs the server, past the network.
//!
//! `cargo bench --bench hint_latency` prints, for each case, the turns timed and the mean,
//! median, 95th percentile and slowest answer. The target: a hint on a 16x16 grid at
//! pit probability 0.05 in under 50 ms. It is a plain program (no harness), so that it prints
//! a distribution rather than one mean.

use std::sync::Arc;
use std::time::{Duration, Instant};
use wumpus::agent::{AgentKind, AgentOptions, Dice, Roster};
use wumpus::cave::{self, ClassicSession, ClassicSetup, MazeSession, MazeSetup, Variant};
use wumpus::grid::{GridSession, GridSetup, Scoring};
use wumpus::run::event::{step_event, Labels};

/// Plays `games` games dealt from seeds `0..games` by following hints; returns each turn's
/// answer time (observe + hint).
fn follow_hints<S: Roster>(setup: &S::Setup, kind: AgentKind, games: u64) -> Vec<Duration> {
    let options = AgentOptions {
        explain: true,
        map_known: false,
        kb: None,
        depth: None,
        rollouts: None,
        cache: None,
    };
    let agents = S::prepare(kind, setup, &options).expect("the agent plays");
    let mut times = Vec::new();
    for seed in 0..games {
        let mut session = S::deal(setup, seed).expect("a game is dealt");
        let mut agent = agents
            .make(&session.briefing(), Dice::for_game(0))
            .expect("an agent");
        let mut shown = session.start();
        let mut last: Option<S::Action> = None;
        let mut names = Labels::default();
        let mut steps = 0;
        while session.ending().is_none() && steps < session.action_limit() as usize {
            steps += 1;
            let t = Instant::now();
            let learned = agent.observe(last.as_ref(), &shown).expect("observe");
            // What `hint_event` does, keeping the decision to play it.
            let decision = agent.decide();
            let knowledge = agent.knowledge();
            names.agent_grid(agent.places_on());
            let event = step_event(
                &session, steps, &shown, &learned, &knowledge, &decision, &mut names,
            );
            times.push(t.elapsed());
            assert!(!event.action.is_empty());
            shown = session.act(&decision.action);
            last = Some(decision.action);
        }
    }
    times
}

fn report(what: &str, mut times: Vec<Duration>) {
    times.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1e3;
    let n = times.len().max(1);
    let mean = times.iter().map(|&d| ms(d)).sum::<f64>() / n as f64;
    let at = |q: f64| {
        times
            .get(((n - 1) as f64 * q) as usize)
            .map_or(0.0, |&d| ms(d))
    };
    println!(
        "{what:<34} {:>6} turns  mean {mean:>7.2} ms  median {:>7.2} ms  p95 {:>7.2} ms  max {:>8.2} ms",
        times.len(),
        at(0.5),
        at(0.95),
        times.last().map_or(0.0, |&d| ms(d)),
    );
}

fn grid(rows: usize, pit_prob: f64, games: u64) {
    let setup = GridSetup::new(rows, rows, pit_prob, Scoring::Standard).expect("a grid");
    for kind in [AgentKind::Risk, AgentKind::Logic] {
        let times = follow_hints::<GridSession>(&setup, kind, games);
        report(&format!("grid {rows}x{rows} p={pit_prob} {kind}"), times);
    }
}

fn main() {
    // `cargo bench` passes --bench; `cargo test --benches` passes nothing and wants it quick.
    let quick = !std::env::args().any(|a| a == "--bench");
    let games = if quick { 1 } else { 20 };
    println!("answer time of one turn of the live page (observe + hint), {games} games a case");
    grid(5, 0.2, games * 5);
    grid(16, 0.05, games);
    if !quick {
        grid(64, 0.05, 3);
    }
    let map = Arc::new(cave::parse_map(cave::STANDARD_MAP).expect("the standard map"));
    let classic = ClassicSetup {
        map,
        map_name: "the standard dodecahedron".into(),
        variant: Variant::Event,
    };
    report(
        "cave, standard map, logic",
        follow_hints::<ClassicSession>(&classic, AgentKind::Logic, games * 5),
    );
    let map = Arc::new(cave::parse_map(cave::STANDARD_CAVES_DAT).expect("caves.dat"));
    let maze = MazeSetup {
        map,
        map_name: "the standard caves.dat".into(),
    };
    report(
        "maze, caves.dat, logic",
        follow_hints::<MazeSession>(&maze, AgentKind::Logic, games * 5),
    );
}
