//! The `caves.dat` maze (seed 000): several wumpi, hand grenades, one pit, one bat colony, and
//! caves known by name only.
//!
//! A [`MazeGame`] holds the hidden layout and the player's state, and draws every random event
//! (bat drops, startled wumpi) from the one seeded generator it owns. It takes one
//! [`MazeAction`] at a time, naming a tunnel 1 to 3, and answers with a [`MazeTurn`]. What the
//! player knows between turns is a [`MazeView`]: the cave's name, each tunnel's cave name if
//! the player has been there (else unknown), and what they smell, hear and feel. The player is
//! told neither the number of wumpi nor the grenades left, nor any cave's number.
//!
//! The rules (`docs/caves.md` has the decisions where seed 000 is silent): walking into a
//! wumpus or the pit kills; the bats carry the player to a random empty cave. A grenade tossed
//! into a wumpus's cave kills it; every blast startles the wumpi in the caves the blast cave's
//! tunnels lead to, and each runs to a random empty cave its own tunnels lead to (it stays if
//! there is none); one that runs into the player's cave devours the player. All wumpi dead
//! wins; the last grenade gone with wumpi alive loses. "Next to" a cave means through one of
//! its three tunnels, for warnings, blasts and flights alike.

use super::hazards::{HazardError, MazeHazards};
use super::map::CaveMap;
use crate::rng::{seeded, GameRng};
use crate::topology::Place;
use rand::seq::IndexedRandom;
use std::sync::Arc;

/// One action of the player, naming a tunnel (1 to 3) of the current cave.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MazeAction {
    /// Walk through the tunnel.
    Move(usize),
    /// Toss a grenade through the tunnel.
    Toss(usize),
}

/// What the player knows at the start of a turn.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MazeView {
    /// The current cave's name.
    pub name: String,
    /// For tunnels 1, 2, 3: the name of the cave it leads to if the player has been there.
    pub tunnels: Vec<Option<String>>,
    /// A wumpus is in a cave one of this cave's tunnels leads to.
    pub smell: bool,
    /// Bats are in a cave one of this cave's tunnels leads to.
    pub hear: bool,
    /// The pit is in a cave one of this cave's tunnels leads to.
    pub feel: bool,
}

/// How a maze game was lost.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MazeLoss {
    /// Fell into the pit.
    Pit,
    /// Devoured by a wumpus.
    Wumpus,
    /// The last grenade is gone and wumpi live.
    OutOfGrenades,
}

/// How a maze game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MazeEnding {
    /// Every wumpus is dead.
    Won,
    /// The player lost.
    Lost(MazeLoss),
}

/// The result of one action.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MazeResult {
    /// The player walked into the cave.
    Moved,
    /// Bats carried the player to an empty cave.
    Carried,
    /// The cave has no such tunnel: refused, nothing happens.
    NoSuchTunnel,
    /// The grenade killed no wumpus.
    Missed,
    /// The grenade killed a wumpus, and others remain.
    Killed,
    /// The game is over.
    Ended(MazeEnding),
}

/// Something the player is told happened, in order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MazeEvent {
    /// The tunnel number names no tunnel.
    NoSuchTunnel,
    /// Bats carried the player off.
    Carried,
    /// The player walked into a wumpus's cave.
    WalkedIntoWumpus,
    /// The player fell into the pit.
    FellInPit,
    /// The grenade killed no wumpus.
    Missed,
    /// The grenade killed a wumpus.
    Killed,
    /// The blast may have startled wumpi.
    WumpiOnTheMove,
    /// A startled wumpus ran into the player's cave.
    Devoured,
    /// Every wumpus is dead.
    AllDead,
    /// No grenades are left.
    OutOfGrenades,
}

