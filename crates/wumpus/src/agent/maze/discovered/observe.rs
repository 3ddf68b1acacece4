//! What the discovered-maze agent takes in each turn: its last action's result placed on its
//! own map (a walk, a carry by the bats, a grenade's hit or miss), the view's names and
//! senses, and what they tell the knowledge base of the player's cave and every tunnel's cave.
//!
//! It must never tell the knowledge base anything the player was not shown or did not sense;
//! what the game says once it is over is not taken in.

use super::map::{Link, Senses};
use super::DiscoveredMazeAgent;
use crate::cave::maze::{MazeAction, MazeResult, MazeView};
use crate::topology::Place;

impl DiscoveredMazeAgent {
    /// Takes in the last action, its result and the view that followed.
    pub fn observe_turn(
        &mut self,
        last: Option<MazeAction>,
        result: Option<MazeResult>,
        view: &MazeView,
    ) {
        let tunnels = view.tunnels.len();
        let w = self.seen.words;
        if matches!(result, Some(MazeResult::Ended(_))) {
            // The game is over; what the last view shows is not the player's to take in.
            if let Some(MazeAction::Toss(_)) = last {
                self.tosses += 1;
            }
            return;
        }
        let mut carried = false;
        if self.nodes.is_empty() {
            self.at = self.add_node(Some(view.name.clone()), tunnels, None);
        } else {
            match (last, result) {
                (Some(MazeAction::Move(k)), Some(MazeResult::Moved)) => {
                    self.moves += 1;
                    let from = self.at;
                    let node = &self.nodes[from];
                    if node.edges.get(k - 1).copied().flatten().is_none()
                        && node.shown.get(k - 1).is_some_and(|s| s.is_some())
                    {
                        self.rejoins += 1;
                    }
                    let walked = self.far(from, k);
                    self.at = self.walk(from, k, view);
                    if let Some(f) = walked {
                        self.seen.tell(w.stood, f, true);
                    }
                }
                (Some(MazeAction::Move(k)), Some(MazeResult::Carried)) => {
                    self.moves += 1;
                    let from = self.at;
                    let bats = self.bats_node(from, k, tunnels);
                    self.nodes[bats].bats = true;
                    self.set_edge(from, k, bats, Link::Bats);
                    if let Some(f) = self.far(from, k) {
                        self.seen.tell(w.carried, f, true);
                    }
                    carried = true;
                    // Dropped in some empty cave, maybe one already visited: which, the name
                    // cannot say for certain, so it is a new node.
                    self.at = self.add_node(Some(view.name.clone()), tunnels, None);
                }
                (Some(MazeAction::Toss(k)), Some(MazeResult::Missed)) => {
                    self.tosses += 1;
                    self.epoch += 1;
                    self.blasted(k, false);
                    let node = &mut self.nodes[self.at];
                    node.tunnels_at_least(k);
                    node.missed[k - 1] = Some(self.epoch);
                    if node.senses.is_some_and(|s| s.smell) {
                        node.misses[k - 1] += 1;
                    }
                }
                (Some(MazeAction::Toss(k)), Some(MazeResult::Killed)) => {
                    self.tosses += 1;
                    self.kills += 1;
                    self.epoch += 1;
                    self.blasted(k, true);
                    self.nodes[self.at].misses.fill(0);
                }
                _ => {}
            }
        }
        let here = self.at;
        let epoch = self.epoch;
        let node = &mut self.nodes[here];
        node.tunnels_at_least(tunnels);
        node.shown = view.tunnels.clone();
        if !view.smell {
            node.misses.fill(0);
        }
        node.senses = Some(Senses {
            feel: view.feel,
            hear: view.hear,
            smell: view.smell,
            epoch,
        });
        node.stood = Some(epoch);
        // A tunnel into the bats' cave names it once it shows a name.
        for k in 1..=tunnels {
            let to = self.nodes[here].edges[k - 1];
            let shown = self.nodes[here].shown[k - 1].clone();
            if let (Some(to), Some(name)) = (to, shown) {
                if self.nodes[to].name.is_none() {
                    self.named.entry(name.clone()).or_default().push(to);
                    self.nodes[to].name = Some(name);
                }
            }
        }
        // A tunnel showing a name leads to the one node of that name, when only one could be
        // it: certain, so it joins the map.
        for k in 1..=tunnels {
            if self.nodes[here].edges[k - 1].is_none() {
                if let Some(name) = self.nodes[here].shown[k - 1].clone() {
                    if let Some(to) = self.sole_candidate(&name, view.hear) {
                        self.set_edge(here, k, to, Link::Named);
                    }
                }
            }
        }
        self.take_in(view, carried);
        self.recount();
    }

