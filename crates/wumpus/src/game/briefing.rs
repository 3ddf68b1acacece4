//! What a player is told at the start of a game, before the first action: the one value an
//! agent is built from ([`Briefing`]).
//!
//! A briefing says what the rules let every player know of this game (the grid's size, unless
//! the rules hide it, and how grid worlds are dealt; the number of rooms or caves) and nothing
//! of the hidden world. It can be made only by the
//! rules (its constructors are `pub(crate)` and `tests/cli/layout.rs` keeps them out of
//! `agent/`), so an agent cannot work one out from a seed or a dealt world: it must be handed
//! the one the session gives ([`super::Session::briefing`]). It must never carry a seed, a
//! layout of hazards or anything else a player is not told.

use super::GridPrior;

/// What a player is told at the start of one game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Briefing {
    /// The grid's rows and columns, on the grid when the rules tell it.
    grid: Option<(usize, usize)>,
    /// On the grid, how its worlds are dealt (the sizes they may have, where pits may lie).
    prior: Option<GridPrior>,
    /// How many places (cells, rooms or caves) the world has; with the grid's size hidden, the
    /// most it may have.
    places: usize,
}

impl Briefing {
    /// The briefing of a grid game whose size is told, dealt by `prior`.
    pub(crate) fn grid(rows: usize, cols: usize, prior: GridPrior) -> Briefing {
        Briefing {
            grid: Some((rows, cols)),
            prior: Some(prior),
            places: rows * cols,
        }
    }

    /// The briefing of a grid game whose size is hidden: the player knows only `prior`.
    pub(crate) fn grid_hidden(prior: GridPrior) -> Briefing {
        let (rows, cols) = prior.largest();
        Briefing {
            grid: None,
            prior: Some(prior),
            places: rows * cols,
        }
    }

    /// The briefing of a game in a cave of `rooms` rooms (or a maze of that many caves).
    pub(crate) fn rooms(rooms: usize) -> Briefing {
        Briefing {
            grid: None,
            prior: None,
            places: rooms,
        }
    }

    /// The grid's rows and columns, for a grid game whose size the rules tell.
    pub fn grid_size(&self) -> Option<(usize, usize)> {
        self.grid
    }

    /// How the grid's worlds are dealt, for a grid game (its size told or not).
    pub fn grid_prior(&self) -> Option<GridPrior> {
        self.prior
    }

    /// How many places the world has: cells, rooms or caves (with the grid's size hidden, the
    /// most it may have).
    pub fn places(&self) -> usize {
        self.places
    }
}
