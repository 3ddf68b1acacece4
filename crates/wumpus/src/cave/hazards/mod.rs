//! Hazard layouts: where the hunter, the wumpus (or wumpi), the pits and the bats start in a
//! cave, dealt at random or read from a hazard file.
//!
//! A [`ClassicHazards`] or [`MazeHazards`] can only be built valid: every room on the map and
//! no room holding two things (the hunter counts as a thing), a maze with at least one wumpus
//! and one grenade. The random dealers ([`ClassicHazards::deal`], [`MazeHazards::deal`]) and the
//! file readers go through the same constructors, so the check lives in one place. A hazard file
//! may hold any number of pits and bats, which tests and hand-made puzzles use; the dealers
//! follow the rules (two of each in the classic cave, one of each in the maze).
//!
//! The hazard file format (reading and writing layouts) is in `file.rs`.

mod file;

pub use file::{
    format_classic_hazards, format_maze_hazards, parse_classic_hazards, parse_maze_hazards,
    HazardFileError, HazardFileErrorKind,
};

use super::map::CaveMap;
use crate::topology::Place;
use rand::Rng;

/// Arrows the hunter starts with in the classic cave.
pub const ARROWS: u8 = 5;

/// Grenades the maze gives for each wumpus.
pub const GRENADES_PER_WUMPUS: u32 = 4;

/// Why a layout is not valid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum HazardError {
    /// A room index beyond the map.
    #[error("room index {0} is not on the map")]
    OffMap(usize),
    /// Two things in one room.
    #[error("room {room} holds both {first} and {second}: a room holds at most one thing")]
    Shared {
        /// The room's number as the map numbers it.
        room: usize,
        /// The first thing.
        first: &'static str,
        /// The second thing.
        second: &'static str,
    },
    /// A maze with no wumpus.
    #[error("a maze needs at least one wumpus")]
    NoWumpus,
    /// A maze with no grenades.
    #[error("a maze needs at least one grenade")]
    NoGrenades,
    /// The map is too small for the rules' random deal.
    #[error("{rules} needs at least {min} rooms to deal its hazards; this map has {rooms}")]
    TooFewRooms {
        /// The rule set.
        rules: &'static str,
        /// Rooms needed.
        min: usize,
        /// Rooms on the map.
        rooms: usize,
    },
}

/// Checks that every room is on the map and no room holds two things.
fn check_distinct(map: &CaveMap, things: &[(&'static str, Place)]) -> Result<(), HazardError> {
    let mut holder: Vec<Option<&'static str>> = vec![None; map.len()];
    for &(what, room) in things {
        let slot = holder
            .get_mut(room.index())
            .ok_or(HazardError::OffMap(room.index()))?;
        if let Some(first) = *slot {
            return Err(HazardError::Shared {
                room: map.label(room),
                first,
                second: what,
            });
        }
        *slot = Some(what);
    }
    Ok(())
}

/// The classic cave's starting layout: the hunter, the wumpus, pits and bats in distinct rooms.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ClassicHazards {
    hunter: Place,
    wumpus: Place,
    pits: Vec<Place>,
    bats: Vec<Place>,
}

impl ClassicHazards {
    /// Rooms the random deal needs: the hunter, two bats, two pits and the wumpus.
    pub const DEAL_ROOMS: usize = 6;

    /// A layout, checked against `map`.
    pub fn new(
        map: &CaveMap,
        hunter: Place,
        wumpus: Place,
        pits: &[Place],
        bats: &[Place],
    ) -> Result<ClassicHazards, HazardError> {
        let mut things = vec![("the hunter", hunter), ("the wumpus", wumpus)];
        things.extend(pits.iter().map(|&p| ("a pit", p)));
        things.extend(bats.iter().map(|&b| ("bats", b)));
        check_distinct(map, &things)?;
        Ok(ClassicHazards {
            hunter,
            wumpus,
            pits: pits.to_vec(),
            bats: bats.to_vec(),
        })
    }

    /// A layout as it stands in the middle of a game, where the woken wumpus may share a room
    /// with a pit or bats; the rooms must be on the map. For games resumed from a belief
    /// ([`super::classic::ClassicGame::resume`]), never for a deal.
    pub(crate) fn mid_game(
        hunter: Place,
        wumpus: Place,
        pits: &[Place],
        bats: &[Place],
    ) -> ClassicHazards {
        ClassicHazards {
            hunter,
            wumpus,
            pits: pits.to_vec(),
            bats: bats.to_vec(),
        }
    }

    /// The event host's deal: six different rooms, uniformly, for the hunter, two bat rooms, two
    /// pit rooms and the wumpus.
    pub fn deal(map: &CaveMap, rng: &mut impl Rng) -> Result<ClassicHazards, HazardError> {
        if map.len() < Self::DEAL_ROOMS {
            return Err(HazardError::TooFewRooms {
                rules: "the classic cave",
                min: Self::DEAL_ROOMS,
                rooms: map.len(),
            });
        }
        let rooms: Vec<Place> = rand::seq::index::sample(rng, map.len(), Self::DEAL_ROOMS)
            .into_iter()
            .map(Place::new)
            .collect();
        let (hunter, bats, pits, wumpus) = (rooms[0], &rooms[1..3], &rooms[3..5], rooms[5]);
        ClassicHazards::new(map, hunter, wumpus, pits, bats)
    }

    /// Where the hunter starts.
    pub fn hunter(&self) -> Place {
        self.hunter
    }

    /// Where the wumpus starts.
    pub fn wumpus(&self) -> Place {
        self.wumpus
    }

    /// The pit rooms.
    pub fn pits(&self) -> &[Place] {
        &self.pits
    }

    /// The bat rooms.
    pub fn bats(&self) -> &[Place] {
        &self.bats
    }

    /// Tags for [`super::map::draw_map`]: `start`, `wumpus`, `pit`, `bats`.
    pub fn tags(&self, map: &CaveMap) -> super::map::RoomTags {
        let mut tags = vec![Vec::new(); map.len()];
        tags[self.hunter.index()].push("start");
        tags[self.wumpus.index()].push("wumpus");
        for p in &self.pits {
            tags[p.index()].push("pit");
        }
        for b in &self.bats {
            tags[b.index()].push("bats");
        }
        tags
    }
}

/// The maze's starting layout: the player, the wumpi, pits and bats in distinct caves, and the
/// grenades.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MazeHazards {
    player: Place,
    wumpi: Vec<Place>,
    pits: Vec<Place>,
    bats: Vec<Place>,
    grenades: u32,
}

