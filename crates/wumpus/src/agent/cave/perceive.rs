//! What the classic cave agent takes in each turn: its last action's result and the new
//! status (tunnels seen, warnings, bat snatches, missed arrows), the layouts counted from
//! them, and the facts the knowledge base proves.
//!
//! It must never learn anything but the agent's own results and the statuses the game shows.

use super::*;

impl CaveAgent {
    /// Takes in the last action (`None` at the start of a game), its result, and the status
    /// that followed. Returns what became proven, with reasons when explanations are on.
    pub fn observe_turn(
        &mut self,
        last: Option<&Action>,
        result: Option<&TurnResult>,
        status: &Status,
    ) -> Result<Vec<Conclusion>, KbError> {
        self.learned.clear();
        match (last, self.shooting_step.take(), self.here) {
            (Some(Action::Move(to)), Some(planned), Some(left)) if *to == planned => {
                self.left_for_a_shot.push(left);
            }
            _ => self.left_for_a_shot.clear(),
        }
        self.shown_outs = status.outs.clone();
        if self.config.policy.rollouts > 0 {
            self.history = rollout::digest(self.history, status);
        }
        if self.lost.is_none() && self.map.contradicts(status.room, &status.outs) {
            self.lost = Some(format!(
                "the tunnels shown from room {} are not the map's",
                self.label(status.room)
            ));
            self.odds = None;
        }
        if self.lost.is_some() {
            self.here = Some(status.room);
            self.map.stand_in(status.room, &status.outs, &status.ins);
            return Ok(Vec::new());
        }
        match self.take_in(last, result, status) {
            Ok(()) => Ok(std::mem::take(&mut self.learned)),
            Err(e) => {
                // Walk on blind from where the status says the hunter is, by its tunnels: the
                // knowledge that clashed may have stopped before taking the status in.
                self.lost = Some(e.to_string());
                self.odds = None;
                self.here = Some(status.room);
                self.map.stand_in(status.room, &status.outs, &status.ins);
                Err(e)
            }
        }
    }

    pub(super) fn take_in(
        &mut self,
        last: Option<&Action>,
        result: Option<&TurnResult>,
        status: &Status,
    ) -> Result<(), KbError> {
        let w = self.words;
        if self.evidence.is_none() {
            let start = status.room;
            let topology = self.map.possible_topology();
            let proofs = match self.config.insight {
                Insight::Decisions => Proofs::Fast,
                Insight::Explained => Proofs::Explained,
            };
            if !self.trust_odds {
                self.kb = Some(KnowledgeBase::new(
                    self.rules.clone(),
                    topology,
                    Some(start),
                    proofs,
                )?);
            }
            self.kb_map_version = self.map.version();
            self.evidence = Some(Evidence::new(self.config.rooms, start));
        } else {
            match (last, result) {
                (Some(Action::Move(_)), Some(TurnResult::Move(MoveResult::Moved))) => {
                    self.moves += 1;
                }
                (Some(Action::Move(to)), Some(TurnResult::Move(MoveResult::Snatched))) => {
                    self.moves += 1;
                    if let Some(kb) = self.kb.as_mut() {
                        kb.tell(w.snatched, Some(*to), true)?;
                    }
                    self.evidence_mut().snatched(*to);
                }
                (Some(Action::Shoot(path)), Some(TurnResult::Shot(ShotResult::Missed))) => {
                    let from = self.here.unwrap_or(status.room);
                    for room in self.sure_flight(from, path.rooms()) {
                        if let Some(kb) = self.kb.as_mut() {
                            kb.tell(w.missed, Some(room), true)?;
                        }
                        self.evidence_mut().not_wumpus(room);
                    }
                    self.arrows = self.arrows.saturating_sub(1);
                    if let Some(kb) = self.kb.as_mut() {
                        kb.happen(w.wake, None)?;
                    }
                    self.evidence_mut().wake();
                }
                _ => {}
            }
        }
        let here = status.room;
        self.here = Some(here);
        if self.map.stand_in(here, &status.outs, &status.ins)
            || self.kb_map_version != self.map.version()
        {
            let topology = self.map.possible_topology();
            if let Some(kb) = self.kb.as_mut() {
                kb.set_topology(topology)?;
            }
            self.kb_map_version = self.map.version();
        }
        let near = self.map.linked(here);
        if !self.warned[here.index()] {
            self.warned[here.index()] = true;
            if let Some(kb) = self.kb.as_mut() {
                kb.tell(w.draft, Some(here), status.pit)?;
            }
            if let Some(kb) = self.kb.as_mut() {
                kb.tell(w.flapping, Some(here), status.bats)?;
            }
            self.evidence_mut().draft(&near, status.pit);
            self.evidence_mut().flapping(&near, status.bats);
        }
        if let Some(kb) = self.kb.as_mut() {
            kb.tell(w.survived, Some(here), true)?;
        }
        if let Some(kb) = self.kb.as_mut() {
            kb.tell(w.stench, Some(here), status.wumpus)?;
        }
        let smell_near = self.smell_near(here);
        let e = self.evidence_mut();
        e.survived(here);
        e.stench(&smell_near, status.wumpus);
        if let Some(kb) = self.kb.as_mut() {
            kb.check_consistent()?;
        }
        let odds = match self.config.odds {
            OddsSource::Layouts => {
                Odds::compute(self.evidence.as_ref().expect("set above"), &self.map)
                    .map_err(|e| KbError::Contradiction(e.to_string()))?
            }
            OddsSource::KnowledgeBase => self.counted_odds()?,
        };
        self.odds = Some(odds);
        self.prove()
    }

