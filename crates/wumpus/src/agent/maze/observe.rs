//! What the map-known maze agent takes in each turn: its tracks moved by the last action
//! (forked where bats may have dropped the player), told the view, dropped where the names or
//! senses contradict them; then what the odds call certain, proven by the knowledge base, and
//! explained in the player's words.
//!
//! A fact counts as learned only when the knowledge base proves it; the odds only say where
//! to ask, and must never stand in for a proof.

use super::*;

impl MazeAgent {
    /// Takes in the last action and its result (`None` at the start) and the view that
    /// followed. Returns what became proven (when the player's cave is certain).
    pub fn observe_turn(
        &mut self,
        last: Option<MazeAction>,
        result: Option<MazeResult>,
        view: &MazeView,
    ) -> Result<Vec<Conclusion>, KbError> {
        self.learned.clear();
        self.seen = view.tunnels.clone();
        if self.lost.is_some() {
            return Ok(Vec::new());
        }
        match self.take_in(last, result, view) {
            Ok(()) => Ok(std::mem::take(&mut self.learned)),
            Err(e) => {
                self.lost = Some(e.to_string());
                Err(e)
            }
        }
    }

    fn take_in(
        &mut self,
        last: Option<MazeAction>,
        result: Option<MazeResult>,
        view: &MazeView,
    ) -> Result<(), KbError> {
        let w = self.words;
        let map = self.map.clone();
        if self.tracks.is_empty() {
            for c in map.rooms() {
                if map.name(c) == view.name {
                    let near = map.outs(c);
                    let belief = MazeBelief::smelling(map.len(), c, near, Some(view.smell));
                    let t = self.track_with(c, belief)?;
                    self.tracks.push(t);
                }
            }
        } else {
            let mut next: Vec<Track> = Vec::new();
            for mut t in std::mem::take(&mut self.tracks) {
                match (last, result) {
                    (Some(MazeAction::Move(k)), Some(MazeResult::Moved)) => {
                        let to = map.outs(t.pos)[k - 1];
                        t.known[t.pos.index()] = true;
                        t.pos = to;
                        next.push(t);
                    }
                    (Some(MazeAction::Move(k)), Some(MazeResult::Carried)) => {
                        let bats = map.outs(t.pos)[k - 1];
                        t.known[t.pos.index()] = true;
                        t.known[bats.index()] = true;
                        // Explored: nobody can stand in the bats' cave.
                        t.been[bats.index()] = true;
                        if t.record(Told::Percept(w.carried, bats, true)).is_err() {
                            continue;
                        }
                        t.belief.carried(bats);
                        // Dropped in some empty cave with the name shown: a copy of the
                        // track for each but the last, which takes the track itself.
                        let lands: Vec<Place> = map
                            .rooms()
                            .filter(|&land| map.name(land) == view.name && land != bats)
                            .collect();
                        if let Some((&last, others)) = lands.split_last() {
                            for &land in others {
                                let mut copy = self.fork(&t, land)?;
                                copy.belief.landed(land);
                                next.push(copy);
                            }
                            t.pos = last;
                            t.belief.landed(last);
                            next.push(t);
                        }
                    }
                    (Some(MazeAction::Toss(k)), Some(MazeResult::Missed | MazeResult::Killed)) => {
                        let blast = map.outs(t.pos)[k - 1];
                        let killed = result == Some(MazeResult::Killed);
                        if t.record(Told::Percept(w.hit, blast, killed)).is_err()
                            || t.record(Told::Event(w.blast, blast)).is_err()
                        {
                            continue;
                        }
                        t.belief.toss(&map, blast, t.pos, killed);
                        t.safe = vec![false; map.len()];
                        t.wumpus = vec![false; map.len()];
                        next.push(t);
                    }
                    _ => next.push(t),
                }
            }
            if matches!(last, Some(MazeAction::Toss(_)))
                && matches!(result, Some(MazeResult::Missed | MazeResult::Killed))
            {
                self.tosses += 1;
            }
            self.tracks = next;
        }
        // Each track: does the view fit, and what does it say?
        let mut kept = Vec::new();
        for mut t in std::mem::take(&mut self.tracks) {
            if !self.fits(&t, view) {
                continue;
            }
            let here = t.pos;
            t.been[here.index()] = true;
            let near: Vec<Place> = map.outs(here).to_vec();
            let told = (|| -> Result<(), KbError> {
                t.record(Told::Percept(w.stood, here, true))?;
                t.record(Told::Percept(w.smell, here, view.smell))?;
                t.record(Told::Percept(w.hear, here, view.hear))?;
                t.record(Told::Percept(w.feel, here, view.feel))?;
                // No solver call here: before any blast the belief's count is exact, so a
                // layout it weighs above nought satisfies the rules too; after one, a
                // hypothesis whose knowledge contradicts itself is dropped when a proof first
                // asks its solver (below).
                Ok(())
            })();
            if told.is_err() {
                continue;
            }
            t.belief.stood(here);
            t.belief.smell(&near, view.smell);
            t.belief.hear(&near, view.hear);
            t.belief.feel(&near, view.feel);
            match t.belief.odds() {
                Ok(o) if o.weight > 0.0 => t.odds = Some(o),
                _ => continue,
            }
            kept.push(t);
        }
        if kept.is_empty() {
            return Err(KbError::Contradiction(
                "no cave of the maze fits what the player was shown".to_string(),
            ));
        }
        self.tracks = kept;
        let single = self.tracks.len() == 1;
        let worth = (!single).then(|| self.worth_proving());
        let mut contradicted = vec![false; self.tracks.len()];
        for (i, dropped) in contradicted.iter_mut().enumerate() {
            match self.prove(i, worth.as_ref().map(|w| w[i].as_slice())) {
                Ok(found) if single => {
                    for (cave, fact) in found {
                        self.conclude(i, cave, fact)?;
                    }
                }
                Ok(_) => {}
                // Of several hypotheses, one whose knowledge contradicts itself is not the
                // player's cave.
                Err(KbError::Contradiction(_)) if !single => *dropped = true,
                Err(e) => return Err(e),
            }
        }
        if contradicted.iter().any(|&c| c) {
            let mut keep = contradicted.iter().map(|&c| !c);
            self.tracks.retain(|_| keep.next().expect("one a track"));
            if self.tracks.is_empty() {
                return Err(KbError::Contradiction(
                    "no cave of the maze fits what the player was shown".to_string(),
                ));
            }
        }
        Ok(())
    }

