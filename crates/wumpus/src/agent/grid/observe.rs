//! What the grid agent takes in each turn: where it is, what it perceives at a cell the first
//! time it stands there, and what the knowledge base now proves of the frontier (asking only
//! about cells whose watched atoms changed).
//!
//! It must never learn anything but the agent's own actions and the percepts that followed.

use super::*;

impl GridAgent {
    /// Takes in what happened: the action just taken (`None` before the first) and the
    /// percepts that followed. Returns what became proven, with reasons when explanations are
    /// on.
    pub fn observe_percepts(
        &mut self,
        last: Option<Action>,
        percepts: &Percepts,
    ) -> Result<Vec<Conclusion>, KbError> {
        match self.hidden.take() {
            Some(hidden) => self.observe_learning_size(hidden, last, percepts),
            None => self.observe_known(last, percepts),
        }
    }

    /// [`GridAgent::observe_percepts`] on the agent's own grid.
    pub(super) fn observe_known(
        &mut self,
        last: Option<Action>,
        percepts: &Percepts,
    ) -> Result<Vec<Conclusion>, KbError> {
        if last != self.plan.pending.as_ref().map(|d| d.action) || last.is_none() {
            // The player did something other than what was planned (or the game began).
            self.plan.steps.clear();
        }
        self.plan.pending = None;
        if last.is_some() {
            self.status.moves += 1;
        }
        match last {
            Some(Action::Move(dir)) if !percepts.bump => {
                if let Some(next) = self.topology.follow(self.status.position, Link::Step(dir)) {
                    self.status.position = next;
                }
            }
            Some(Action::Grab) if self.status.glint_here => self.status.has_gold = true,
            Some(Action::Fire(dir)) if self.status.has_arrow => {
                self.status.has_arrow = false;
                self.foresight
                    .shot(self.status.position.index(), dir, percepts.scream);
                if percepts.scream {
                    self.status.wumpus_alive = false;
                    self.map.wumpus_at = None;
                    // Every cell proven pit-free is now safe, and no wumpus question is asked
                    // any more: look at the whole frontier once.
                    self.frontier.examine_all(&self.map);
                } else if self.status.wumpus_alive {
                    for cell in self.topology.ray(self.status.position, dir) {
                        self.kb.tell(self.settings.words.missed, Some(cell), true)?;
                        self.map.cells[cell.index()].missed = true;
                    }
                }
                self.plan.steps.clear();
            }
            _ => {}
        }
        self.status.glint_here = percepts.glint;
        let here = self.status.position;
        if !self.map.cells[here.index()].visited {
            if self.frontier.listed[here.index()] && !self.map.cells[here.index()].announced_safe {
                self.frontier.live -= 1;
            }
            self.map.cells[here.index()].visited = true;
            self.foresight
                .visit(here.index(), percepts.breeze, percepts.stench);
            self.map.safe_cells.insert(here);
            self.map.visited_cells.insert(here);
            self.frontier.listed[here.index()] = false;
            let w = self.settings.words;
            self.kb.tell(w.visited, Some(here), true)?;
            if self.status.wumpus_alive {
                self.kb.tell(w.unharmed, Some(here), true)?;
            }
            self.kb.tell(w.breeze, Some(here), percepts.breeze)?;
            self.kb.tell(w.stench, Some(here), percepts.stench)?;
            for n in self.topology.neighbours(here) {
                if !self.map.cells[n.index()].visited && !self.frontier.listed[n.index()] {
                    self.frontier.join(n);
                }
            }
        }
        self.frontier.drop_leavers(&self.map);
        self.update_knowledge()
    }

    /// True when `place` is in the frontier: unvisited, next to a visited cell, and not
    /// announced safe.
    pub(super) fn in_frontier_now(&self, place: Place) -> bool {
        self.frontier.holds(&self.map, place)
    }

    /// Moves the cells whose watched atoms changed into the frontier's cells to examine.
    pub(super) fn collect_changes(&mut self) {
        self.frontier.collect_changes(&mut self.kb, &self.map);
    }

    pub(super) fn atom(&self, pred: usize, place: Place) -> Atom {
        self.kb.atom(pred, Some(place))
    }

    pub(super) fn question_lit(&self, q: Question, place: Place) -> GroundLit {
        // The literal whose impossibility proves the answer.
        match q {
            Question::NoPit => (self.atom(self.settings.words.pit, place), true),
            Question::Pit => (self.atom(self.settings.words.pit, place), false),
            Question::NoWumpus => (self.atom(self.settings.words.wumpus, place), true),
            Question::Wumpus => (self.atom(self.settings.words.wumpus, place), false),
        }
    }

    /// Asks `q` about `place` unless the answer is known or cannot have changed.
    pub(super) fn ask(&mut self, q: Question, place: Place) -> Result<bool, KbError> {
        let i = q as usize;
        let cell = self.map.cells[place.index()];
        if cell.proven[i] {
            return Ok(true);
        }
        let lit = self.question_lit(q, place);
        if cell.asked_at[i] != 0 && !self.kb.changed_since(lit.0, cell.asked_at[i]) {
            return Ok(false);
        }
        let proven = !self.kb.possible(&[lit])?;
        let cell = &mut self.map.cells[place.index()];
        if proven {
            cell.proven[i] = true;
            if q == Question::Pit {
                self.map.pit_cells.insert(place);
            }
        } else {
            let now = self.kb.now();
            cell.asked_at[i] = now;
            // Be told when the answer can change, so the cell is not re-examined before.
            self.kb.watch(lit.0, place.index() as u32, now);
        }
        Ok(proven)
    }

