//! `unknown-operator`: a section line that starts with `/` but is not `/when` or `/how`.

use super::{q, Ctx, Finding, Rule};
use crate::edit::{Applicability, Fix, TextEdit};
use crate::search::words::one_edit;
use crate::text::TextRange;

pub(crate) const DOC: &str = "An index line starts with `/` but its operator is neither `/when` nor \
`/how` (operators are lowercase). Fix: a case or one-letter typo variant (`/When`, `/hwo`) is \
replaced by the operator it means; anything else must be rewritten by hand.";

pub(crate) fn check(ctx: &Ctx, out: &mut Vec<Finding>) {
    let Some((id, src, index)) = ctx.index else {
        return;
    };
    for l in ctx.lines().filter(|&l| index.unknown(l) == Some(true)) {
        let l = index.range(l);
        let s = l.slice(&src.text);
        let lead = s.len() - s.trim_start().len();
        let t = &s[lead..];
        let len = t.find(|c: char| c.is_whitespace() || c == '|').unwrap_or(t.len());
        let range = TextRange::new(l.start + lead, l.start + lead + len);
        let word = &t[..len];
        let mut f = Finding::new(
            Rule::UnknownOperator,
            id,
            range,
            format!("unknown operator {}: entries start with `/when` or `/how`", q(word)),
        );
        if let Some(op) = intended(&word[1..]) {
            f.set_message(format!("unknown operator {}: did you mean {}?", q(word), q(op)));
            f = f.fix(Fix::new(
                format!("Replace with {op}"),
                Applicability::Safe,
                &src.path,
                vec![TextEdit::replace(range, op)],
            ));
        }
        out.push(f);
    }
}

/// `/when` or `/how` when `word` is a case variant or one edit (substitution,
/// insertion, deletion, adjacent transposition) away from exactly one of them.
fn intended(word: &str) -> Option<&'static str> {
    let w = word.to_lowercase();
    let hits: Vec<&'static str> = crate::syntax::index::Op::ALL
        .map(|op| (op.word(), op.token()))
        .into_iter()
        .filter(|(op, _)| w == *op || (w.len() >= 3 && one_edit(&w, op)))
        .map(|(_, t)| t)
        .collect();
    match hits.as_slice() {
        [one] => Some(one),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::intended;

    #[test]
    fn intended_operator_table() {
        let cases = [
            ("When", Some("/when")),
            ("WHEN", Some("/when")),
            ("hwo", Some("/how")),
            ("whn", Some("/when")),
            ("whenn", Some("/when")),
            ("How", Some("/how")),
            ("what", None),
            ("who", None),
            ("x", None),
        ];
        for (w, want) in cases {
            assert_eq!(intended(w), want, "{w}");
        }
    }
}
