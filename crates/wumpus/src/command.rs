//! What every game's prompt shares: a typed line cut at its first word, and the commands every
//! game has, `help`, `hint`, `quit` (no argument), `load FILE` and `save FILE`.
//!
//! Each game (`grid::command`, `cave::command`) reads its own actions and keeps its own error
//! type, with its own words; it asks this module first and maps what comes back. This module
//! must never know a game's actions, and never guesses: a line is a shared command, a refusal,
//! or none of its business.

/// A line a player typed, cut at its first word.
pub(crate) struct Typed<'a> {
    /// The first word, as typed.
    pub first: &'a str,
    /// The first word in lower case: the command, whatever the case it was typed in.
    pub verb: String,
    /// The rest of the line, trimmed: the arguments, or the file name of `load` and `save`.
    pub rest: &'a str,
}

impl<'a> Typed<'a> {
    /// Cuts `line` at its first word; `None` for a line with no word.
    pub fn read(line: &'a str) -> Option<Typed<'a>> {
        let trimmed = line.trim();
        let first = trimmed.split_whitespace().next()?;
        Some(Typed {
            first,
            verb: first.to_ascii_lowercase(),
            rest: trimmed[first.len()..].trim(),
        })
    }
}

/// A command every game shares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Shared {
    /// Print the commands.
    Help,
    /// Ask the agent what it would do, and why.
    Hint,
    /// Leave the game.
    Quit,
    /// Start a new game on the world or hazards in a file.
    Load(String),
    /// Save this game's world or hazards to a file.
    Save(String),
}

/// Why a shared command was refused; each game puts it in its own words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Refusal {
    /// Words after a command that takes none: the command and the first extra word.
    ExtraWords {
        /// The command.
        command: &'static str,
        /// The first extra word.
        extra: String,
    },
    /// `load` or `save` without a file name.
    MissingFile(&'static str),
}

/// The shared command `typed` asks for, or `None` when its first word names none. `words` are
/// the words after the first as the game cuts them (the first extra word is the one a refusal
/// names).
pub(crate) fn shared(typed: &Typed<'_>, words: &[&str]) -> Option<Result<Shared, Refusal>> {
    let no_args = |command: &'static str, c: Shared| match words.first() {
        None => Ok(c),
        Some(extra) => Err(Refusal::ExtraWords {
            command,
            extra: extra.to_string(),
        }),
    };
    Some(match typed.verb.as_str() {
        "help" => no_args("help", Shared::Help),
        "hint" => no_args("hint", Shared::Hint),
        "quit" => no_args("quit", Shared::Quit),
        "load" | "save" => {
            let load = typed.verb == "load";
            if typed.rest.is_empty() {
                Err(Refusal::MissingFile(if load { "load" } else { "save" }))
            } else if load {
                Ok(Shared::Load(typed.rest.to_string()))
            } else {
                Ok(Shared::Save(typed.rest.to_string()))
            }
        }
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(line: &str) -> Option<Result<Shared, Refusal>> {
        let typed = Typed::read(line)?;
        let words: Vec<&str> = typed.rest.split_whitespace().collect();
        shared(&typed, &words)
    }

    #[test]
    fn a_line_is_cut_at_its_first_word() {
        assert!(Typed::read(" \t ").is_none());
        let typed = Typed::read("  LOAD  my world.txt ").unwrap();
        assert_eq!((typed.first, typed.verb.as_str()), ("LOAD", "load"));
        assert_eq!(typed.rest, "my world.txt");
    }

    #[test]
    fn shared_commands_in_any_case_and_their_refusals() {
        assert_eq!(read("HeLp"), Some(Ok(Shared::Help)));
        assert_eq!(read("hint"), Some(Ok(Shared::Hint)));
        assert_eq!(read("quit"), Some(Ok(Shared::Quit)));
        assert_eq!(read("save a b"), Some(Ok(Shared::Save("a b".into()))));
        assert_eq!(read("Load"), Some(Err(Refusal::MissingFile("load"))));
        assert_eq!(
            read("quit now"),
            Some(Err(Refusal::ExtraWords {
                command: "quit",
                extra: "now".into()
            }))
        );
        // Not shared: the game's own commands, and no one-letter forms.
        assert_eq!(read("north"), None);
        assert_eq!(read("q"), None);
        assert_eq!(read("l w.txt"), None);
    }
}