impl MazeEvent {
    /// The sentence a human player reads (seed 000's wording where it has one).
    pub fn text(self) -> &'static str {
        match self {
            MazeEvent::NoSuchTunnel => "There is no such tunnel: tunnels are numbered 1 to 3.",
            MazeEvent::Carried => {
                "Giant bats swoop down, pick you up and drop you in some other cave!"
            }
            MazeEvent::WalkedIntoWumpus => "You walked right into a wumpus... CHOMP CHOMP CHOMP",
            MazeEvent::FellInPit => "You fall into a bottomless pit. AAAAAaaaaa...",
            MazeEvent::Missed => "Missed, dagnabit!",
            MazeEvent::Killed => "BOOM! You killed a wumpus!",
            MazeEvent::WumpiOnTheMove => "DANGER: Any nearby wumpi are on the move.",
            MazeEvent::Devoured => {
                "A wumpus is coming toward you with big, gnarly teeth... CHOMP CHOMP CHOMP"
            }
            MazeEvent::AllDead => "You have destroyed all of the wumpi!",
            MazeEvent::OutOfGrenades => "You have no grenades left, and wumpi still roam the maze.",
        }
    }
}

/// The answer to one action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MazeTurn {
    /// The typed result.
    pub result: MazeResult,
    /// What the player is told, in order.
    pub events: Vec<MazeEvent>,
}

/// A maze game in progress (or over).
#[derive(Clone, Debug)]
pub struct MazeGame {
    map: Arc<CaveMap>,
    dealt: MazeHazards,
    rng: GameRng,
    player: Place,
    wumpus: Vec<bool>,
    wumpi: usize,
    pit: Vec<bool>,
    bats: Vec<bool>,
    grenades: u32,
    visited: Vec<bool>,
    moves: u32,
    tosses: u32,
    /// Where grenades killed wumpi, in order.
    dead: Vec<Place>,
    ending: Option<MazeEnding>,
}

impl MazeGame {
    /// A game on `map` whose layout is dealt, and whose every later random event is drawn,
    /// from the generator seeded with `seed`.
    pub fn new(map: Arc<CaveMap>, seed: u64) -> Result<MazeGame, HazardError> {
        let mut rng = seeded(seed);
        let hazards = MazeHazards::deal(&map, &mut rng)?;
        Ok(MazeGame::with_hazards(map, hazards, rng))
    }

    /// A game on a given layout; `rng` draws every random event from now on.
    pub fn with_hazards(map: Arc<CaveMap>, hazards: MazeHazards, rng: GameRng) -> MazeGame {
        let n = map.len();
        let mark = |rooms: &[Place]| {
            let mut v = vec![false; n];
            for r in rooms {
                v[r.index()] = true;
            }
            v
        };
        MazeGame {
            player: hazards.player(),
            wumpus: mark(hazards.wumpi()),
            wumpi: hazards.wumpi().len(),
            pit: mark(hazards.pits()),
            bats: mark(hazards.bats()),
            grenades: hazards.grenades(),
            visited: vec![false; n],
            moves: 0,
            tosses: 0,
            dead: Vec::new(),
            ending: None,
            map,
            dealt: hazards,
            rng,
        }
    }

    /// The map.
    pub fn map(&self) -> &Arc<CaveMap> {
        &self.map
    }

    /// The layout as it was dealt (for saving and drawing; never for agents).
    pub fn hazards(&self) -> &MazeHazards {
        &self.dealt
    }

    /// The player's cave (hidden from the player, who knows caves by name only).
    pub fn player(&self) -> Place {
        self.player
    }

    /// The caves holding a live wumpus now (hidden from the player).
    pub fn wumpi(&self) -> Vec<Place> {
        self.map
            .rooms()
            .filter(|r| self.wumpus[r.index()])
            .collect()
    }

    /// The caves where grenades killed wumpi (hidden from the player, who hears only the
    /// kills).
    pub fn dead_wumpi(&self) -> &[Place] {
        &self.dead
    }

    /// Grenades left (hidden from the player).
    pub fn grenades(&self) -> u32 {
        self.grenades
    }

    /// Moves made so far.
    pub fn moves(&self) -> u32 {
        self.moves
    }

    /// Grenades tossed so far.
    pub fn tosses(&self) -> u32 {
        self.tosses
    }

    /// How the game ended, or `None` while it goes on.
    pub fn ending(&self) -> Option<MazeEnding> {
        self.ending
    }

