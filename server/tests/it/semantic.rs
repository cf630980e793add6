//! The semantic tier as a user turns it on (`[recall] semantic = true`): the hook, `embed` and `eval --semantic`, with the model and without it.
//!
//! The tests that need all-MiniLM-L6-v2 read it from `MEMORY_INDEX_LSP_MODEL`
//! or `target/models/all-MiniLM-L6-v2` (`tests/tools/fetch-model.sh`) and
//! are skipped with a message without it.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::Output;

use crate::support::*;

/// The model's folder, when it is here.
fn model() -> Option<PathBuf> {
    let dir = std::env::var_os("MEMORY_INDEX_LSP_MODEL")
        .map(PathBuf::from)
        .unwrap_or_else(|| repo().join("target/models/all-MiniLM-L6-v2"));
    if dir.join("model.safetensors").is_file() {
        return Some(dir);
    }
    assert!(
        std::env::var_os("MI_REQUIRE_MODEL").is_none(),
        "MI_REQUIRE_MODEL is set but {} has no model",
        dir.display()
    );
    eprintln!("skipped: no model in {} (tests/tools/fetch-model.sh puts it there)", dir.display());
    None
}

/// fixtures/demo with `[recall]` set as given.
fn demo(recall: &str) -> tempfile::TempDir {
    let tmp = tempfile::tempdir().expect("tempdir");
    copy_dir(&repo().join("fixtures/demo"), tmp.path());
    fs::write(tmp.path().join("memory-index.toml"), format!("[recall]\nprompt = 0.3\n{recall}")).expect("config");
    tmp
}

/// The binary in `cwd` with its state in `state` and the model in `model`.
fn run(cwd: &Path, state: &Path, model: &Path, args: &[&str], stdin: &[u8]) -> Output {
    run_from(cwd, state, model, OFFLINE, args, stdin)
}

/// Nothing listens there: a fetch fails at once, never reaching the network.
const OFFLINE: &str = "http://127.0.0.1:9";

/// [`run`], fetching a missing model from `url`.
fn run_from(cwd: &Path, state: &Path, model: &Path, url: &str, args: &[&str], stdin: &[u8]) -> Output {
    let mut c = bin_in(cwd);
    c.args(args)
        .env("MEMORY_INDEX_LSP_CACHE_DIR", state)
        .env("MEMORY_INDEX_LSP_MODEL", model)
        .env("MEMORY_INDEX_LSP_MODEL_URL", url);
    run_with_stdin(c, stdin)
}

/// The binary with the model looked for in the default folder (`<state>/models/all-MiniLM-L6-v2`), fetched from `url`.
fn run_default(cwd: &Path, state: &Path, url: &str, args: &[&str], stdin: &[u8]) -> Output {
    let mut c = bin_in(cwd);
    c.args(args)
        .env("MEMORY_INDEX_LSP_CACHE_DIR", state)
        .env_remove("MEMORY_INDEX_LSP_MODEL")
        .env("MEMORY_INDEX_LSP_MODEL_URL", url);
    run_with_stdin(c, stdin)
}

/// Serves the files of `dir` over HTTP on 127.0.0.1 (a model hub's mirror), `swap` in place of some; returns its URL.
fn serve(dir: PathBuf, swap: Vec<(&'static str, Vec<u8>)>) -> String {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut line = String::new();
            let _ = BufReader::new(&stream).read_line(&mut line);
            let name = line.split_whitespace().nth(1).unwrap_or("/").trim_start_matches('/').to_string();
            let body = swap
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, b)| b.clone())
                .or_else(|| fs::read(dir.join(&name)).ok());
            let mut s = &stream;
            let _ = match body {
                Some(b) => s
                    .write_all(
                        format!("HTTP/1.1 200 OK\r\nContent-Length: {}\r\nConnection: close\r\n\r\n", b.len())
                            .as_bytes(),
                    )
                    .and_then(|_| s.write_all(&b)),
                None => s.write_all(b"HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\nConnection: close\r\n\r\n"),
            };
        }
    });
    url
}

fn prompt(session: &str, cwd: &Path, text: &str) -> Vec<u8> {
    serde_json::json!({"hook_event_name": "UserPromptSubmit", "session_id": session, "cwd": cwd, "prompt": text})
        .to_string()
        .into_bytes()
}

/// The first injected header's confidence, or None when the hook was silent.
fn confidence(o: &Output) -> Option<String> {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&o.stderr));
    if o.stdout.is_empty() {
        return None;
    }
    let v: serde_json::Value = serde_json::from_slice(&o.stdout).expect("one JSON object");
    let text = v["hookSpecificOutput"]["additionalContext"].as_str().expect("context").to_string();
    let first = text.lines().next().unwrap_or("").to_string();
    Some(first.rsplit_once("confidence ").map(|(_, c)| c.trim_end_matches(')').to_string()).unwrap_or(first))
}

