//! The rule language's tokens: words, whole numbers and punctuation, each with its line;
//! `#` starts a comment.
//!
//! The lexer only cuts text into tokens: it must never decide what a word means (the parser
//! does), and it never panics on any text.

use std::fmt;

use super::RuleError;

#[derive(Clone, Debug, PartialEq)]
pub(super) enum Tok {
    Word(String),
    Int(usize),
    Punct(&'static str),
}

impl fmt::Display for Tok {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tok::Word(w) => write!(f, "'{w}'"),
            Tok::Int(n) => write!(f, "'{n}'"),
            Tok::Punct(p) => write!(f, "'{p}'"),
        }
    }
}

pub(super) fn lex(text: &str) -> Result<Vec<(Tok, usize)>, RuleError> {
    const PUNCT: [&str; 11] = ["<->", "->", "(", ")", ".", ":", "|", "&", "/", ",", "="];
    let mut toks = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let content = raw.split('#').next().unwrap_or("");
        let mut rest = content;
        while let Some(c) = rest.chars().next() {
            if c.is_whitespace() {
                rest = &rest[c.len_utf8()..];
            } else if let Some(p) = PUNCT.iter().find(|p| rest.starts_with(**p)) {
                toks.push((Tok::Punct(p), line));
                rest = &rest[p.len()..];
            } else if c.is_ascii_digit() {
                let end = rest
                    .find(|c: char| !c.is_ascii_digit())
                    .unwrap_or(rest.len());
                let n = rest[..end].parse().map_err(|_| RuleError {
                    line,
                    message: format!("number '{}' is too large", &rest[..end]),
                })?;
                toks.push((Tok::Int(n), line));
                rest = &rest[end..];
            } else if c.is_ascii_alphabetic() || c == '_' {
                let end = rest
                    .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
                    .unwrap_or(rest.len());
                toks.push((Tok::Word(rest[..end].to_string()), line));
                rest = &rest[end..];
            } else {
                return Err(RuleError {
                    line,
                    message: format!(
                        "unexpected character {}",
                        crate::files::quoted(&c.to_string())
                    ),
                });
            }
        }
    }
    Ok(toks)
}

pub(super) const KEYWORDS: [&str; 13] = [
    "hidden", "percept", "not", "any", "all", "in", "exactly", "atmost", "atleast", "start",
    "places", "event", "next",
];

pub(super) fn is_var(name: &str) -> bool {
    name.starts_with(|c: char| c.is_ascii_uppercase())
}