    /// What the player knows now.
    pub fn view(&self) -> MazeView {
        let outs = self.map.outs(self.player);
        let any = |v: &[bool]| outs.iter().any(|r| v[r.index()]);
        MazeView {
            name: self.map.name(self.player),
            tunnels: outs
                .iter()
                .map(|&r| self.visited[r.index()].then(|| self.map.name(r)))
                .collect(),
            smell: any(&self.wumpus),
            hear: any(&self.bats),
            feel: any(&self.pit),
        }
    }

    /// Takes one action. After the game is over an action changes nothing and repeats the
    /// ending, with no events.
    pub fn act(&mut self, action: MazeAction) -> MazeTurn {
        let mut events = Vec::new();
        let result = match self.ending {
            Some(e) => MazeResult::Ended(e),
            None => match action {
                MazeAction::Move(t) => self.walk(t, &mut events),
                MazeAction::Toss(t) => self.toss(t, &mut events),
            },
        };
        MazeTurn { result, events }
    }

    fn end(&mut self, ending: MazeEnding) -> MazeResult {
        self.ending = Some(ending);
        MazeResult::Ended(ending)
    }

    /// True when a cave holds no wumpus, pit or bats (the player does not count).
    fn empty(&self, cave: Place) -> bool {
        let i = cave.index();
        !(self.wumpus[i] || self.pit[i] || self.bats[i])
    }

    fn walk(&mut self, tunnel: usize, events: &mut Vec<MazeEvent>) -> MazeResult {
        let Some(target) = self.map.tunnel(self.player, tunnel) else {
            events.push(MazeEvent::NoSuchTunnel);
            return MazeResult::NoSuchTunnel;
        };
        // A cave becomes known once the player has been in it and left it: seed 000's sample
        // shows a tunnel back to the cave the player stands in as "unknown" on the first visit.
        self.visited[self.player.index()] = true;
        self.moves += 1;
        self.player = target;
        let i = target.index();
        if self.wumpus[i] {
            events.push(MazeEvent::WalkedIntoWumpus);
            return self.end(MazeEnding::Lost(MazeLoss::Wumpus));
        }
        if self.pit[i] {
            events.push(MazeEvent::FellInPit);
            return self.end(MazeEnding::Lost(MazeLoss::Pit));
        }
        if self.bats[i] {
            events.push(MazeEvent::Carried);
            self.visited[i] = true;
            let empty: Vec<Place> = self.map.rooms().filter(|&r| self.empty(r)).collect();
            // There is always one: the cave the player came from held nothing.
            self.player = *empty.choose(&mut self.rng).expect("an empty cave");
            return MazeResult::Carried;
        }
        MazeResult::Moved
    }

    fn toss(&mut self, tunnel: usize, events: &mut Vec<MazeEvent>) -> MazeResult {
        let Some(blast) = self.map.tunnel(self.player, tunnel) else {
            events.push(MazeEvent::NoSuchTunnel);
            return MazeResult::NoSuchTunnel;
        };
        if self.grenades == 0 {
            // Not reachable through play (the game ends with the last grenade); kept so a
            // game can never toss a grenade it does not have.
            events.push(MazeEvent::OutOfGrenades);
            return self.end(MazeEnding::Lost(MazeLoss::OutOfGrenades));
        }
        self.grenades -= 1;
        self.tosses += 1;
        let killed = self.wumpus[blast.index()];
        if killed {
            self.wumpus[blast.index()] = false;
            self.dead.push(blast);
            self.wumpi -= 1;
            events.push(MazeEvent::Killed);
        } else {
            events.push(MazeEvent::Missed);
        }
        if self.wumpi > 0 {
            events.push(MazeEvent::WumpiOnTheMove);
            if self.startle(blast) {
                events.push(MazeEvent::Devoured);
                return self.end(MazeEnding::Lost(MazeLoss::Wumpus));
            }
        } else {
            events.push(MazeEvent::AllDead);
            return self.end(MazeEnding::Won);
        }
        if self.grenades == 0 {
            events.push(MazeEvent::OutOfGrenades);
            return self.end(MazeEnding::Lost(MazeLoss::OutOfGrenades));
        }
        if killed {
            MazeResult::Killed
        } else {
            MazeResult::Missed
        }
    }

