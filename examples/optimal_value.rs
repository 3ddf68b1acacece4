//! The exact value of the real grid game (no relaxation) on a small grid, with the win and
//! death rates of the optimal policy, the belief states solved and the time the solve took:
//! the figures of `docs/agents.md` and of `solve`'s "best possible" line.
//!
//! `cargo run --release --example optimal_value -- ROWS COLS standard|aima [PIT] [heading]`
//!
//! With `heading`, the value is that of the textbook's rules of movement instead of this
//! game's: the player faces a direction (east at the start), a turn left or right costs a
//! move, a move steps forward, and the arrow flies where the player faces.
use wumpus::agent::optimal::{Model, Moves, OptimalSolver};
use wumpus::grid::Scoring;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let rows: usize = args.get(1).map_or(4, |a| a.parse().expect("ROWS"));
    let cols: usize = args.get(2).map_or(4, |a| a.parse().expect("COLS"));
    let scoring = match args.get(3).map(String::as_str) {
        Some("aima") => Scoring::Aima,
        _ => Scoring::Standard,
    };
    let pit: f64 = args.get(4).map_or(0.2, |a| a.parse().expect("PIT"));
    let moves = if args.get(5).is_some_and(|a| a == "heading") {
        Moves::Heading
    } else {
        Moves::AnyDirection
    };
    let model = match Model::new(rows, cols, pit, scoring) {
        Ok(m) => m.with_moves(moves),
        Err(e) => {
            eprintln!("{e}");
            std::process::exit(2);
        }
    };
    let game = OptimalSolver::new(model).game_value();
    println!(
        "{rows}x{cols}, pit {pit}, {} scoring{}: exact value {:.4} (wins {:.4}%, deaths {:.4}%); {} states, {:.1} s",
        scoring.name(),
        if moves == Moves::Heading {
            ", textbook heading (turns cost a move)"
        } else {
            ""
        },
        game.value.score,
        100.0 * game.value.win,
        100.0 * game.value.death,
        game.states,
        game.seconds
    );
}
