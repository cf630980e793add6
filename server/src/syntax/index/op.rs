//! The two operators, `/when` and `/how`: their tokens, words, heading prefixes, and titles split by them.

/// The two operators.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Op {
    When,
    How,
}

impl Op {
    /// `/when` or `/how`, as written in the index.
    pub fn token(self) -> &'static str {
        match self {
            Op::When => "/when",
            Op::How => "/how",
        }
    }
    /// The bare word: `when` or `how`.
    pub fn word(self) -> &'static str {
        &self.token()[1..]
    }
    /// The heading prefix an entry with this operator binds to: `When ` or `How to `.
    pub fn title_prefix(self) -> &'static str {
        match self {
            Op::When => "When ",
            Op::How => "How to ",
        }
    }
    /// The same prefix in a normalized (lowercase) title key: `when ` or `how to `.
    pub fn key_prefix(self) -> &'static str {
        match self {
            Op::When => "when ",
            Op::How => "how to ",
        }
    }
    /// Both operators, `/when` first.
    pub const ALL: [Op; 2] = [Op::When, Op::How];

    /// The operator a word names: `when`, `how`, `/when` or `/how`, in any case.
    pub fn from_word(word: &str) -> Option<Op> {
        let w = word.strip_prefix('/').unwrap_or(word);
        Op::ALL.into_iter().find(|op| w.eq_ignore_ascii_case(op.word()))
    }

    /// Splits a title into its operator and the rest: `How to Encode Paths`
    /// → (`How`, `Encode Paths`). The prefix matches in any case and with any
    /// whitespace between its words; None when the title has no prefix or
    /// nothing after it.
    pub fn split_title(title: &str) -> Option<(Op, &str)> {
        let (first, rest) = title.trim_start().split_once(char::is_whitespace)?;
        let rest = rest.trim_start();
        let (op, rest) = match Op::from_word(first) {
            Some(Op::When) if !first.starts_with('/') => (Op::When, rest),
            Some(Op::How) if !first.starts_with('/') => {
                let (to, rest) = rest.split_once(char::is_whitespace)?;
                if !to.eq_ignore_ascii_case("to") {
                    return None;
                }
                (Op::How, rest.trim_start())
            }
            _ => return None,
        };
        (!rest.is_empty()).then_some((op, rest))
    }
}