    /// Tells the knowledge base that a grenade through tunnel `k` of the player's cave hit a
    /// wumpus or missed, and that it blasted there.
    fn blasted(&mut self, k: usize, hit: bool) {
        if let Some(f) = self.far(self.at, k) {
            self.seen.tell(self.seen.words.hit, f, hit);
            self.seen.blast(f);
        }
    }

    /// Tells the knowledge base what the player stands in and senses, and what the map now
    /// says of every tunnel's cave, then works out what that proves.
    fn take_in(&mut self, view: &MazeView, carried: bool) {
        let w = self.seen.words;
        let here = self.at;
        if self.nodes[here].far.is_empty() {
            // Where the tunnels lead, fixed before anything sensed here is told: the node a
            // tunnel is known to lead to, or a place for a cave not yet placed.
            let far: Vec<Place> = (0..view.tunnels.len())
                .map(|i| match self.nodes[here].edges[i] {
                    Some(to) => self.nodes[to].place,
                    None => self.seen.place(),
                })
                .collect();
            self.nodes[here].far = far.clone();
            self.seen.set_tunnels(self.nodes[here].place, far);
        }
        let place = self.nodes[here].place;
        self.seen.tell(w.stood, place, true);
        self.seen.tell(w.smell, place, view.smell);
        self.seen.tell(w.hear, place, view.hear);
        self.seen.tell(w.feel, place, view.feel);
        // What the map says of a tunnel's cave changes only with the tunnels of the cave the
        // player stands in, those that lead or may lead here, or a new bats' cave.
        let name = self.nodes[here].name.clone();
        let colony = self.colony();
        // A tunnel that shows this cave's name may be proven empty now only when every cave of
        // that name has been stood in since the last blast.
        let by_name = name.as_ref().is_some_and(|name| {
            self.all_stood_now(name) && colony.is_none_or(|c| self.nodes[c].name.is_some())
        });
        for n in 0..self.nodes.len() {
            for k in 1..=self.nodes[n].far.len() {
                let node = &self.nodes[n];
                // A tunnel may lead to the bats' cave once they have carried the player off.
                let touches = n == here
                    || carried
                    || match node.edges[k - 1] {
                        Some(to) => to == here,
                        None => by_name && node.shown[k - 1].is_some() && node.shown[k - 1] == name,
                    };
                if touches {
                    self.tell_beyond(n, k, colony);
                }
            }
        }
        self.seen.prove();
        if self.explain {
            self.here_proofs = self.proofs_here();
        }
    }

    /// Tells what the map says of the cave behind tunnel `k` of `node`: the caves it may be
    /// are the node it is known to lead to, or every node of the name it shows (and the bats'
    /// cave while that has no name). Where every one of them has been entered it has no pit,
    /// where every one holds the bats it does, and where the player has stood in every one
    /// since the last blast it is empty now.
    fn tell_beyond(&mut self, node: usize, k: usize, colony: Option<usize>) {
        let Some(f) = self.far(node, k) else {
            return;
        };
        let n = &self.nodes[node];
        if n.told_entered[k - 1] && n.told_stood[k - 1] == Some(self.epoch) {
            return;
        }
        let (entered, carried, stood) = match (n.edges[k - 1], &n.shown[k - 1]) {
            (Some(to), _) => {
                let t = &self.nodes[to];
                (
                    t.stood.is_some() || t.bats,
                    t.bats,
                    t.stood == Some(self.epoch),
                )
            }
            (None, Some(name)) => {
                // Every node of the name, and the bats' cave while it has none: the bats'
                // cave is never stood in, and caves of a name are never all the bats'.
                let unnamed_colony = colony.is_some_and(|c| self.nodes[c].name.is_none());
                let stood = !unnamed_colony && self.all_stood_now(name);
                (true, false, stood)
            }
            (None, None) => return,
        };
        let w = self.seen.words;
        if entered && !self.nodes[node].told_entered[k - 1] {
            self.seen.tell(w.entered, f, true);
            self.nodes[node].told_entered[k - 1] = true;
        }
        if carried {
            self.seen.tell(w.carried, f, true);
        }
        if stood {
            self.seen.tell(w.stood, f, true);
            self.nodes[node].told_stood[k - 1] = Some(self.epoch);
        }
    }

    /// True when the player has stood in every cave named `name` it knows since the last
    /// blast.
    fn all_stood_now(&self, name: &str) -> bool {
        self.named
            .get(name)
            .is_some_and(|all| all.iter().all(|&i| self.nodes[i].stood == Some(self.epoch)))
    }

    /// Counts, once a turn, what the odds of every tunnel share.
    fn recount(&mut self) {
        self.unvisited = self.count_unvisited();
        self.density = self.wumpus_density();
    }
}