    /// The odds by the knowledge base's weighted model count (every layout alike).
    pub(super) fn counted_odds(&mut self) -> Result<Odds, KbError> {
        let w = self.words;
        let n = self.config.rooms;
        let woken = self.epoch() > 0;
        let kb = self.kb.as_mut().expect("built");
        let prior = Prior::uniform(kb.rules());
        let marginals = |pred: usize, kb: &mut KnowledgeBase| {
            let atoms: Vec<Atom> = (0..n).map(|r| kb.atom(pred, Some(Place::new(r)))).collect();
            kb.marginals(&atoms, &prior)
        };
        let pit = marginals(w.pit, kb)?;
        let bats = marginals(w.bats, kb)?;
        let wumpus = marginals(w.wumpus, kb)?;
        let both = |pred: usize, kb: &mut KnowledgeBase| -> Result<Vec<f64>, KbError> {
            (0..n)
                .map(|r| {
                    let room = Some(Place::new(r));
                    let (a, b) = (kb.atom(pred, room), kb.atom(w.wumpus, room));
                    if woken {
                        kb.probability(&[(a, true), (b, true)], &prior)
                    } else {
                        // As dealt, no room holds two things.
                        Ok(0.0)
                    }
                })
                .collect()
        };
        let pit_and_wumpus = both(w.pit, kb)?;
        let bats_and_wumpus = both(w.bats, kb)?;
        Ok(Odds {
            pit,
            bats,
            wumpus,
            pit_and_wumpus,
            bats_and_wumpus,
            deals: 0,
        })
    }

    /// The rooms within smelling distance of `room`.
    pub(super) fn smell_near(&self, room: Place) -> Vec<Place> {
        match (&self.config.map, self.config.warning_distance) {
            (Some(m), d) if d > 1 => m
                .within(room, d)
                .iter()
                .enumerate()
                .filter(|(_, &near)| near)
                .map(|(i, _)| Place::new(i))
                .collect(),
            _ => self.map.linked(room),
        }
    }

    /// The rooms an arrow told `rooms` certainly flew through from `from`: as long as each is
    /// joined to the one before by a known tunnel (after that it may have swerved anywhere).
    pub(super) fn sure_flight(&self, from: Place, rooms: &[Place]) -> Vec<Place> {
        let mut at = from;
        let mut flown = Vec::new();
        for &r in rooms {
            if !self.map.joined(at, r) {
                break;
            }
            flown.push(r);
            at = r;
        }
        flown
    }

    pub(super) fn evidence_mut(&mut self) -> &mut Evidence {
        self.evidence
            .as_mut()
            .expect("the evidence is kept from the first status")
    }