    /// The wumpi in the caves the blast cave's tunnels lead to run, in tunnel order, each to a
    /// random empty cave its own tunnels lead to, or stay if there is none. Returns true when
    /// one runs into the player's cave.
    fn startle(&mut self, blast: Place) -> bool {
        let mut startled: Vec<Place> = Vec::new();
        for &cave in self.map.outs(blast) {
            if self.wumpus[cave.index()] && !startled.contains(&cave) {
                startled.push(cave);
            }
        }
        for from in startled {
            let mut choices: Vec<Place> = Vec::new();
            for &to in self.map.outs(from) {
                if to != from && self.empty(to) && !choices.contains(&to) {
                    choices.push(to);
                }
            }
            let Some(&to) = choices.choose(&mut self.rng) else {
                continue;
            };
            self.wumpus[from.index()] = false;
            self.wumpus[to.index()] = true;
            if to == self.player {
                return true;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cave::map::parse_map;

    const LOST: &str = "The Lost Caverns of the Wyrm";

    fn caves() -> Arc<CaveMap> {
        Arc::new(parse_map(include_str!("../../../../worlds/caves.dat")).unwrap())
    }

    fn p(i: usize) -> Place {
        Place::new(i)
    }

    fn game(
        player: usize,
        wumpi: &[usize],
        pit: usize,
        bats: usize,
        grenades: u32,
        seed: u64,
    ) -> MazeGame {
        let map = caves();
        let wumpi: Vec<Place> = wumpi.iter().map(|&i| p(i)).collect();
        let h = MazeHazards::new(&map, p(player), &wumpi, &[p(pit)], &[p(bats)], grenades).unwrap();
        MazeGame::with_hazards(map, h, seeded(seed))
    }

    fn names(view: &MazeView) -> Vec<&str> {
        view.tunnels
            .iter()
            .map(|t| t.as_deref().unwrap_or("unknown"))
            .collect()
    }

    #[test]
    fn the_seeds_sample_game() {
        // Seed 000's sample: start in The Fountainhead, m 2, m 3, m 3 into the Lost Caverns,
        // smell a wumpus, toss through tunnel 1 (back into the cave itself), miss, and a
        // startled wumpus runs in. Here the wumpus is in 16, and 16's other caves (17 and 19)
        // hold the pit and the bats, so its only empty neighbour is the player's cave.
        let mut g = game(0, &[16], 17, 19, 4, 0);
        let v = g.view();
        assert_eq!(v.name, "The Fountainhead");
        assert_eq!(names(&v), ["unknown"; 3]);
        assert_eq!(g.act(MazeAction::Move(2)).result, MazeResult::Moved);
        let v = g.view();
        assert_eq!(v.name, "The Silver Mirror");
        assert_eq!(names(&v), ["The Fountainhead", "unknown", "unknown"]);
        g.act(MazeAction::Move(3));
        let v = g.view();
        assert_eq!(v.name, "Shelob's Lair");
        assert_eq!(names(&v), ["The Silver Mirror", "unknown", "unknown"]);
        g.act(MazeAction::Move(3));
        let v = g.view();
        assert_eq!(v.name, LOST);
        assert_eq!(names(&v), ["unknown"; 3]);
        assert!(v.smell && !v.feel && v.hear);
        let t = g.act(MazeAction::Toss(1));
        assert_eq!(
            t.events,
            [
                MazeEvent::Missed,
                MazeEvent::WumpiOnTheMove,
                MazeEvent::Devoured
            ]
        );
        assert_eq!(
            t.result,
            MazeResult::Ended(MazeEnding::Lost(MazeLoss::Wumpus))
        );
        assert_eq!(g.wumpi(), [p(15)]);
    }

    #[test]
    fn the_lost_caverns_are_a_one_way_trap() {
        // Walk in from Shelob's Lair: no tunnel leads back; the only way out is 18 -> 13.
        let mut g = game(14, &[2], 6, 9, 4, 0);
        g.act(MazeAction::Move(3));
        assert_eq!(g.player(), p(15));
        for t in 1..=3 {
            assert_ne!(g.map().tunnel(p(15), t), Some(p(14)));
        }
        // 15 -(2)-> 16 -(2)-> 17 -(3)-> 18 -(1)-> 13 Ephemeron.
        let mut seen = Vec::new();
        for t in [2, 2, 3] {
            assert_eq!(g.act(MazeAction::Move(t)).result, MazeResult::Moved);
            seen.push(g.view().name);
        }
        assert!(seen.iter().all(|n| n == LOST));
        // In 18 (tunnels 13, 17, 19) only 17 has been left behind; inside, every known cave
        // shows the same name, so the caverns cannot be told apart.
        assert_eq!(names(&g.view()), ["unknown", LOST, "unknown"]);
        g.act(MazeAction::Move(1));
        assert_eq!(g.view().name, "Ephemeron");
        assert_eq!(g.moves(), 5);
    }

    #[test]
    fn walking_into_a_wumpus_or_the_pit_kills() {
        let mut g = game(0, &[1], 4, 9, 4, 0);
        let v = g.view();
        assert!(v.smell && v.feel && v.hear);
        let t = g.act(MazeAction::Move(1));
        assert_eq!(t.events, [MazeEvent::WalkedIntoWumpus]);
        assert_eq!(g.ending(), Some(MazeEnding::Lost(MazeLoss::Wumpus)));
        assert!(g.act(MazeAction::Move(2)).events.is_empty());
        let mut g = game(0, &[1], 4, 9, 4, 0);
        let t = g.act(MazeAction::Move(2));
        assert_eq!(t.events, [MazeEvent::FellInPit]);
        assert_eq!(g.ending(), Some(MazeEnding::Lost(MazeLoss::Pit)));
    }

    #[test]
    fn bats_drop_the_player_in_a_random_empty_cave() {
        let mut landed = [0u32; 20];
        for seed in 0..1700 {
            let mut g = game(0, &[5, 7], 12, 9, 8, seed);
            let t = g.act(MazeAction::Move(3));
            assert_eq!(t.result, MazeResult::Carried);
            assert_eq!(t.events, [MazeEvent::Carried]);
            let here = g.player();
            assert!(![p(5), p(7), p(12), p(9)].contains(&here), "seed {seed}");
            landed[here.index()] += 1;
            // The bats' cave was entered and left, so its name is known.
            if g.map().outs(here).contains(&p(9)) {
                let i = g.map().outs(here).iter().position(|&r| r == p(9)).unwrap();
                assert_eq!(g.view().tunnels[i].as_deref(), Some("The Final Tally"));
            }
        }
        // 16 empty caves (the start included): 1700 / 16 ≈ 106 each.
        for (i, &n) in landed.iter().enumerate() {
            if [5, 7, 12, 9].contains(&i) {
                assert_eq!(n, 0);
            } else {
                assert!((60..160).contains(&n), "cave {i}: {n}");
            }
        }
    }

    #[test]
    fn a_grenade_kills_and_the_last_kill_wins() {
        let mut g = game(0, &[1, 12], 16, 17, 8, 0);
        let t = g.act(MazeAction::Toss(1));
        assert_eq!(t.events, [MazeEvent::Killed, MazeEvent::WumpiOnTheMove]);
        assert_eq!(t.result, MazeResult::Killed);
        assert_eq!(g.wumpi(), [p(12)]);
        assert_eq!(g.grenades(), 7);
        // Walk to 6 (0 -> 1 -> 2 -> 6): 6's tunnel 3 leads to 12.
        for t in [1, 2, 3] {
            g.act(MazeAction::Move(t));
        }
        assert_eq!(g.player(), p(6));
        assert!(g.view().smell);
        let t = g.act(MazeAction::Toss(3));
        assert_eq!(t.events, [MazeEvent::Killed, MazeEvent::AllDead]);
        assert_eq!(t.result, MazeResult::Ended(MazeEnding::Won));
    }

    #[test]
    fn a_blast_startles_only_the_wumpi_next_to_it() {
        // Player in 0 tosses into 9 (tunnels 0, 5, 10). Wumpi in 5 and 10 are startled, the one
        // in 13 is not. 5's tunnels: 1, 9, 11; 10's: 9, 11, 14 (14 holds the pit).
        let mut moved_to = std::collections::HashSet::new();
        for seed in 0..200 {
            let mut g = game(0, &[5, 10, 13], 14, 19, 12, seed);
            let t = g.act(MazeAction::Toss(3));
            assert_eq!(t.events, [MazeEvent::Missed, MazeEvent::WumpiOnTheMove]);
            let w = g.wumpi();
            assert!(w.contains(&p(13)));
            assert_eq!(w.len(), 3);
            for &c in &w {
                assert!(
                    [p(1), p(9), p(11), p(13)].contains(&c),
                    "seed {seed}: {w:?}"
                );
                moved_to.insert(c);
            }
            assert!(!w.contains(&p(5)) && !w.contains(&p(10)));
        }
        assert!(moved_to.contains(&p(1)) && moved_to.contains(&p(9)) && moved_to.contains(&p(11)));
    }

    #[test]
    fn a_startled_wumpus_runs_to_an_emptied_cave_or_stays() {
        // The player in 14 tosses into 15 and kills the wumpus there. The wumpus in 16 is next
        // to the blast; of its caves (15, 17, 19) only 15, just emptied, is free: it runs there.
        let mut g = game(14, &[15, 16], 17, 19, 8, 0);
        let t = g.act(MazeAction::Toss(3));
        assert_eq!(t.events, [MazeEvent::Killed, MazeEvent::WumpiOnTheMove]);
        assert_eq!(g.wumpi(), [p(15)]);
        // The player in 18 tosses into 19 (tunnels 15, 16, 17): the wumpi in 15 and 16 are
        // startled. 15's caves are itself, 16 (a wumpus) and 19 (bats): it stays. 16's are 15
        // (a wumpus), 17 (the pit) and 19 (bats): it stays too.
        let map = caves();
        let h = MazeHazards::new(&map, p(18), &[p(15), p(16)], &[p(17)], &[p(19)], 8).unwrap();
        let mut g = MazeGame::with_hazards(map, h, seeded(0));
        let t = g.act(MazeAction::Toss(3));
        assert_eq!(t.events, [MazeEvent::Missed, MazeEvent::WumpiOnTheMove]);
        assert_eq!(g.wumpi(), [p(15), p(16)]);
    }

    #[test]
    fn the_last_grenade_gone_loses() {
        let mut g = game(0, &[12], 16, 17, 2, 0);
        let t = g.act(MazeAction::Toss(1));
        assert_eq!(t.result, MazeResult::Missed);
        let t = g.act(MazeAction::Toss(2));
        assert_eq!(
            t.events,
            [
                MazeEvent::Missed,
                MazeEvent::WumpiOnTheMove,
                MazeEvent::OutOfGrenades
            ]
        );
        assert_eq!(g.ending(), Some(MazeEnding::Lost(MazeLoss::OutOfGrenades)));
        assert_eq!(g.tosses(), 2);
    }

    #[test]
    fn no_such_tunnel_changes_nothing() {
        let mut g = game(0, &[12], 16, 17, 2, 0);
        for action in [
            MazeAction::Move(0),
            MazeAction::Move(4),
            MazeAction::Toss(9),
        ] {
            let t = g.act(action);
            assert_eq!(t.result, MazeResult::NoSuchTunnel);
            assert_eq!(t.events, [MazeEvent::NoSuchTunnel]);
        }
        assert_eq!((g.moves(), g.grenades(), g.player()), (0, 2, p(0)));
    }

    #[test]
    fn games_replay_from_their_seed() {
        for seed in 0..30 {
            let a = MazeGame::new(caves(), seed).unwrap();
            let b = MazeGame::new(caves(), seed).unwrap();
            assert_eq!(a.hazards(), b.hazards());
            assert!(a.hazards().wumpi().iter().all(|&w| w != a.player()));
        }
    }
}
