//! A game's description resolved ([`GameSpec::resolved`]: every option its rule set takes at
//! its value, given or the option table's default) and written as JSON, the one way summaries,
//! traces, the page and Python's pickles carry a game: an object of option names and values,
//! `rules` first, read back by the same option table ([`GameSpec::set`]).

use super::{option, GameSpec, Value, OPTIONS};
use serde::de::{Deserializer, Error as _, MapAccess, Visitor};
use serde::ser::{SerializeMap, Serializer};
use serde::{Deserialize, Serialize};
use std::fmt;

impl GameSpec {
    /// The game with every option its rule set takes at its value: the value given, or the
    /// option table's default ([`OPTIONS`]), and the agent named. A default the game would
    /// refuse (a look-ahead for an agent that takes none, a size beside the course's deal)
    /// is left unset, as are options with no default (a rule file, a map: the built-in ones).
    pub fn resolved(&self) -> GameSpec {
        let mut spec = self.clone();
        spec.agent = Some(spec.agent_kind());
        let rules = spec.rules;
        for o in OPTIONS.iter().filter(|o| o.fits(rules)) {
            if (o.get)(&spec).is_some() {
                continue;
            }
            let Some(default) = (o.default)(rules) else {
                continue;
            };
            let before = spec.clone();
            if (o.set)(&mut spec, &Value::Text(default.into())).is_err() || spec.check().is_err() {
                spec = before;
            }
        }
        spec
    }

    /// The game's options in words, as a summary's header prints them (`5x5, pit probability
    /// 0.2, standard scoring`): each option's words from the option table, in its order; an
    /// unset map is the rule set's built-in one.
    pub fn words(&self) -> String {
        self.words_as(false)
    }

    /// [`GameSpec::words`] for games played on files: what each file holds is not the
    /// options' doing (`pit probability 0.2 told to the player`).
    pub fn words_over_files(&self) -> String {
        self.words_as(true)
    }

    fn words_as(&self, files: bool) -> String {
        let mut parts = Vec::new();
        for o in OPTIONS.iter().filter(|o| o.fits(self.rules)) {
            let value = (o.get)(self).or_else(|| match o.kind {
                super::Kind::File { holds: "map" } => super::facts(self.rules)
                    .default_map
                    .map(|m| Value::Text(m.name.into())),
                _ => None,
            });
            parts.extend(value.and_then(|v| (o.words)(&v, files)));
        }
        parts.join(", ")
    }

    /// Option `name`'s value in this game, if set.
    pub fn get(&self, name: &str) -> Option<Value> {
        option(name).and_then(|o| (o.get)(self))
    }
}

impl Serialize for GameSpec {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let given = self.given();
        let mut map = serializer.serialize_map(Some(given.len()))?;
        for (name, value) in &given {
            map.serialize_entry(name, &value.to_json())?;
        }
        map.end()
    }
}

impl<'de> Deserialize<'de> for GameSpec {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<GameSpec, D::Error> {
        struct Spec;
        impl<'de> Visitor<'de> for Spec {
            type Value = GameSpec;
            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a game: an object of its rule set and options")
            }
            fn visit_map<M: MapAccess<'de>>(self, mut map: M) -> Result<GameSpec, M::Error> {
                let mut pairs: Vec<(String, Value)> = Vec::new();
                while let Some((name, json)) = map.next_entry::<String, serde_json::Value>()? {
                    let value = Value::from_json(&json).map_err(M::Error::custom)?;
                    pairs.push((name, value));
                }
                // The rule set first: the options are read for it.
                pairs.sort_by_key(|(name, _)| name != "rules");
                let mut spec = GameSpec::default();
                for (name, value) in &pairs {
                    spec.set(name, value).map_err(M::Error::custom)?;
                }
                Ok(spec)
            }
        }
        deserializer.deserialize_map(Spec)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::RuleSet;
    use crate::game_spec::GridSizes;

    #[test]
    fn a_resolved_spec_names_every_default_its_game_takes() {
        let aima = GameSpec::new(RuleSet::Aima).resolved();
        assert_eq!(aima.size, Some(GridSizes::One(4, 4)));
        assert_eq!(aima.pit_prob, Some(0.2));
        assert_eq!(aima.agent_kind().name(), "risk");
        assert_eq!(aima.depth, Some(2));
        assert_eq!(
            aima.scoring, None,
            "the textbook's rules take no scoring option"
        );
        let logic = GameSpec::from_pairs([
            ("rules", Value::Text("grid".into())),
            ("agent", Value::Text("logic".into())),
        ])
        .unwrap()
        .resolved();
        assert_eq!(logic.depth, None, "the logic agent takes no look-ahead");
        let course = GameSpec::from_pairs([
            ("rules", Value::Text("aima".into())),
            ("deal", Value::Text("course".into())),
        ])
        .unwrap()
        .resolved();
        assert_eq!(course.size, None, "the course's deal draws its own sizes");
        assert!(course.check().is_ok());
    }

    #[test]
    fn a_spec_reads_back_its_json() {
        for rules in RuleSet::ALL {
            let spec = GameSpec::new(rules).resolved();
            let json = serde_json::to_string(&spec).unwrap();
            assert!(
                json.starts_with(&format!("{{\"rules\":\"{}\"", rules.name())),
                "{json}"
            );
            let back: GameSpec = serde_json::from_str(&json).unwrap();
            assert_eq!(back, spec);
        }
        let cave = GameSpec::new(RuleSet::Cave).resolved();
        assert_eq!(
            cave.words(),
            "on the standard dodecahedron, event rules, map discovered"
        );
        assert_eq!(
            GameSpec::new(RuleSet::Grid).resolved().words(),
            "5x5, pit probability 0.2, standard scoring"
        );
        let bad = serde_json::from_str::<GameSpec>(r#"{"rules":"grid","colour":"red"}"#);
        assert!(bad.unwrap_err().to_string().contains("no option 'colour'"));
    }
}
