//! The classic cave's simulator: a [`ClassicGame`] holds the hidden layout, the hunter's state
//! and the one seeded generator every random event draws from (bat flights, swerving arrows,
//! the waking wumpus), and answers one action at a time.
//!
//! A player is told only a [`Status`] and each [`Turn`]: the game must never pass a player its
//! layout (the accessors to it serve the session, the reports, and agents that simulate games
//! on layouts of their own drawing), and it never draws from any generator but the one it
//! holds.

use super::super::hazards::{ClassicHazards, HazardError, ARROWS};
use super::super::map::CaveMap;
use super::turn::{
    Action, ArrowPath, Ending, Event, LossCause, MoveResult, Room, ShotResult, Status, Turn,
    TurnResult, Variant, MOVE_LIMIT,
};
use crate::rng::{seeded, GameRng};
use crate::topology::Place;
use rand::Rng;
use std::sync::Arc;

/// A classic cave game in progress (or over).
#[derive(Clone, Debug)]
pub struct ClassicGame {
    map: Arc<CaveMap>,
    dealt: ClassicHazards,
    variant: Variant,
    rng: GameRng,
    hunter: Room,
    wumpus: Room,
    pit: Vec<bool>,
    bats: Vec<bool>,
    near_pit: Vec<bool>,
    near_bats: Vec<bool>,
    near_wumpus: Vec<bool>,
    arrows: u8,
    moves: u32,
    shots: u32,
    ending: Option<Ending>,
}

impl ClassicGame {
    /// A game on `map` whose hazards are dealt, and whose every later random event is drawn,
    /// from the generator seeded with `seed`.
    pub fn new(map: Arc<CaveMap>, variant: Variant, seed: u64) -> Result<ClassicGame, HazardError> {
        let mut rng = seeded(seed);
        let hazards = ClassicHazards::deal(&map, &mut rng)?;
        Ok(ClassicGame::with_hazards(map, hazards, variant, rng))
    }

    /// A game on a given layout; `rng` draws every random event from now on.
    pub fn with_hazards(
        map: Arc<CaveMap>,
        hazards: ClassicHazards,
        variant: Variant,
        rng: GameRng,
    ) -> ClassicGame {
        let n = map.len();
        let mut pit = vec![false; n];
        let mut bats = vec![false; n];
        let mut near_pit = vec![false; n];
        let mut near_bats = vec![false; n];
        for &p in hazards.pits() {
            pit[p.index()] = true;
            mark_near(&map, p, &mut near_pit);
        }
        for &b in hazards.bats() {
            bats[b.index()] = true;
            mark_near(&map, b, &mut near_bats);
        }
        let near_wumpus = map.within(hazards.wumpus(), map.warning_distance());
        ClassicGame {
            hunter: hazards.hunter(),
            wumpus: hazards.wumpus(),
            map,
            dealt: hazards,
            variant,
            rng,
            pit,
            bats,
            near_pit,
            near_bats,
            near_wumpus,
            arrows: ARROWS,
            moves: 0,
            shots: 0,
            ending: None,
        }
    }

    /// A game picked up in the middle: the hunter in `hunter` with `arrows` arrows after
    /// `moves` moves, the wumpus (awake or not: it only moves when an arrow wakes it) in
    /// `wumpus`, which may be a pit or bat room by now. The agent's rollouts play games on
    /// from layouts drawn from what it believes. Rooms off the map are refused.
    #[allow(clippy::too_many_arguments)]
    pub fn resume(
        map: Arc<CaveMap>,
        variant: Variant,
        hunter: Room,
        wumpus: Room,
        pits: &[Room],
        bats: &[Room],
        arrows: u8,
        moves: u32,
        rng: GameRng,
    ) -> Result<ClassicGame, HazardError> {
        let n = map.len();
        if let Some(off) = [hunter, wumpus]
            .iter()
            .chain(pits)
            .chain(bats)
            .find(|r| r.index() >= n)
        {
            return Err(HazardError::OffMap(off.index()));
        }
        let hazards = ClassicHazards::mid_game(hunter, wumpus, pits, bats);
        let mut game = ClassicGame::with_hazards(map, hazards, variant, rng);
        game.arrows = arrows;
        game.moves = moves;
        Ok(game)
    }