/// Answered by words (*How to Store Ticket Prices*, 0.89); its meaning is closer still.
const PROMPT: &str = "how should prices be kept so that rounding does not lose money";

#[test]
fn without_the_model_the_hook_ranks_by_words_and_says_why_once() {
    let on = demo("semantic = true\n");
    let off = demo("");
    let state = tempfile::tempdir().unwrap();
    // A folder the person named, without the model: said, never fetched into.
    let named = state.path().join("my-model");
    let with = run(on.path(), state.path(), &named, &["hook"], &prompt("a", on.path(), PROMPT));
    let without = run(off.path(), state.path(), &named, &["hook"], &prompt("b", off.path(), PROMPT));
    assert!(confidence(&without).is_some(), "the prompt is one the demo answers");
    assert_eq!(confidence(&with), confidence(&without), "the same answer, by words");
    let err = String::from_utf8_lossy(&with.stderr);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("no semantic model in") && err.contains("ranking by words only"), "{err}");
    assert!(String::from_utf8_lossy(&without.stderr).is_empty());
    let e = run(on.path(), state.path(), &named, &["embed"], b"");
    assert_eq!(e.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&e.stderr).contains("only the default folder is fetched into"), "{e:?}");
    assert!(!named.exists(), "a named folder is never written");
    // `eval --semantic` fails and says why; only configured, `eval` ranks by words as the hook does.
    let set = on.path().join("set.tsv");
    fs::write(&set, format!("applicable\t{PROMPT}\tHow to Store Ticket Prices\n")).unwrap();
    let e = run(on.path(), state.path(), &named, &["eval", set.to_str().unwrap(), "--semantic"], b"");
    assert_eq!(e.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&e.stderr).contains("no semantic model in"), "{e:?}");
    let e = run(on.path(), state.path(), &named, &["eval", set.to_str().unwrap()], b"");
    assert_eq!(e.status.code(), Some(0));
    assert!(String::from_utf8_lossy(&e.stderr).contains("ranked by words only"), "{e:?}");

    // The default folder, offline: the hook starts the fetch in the background, which fails and says so;
    // the next prompts do not try again for an hour.
    let default = state.path().join("models/all-MiniLM-L6-v2");
    let first = run_default(on.path(), state.path(), OFFLINE, &["hook"], &prompt("c", on.path(), PROMPT));
    assert_eq!(confidence(&first), confidence(&without));
    let err = String::from_utf8_lossy(&first.stderr);
    assert!(err.contains("fetching it in the background") && err.lines().count() == 1, "{err}");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while !default.join(".fetch-failed").is_file() {
        assert!(std::time::Instant::now() < deadline, "the background fetch left no trace");
        std::thread::sleep(std::time::Duration::from_millis(100));
    }
    let later = run_default(on.path(), state.path(), OFFLINE, &["hook"], &prompt("d", on.path(), PROMPT));
    assert_eq!(confidence(&later), confidence(&without));
    let err = String::from_utf8_lossy(&later.stderr);
    assert!(err.contains("the last fetch failed") && err.lines().count() == 1, "{err}");
    // `embed` tries again and fails, naming what it could not fetch, keeping nothing half-fetched.
    let e = run_default(on.path(), state.path(), OFFLINE, &["embed"], b"");
    assert_eq!(e.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&e.stderr).contains("cannot fetch http://127.0.0.1:9/config.json"), "{e:?}");
    assert!(!default.join("config.json").exists());
}

