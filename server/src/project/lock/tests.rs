//! Tests of the memory's lock.

use super::*;

#[test]
fn a_second_writer_waits_for_the_first() {
    let tmp = tempfile::tempdir().unwrap();
    let held = acquire(tmp.path()).unwrap();
    let err = acquire_within(tmp.path(), Duration::from_millis(30)).unwrap_err();
    assert!(err.contains("run this one again"), "{err}");
    drop(held);
    acquire_within(tmp.path(), Duration::from_millis(30)).unwrap();
}
