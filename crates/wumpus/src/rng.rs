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

/// The generator stream an agent's dice draw from, apart from the game's own (stream 0).
const AGENT_STREAM: u64 = 1;

/// An agent's own random draws (a random player's dice). It draws numbers and nothing else:
/// it holds no seed and gives none back, and its stream is one the game never draws from, so
/// an agent handed it learns nothing of the world. The same game seed gives the same dice,
/// so a batch replays exactly.
#[derive(Clone)]
pub struct Dice(GameRng);

impl Dice {
    /// The dice of the game dealt from `seed`: the seed's generator on a stream of the
    /// agent's own.
    pub fn for_game(seed: u64) -> Dice {
        let mut rng = seeded(seed);
        rng.set_stream(AGENT_STREAM);
        Dice(rng)
    }

    /// Dice from the operating system's randomness, for games no seed replays.
    pub fn fresh() -> Dice {
        Dice::for_game(fresh_seed())
    }
}

impl std::fmt::Debug for Dice {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Dice")
    }
}

impl rand::RngCore for Dice {
    fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    fn fill_bytes(&mut self, dst: &mut [u8]) {
        self.0.fill_bytes(dst)
    }
}