    /// Asks the knowledge base to prove what the odds call certain, and notes conclusions.
    pub(super) fn prove(&mut self) -> Result<(), KbError> {
        let odds = self.odds.clone().expect("computed before proving");
        let epoch = self.epoch();
        let w = self.words;
        for i in 0..self.config.rooms {
            let room = Place::new(i);
            let mut f = self.facts[i];
            if !f.no_pit && odds.pit[i] == 0.0 {
                f.no_pit = self.proves(w.pit, room, false)?;
            }
            if !f.pit && odds.pit[i] >= 1.0 - 1e-9 && self.proves(w.pit, room, true)? {
                f.pit = true;
                self.conclude(room, Fact::Pit)?;
            }
            if !f.no_bats && odds.bats[i] == 0.0 {
                f.no_bats = self.proves(w.bats, room, false)?;
            }
            if !f.bats && odds.bats[i] >= 1.0 - 1e-9 && self.proves(w.bats, room, true)? {
                f.bats = true;
                self.conclude(room, Fact::Bats)?;
            }
            if f.no_wumpus != Some(epoch)
                && odds.wumpus[i] == 0.0
                && self.proves(w.wumpus, room, false)?
            {
                f.no_wumpus = Some(epoch);
            }
            if f.wumpus != Some(epoch)
                && odds.wumpus[i] >= 1.0 - 1e-9
                && self.proves(w.wumpus, room, true)?
            {
                f.wumpus = Some(epoch);
                self.conclude(room, Fact::Wumpus)?;
            }
            let safe = f.no_pit && f.no_bats && f.no_wumpus == Some(epoch);
            let announce = safe
                && f.announced_safe != Some(epoch)
                && !self.map.visited(room)
                && self.config.insight == Insight::Explained;
            if safe && f.announced_safe != Some(epoch) {
                f.announced_safe = Some(epoch);
            }
            self.facts[i] = f;
            if announce {
                self.conclude(room, Fact::Safe)?;
            }
        }
        Ok(())
    }

    /// True when the knowledge base proves `pred(room)` has the value `value`.
    pub(super) fn proves(
        &mut self,
        pred: usize,
        room: Place,
        value: bool,
    ) -> Result<bool, KbError> {
        let Some(kb) = self.kb.as_mut() else {
            // A rollout's copy has no knowledge base: it trusts the exact odds.
            return Ok(true);
        };
        let atom = kb.atom(pred, Some(room));
        kb.entails((atom, value))
    }

    pub(super) fn conclude(&mut self, room: Place, fact: Fact) -> Result<(), KbError> {
        let because = if self.config.insight == Insight::Explained {
            let w = self.words;
            let kb = self.kb.as_mut().expect("built");
            let lits: Vec<GroundLit> = match fact {
                Fact::Pit => vec![(kb.atom(w.pit, Some(room)), false)],
                Fact::Bats => vec![(kb.atom(w.bats, Some(room)), false)],
                Fact::Wumpus => vec![(kb.atom(w.wumpus, Some(room)), false)],
                Fact::Safe => vec![
                    (kb.atom(w.pit, Some(room)), true),
                    (kb.atom(w.bats, Some(room)), true),
                    (kb.atom(w.wumpus, Some(room)), true),
                ],
            };
            let mut ids = Vec::new();
            for lit in lits {
                ids.extend(kb.explain(&[lit])?.unwrap_or_default());
            }
            ids.sort_unstable();
            ids.dedup();
            let mut words: Vec<String> = ids.iter().map(|&i| self.describe(i)).collect();
            if words.is_empty() {
                words.push("the rules alone".to_string());
            }
            words
        } else {
            Vec::new()
        };
        self.learned.push(Conclusion {
            place: room,
            fact,
            because,
        });
        Ok(())
    }

    /// An observation in a player's words.
    pub(super) fn describe(&self, index: usize) -> String {
        let kb = self.kb.as_ref().expect("built");
        let obs = kb.observations()[index];
        let at = obs.place.map(|p| self.label(p)).unwrap_or_default();
        let w = self.words;
        let when = if obs.time > 0 {
            format!(
                " after the {} wake",
                match obs.time {
                    1 => "1st".to_string(),
                    2 => "2nd".to_string(),
                    3 => "3rd".to_string(),
                    n => format!("{n}th"),
                }
            )
        } else {
            String::new()
        };
        match (obs.pred, obs.present) {
            (p, true) if p == w.draft => format!("a draft in room {at}"),
            (p, false) if p == w.draft => format!("no draft in room {at}"),
            (p, true) if p == w.flapping => format!("bats heard in room {at}"),
            (p, false) if p == w.flapping => format!("no bats heard in room {at}"),
            (p, true) if p == w.stench => format!("the wumpus smelt in room {at}{when}"),
            (p, false) if p == w.stench => format!("no wumpus smelt in room {at}{when}"),
            (p, _) if p == w.survived => format!("room {at} entered alive{when}"),
            (p, _) if p == w.snatched => format!("snatched by bats in room {at}{when}"),
            (p, _) if p == w.missed => format!("an arrow missed through room {at}{when}"),
            _ => kb.describe(&obs),
        }
    }
}
