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
    assert!(r.contains("(and 2 more)") && r.contains("remember skill") && r.contains("once per session"), "{r}");
    let long = vec!["always ".to_string() + &"x".repeat(500)];
    assert!(reason(&long).expect("reason").contains("…\""));
    assert_eq!(reason(&[]), None);
}
