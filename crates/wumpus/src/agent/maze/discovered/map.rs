//! The discovered-maze agent's own map: one node per cave it has stood in (or been carried off
//! in), each tunnel with where it leads once that is certain and how the agent knows it, the
//! walk that places the player on the map or adds a node, and the ways through tunnels proven
//! free.
//!
//! Two nodes must never be joined, nor a tunnel given a far end, unless that is certain: a cave
//! known twice only loses knowledge, a tunnel led to the wrong cave could prove a deadly one
//! safe.

use super::odds::{Assessed, Hazard};
use super::DiscoveredMazeAgent;
use crate::cave::maze::MazeView;
use crate::topology::Place;
use std::collections::VecDeque;

/// What the player sensed in a cave, and when.
#[derive(Clone, Copy, Debug)]
pub(super) struct Senses {
    pub(super) feel: bool,
    pub(super) hear: bool,
    pub(super) smell: bool,
    /// The blast count when these were sensed: a smell only speaks of the wumpi since.
    pub(super) epoch: u32,
}

/// One cave of the agent's own map.
#[derive(Clone, Debug)]
pub(super) struct Node {
    /// Its name; `None` for the bats' cave until a tunnel into it shows the name.
    pub(super) name: Option<String>,
    /// Its place in the knowledge base.
    pub(super) place: Place,
    /// The places of the caves its tunnels lead to, fixed when the player first stands here.
    pub(super) far: Vec<Place>,
    /// Where each tunnel leads, where that is certain.
    pub(super) edges: Vec<Option<usize>>,
    /// Why each known tunnel leads where it does.
    pub(super) links: Vec<Option<Link>>,
    /// What each tunnel showed when the player last stood here.
    pub(super) shown: Vec<Option<String>>,
    /// What was sensed here last (none for the bats' cave).
    pub(super) senses: Option<Senses>,
    /// The blast count when the player last stood here.
    pub(super) stood: Option<u32>,
    /// The bats live here.
    pub(super) bats: bool,
    /// For each tunnel, the blast count just after a grenade through it missed: its cave
    /// held no wumpus then, so until the next blast only a startled runner can be there.
    pub(super) missed: Vec<Option<u32>>,
    /// For a node of a cave it could not tell apart from others of its name, the nodes it may
    /// be, one of which it is (its tunnels are theirs); empty for a node made where the player
    /// first stood in a cave, or was dropped by the bats.
    pub(super) may_be: Vec<usize>,
    /// For each tunnel, the blast count when its cave was last told stood in, and whether it
    /// was told entered (so that neither is told twice).
    pub(super) told_stood: Vec<Option<u32>>,
    pub(super) told_entered: Vec<bool>,
    /// Grenades through each tunnel that missed while a wumpus was smelt here, since the
    /// smell began or a grenade from here last killed: evidence that the smell comes from
    /// elsewhere.
    pub(super) misses: Vec<u32>,
}

impl Node {
    /// Room in every per-tunnel list for `k` tunnels (a node made before its tunnels were
    /// shown has none).
    pub(super) fn tunnels_at_least(&mut self, k: usize) {
        if self.edges.len() < k {
            self.edges.resize(k, None);
            self.links.resize(k, None);
        }
        if self.missed.len() < k {
            self.missed.resize(k, None);
        }
        if self.misses.len() < k {
            self.misses.resize(k, 0);
        }
        if self.told_stood.len() < k {
            self.told_stood.resize(k, None);
            self.told_entered.resize(k, false);
        }
    }

    fn new(name: Option<String>, tunnels: usize, place: Place) -> Node {
        Node {
            name,
            place,
            far: Vec::new(),
            edges: vec![None; tunnels],
            links: vec![None; tunnels],
            shown: vec![None; tunnels],
            senses: None,
            stood: None,
            bats: false,
            missed: vec![None; tunnels],
            misses: vec![0; tunnels],
            may_be: Vec::new(),
            told_stood: vec![None; tunnels],
            told_entered: vec![false; tunnels],
        }
    }
}

/// How the agent knows where a tunnel leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Link {
    /// The player walked it and arrived in a cave never stood in before.
    WalkedNew,
    /// The player walked it into a cave of a name seen before, which its tunnels' names and
    /// senses tell apart from every other cave of that name.
    WalkedKnown,
    /// The tunnel shows a name that only one cave the player has entered bears.
    Named,
    /// Bats in its cave carried the player off.
    Bats,
}

