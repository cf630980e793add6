//! Word-level resemblance between a trigger and heading titles, for "did you mean" and drift fixes.
//!
//! The fuzzy engine requires every query word to match; a drifted entry
//! (`review flags unused code` for the heading `When Vet Flags Unused Code`)
//! fails that on the renamed word. Here each trigger word is scored on its own
//! with the fuzzy engine, and a title resembles the trigger when a strict
//! majority of the trigger's words match it (all of them for one- or two-word
//! triggers). The score is the sum of the matching words' scores; ties keep
//! the candidates' order.

use super::fuzzy;

/// The title without a leading `When ` / `How to ` (case-insensitive).
pub fn strip_prefix(title: &str) -> &str {
    let t = title.trim_start();
    for p in ["when ", "how to "] {
        if t.len() >= p.len() && t.is_char_boundary(p.len()) && t[..p.len()].eq_ignore_ascii_case(p) {
            return t[p.len()..].trim_start();
        }
    }
    t
}

/// Resemblance of `trigger` to one title (prefix stripped), or None.
pub fn resemblance(trigger: &str, title: &str) -> Option<u32> {
    let words: Vec<&str> = trigger.split_whitespace().collect();
    if words.is_empty() {
        return None;
    }
    let body = strip_prefix(title);
    let mut total = 0;
    let mut matched = 0;
    for w in &words {
        if let Some(s) = fuzzy::score(w, body) {
            total += s;
            matched += 1;
        }
    }
    let needed = if words.len() <= 2 { words.len() } else { words.len() / 2 + 1 };
    (matched >= needed).then_some(total)
}

/// Ranks `(id, title)` candidates by resemblance to `trigger`, best first.
pub fn rank<'a, T: Copy>(
    trigger: &str,
    candidates: impl IntoIterator<Item = (T, &'a str)>,
    limit: usize,
) -> Vec<(T, u32)> {
    let mut scored: Vec<(T, u32)> =
        candidates.into_iter().filter_map(|(t, c)| Some((t, resemblance(trigger, c)?))).collect();
    scored.sort_by(|a, b| b.1.cmp(&a.1));
    scored.truncate(limit);
    scored
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn drifted_word_still_resembles() {
        assert!(resemblance("review flags unused code", "When Vet Flags Unused Code").is_some());
        assert!(resemblance("review flags unused code", "When Writing Flags").is_none());
        assert!(resemblance("mock test", "When Mock Testing").is_some());
        assert!(resemblance("mock test", "When Mocking Frameworks").is_none());
    }

    #[test]
    fn ranking_prefers_more_matching_words() {
        let r =
            rank("vet flags unused code", [(1, "When Vet Flags Unused Code"), (2, "When Flags Unused Code Paths")], 2);
        assert_eq!(r[0].0, 1);
    }
}