    /// The map.
    pub fn map(&self) -> &Arc<CaveMap> {
        &self.map
    }

    /// The rules in play.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// The layout as it was dealt (for saving and drawing; never for agents).
    pub fn hazards(&self) -> &ClassicHazards {
        &self.dealt
    }

    /// The hunter's room now. Only the game's owner (a test, a drawing) may ask; agents get
    /// the room through [`ClassicGame::status`].
    pub fn hunter(&self) -> Room {
        self.hunter
    }

    /// The wumpus's room now (hidden from agents).
    pub fn wumpus(&self) -> Room {
        self.wumpus
    }

    /// What the hunter knows now.
    pub fn status(&self) -> Status {
        let h = self.hunter.index();
        Status {
            room: self.hunter,
            outs: self.map.outs(self.hunter).to_vec(),
            ins: self.map.ins(self.hunter).to_vec(),
            pit: self.near_pit[h],
            bats: self.near_bats[h],
            wumpus: self.near_wumpus[h],
            arrows: self.arrows,
            moves: self.moves,
        }
    }

    /// Moves made so far.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Arrows left.
    pub fn arrows(&self) -> u8 {
        self.arrows
    }

    /// Arrows shot so far (refused paths not counted).
    pub fn shots(&self) -> u32 {
        self.shots
    }

    /// How the game ended, or `None` while it goes on.
    pub fn ending(&self) -> Option<Ending> {
        self.ending
    }

    /// Takes one action. After the game is over an action changes nothing and repeats the
    /// ending, with no events.
    pub fn act(&mut self, action: &Action) -> Turn {
        let mut events = Vec::new();
        let result = match action {
            Action::Move(room) => TurnResult::Move(self.walk(*room, &mut events)),
            Action::Shoot(path) => TurnResult::Shot(self.shoot(path, &mut events)),
        };
        Turn { result, events }
    }

    fn end(&mut self, ending: Ending) -> Ending {
        self.ending = Some(ending);
        ending
    }

    fn walk(&mut self, room: Room, events: &mut Vec<Event>) -> MoveResult {
        if let Some(e) = self.ending {
            return MoveResult::Ended(e);
        }
        if !self.map.outs(self.hunter).contains(&room) {
            events.push(Event::NotAnExit);
            return MoveResult::NotAnExit;
        }
        let mut target = room;
        let mut snatched = false;
        loop {
            self.hunter = target;
            if target == self.wumpus {
                match self.variant {
                    Variant::Event => {
                        events.push(Event::Eaten);
                        return MoveResult::Ended(self.end(Ending::Lost(LossCause::Wumpus)));
                    }
                    Variant::Yob => {
                        events.push(Event::BumpedWumpus);
                        if self.wake() {
                            events.push(Event::Eaten);
                            return MoveResult::Ended(self.end(Ending::Lost(LossCause::Wumpus)));
                        }
                    }
                }
            }
            if self.pit[target.index()] {
                events.push(Event::FellInPit);
                return MoveResult::Ended(self.end(Ending::Lost(LossCause::Pit)));
            }
            if self.bats[target.index()] {
                events.push(Event::Snatched);
                snatched = true;
                target = Place::new(self.rng.random_range(0..self.map.len()));
                continue;
            }
            break;
        }
        self.moves += 1;
        if self.moves >= MOVE_LIMIT {
            events.push(Event::Exhausted);
            return MoveResult::Ended(self.end(Ending::Lost(LossCause::Exhaustion)));
        }
        if snatched {
            MoveResult::Snatched
        } else {
            MoveResult::Moved
        }
    }

