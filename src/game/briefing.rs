//! What a player is told at the start of a game, before the first action: the one value an
//! agent is built from ([`Briefing`]).
//!
//! A briefing says what the rules let every player know of this game (the grid's size; the
//! number of rooms or caves) and nothing of the hidden world. It can be made only by the
//! rules (its constructors are `pub(crate)` and `tests/layout.rs` keeps them out of
//! `agent/`), so an agent cannot work one out from a seed or a dealt world: it must be handed
//! the one the session gives ([`super::Session::briefing`]). It must never carry a seed, a
//! layout of hazards or anything else a player is not told.

/// What a player is told at the start of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Briefing {
    /// The grid's rows and columns, on the grid.
    grid: Option<(usize, usize)>,
    /// How many places (cells, rooms or caves) the world has.
    places: usize,
}

impl Briefing {
    /// The briefing of a grid game: its size.
    pub(crate) fn grid(rows: usize, cols: usize) -> Briefing {
        Briefing {
            grid: Some((rows, cols)),
            places: rows * cols,
        }
    }

    /// The briefing of a game in a cave of `rooms` rooms (or a maze of that many caves).
    pub(crate) fn rooms(rooms: usize) -> Briefing {
        Briefing {
            grid: None,
            places: rooms,
        }
    }

    /// The grid's rows and columns, for a grid game.
    pub fn grid_size(&self) -> Option<(usize, usize)> {
        self.grid
    }

    /// How many places the world has: cells, rooms or caves.
    pub fn places(&self) -> usize {
        self.places
    }
}