/// The way to a node: the first tunnel towards it from the player's cave, and the steps.
pub(super) type Way = (usize, usize);

impl DiscoveredMazeAgent {
    /// A new node for a cave named `name` (if shown) with `tunnels` tunnels, on `place` when
    /// that place stands for no node yet (the cave behind the tunnel just walked), else on a
    /// place of its own.
    pub(super) fn add_node(
        &mut self,
        name: Option<String>,
        tunnels: usize,
        place: Option<Place>,
    ) -> usize {
        let place = match place {
            Some(p) if self.owner.get(p.index()).copied().flatten().is_none() => p,
            _ => self.seen.place(),
        };
        let id = self.nodes.len();
        if let Some(name) = &name {
            self.named.entry(name.clone()).or_default().push(id);
        }
        if self.owner.len() <= place.index() {
            self.owner.resize(place.index() + 1, None);
        }
        self.owner[place.index()] = Some(id);
        self.nodes.push(Node::new(name, tunnels, place));
        id
    }

    /// The place of the cave behind tunnel `k` of `node`, once the player has stood there.
    pub(super) fn far(&self, node: usize, k: usize) -> Option<Place> {
        self.nodes[node].far.get(k - 1).copied()
    }

    /// The node of the bats' cave, once the player has been carried off.
    pub(super) fn colony(&self) -> Option<usize> {
        self.nodes.iter().position(|n| n.bats)
    }

    pub(super) fn set_edge(&mut self, from: usize, k: usize, to: usize, link: Link) {
        let node = &mut self.nodes[from];
        node.tunnels_at_least(k);
        node.edges[k - 1] = Some(to);
        node.links[k - 1] = Some(link);
    }

    /// The only node that a tunnel showing `name` can lead to (a visited cave of that name,
    /// or the bats' cave while its name is unknown), if there is exactly one;
    /// `bats_possible`: false where no wings are heard, so no tunnel leads to the bats.
    pub(super) fn sole_candidate(&self, name: &str, bats_possible: bool) -> Option<usize> {
        let mut found = None;
        for (i, n) in self.nodes.iter().enumerate() {
            if (n.bats && !bats_possible) || !n.may_be.is_empty() {
                continue;
            }
            if n.name.as_deref().is_none_or(|m| m == name) {
                if found.is_some() {
                    return None;
                }
                found = Some(i);
            }
        }
        found
    }

    /// The node reached by walking tunnel `k` of `from` into the cave `view` shows.
    pub(super) fn walk(&mut self, from: usize, k: usize, view: &MazeView) -> usize {
        let name = view.name.as_str();
        let known = self.nodes[from].edges.get(k - 1).copied().flatten();
        if let Some(to) = known {
            if self.nodes[to].name.as_deref() == Some(name) {
                return to;
            }
        }
        let shown = self.nodes[from].shown.get(k - 1).cloned().flatten();
        if shown.as_deref() == Some(name) {
            // A cave visited before, and not the bats' (the player stands in it): one of the
            // nodes of that name, since every cave stood in has one. Which one, its
            // signature may tell: names shown stay shown, a draft or wings stay, a smell
            // stays until a blast.
            let fits = |n: &Node| {
                n.name.as_deref() == Some(name)
                    && !n.bats
                    && n.senses.is_some_and(|s| {
                        s.feel == view.feel
                            && s.hear == view.hear
                            && (s.epoch != self.epoch || s.smell == view.smell)
                    })
                    && n.shown
                        .iter()
                        .zip(&view.tunnels)
                        .all(|(was, now)| was.is_none() || was == now)
            };
            // Only the first node of each cave can be it: a node made for a cave the agent
            // could not tell apart is one of those. Leaving such a node, the caves it may be
            // say where the tunnel may lead, where each of them knows.
            let tracked = self.through_each(from, k);
            let fitting: Vec<usize> = tracked
                .or_else(|| self.named.get(name).cloned())
                .unwrap_or_default()
                .into_iter()
                .filter(|&i| fits(&self.nodes[i]))
                .collect();
            if let [to] = fitting[..] {
                self.set_edge(from, k, to, Link::WalkedKnown);
                return to;
            }
            let may_be = if fitting.is_empty() {
                self.named.get(name).cloned().unwrap_or_default()
            } else {
                fitting
            };
            let to = self.add_node(
                Some(name.to_string()),
                view.tunnels.len(),
                self.far(from, k),
            );
            if !may_be.is_empty() {
                // A second node of a cave already known: not one the names can lead to.
                if let Some(all) = self.named.get_mut(name) {
                    all.retain(|&i| i != to);
                }
                self.nodes[to].may_be = may_be;
            }
            self.set_edge(from, k, to, Link::WalkedNew);
            return to;
        }
        let to = self.add_node(
            Some(name.to_string()),
            view.tunnels.len(),
            self.far(from, k),
        );
        self.set_edge(from, k, to, Link::WalkedNew);
        to
    }