    fn shoot(&mut self, path: &ArrowPath, events: &mut Vec<Event>) -> ShotResult {
        if let Some(e) = self.ending {
            return ShotResult::Ended(e);
        }
        let rooms = path.rooms();
        // A room equal to the one two steps before, the hunter's room counting as the first.
        let mut full = Vec::with_capacity(rooms.len() + 1);
        full.push(self.hunter);
        full.extend_from_slice(rooms);
        if full.windows(3).any(|w| w[0] == w[2]) {
            events.push(Event::TooCrooked);
            return ShotResult::TooCrooked;
        }
        // The arrow has left the bow whatever it meets: a winning shot leaves one arrow fewer.
        self.shots += 1;
        self.arrows = self.arrows.saturating_sub(1);
        let mut arrow = self.hunter;
        for &named in rooms {
            arrow = if self.map.joined(arrow, named) {
                named
            } else {
                // A random tunnel end of the arrow's room: out-tunnels then in-tunnels, as the
                // event host lists them (a tunnel joined both ways is listed twice).
                let outs = self.map.outs(arrow);
                let ins = self.map.ins(arrow);
                let pick = self.rng.random_range(0..outs.len() + ins.len());
                if pick < outs.len() {
                    outs[pick]
                } else {
                    ins[pick - outs.len()]
                }
            };
            if arrow == self.wumpus {
                events.push(Event::KilledWumpus);
                let score = MOVE_LIMIT - self.moves;
                return ShotResult::Ended(self.end(Ending::Won { score }));
            }
            if arrow == self.hunter {
                events.push(Event::ShotSelf);
                return ShotResult::Ended(self.end(Ending::Lost(LossCause::OwnArrow)));
            }
        }
        events.push(Event::Missed);
        if self.wake() {
            events.push(Event::EatenAfterMiss);
            return ShotResult::Ended(self.end(Ending::Lost(LossCause::Wumpus)));
        }
        if self.arrows == 0 {
            events.push(Event::OutOfArrows);
            return ShotResult::Ended(self.end(Ending::Lost(LossCause::OutOfArrows)));
        }
        ShotResult::Missed
    }

    /// The wumpus wakes: it takes one of its out-tunnels or stays, each equally likely. Returns
    /// true when it is then in the hunter's room.
    fn wake(&mut self) -> bool {
        let outs = *self.map.outs(self.wumpus);
        let pick = self.rng.random_range(0..=outs.len());
        if pick < outs.len() {
            self.wumpus = outs[pick];
            self.near_wumpus = self.map.within(self.wumpus, self.map.warning_distance());
        }
        self.wumpus == self.hunter
    }
}