    /// Proves on track `i` what its odds call certain, of every cave or (`only`) of some;
    /// returns the new facts.
    fn prove(&mut self, i: usize, only: Option<&[Place]>) -> Result<Vec<(Place, Fact)>, KbError> {
        let w = self.words;
        let n = self.map.len();
        let t = &mut self.tracks[i];
        let o = t.odds.clone().expect("counted");
        let mut found = Vec::new();
        let all: Vec<Place> = (0..n).map(Place::new).collect();
        for &cave in only.unwrap_or(&all) {
            let c = cave.index();
            // A value fixed by unit clauses is entailed, with no solver call, when the
            // track's knowledge is consistent: before a blast its belief's exact count found a
            // layout; after one, a single track is the player's true cave. Of several, one
            // may contradict itself unnoticed, but a tunnel counts as safe only when every
            // track proves it, the true one among them.
            let entails = |t: &mut Track, pred, value| -> Result<bool, KbError> {
                let kb = t.kb_mut()?;
                let a = kb.atom(pred, Some(cave));
                if kb.fixed(a) == Some(value) {
                    return Ok(true);
                }
                kb.entails((a, value))
            };
            if !t.safe[c]
                && o.free(cave)
                && entails(t, w.pit, false)?
                && entails(t, w.wumpus, false)?
            {
                t.safe[c] = true;
                if !t.been[c] {
                    found.push((cave, Fact::Safe));
                }
            }
            if !t.wumpus[c] && MazeOdds::sure(o.wumpus[c]) && entails(t, w.wumpus, true)? {
                t.wumpus[c] = true;
                found.push((cave, Fact::Wumpus));
            }
            if !t.pit[c] && MazeOdds::sure(o.pit[c]) && entails(t, w.pit, true)? {
                t.pit[c] = true;
                found.push((cave, Fact::Pit));
            }
            if !t.bats[c] && MazeOdds::sure(o.bats[c]) && entails(t, w.bats, true)? {
                t.bats[c] = true;
                found.push((cave, Fact::Bats));
            }
        }
        Ok(found)
    }