#[test]
fn embed_keeps_the_vectors_and_the_hook_ranks_by_meaning_with_them() {
    let Some(model) = model() else { return };
    let on = demo("semantic = true\n");
    let state = tempfile::tempdir().unwrap();
    let lexical = confidence(&run(on.path(), state.path(), &model, &["hook"], &prompt("a", on.path(), PROMPT)));
    // The first prompt found no vectors: ranked by words, and `embed` started in the background.
    let vectors = state.path().join("vectors");
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(120);
    while !fs::read_dir(&vectors).is_ok_and(|d| d.flatten().any(|e| e.path().extension().is_some_and(|x| x == "vec"))) {
        assert!(std::time::Instant::now() < deadline, "no vectors written by the background embed");
        std::thread::sleep(std::time::Duration::from_millis(200));
    }
    // Wait for it to finish (it holds its lock until then), then `embed` has nothing left to do.
    let out = loop {
        let o = run(on.path(), state.path(), &model, &["embed"], b"");
        assert_eq!(o.status.code(), Some(0), "{o:?}");
        let text = String::from_utf8_lossy(&o.stdout).to_string();
        if text.starts_with("embedded") {
            break text;
        }
        assert!(std::time::Instant::now() < deadline, "{text}");
        std::thread::sleep(std::time::Duration::from_millis(200));
    };
    assert!(out.starts_with("embedded 0 decision sections"), "{out}");
    let semantic = confidence(&run(on.path(), state.path(), &model, &["hook"], &prompt("b", on.path(), PROMPT)));
    assert!(semantic.is_some() && semantic != lexical, "lexical {lexical:?}, semantic {semantic:?}");
    // `search` ranks as the hook does.
    let found = run(on.path(), state.path(), &model, &["search", PROMPT], b"");
    let first = String::from_utf8_lossy(&found.stdout).lines().next().unwrap_or("").to_string();
    assert!(first.ends_with(&format!("({})", semantic.as_deref().unwrap())), "{first} against {semantic:?}");
    // A changed decision is a new vector; a garbled vectors file is rebuilt, never an error.
    let file =
        fs::read_dir(&vectors).unwrap().flatten().find(|e| e.path().extension().is_some_and(|x| x == "vec")).unwrap();
    fs::write(file.path(), b"garbage").unwrap();
    let again = run(on.path(), state.path(), &model, &["embed"], b"");
    assert!(String::from_utf8_lossy(&again.stdout).starts_with("embedded "), "{again:?}");
    assert!(!String::from_utf8_lossy(&again.stdout).starts_with("embedded 0 "), "{again:?}");
}

