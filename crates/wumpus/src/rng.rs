//! Seeded randomness: every random choice in a run comes from one generator made from a seed.
//!
//! `ChaCha8Rng` is used rather than `rand`'s `StdRng` because its stream is fixed across
//! releases, so a seed printed today replays the same world tomorrow. Batches give game `i` the
//! seed `base + i`, so any game of a batch can be replayed alone with `--seed`.

use rand::SeedableRng;

/// The generator used everywhere in the program.
pub type GameRng = rand_chacha::ChaCha8Rng;

/// A generator for `seed`.
pub fn seeded(seed: u64) -> GameRng {
    GameRng::seed_from_u64(seed)
}

/// A fresh seed from the operating system, for runs started without `--seed`.
pub fn fresh_seed() -> u64 {
    rand::random()
}

/// The seed of game `index` of a batch that starts at `base`.
pub fn game_seed(base: u64, index: u64) -> u64 {
    base.wrapping_add(index)
}