/// Marks the rooms joined to `room` either way.
fn mark_near(map: &CaveMap, room: Room, near: &mut [bool]) {
    for &r in map.outs(room).iter().chain(map.ins(room)) {
        near[r.index()] = true;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::map::parse_map;

    fn map(text: &str) -> Arc<CaveMap> {
        Arc::new(parse_map(text).unwrap())
    }

    const STANDARD_TEXT: &str = include_str!("../../../../../worlds/cave-standard.txt");

    fn standard() -> Arc<CaveMap> {
        map(STANDARD_TEXT)
    }

    fn waterslide() -> Arc<CaveMap> {
        map(include_str!("../../../../../worlds/cave-waterslide.txt"))
    }

    /// Two separate caves: rooms 1–3 each joined to the other two and to themselves, and rooms
    /// 4–9 (a ring with chords) where the hazards live. Nothing can cross from one to the other.
    const TWO_CAVES: &str = "1\n9\n1 2 3 1\n2 1 3 2\n3 1 2 3\n\
        4 5 9 6\n5 4 6 7\n6 5 7 4\n7 6 8 5\n8 7 9 9\n9 8 4 8\n";

    /// Room `n` as the map numbers it (1-based on event maps).
    fn r(n: usize) -> Room {
        Place::new(n - 1)
    }

    fn game(
        m: &Arc<CaveMap>,
        hunter: usize,
        wumpus: usize,
        pits: &[usize],
        bats: &[usize],
        variant: Variant,
        seed: u64,
    ) -> ClassicGame {
        let pits: Vec<Room> = pits.iter().map(|&n| r(n)).collect();
        let bats: Vec<Room> = bats.iter().map(|&n| r(n)).collect();
        let h = ClassicHazards::new(m, r(hunter), r(wumpus), &pits, &bats).unwrap();
        ClassicGame::with_hazards(m.clone(), h, variant, seeded(seed))
    }

    fn shoot(rooms: &[usize]) -> Action {
        Action::Shoot(ArrowPath::new(rooms.iter().map(|&n| r(n)).collect()).unwrap())
    }

    #[test]
    fn status_lists_tunnels_and_warnings_either_way() {
        // Standard map: room 1 joins 2, 5, 8. Wumpus in 2, a pit in 5, bats in 8.
        let g = game(&standard(), 1, 2, &[5], &[8], Variant::Event, 0);
        let s = g.status();
        assert_eq!(s.room, r(1));
        assert_eq!(s.outs, [r(2), r(5), r(8)]);
        assert_eq!(s.ins, [r(2), r(5), r(8)]);
        assert!(s.pit && s.bats && s.wumpus);
        assert_eq!((s.arrows, s.moves), (5, 0));
        assert_eq!(s.protocol_line(), "status 0 1 1 1 out 1 4 7 in 1 4 7");
        let quiet = game(&standard(), 1, 20, &[19], &[18], Variant::Event, 0);
        let s = quiet.status();
        assert!(!s.pit && !s.bats && !s.wumpus);
    }

    #[test]
    fn warnings_come_through_one_way_tunnels_both_ways() {
        // Waterslide: 17 -> 2 is one-way. A pit in 17 is felt in 2, and a pit in 2 in 17.
        let m = waterslide();
        let g = game(&m, 2, 20, &[17], &[], Variant::Event, 0);
        assert!(g.status().pit);
        assert_eq!(g.status().ins, [r(1), r(3), r(17)]);
        let g = game(&m, 17, 20, &[2], &[], Variant::Event, 0);
        assert!(g.status().pit);
    }

    #[test]
    fn not_an_exit_is_refused_without_counting_a_move() {
        // Waterslide: 17 leads to 2, but 2 has no tunnel back to 17.
        let mut g = game(&waterslide(), 2, 20, &[], &[], Variant::Event, 0);
        let t = g.act(&Action::Move(r(17)));
        assert_eq!(t.result, TurnResult::Move(MoveResult::NotAnExit));
        assert_eq!(t.events, [Event::NotAnExit]);
        assert_eq!(t.result.protocol_line(), "not_an_exit");
        let t = g.act(&Action::Move(r(2)));
        assert_eq!(t.result, TurnResult::Move(MoveResult::NotAnExit));
        assert_eq!((g.moves(), g.hunter()), (0, r(2)));
        let t = g.act(&Action::Move(r(3)));
        assert_eq!(t.result, TurnResult::Move(MoveResult::Moved));
        assert_eq!((g.moves(), g.hunter()), (1, r(3)));
    }

    #[test]
    fn walking_into_a_pit_or_the_wumpus_kills() {
        let mut g = game(&standard(), 1, 2, &[5], &[], Variant::Event, 0);
        let t = g.act(&Action::Move(r(5)));
        assert_eq!(
            t.result,
            TurnResult::Move(MoveResult::Ended(Ending::Lost(LossCause::Pit)))
        );
        assert_eq!(t.events, [Event::FellInPit]);
        assert_eq!(t.result.protocol_line(), "end lost 0");
        // Nothing changes after the end.
        let again = g.act(&Action::Move(r(2)));
        assert!(again.events.is_empty());
        assert_eq!(g.ending(), Some(Ending::Lost(LossCause::Pit)));
        let mut g = game(&standard(), 1, 2, &[5], &[], Variant::Event, 0);
        let t = g.act(&Action::Move(r(2)));
        assert_eq!(t.events, [Event::Eaten]);
        assert_eq!(g.ending(), Some(Ending::Lost(LossCause::Wumpus)));
    }

    #[test]
    fn bats_can_drop_the_hunter_into_a_pit() {
        // Standard map: hunter in 1, bats in 2; pits in 10 and 15, the wumpus in 20. Every
        // flight lands uniformly anywhere; the course of each seed is checked against where the
        // hunter ended up, and some seed must end in a pit.
        let m = standard();
        let mut pit_seed = None;
        let mut landings = [0u32; 20];
        for seed in 0..2000 {
            let mut g = game(&m, 1, 20, &[10, 15], &[2], Variant::Event, seed);
            let t = g.act(&Action::Move(r(2)));
            assert_eq!(t.events[0], Event::Snatched);
            let flights = t.events.iter().filter(|&&e| e == Event::Snatched).count();
            let here = g.hunter();
            landings[here.index()] += 1;
            match t.result {
                TurnResult::Move(MoveResult::Snatched) => {
                    assert!(![r(2), r(10), r(15), r(20)].contains(&here));
                    assert_eq!(g.moves(), 1, "a flight counts as one move");
                }
                TurnResult::Move(MoveResult::Ended(Ending::Lost(LossCause::Pit))) => {
                    assert!(here == r(10) || here == r(15));
                    assert_eq!(t.events.last(), Some(&Event::FellInPit));
                    pit_seed.get_or_insert(seed);
                }
                TurnResult::Move(MoveResult::Ended(Ending::Lost(LossCause::Wumpus))) => {
                    assert_eq!(here, r(20));
                }
                other => panic!("seed {seed}: {other:?}"),
            }
            // One Snatched event a flight: a flight lands in the bats' room again only by chance.
            assert!(flights >= 1);
        }
        assert!(pit_seed.is_some());
        // The landing room is uniform: 100 expected per room (bats' room 2 re-flies).
        assert_eq!(landings[1], 0);
        for (i, &n) in landings.iter().enumerate() {
            if i != 1 {
                assert!((60..150).contains(&n), "room {}: {n}", i + 1);
            }
        }
    }

    #[test]
    fn a_move_through_a_tunnel_to_itself_counts_and_stays() {
        let m = map(TWO_CAVES);
        let mut g = game(&m, 1, 9, &[8], &[7], Variant::Event, 0);
        assert!(g.status().outs.contains(&r(1)));
        assert!(g.status().ins.contains(&r(1)));
        let t = g.act(&Action::Move(r(1)));
        assert_eq!(t.result, TurnResult::Move(MoveResult::Moved));
        assert_eq!((g.hunter(), g.moves()), (r(1), 1));
    }

    #[test]
    fn an_arrow_through_a_tunnel_to_the_hunters_own_room_hits_the_hunter() {
        let m = map(TWO_CAVES);
        let mut g = game(&m, 1, 9, &[8], &[7], Variant::Event, 0);
        let t = g.act(&shoot(&[1]));
        assert_eq!(t.events, [Event::ShotSelf]);
        assert_eq!(g.ending(), Some(Ending::Lost(LossCause::OwnArrow)));
    }

    #[test]
    fn an_arrow_can_swerve_into_the_hunter() {
        // Standard map, hunter in 1: the arrow is told 2 then 4. 4 is not joined to 2, so it
        // swerves down a random tunnel of 2: to 1 (the hunter), 3 or 10, a third each.
        let m = standard();
        let (mut selves, mut seen_self) = (0, None);
        let n = 3000;
        for seed in 0..n {
            let mut g = game(&m, 1, 20, &[], &[], Variant::Event, seed);
            let t = g.act(&shoot(&[2, 4]));
            match t.result {
                TurnResult::Shot(ShotResult::Ended(Ending::Lost(LossCause::OwnArrow))) => {
                    selves += 1;
                    seen_self.get_or_insert(seed);
                    assert_eq!(t.events, [Event::ShotSelf]);
                }
                TurnResult::Shot(ShotResult::Missed) => assert_eq!(g.arrows(), 4),
                other => panic!("seed {seed}: {other:?}"),
            }
        }
        assert!(seen_self.is_some());
        // 1000 expected; 5 standard deviations is about 130.
        assert!((870..1130).contains(&selves), "{selves}");
    }

    #[test]
    fn a_swerving_arrow_takes_a_random_tunnel_end_as_the_host_lists_them() {
        // Waterslide: the arrow reaches 2 (outs 1, 3, 5; ins 1, 3, 17) and is told 20, which is
        // not joined to 2. The host picks among [1, 3, 5, 1, 3, 17]: the hunter's room 3 with
        // chance 1/3, the wumpus's room 17 with chance 1/6.
        let m = waterslide();
        let (mut own, mut won, n) = (0, 0, 6000);
        for seed in 0..n {
            let mut g = game(&m, 3, 17, &[], &[], Variant::Event, seed);
            match g.act(&shoot(&[2, 20])).result.ending() {
                Some(Ending::Lost(LossCause::OwnArrow)) => own += 1,
                Some(Ending::Won { .. }) => won += 1,
                _ => {}
            }
        }
        // 2000 and 1000 expected; about 5 standard deviations each side.
        assert!((1820..2180).contains(&own), "{own}");
        assert!((855..1145).contains(&won), "{won}");
    }

    #[test]
    fn the_wumpus_is_smelled_within_the_warning_distance() {
        // The standard dodecahedron with warning distance 2: from room 1, the wumpus in 3 (two
        // tunnels away) is smelled; in 13 (three or more away) it is not.
        let text = STANDARD_TEXT.replacen("1\n", "2\n", 1);
        let m = map(&text);
        assert_eq!(m.warning_distance(), 2);
        assert!(game(&m, 1, 3, &[], &[], Variant::Event, 0).status().wumpus);
        assert!(!game(&m, 1, 13, &[], &[], Variant::Event, 0).status().wumpus);
        // Pits and bats are still felt and heard one tunnel away only.
        assert!(!game(&m, 1, 13, &[3], &[4], Variant::Event, 0).status().pit);
        assert!(!game(&m, 1, 13, &[3], &[4], Variant::Event, 0).status().bats);
    }

    #[test]
    fn an_arrow_follows_an_in_tunnel_and_kills_in_passing() {
        // Waterslide: 2 has no tunnel to 17, but 17 has one to 2, so the arrow flies to 17.
        // It kills the wumpus there even though the path goes on.
        let mut g = game(&waterslide(), 2, 17, &[], &[], Variant::Event, 0);
        let t = g.act(&shoot(&[17, 16]));
        assert_eq!(t.events, [Event::KilledWumpus]);
        assert_eq!(
            t.result,
            TurnResult::Shot(ShotResult::Ended(Ending::Won { score: 100 }))
        );
        assert_eq!(t.result.protocol_line(), "end won 100");
    }

    #[test]
    fn a_kill_scores_100_minus_moves_and_shots_are_free() {
        let m = map(TWO_CAVES);
        // The wumpus is out of reach in the other cave; three moves, two misses, then a win
        // in a map where the wumpus shares the hunter's cave.
        let mut g = game(&m, 1, 9, &[], &[], Variant::Event, 3);
        for _ in 0..3 {
            g.act(&Action::Move(r(2)));
            g.act(&Action::Move(r(1)));
        }
        g.act(&shoot(&[2]));
        assert_eq!((g.moves(), g.arrows(), g.shots()), (6, 4, 1));
        let mut g = game(&standard(), 1, 3, &[], &[], Variant::Event, 0);
        g.act(&Action::Move(r(2)));
        g.act(&Action::Move(r(10)));
        let t = g.act(&shoot(&[2, 3]));
        assert_eq!(t.result.ending(), Some(Ending::Won { score: 98 }));
        // The winning arrow is gone: one shot, four arrows left.
        assert_eq!((g.arrows(), g.shots()), (4, 1));
    }

    #[test]
    fn too_crooked_paths_are_refused_at_no_cost() {
        let m = standard();
        for path in [&[2, 1][..], &[2, 3, 2], &[2, 10, 11, 10], &[2, 3, 4, 5, 4]] {
            let mut g = game(&m, 1, 20, &[], &[], Variant::Event, 0);
            let before = g.clone();
            let t = g.act(&shoot(path));
            assert_eq!(
                t.result,
                TurnResult::Shot(ShotResult::TooCrooked),
                "{path:?}"
            );
            assert_eq!(t.result.protocol_line(), "too_crooked");
            assert_eq!(t.events, [Event::TooCrooked]);
            assert_eq!((g.arrows(), g.moves(), g.shots()), (5, 0, 0));
            assert_eq!(g.wumpus(), r(20));
            // Nothing random was drawn: the next shot goes exactly as it would have.
            let mut b = before;
            assert_eq!(g.act(&shoot(&[4, 5])), b.act(&shoot(&[4, 5])));
            assert_eq!(g.wumpus(), b.wumpus());
        }
        // Going round a corner is fine: 1 -> 2 -> 3 -> 4 -> 5 -> 1 has no straight doubling.
        let mut g = game(&m, 1, 20, &[], &[], Variant::Event, 0);
        let t = g.act(&shoot(&[2, 3, 4, 5]));
        assert_ne!(t.result, TurnResult::Shot(ShotResult::TooCrooked));
    }

    #[test]
    fn the_wumpus_wakes_after_a_miss_and_may_walk_in() {
        // Standard map: hunter in 1, wumpus in 2 (its tunnels: 1, 3, 10). The arrow goes to 5
        // and misses; the wumpus stays, or takes one of its three tunnels, 1/4 each.
        let m = standard();
        let mut counts = std::collections::HashMap::new();
        for seed in 0..4000 {
            let mut g = game(&m, 1, 2, &[], &[], Variant::Event, seed);
            let t = g.act(&shoot(&[5]));
            *counts.entry(g.wumpus().index() + 1).or_insert(0) += 1;
            if g.wumpus() == r(1) {
                assert_eq!(t.events, [Event::Missed, Event::EatenAfterMiss]);
                assert_eq!(g.ending(), Some(Ending::Lost(LossCause::Wumpus)));
            } else {
                assert_eq!(t.events, [Event::Missed]);
                assert_eq!(g.arrows(), 4);
                assert_eq!(g.status().wumpus, m.joined(r(1), g.wumpus()));
            }
        }
        let mut rooms: Vec<_> = counts.keys().copied().collect();
        rooms.sort();
        assert_eq!(rooms, [1, 2, 3, 10]);
        assert!(
            counts.values().all(|&n| (880..1120).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn the_fifth_miss_loses() {
        // The wumpus is in the other cave, so every arrow misses and it never comes near.
        let m = map(TWO_CAVES);
        for seed in 0..20 {
            let mut g = game(&m, 1, 9, &[8], &[5], Variant::Event, seed);
            for left in (1..5).rev() {
                let t = g.act(&shoot(&[2]));
                assert_eq!(t.result, TurnResult::Shot(ShotResult::Missed));
                assert_eq!(g.arrows(), left);
            }
            let t = g.act(&shoot(&[3]));
            assert_eq!(t.events, [Event::Missed, Event::OutOfArrows]);
            assert_eq!(g.ending(), Some(Ending::Lost(LossCause::OutOfArrows)));
            assert_eq!((g.arrows(), g.shots()), (0, 5));
        }
    }

    #[test]
    fn the_100th_move_exhausts_the_hunter() {
        let m = map(TWO_CAVES);
        let mut g = game(&m, 1, 9, &[8], &[5], Variant::Event, 0);
        for i in 1..MOVE_LIMIT {
            let to = if i % 2 == 1 { 2 } else { 3 };
            let t = g.act(&Action::Move(r(to)));
            assert_eq!(t.result, TurnResult::Move(MoveResult::Moved), "move {i}");
        }
        assert_eq!(g.moves(), 99);
        assert_eq!(g.ending(), None);
        let t = g.act(&Action::Move(r(1)));
        assert_eq!(t.events, [Event::Exhausted]);
        assert_eq!(
            t.result,
            TurnResult::Move(MoveResult::Ended(Ending::Lost(LossCause::Exhaustion)))
        );
        assert_eq!(g.moves(), 100);
    }

    #[test]
    fn yob_bumping_the_wumpus_wakes_it() {
        // Standard map: hunter in 1 walks into the wumpus in 2 (tunnels 1, 3, 10). Event rules:
        // always eaten. Yob: the wumpus wakes; it stays and eats the hunter (1/4), or moves to
        // 1, 3 or 10, away from the hunter, who is now in 2.
        let m = standard();
        let mut eaten = 0;
        for seed in 0..4000 {
            let mut g = game(&m, 1, 2, &[], &[], Variant::Event, seed);
            g.act(&Action::Move(r(2)));
            assert_eq!(g.ending(), Some(Ending::Lost(LossCause::Wumpus)));
            let mut g = game(&m, 1, 2, &[], &[], Variant::Yob, seed);
            let t = g.act(&Action::Move(r(2)));
            assert_eq!(t.events[0], Event::BumpedWumpus);
            if g.ending().is_some() {
                eaten += 1;
                assert_eq!(t.events, [Event::BumpedWumpus, Event::Eaten]);
                assert_eq!(g.wumpus(), r(2));
            } else {
                assert_eq!(t.result, TurnResult::Move(MoveResult::Moved));
                assert!([r(1), r(3), r(10)].contains(&g.wumpus()));
                assert_eq!((g.hunter(), g.moves()), (r(2), 1));
            }
        }
        assert!((880..1120).contains(&eaten), "{eaten}");
    }

    #[test]
    fn yob_a_wumpus_that_leaves_a_pit_room_still_leaves_the_pit() {
        // The wumpus sits in a pit room (it is not bothered by pits). Under Yob's rules a
        // hunter who survives the bump then falls in the pit.
        let m = standard();
        let mut causes = Vec::new();
        for seed in 0..40 {
            let mut g = game(&m, 1, 20, &[2], &[], Variant::Yob, seed);
            g.wumpus = r(2);
            let t = g.act(&Action::Move(r(2)));
            let cause = if g.wumpus() == r(2) {
                assert_eq!(t.events, [Event::BumpedWumpus, Event::Eaten]);
                LossCause::Wumpus
            } else {
                assert_eq!(t.events, [Event::BumpedWumpus, Event::FellInPit]);
                LossCause::Pit
            };
            assert_eq!(g.ending(), Some(Ending::Lost(cause)));
            causes.push(cause);
        }
        assert!(causes.contains(&LossCause::Pit) && causes.contains(&LossCause::Wumpus));
    }

    #[test]
    fn games_replay_from_their_seed() {
        let m = standard();
        for seed in 0..50 {
            let a = ClassicGame::new(m.clone(), Variant::Event, seed).unwrap();
            let b = ClassicGame::new(m.clone(), Variant::Event, seed).unwrap();
            assert_eq!(a.hazards(), b.hazards());
            assert_eq!(a.status(), b.status());
        }
    }

    #[test]
    fn a_resumed_game_goes_on_from_where_it_was_picked_up() {
        // The woken wumpus sits in a pit room (2); the hunter in 1 with 2 arrows after 7 moves.
        let mut game = ClassicGame::resume(
            standard(),
            Variant::Event,
            r(1),
            r(2),
            &[r(2), r(12)],
            &[r(3), r(20)],
            2,
            7,
            seeded(4),
        )
        .unwrap();
        let status = game.status();
        assert_eq!((status.arrows, status.moves), (2, 7));
        assert!(status.pit && status.wumpus && !status.bats);
        let turn = game.act(&Action::Shoot(ArrowPath::one(r(2))));
        assert_eq!(game.ending(), Some(Ending::Won { score: 93 }), "{turn:?}");
        let off = ClassicGame::resume(
            standard(),
            Variant::Event,
            r(1),
            Place::new(20),
            &[r(2), r(12)],
            &[r(3), r(20)],
            5,
            0,
            seeded(4),
        );
        assert_eq!(off.err(), Some(HazardError::OffMap(20)));
    }
}