impl MazeHazards {
    /// Caves the random deal needs at least: one wumpus, the pit, the bats and the player.
    pub const MIN_ROOMS: usize = 4;

    /// A layout, checked against `map`.
    pub fn new(
        map: &CaveMap,
        player: Place,
        wumpi: &[Place],
        pits: &[Place],
        bats: &[Place],
        grenades: u32,
    ) -> Result<MazeHazards, HazardError> {
        if wumpi.is_empty() {
            return Err(HazardError::NoWumpus);
        }
        if grenades == 0 {
            return Err(HazardError::NoGrenades);
        }
        let mut things = vec![("the player", player)];
        things.extend(wumpi.iter().map(|&w| ("a wumpus", w)));
        things.extend(pits.iter().map(|&p| ("a pit", p)));
        things.extend(bats.iter().map(|&b| ("bats", b)));
        check_distinct(map, &things)?;
        Ok(MazeHazards {
            player,
            wumpi: wumpi.to_vec(),
            pits: pits.to_vec(),
            bats: bats.to_vec(),
            grenades,
        })
    }

    /// The most wumpi seed 000's deal puts in a maze of `caves` caves: a quarter of them (one
    /// at least).
    pub fn most_wumpi(caves: usize) -> usize {
        (caves / 4).max(1)
    }

    /// Seed 000's deal: 1 to rooms/4 wumpi (uniform), 4 grenades each, one pit and one bat
    /// colony, each in a different cave, and the player in an empty cave; every placement
    /// uniform over the caves still empty.
    pub fn deal(map: &CaveMap, rng: &mut impl Rng) -> Result<MazeHazards, HazardError> {
        if map.len() < Self::MIN_ROOMS {
            return Err(HazardError::TooFewRooms {
                rules: "the maze",
                min: Self::MIN_ROOMS,
                rooms: map.len(),
            });
        }
        let wumpi = rng.random_range(1..=Self::most_wumpi(map.len()));
        let rooms: Vec<Place> = rand::seq::index::sample(rng, map.len(), wumpi + 3)
            .into_iter()
            .map(Place::new)
            .collect();
        MazeHazards::new(
            map,
            rooms[wumpi + 2],
            &rooms[..wumpi],
            &rooms[wumpi..wumpi + 1],
            &rooms[wumpi + 1..wumpi + 2],
            GRENADES_PER_WUMPUS * wumpi as u32,
        )
    }

    /// Where the player starts.
    pub fn player(&self) -> Place {
        self.player
    }

    /// Where the wumpi start.
    pub fn wumpi(&self) -> &[Place] {
        &self.wumpi
    }