    /// For a node that may be any of several caves, the first nodes of the caves tunnel `k`
    /// leads to from each of them, when every one of them knows where it leads.
    fn through_each(&self, from: usize, k: usize) -> Option<Vec<usize>> {
        let may_be = &self.nodes[from].may_be;
        if may_be.is_empty() {
            return None;
        }
        let mut found = Vec::new();
        for &c in may_be {
            let to = self.nodes[c].edges.get(k - 1).copied().flatten()?;
            let t = &self.nodes[to];
            if t.may_be.is_empty() {
                found.push(to);
            } else {
                found.extend_from_slice(&t.may_be);
            }
        }
        found.sort_unstable();
        found.dedup();
        Some(found)
    }

    /// The bats' cave behind tunnel `k` of `from`: the node already known to hold them, or a
    /// new one named as the tunnel showed it.
    pub(super) fn bats_node(&mut self, from: usize, k: usize, tunnels: usize) -> usize {
        if let Some(b) = self.colony() {
            return b;
        }
        if let Some(to) = self.nodes[from].edges.get(k - 1).copied().flatten() {
            return to;
        }
        let name = self.nodes[from].shown.get(k - 1).cloned().flatten();
        self.add_node(name, tunnels, self.far(from, k))
    }

    /// True when the tunnel leads to a cave the player has been in (so no pit is there).
    pub(super) fn leads_to_visited(&self, node: usize, k: usize) -> bool {
        let n = &self.nodes[node];
        n.shown.get(k - 1).is_some_and(|s| s.is_some())
            || n.edges.get(k - 1).copied().flatten().is_some_and(|to| {
                let t = &self.nodes[to];
                t.stood.is_some() || t.bats
            })
    }

    /// Breadth-first over the agent's map from the player's cave, through tunnels whose known
    /// caves are proven free of the pit and wumpi: each node reached with the first tunnel
    /// towards it and the steps, and what the agent holds of its tunnels.
    pub(super) fn reachable(&self) -> (Vec<Option<Way>>, Vec<Vec<Assessed>>) {
        let mut way: Vec<Option<Way>> = vec![None; self.nodes.len()];
        let mut judged: Vec<Vec<Assessed>> = vec![Vec::new(); self.nodes.len()];
        let mut queue = VecDeque::new();
        way[self.at] = Some((0, 0));
        queue.push_back(self.at);
        while let Some(n) = queue.pop_front() {
            let (first, steps) = way[n].expect("queued nodes have a way");
            judged[n] = self.assess(n);
            let assessed = &judged[n];
            let node = &self.nodes[n];
            for (i, a) in assessed.iter().enumerate() {
                if a.pit != Hazard::Free || a.wumpus != Hazard::Free {
                    continue;
                }
                // Where the tunnel leads: certain, or else the one node of the name it shows
                // (the bats' cave aside, which a plan never enters). A plan may so head for a
                // cave of the same name the agent has not met, which costs only steps: every
                // step is judged again, safe or not, where it is taken.
                let target = match (node.edges[i], &node.shown[i]) {
                    (Some(to), _) => Some(to),
                    // Leaving a cave known only as one of several: where every one of them
                    // leads through this tunnel, if that is one cave.
                    (None, Some(_)) if !node.may_be.is_empty() => {
                        match self.through_each(n, i + 1).as_deref() {
                            Some(&[to]) => Some(to),
                            _ => None,
                        }
                    }
                    (None, Some(name)) => match self.named.get(name).map(Vec::as_slice) {
                        Some(&[j]) if !self.nodes[j].bats => Some(j),
                        _ => None,
                    },
                    (None, None) => None,
                };
                if let Some(to) = target {
                    if way[to].is_some() || self.nodes[to].bats || self.nodes[to].stood.is_none() {
                        continue;
                    }
                    way[to] = Some((if n == self.at { i + 1 } else { first }, steps + 1));
                    queue.push_back(to);
                }
            }
        }
        (way, judged)
    }
}
