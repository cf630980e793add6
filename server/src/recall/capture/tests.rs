//! Tests of the capture detector: what reads as a settled rule, and the reason's shape.

use super::*;

#[test]
fn rules_are_found_and_everyday_sentences_are_not() {
    let found = settled(&["fix the login test. From now on, run the integration tests with one thread! Thanks"]);
    assert_eq!(found, ["From now on, run the integration tests with one thread!"]);
    assert!(settled(&["why does this test always fail on CI?", "never mind, it was my config"]).is_empty());
    assert_eq!(settled(&["Always pin the toolchain.", "always pin the toolchain."]).len(), 1, "no repeats");
    assert!(settled(&["don't"]).is_empty(), "too short to be a rule");
    assert_eq!(settled(&["use `x.unwrap()`. Never unwrap in library code"]), ["Never unwrap in library code"]);
}

#[test]
fn the_reason_quotes_a_bounded_number_of_statements() {
    let many: Vec<String> = (0..5).map(|i| format!("always do thing number {i} before committing")).collect();
    let r = reason(&many).expect("a reason");
    assert_eq!(r.matches("\n- \"").count(), MAX_QUOTED);
    assert!(r.contains("(and 2 more)") && r.contains("`remember` skill") && r.contains("once per session"), "{r}");
    let long = vec!["always ".to_string() + &"x".repeat(500)];
    assert!(reason(&long).expect("reason").contains("…\""));
    assert_eq!(reason(&[]), None);
}

#[test]
fn one_off_instructions_quotes_and_standing_rules() {
    // Scoped to this turn, this change or later: not standing rules.
    for s in [
        "dont push yet, i want to look at the diff first",
        "don't change the public api in this PR",
        "we decided to look at it tomorrow, leave a TODO",
    ] {
        assert!(settled(&[s]).is_empty(), "{s}");
    }
    // `in this pr` is not in `in this project`.
    assert_eq!(settled(&["no — in this project we never swallow errors silently"]).len(), 1);
    // A cue someone else said.
    assert!(settled(&["CI says \"every PR must have a linked issue\" but this one does, why is it failing"]).is_empty());
    // A correction or a team's habit stated as a rule.
    assert_eq!(settled(&["no, don't use unwrap in library code, return an error instead"]).len(), 1);
    assert_eq!(settled(&["we always squash commits when merging pull requests here"]).len(), 1);
    assert!(settled(&["we always get a timeout on the first run after a deploy"]).is_empty());
    // A statement that holds beyond this task, however it is worded.
    assert_eq!(
        settled(&["all timestamps are stored in UTC, convert on display only. thats the convention everywhere"]).len(),
        1
    );
    assert!(settled(&["the rule in nginx.conf that rewrites /api is wrong, it drops the query string"]).is_empty());
}

/// Found in review (session 23).
#[test]
fn review_cases() {
    assert!(settled(&["there are no more failing tests, thanks"]).is_empty());
    assert!(settled(&["I get this error every time I use the CLI"]).is_empty());
    assert_eq!(settled(&["Never merge until CI is green"]).len(), 1);
    // The sentence before is already a rule: it is not quoted twice.
    let found = settled(&["Always store timestamps in UTC. That's the convention everywhere"]);
    assert_eq!(found, ["Always store timestamps in UTC."]);
    // Found by review: a prediction (or a song) is no rule.
    assert!(settled(&["Never gonna give you up, lol. Anyway, fix the bug."]).is_empty());
    assert!(settled(&["Always going to fail on the first run, this test"]).is_empty());
}

/// Found by review (session 33): pasted logs, an agent's tags, a lunch break and a preference of
/// the conversation were quoted as rules the person settled.
#[test]
fn pasted_code_tags_breaks_and_preferences_are_not_rules() {
    let log =
        "Here is the log:\n```\nWARN: never call init() twice; from now on this is an error\n```\nwhy does it fail?";
    assert!(settled(&[log]).is_empty());
    let reminder =
        "<system-reminder>Never use emojis.\nFrom now on, be terse in commits.</system-reminder>fix the parser bug";
    assert!(settled(&[reminder]).is_empty());
    assert!(settled(&["We decided to go for lunch, back in 10 minutes."]).is_empty());
    assert!(settled(&["From now on, answer in French."]).is_empty());
    // The person's own rule beside them still counts; an unclosed tag is the person's text.
    let both = "<command-name>/review</command-name> From now on, run the linter before every commit.";
    assert_eq!(settled(&[both]), ["From now on, run the linter before every commit."]);
    assert_eq!(settled(&["never use <b> tags for layout in the templates"]).len(), 1);
}