    /// With several hypotheses, the caves worth proving on each: those its tunnels lead to,
    /// through the tunnels whose caves every hypothesis's odds call certain in the same way
    /// (free of the pit and wumpi, or a wumpus), since only a tunnel proven so on every one
    /// counts in a decision.
    fn worth_proving(&self) -> Vec<Vec<Place>> {
        let certain = |t: &Track, c: Place| {
            let o = t.odds.as_ref().expect("counted");
            (o.free(c), MazeOdds::sure(o.wumpus[c.index()]))
        };
        let tunnels: Vec<usize> = (0..3)
            .filter(|&k| {
                let free = self
                    .tracks
                    .iter()
                    .all(|t| certain(t, self.map.outs(t.pos)[k]).0);
                let wumpus = self
                    .tracks
                    .iter()
                    .all(|t| certain(t, self.map.outs(t.pos)[k]).1);
                free || wumpus
            })
            .collect();
        self.tracks
            .iter()
            .map(|t| tunnels.iter().map(|&k| self.map.outs(t.pos)[k]).collect())
            .collect()
    }

    fn conclude(&mut self, i: usize, cave: Place, fact: Fact) -> Result<(), KbError> {
        let because = if self.insight == Insight::Explained {
            let w = self.words;
            let kb = self.tracks[i].kb_mut()?;
            let lits = match fact {
                Fact::Pit => vec![(kb.atom(w.pit, Some(cave)), false)],
                Fact::Bats => vec![(kb.atom(w.bats, Some(cave)), false)],
                Fact::Wumpus => vec![(kb.atom(w.wumpus, Some(cave)), false)],
                Fact::Safe => vec![
                    (kb.atom(w.pit, Some(cave)), true),
                    (kb.atom(w.wumpus, Some(cave)), true),
                ],
            };
            let mut ids = Vec::new();
            for lit in lits {
                ids.extend(kb.explain(&[lit])?.unwrap_or_default());
            }
            ids.sort_unstable();
            ids.dedup();
            let words: Vec<String> = ids.iter().map(|&k| self.describe(i, k)).collect();
            if words.is_empty() {
                vec!["the rules alone".to_string()]
            } else {
                words
            }
        } else {
            Vec::new()
        };
        self.learned.push(Conclusion {
            place: cave,
            fact,
            because,
        });
        Ok(())
    }

    /// Observation `index` of track `track`'s knowledge base (made: it explained a proof), in
    /// the player's words.
    fn describe(&self, track: usize, index: usize) -> String {
        let Ok(kb) = self.tracks[track].kb() else {
            return String::new();
        };
        let obs = kb.observations()[index];
        let at = obs.place.map(|p| self.cave_name(p)).unwrap_or_default();
        let w = self.words;
        let when = if obs.time > 0 {
            format!(
                " (after {} blast{})",
                obs.time,
                if obs.time == 1 { "" } else { "s" }
            )
        } else {
            String::new()
        };
        match (obs.pred, obs.present) {
            (p, true) if p == w.smell => format!("a wumpus smelt in {at}{when}"),
            (p, false) if p == w.smell => format!("no wumpus smelt in {at}{when}"),
            (p, true) if p == w.hear => format!("wings heard in {at}"),
            (p, false) if p == w.hear => format!("no wings heard in {at}"),
            (p, true) if p == w.feel => format!("a draft in {at}"),
            (p, false) if p == w.feel => format!("no draft in {at}"),
            (p, _) if p == w.stood => format!("stood in {at}{when}"),
            (p, _) if p == w.carried => format!("carried off by bats in {at}"),
            (p, true) if p == w.hit => format!("a grenade killed a wumpus in {at}{when}"),
            (p, false) if p == w.hit => format!("a grenade missed in {at}{when}"),
            _ => kb.describe(&obs),
        }
    }
}