    /// The pit caves.
    pub fn pits(&self) -> &[Place] {
        &self.pits
    }

    /// The bat caves.
    pub fn bats(&self) -> &[Place] {
        &self.bats
    }

    /// Grenades at the start.
    pub fn grenades(&self) -> u32 {
        self.grenades
    }

    /// Tags for [`super::map::draw_map`]: `start`, `wumpus`, `pit`, `bats`.
    pub fn tags(&self, map: &CaveMap) -> super::map::RoomTags {
        let mut tags = vec![Vec::new(); map.len()];
        tags[self.player.index()].push("start");
        for w in &self.wumpi {
            tags[w.index()].push("wumpus");
        }
        for p in &self.pits {
            tags[p.index()].push("pit");
        }
        for b in &self.bats {
            tags[b.index()].push("bats");
        }
        tags
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::map::parse_map;
    use crate::rng::seeded;

    fn standard() -> CaveMap {
        parse_map(include_str!("../../../../../worlds/cave-standard.txt")).unwrap()
    }

    fn caves() -> CaveMap {
        parse_map(include_str!("../../../../../worlds/caves.dat")).unwrap()
    }

    fn p(i: usize) -> Place {
        Place::new(i)
    }

    #[test]
    fn classic_deal_uses_six_different_rooms_uniformly() {
        let map = standard();
        let mut wumpus_rooms = vec![0u32; 20];
        for seed in 0..4000 {
            let h = ClassicHazards::deal(&map, &mut seeded(seed)).unwrap();
            let mut all = vec![h.hunter(), h.wumpus()];
            all.extend(h.pits());
            all.extend(h.bats());
            assert_eq!(all.len(), 6);
            all.sort();
            all.dedup();
            assert_eq!(all.len(), 6, "seed {seed}");
            wumpus_rooms[h.wumpus().index()] += 1;
            assert_eq!(h, ClassicHazards::deal(&map, &mut seeded(seed)).unwrap());
        }
        // 200 expected per room; 5 standard deviations is about 70.
        assert!(
            wumpus_rooms.iter().all(|&n| (130..270).contains(&n)),
            "{wumpus_rooms:?}"
        );
    }

    #[test]
    fn maze_deal_follows_seed_000() {
        let map = caves();
        let mut counts = [0u32; 6];
        for seed in 0..2000 {
            let h = MazeHazards::deal(&map, &mut seeded(seed)).unwrap();
            let k = h.wumpi().len();
            assert!((1..=5).contains(&k));
            counts[k] += 1;
            assert_eq!(h.grenades(), 4 * k as u32);
            assert_eq!((h.pits().len(), h.bats().len()), (1, 1));
            let mut all = vec![h.player()];
            all.extend(h.wumpi());
            all.extend(h.pits());
            all.extend(h.bats());
            let n = all.len();
            all.sort();
            all.dedup();
            assert_eq!(all.len(), n);
        }
        // Uniform over 1..=5: 400 expected each.
        assert!(
            counts[1..].iter().all(|&n| (300..500).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn small_maps_are_refused_by_the_dealers() {
        let tiny = parse_map("1\n5\n1 2 3 4\n2 1 1 1\n3 1 1 1\n4 1 1 1\n5 1 1 1\n").unwrap();
        assert!(matches!(
            ClassicHazards::deal(&tiny, &mut seeded(1)),
            Err(HazardError::TooFewRooms { min: 6, .. })
        ));
        let three = parse_map("1\n3\n1 2 3 1\n2 1 1 1\n3 1 1 1\n").unwrap();
        assert!(MazeHazards::deal(&three, &mut seeded(1)).is_err());
    }

    #[test]
    fn layouts_refuse_shared_rooms() {
        let map = standard();
        assert!(matches!(
            ClassicHazards::new(&map, p(0), p(0), &[], &[]),
            Err(HazardError::Shared { room: 1, .. })
        ));
        assert!(matches!(
            ClassicHazards::new(&map, p(0), p(1), &[p(2)], &[p(2)]),
            Err(HazardError::Shared {
                room: 3,
                first: "a pit",
                second: "bats"
            })
        ));
        assert!(matches!(
            ClassicHazards::new(&map, p(0), p(20), &[], &[]),
            Err(HazardError::OffMap(20))
        ));
        assert_eq!(
            MazeHazards::new(&map, p(0), &[], &[], &[], 4),
            Err(HazardError::NoWumpus)
        );
        assert_eq!(
            MazeHazards::new(&map, p(0), &[p(1)], &[], &[], 0),
            Err(HazardError::NoGrenades)
        );
    }
}