/// Unset, the tier is on as soon as the model is there (issue 50: no setting
/// to find), and `semantic = false` keeps a memory to words.
#[test]
fn with_the_model_there_the_tier_is_on_unless_turned_off() {
    let Some(model) = model() else { return };
    let (unset, on, off) = (demo(""), demo("semantic = true\n"), demo("semantic = false\n"));
    let state = tempfile::tempdir().unwrap();
    for ws in [&unset, &on] {
        let e = run(ws.path(), state.path(), &model, &["embed"], b"");
        assert_eq!(e.status.code(), Some(0), "{e:?}");
    }
    let hook = |ws: &tempfile::TempDir, session: &str| {
        let o = run(ws.path(), state.path(), &model, &["hook"], &prompt(session, ws.path(), PROMPT));
        assert!(o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
        confidence(&o)
    };
    let (by_default, asked, words) = (hook(&unset, "a"), hook(&on, "b"), hook(&off, "c"));
    assert!(by_default.is_some());
    assert_eq!(by_default, asked, "unset, ranked by meaning as when asked");
    assert_ne!(by_default, words, "`semantic = false` ranks by words");
}

/// A recall view kept while the model was missing never answers a prompt
/// by words once the model is there: the prompt is ranked by meaning, as
/// from the files (the view still answers commands).
#[test]
fn a_view_kept_before_the_model_came_never_answers_a_prompt_by_words() {
    let Some(model) = model() else { return };
    let unset = demo("");
    let state = tempfile::tempdir().unwrap();
    let absent = state.path().join("no-model");
    let words = confidence(&run(unset.path(), state.path(), &absent, &["hook"], &prompt("a", unset.path(), PROMPT)));
    let e = run(unset.path(), state.path(), &model, &["embed"], b"");
    assert_eq!(e.status.code(), Some(0), "{e:?}");
    let meaning = confidence(&run(unset.path(), state.path(), &model, &["hook"], &prompt("b", unset.path(), PROMPT)));
    assert!(meaning.is_some() && meaning != words, "words {words:?}, meaning {meaning:?}");
}

#[test]
fn eval_semantic_adds_the_cosine_to_the_features() {
    let Some(model) = model() else { return };
    let on = demo("");
    let state = tempfile::tempdir().unwrap();
    let set = on.path().join("set.tsv");
    fs::write(
        &set,
        format!("applicable\t{PROMPT}\tHow to Store Ticket Prices\nofftopic\tmake the landing page blue\t-\n"),
    )
    .unwrap();
    let feats = on.path().join("f.tsv");
    let o = run(
        on.path(),
        state.path(),
        &model,
        &["eval", set.to_str().unwrap(), "--semantic", "--features", feats.to_str().unwrap()],
        b"",
    );
    assert_eq!(o.status.code(), Some(0), "{o:?}");
    let tsv = fs::read_to_string(&feats).unwrap();
    let header: Vec<&str> = tsv.lines().next().unwrap().split('\t').collect();
    let at = header.iter().position(|h| *h == "cos").expect("a cos column");
    assert_eq!(header.last(), Some(&"heading"));
    let cos: Vec<f64> = tsv.lines().skip(1).map(|l| l.split('\t').nth(at).unwrap().parse().unwrap()).collect();
    assert!(cos.iter().all(|c| (-1.0..=1.0).contains(c)) && cos.iter().any(|c| *c > 0.2), "{cos:?}");
}

/// A model folder with the wrong files (garbage weights, a FIFO, text that is not UTF-8): each named, the hook still answers by words.
#[test]
fn broken_model_files_are_named_and_cost_only_the_tier() {
    let on = demo("semantic = true\n");
    let state = tempfile::tempdir().unwrap();
    let words = confidence(&run(
        on.path(),
        state.path(),
        Path::new("/nonexistent"),
        &["hook"],
        &prompt("w", on.path(), PROMPT),
    ));
    let dir = state.path().join("model");
    fs::create_dir_all(&dir).unwrap();
    fs::write(dir.join("config.json"), r#"{"num_attention_heads": 12}"#).unwrap();
    fs::write(
        dir.join("tokenizer.json"),
        r#"{"model": {"type": "WordPiece", "vocab": {"[CLS]": 0, "[SEP]": 1, "[UNK]": 2}}}"#,
    )
    .unwrap();
    type Break = Box<dyn Fn(&Path)>;
    let cases: Vec<(&str, Break, &str)> = vec![
        (
            "garbage weights",
            Box::new(|d: &Path| fs::write(d.join("model.safetensors"), b"\x0a\0\0\0\0\0\0\0{not json}").unwrap()),
            "not JSON",
        ),
        (
            "a FIFO for weights",
            Box::new(|d: &Path| {
                let _ = fs::remove_file(d.join("model.safetensors"));
                let p = std::ffi::CString::new(d.join("model.safetensors").to_str().unwrap()).unwrap();
                // SAFETY: a NUL-terminated path this test owns.
                assert_eq!(unsafe { libc::mkfifo(p.as_ptr(), 0o600) }, 0);
            }),
            "FIFO",
        ),
        (
            "a tokenizer that is not UTF-8",
            Box::new(|d: &Path| fs::write(d.join("tokenizer.json"), b"{\"model\": \xff}").unwrap()),
            "UTF-8",
        ),
    ];
    for (i, (what, break_it, says)) in cases.into_iter().enumerate() {
        break_it(&dir);
        if i == 0 {
            // An exact trigger never loads the model: no note.
            let exact =
                run(on.path(), state.path(), &dir, &["hook"], &prompt("x", on.path(), "when writing mock tests"));
            assert_eq!(confidence(&exact).as_deref(), Some("1.00"));
            assert!(exact.stderr.is_empty(), "{}", String::from_utf8_lossy(&exact.stderr));
        }
        let o = run(on.path(), state.path(), &dir, &["hook"], &prompt(what, on.path(), PROMPT));
        assert_eq!(confidence(&o), words, "{what}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains(says) && err.contains("ranking by words only") && err.lines().count() == 1,
            "{what}: {err}"
        );
    }
}

/// `embed` fetches a missing model (from a local mirror here), checks it, keeps it, and the hook then ranks by meaning; a mirror that serves another model leaves nothing behind.
#[test]
fn embed_fetches_the_model_on_first_use_and_checks_it() {
    let Some(model) = model() else { return };
    let on = demo("semantic = true\n");
    let state = tempfile::tempdir().unwrap();
    let wrong = serve(
        model.clone(),
        vec![(
            "tokenizer.json",
            br#"{"model": {"type": "WordPiece", "vocab": {"[CLS]": 0, "[SEP]": 1, "[UNK]": 2}}}"#.to_vec(),
        )],
    );
    let dir = state.path().join("models/all-MiniLM-L6-v2");
    let e = run_default(on.path(), state.path(), &wrong, &["embed"], b"");
    assert_eq!(e.status.code(), Some(1), "{e:?}");
    assert!(String::from_utf8_lossy(&e.stderr).contains("is not all-MiniLM-L6-v2"), "{e:?}");
    assert!(!dir.join("model.safetensors").exists() && !dir.join("tokenizer.json").exists());
    let mirror = serve(model.clone(), Vec::new());
    let e = run_default(on.path(), state.path(), &mirror, &["embed"], b"");
    assert_eq!(e.status.code(), Some(0), "{e:?}");
    let out = String::from_utf8_lossy(&e.stdout);
    assert!(out.starts_with("fetching all-MiniLM-L6-v2") && out.contains("embedded "), "{out}");
    assert_eq!(fs::read(dir.join("model.safetensors")).unwrap(), fs::read(model.join("model.safetensors")).unwrap());
    assert!(!dir.join(".fetch-failed").exists());
    let o = run_default(on.path(), state.path(), &mirror, &["hook"], &prompt("m", on.path(), PROMPT));
    assert!(confidence(&o).is_some() && o.stderr.is_empty(), "{}", String::from_utf8_lossy(&o.stderr));
}
