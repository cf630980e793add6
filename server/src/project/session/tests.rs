//! Tests of the session state: ids never become paths, the cap, the sweep, a stable hash.

use super::*;

#[test]
fn keys_persist_across_opens_and_ids_never_become_paths() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sessions");
    for id in ["abc", "../../x", "/etc/passwd", "a/b\\c\0d", "..", "é"] {
        let mut s = Session::open(&dir, id).unwrap();
        assert!(!s.seen("k1"));
        s.record(&["k1".into(), "k\n2".into()]).unwrap();
        drop(s);
        let again = Session::open(&dir, id).unwrap();
        assert!(again.seen("k1") && again.seen("k 2"), "{id}");
    }
    let names: Vec<String> =
        fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().to_string_lossy().into_owned()).collect();
    assert_eq!(names.len(), 6);
    assert!(names.iter().all(|n| n.len() == 16 + SUFFIX.len() && n.ends_with(SUFFIX)), "{names:?}");
    assert_eq!(fs::read_dir(tmp.path()).unwrap().count(), 1, "nothing written beside sessions/");
    assert!(!Session::open(&dir, "other").unwrap().seen("k1"));
}

#[test]
fn a_lost_context_forgets_the_decisions_and_keeps_the_hooks_own_keys() {
    let tmp = tempfile::tempdir().unwrap();
    let mut s = Session::open(tmp.path(), "s").unwrap();
    s.record(&["k1".into(), "\tnote".into()]).unwrap();
    s.context_lost().unwrap();
    assert!(!s.seen("k1") && s.seen("\tnote"));
    s.record(&["k2".into()]).unwrap();
    drop(s);
    let s = Session::open(tmp.path(), "s").unwrap();
    assert!(!s.seen("k1") && s.seen("k2") && s.seen("\tnote"));
    let keys: Vec<String> = (0..MAX_KEYS - 1).map(|i| format!("k{i}")).collect();
    let mut s = s;
    s.record(&keys).unwrap();
    assert!(s.full(), "the cap counts the decisions the context holds");
    s.context_lost().unwrap();
    assert!(!s.full());
}

#[test]
fn a_full_session_says_so() {
    let tmp = tempfile::tempdir().unwrap();
    let mut s = Session::open(tmp.path(), "s").unwrap();
    let keys: Vec<String> = (0..MAX_KEYS).map(|i| format!("k{i}")).collect();
    s.record(&keys).unwrap();
    drop(s);
    assert!(Session::open(tmp.path(), "s").unwrap().full());
}

#[test]
fn the_sweep_removes_old_files_and_keeps_the_newest() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    fs::write(dir.join(format!("old{SUFFIX}")), "k\n").unwrap();
    fs::write(dir.join("unrelated.txt"), "x").unwrap();
    let later = SystemTime::now() + MAX_AGE + Duration::from_secs(60);
    sweep(dir, &dir.join("none"), later);
    assert!(!dir.join(format!("old{SUFFIX}")).exists());
    assert!(dir.join("unrelated.txt").exists());
    for i in 0..MAX_SESSIONS + 3 {
        fs::write(dir.join(format!("{i:05}{SUFFIX}")), "k\n").unwrap();
    }
    sweep(dir, &dir.join("none"), SystemTime::now());
    let left = fs::read_dir(dir).unwrap().filter(|e| e.as_ref().unwrap().path().to_string_lossy().ends_with(SUFFIX));
    assert_eq!(left.count(), MAX_SESSIONS - 1);
}

#[test]
fn the_hash_is_stable() {
    assert_eq!(fnv1a(b""), 0xcbf2_9ce4_8422_2325);
    assert_eq!(fnv1a(b"a"), 0xaf63_dc4c_8601_ec8c);
}

#[cfg(unix)]
#[test]
fn a_link_or_a_fifo_at_the_state_name_is_refused_at_once() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("sessions");
    fs::create_dir_all(&dir).unwrap();
    let name = |id: &str| dir.join(format!("{:016x}{SUFFIX}", fnv1a(id.as_bytes())));
    let target = tmp.path().join("elsewhere.txt");
    fs::write(&target, "mine\n").unwrap();
    std::os::unix::fs::symlink(&target, name("linked")).unwrap();
    let err = Session::open(&dir, "linked").unwrap_err();
    assert!(err.contains("symbolic link"), "{err}");
    assert_eq!(fs::read_to_string(&target).unwrap(), "mine\n", "nothing appended through the link");
    let fifo = std::ffi::CString::new(name("piped").to_string_lossy().as_bytes()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let started = std::time::Instant::now();
    let err = Session::open(&dir, "piped").unwrap_err();
    assert!(err.contains("not a regular file"), "{err}");
    assert!(started.elapsed() < Duration::from_secs(2), "did not block");
}

#[test]
fn a_second_hook_of_the_session_waits_for_the_first_and_sees_its_keys() {
    let tmp = tempfile::tempdir().unwrap();
    let mut first = Session::open(tmp.path(), "s").unwrap();
    let dir = tmp.path().to_path_buf();
    let second = std::thread::spawn(move || Session::open(&dir, "s").unwrap().seen("k"));
    std::thread::sleep(Duration::from_millis(50));
    first.record(&["k".into()]).unwrap();
    drop(first);
    assert!(second.join().unwrap(), "the waiting hook read what the first recorded");
}