    /// Re-derives what can have changed about the frontier.
    ///
    /// This visits, in frontier order, the cells to examine: those new to the frontier and those
    /// whose watched atoms changed, including changes made by the questions of this very
    /// pass (mentioning a wumpus atom extends the counter), which is what a walk over the
    /// whole frontier would find asking. Cells met earlier in the order that change during
    /// the pass wait for the next turn, as they would in such a walk.
    pub(super) fn update_knowledge(&mut self) -> Result<Vec<Conclusion>, KbError> {
        self.kb.check_consistent()?;
        let mut learned = Vec::new();
        let explained = self.settings.insight == Insight::Explained;
        self.collect_changes();
        let mut cursor = 0u32;
        while let Some(&order) = self.frontier.to_examine.range(cursor..).next() {
            self.frontier.to_examine.remove(&order);
            cursor = order + 1;
            let cell = self.frontier.by_order[order as usize - 1];
            if !self.in_frontier_now(cell) {
                continue;
            }
            self.examine(cell, explained, &mut learned)?;
            self.collect_changes();
        }
        if self.status.wumpus_alive && self.map.wumpus_at.is_none() {
            if let Some(w) = self.locate_wumpus()? {
                self.map.wumpus_at = Some(w);
                learned.push(self.conclude(w, Fact::Wumpus)?);
            }
        }
        if !learned.iter().all(|c| c.fact == Fact::Pit) {
            // New safe ground or a located wumpus can make a shorter plan.
            self.plan.steps.clear();
        }
        Ok(learned)
    }

    /// Asks what can have changed about frontier cell `cell` and announces what it proves.
    pub(super) fn examine(
        &mut self,
        cell: Place,
        explained: bool,
        learned: &mut Vec<Conclusion>,
    ) -> Result<(), KbError> {
        let no_pit = self.ask(Question::NoPit, cell)?;
        if self.status.wumpus_alive && (no_pit || explained) {
            self.ask(Question::NoWumpus, cell)?;
        }
        if explained && !no_pit && self.ask_new(Question::Pit, cell)? {
            learned.push(self.conclude(cell, Fact::Pit)?);
        }
        if self.is_safe(cell) && !self.map.cells[cell.index()].announced_safe {
            self.map.cells[cell.index()].announced_safe = true;
            self.frontier.live -= 1;
            self.map.safe_cells.insert(cell);
            learned.push(self.conclude(cell, Fact::Safe)?);
        }
        Ok(())
    }

    /// Asks `q` and says whether it became proven just now.
    pub(super) fn ask_new(&mut self, q: Question, place: Place) -> Result<bool, KbError> {
        let before = self.map.cells[place.index()].proven[q as usize];
        Ok(!before && self.ask(q, place)?)
    }

    /// Finds the wumpus's cell if the knowledge base proves it. In any model of the knowledge
    /// base the wumpus stands on exactly one cell, so only that cell can be proven to hold it:
    /// one question suffices. (When the model leaves it among the cells no clause mentions,
    /// it is proven nowhere, unless exactly one such cell is left.)
    pub(super) fn locate_wumpus(&mut self) -> Result<Option<Place>, KbError> {
        let wumpus = self.settings.words.wumpus;
        self.kb.check_consistent()?;
        let candidate = match self.kb.true_in_model(wumpus).as_slice() {
            [Some(p)] => Some(*p),
            [] => self.kb.sole_unmentioned(wumpus),
            _ => None,
        };
        match candidate {
            Some(p) if self.ask(Question::Wumpus, p)? => Ok(Some(p)),
            _ => Ok(None),
        }
    }

    pub(super) fn conclude(&mut self, place: Place, fact: Fact) -> Result<Conclusion, KbError> {
        let because = if self.settings.insight == Insight::Explained {
            let lits: Vec<GroundLit> = match fact {
                Fact::Pit => vec![self.question_lit(Question::Pit, place)],
                Fact::Wumpus => vec![self.question_lit(Question::Wumpus, place)],
                Fact::Bats => Vec::new(),
                Fact::Safe => {
                    let mut l = vec![self.question_lit(Question::NoPit, place)];
                    if self.status.wumpus_alive {
                        l.push(self.question_lit(Question::NoWumpus, place));
                    }
                    l
                }
            };
            let mut ids = Vec::new();
            for lit in lits {
                ids.extend(self.kb.explain(&[lit])?.unwrap_or_default());
            }
            ids.sort_unstable();
            ids.dedup();
            let mut words: Vec<String> = ids.iter().map(|&i| self.describe(i)).collect();
            if fact == Fact::Safe && !self.status.wumpus_alive {
                words.push("the wumpus is dead".to_string());
            }
            words
        } else {
            Vec::new()
        };
        Ok(Conclusion {
            place,
            fact,
            because,
        })
    }

    /// An observation in a player's words.
    pub(super) fn describe(&self, index: usize) -> String {
        let obs = self.kb.observations()[index];
        let at = obs
            .place
            .map(|p| self.topology.label(p))
            .unwrap_or_default();
        let w = self.settings.words;
        match (obs.pred, obs.present) {
            (p, true) if p == w.breeze => format!("breeze at {at}"),
            (p, false) if p == w.breeze => format!("no breeze at {at}"),
            (p, true) if p == w.stench => format!("stench at {at}"),
            (p, false) if p == w.stench => format!("no stench at {at}"),
            (p, _) if p == w.visited => format!("{at} was walked into safely"),
            (p, _) if p == w.unharmed => format!("no wumpus met at {at}"),
            (p, _) if p == w.missed => format!("the arrow flew through {at} without a scream"),
            _ => self.kb.describe(&obs),
        }
    }
}
