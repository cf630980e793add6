//! Load test over stdio (issue 9): 10,000 rapid incremental `didChange`s interleaved with
//! completion and hover requests, some cancelled, all written without waiting for an answer.
//!
//! Afterwards every request has exactly one answer within a bounded time; the server's text
//! equals the client's: for every file, the diagnostics it last pushed and those it holds
//! (pulled) equal a cold `check --format json` of the client's text, and symbols, semantic
//! tokens, folding, inlay hints, hover, definition and completion equal a fresh server's on that
//! text; and the server is alive and exits cleanly. It runs with UTF-16 positions (10,000
//! edits) and with UTF-8 (3,000 edits), at the same time. The edits come from a seeded xorshift
//! generator: the seed is printed, `MI_STRESS_SEED=N` replays a run and `MI_STRESS_EDITS=N`
//! changes the number of edits. `cargo test --test it lsp_stress:: -- --nocapture` prints figures.

use crate::lsp_support;

use std::collections::{BTreeMap, HashMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use lsp_support::{demo_copy, uri, Client};
use serde_json::{json, Value};

/// The longest a request may wait for its answer, from its write to the answer's arrival.
///
/// Written as fast as the pipe takes them, edits queue up inside the server (its 1 MB of input
/// buffers hold about 3,300 of these `didChange`s). Each is applied and its file re-parsed in
/// order; the check runs once per burst (the publisher coalesces), so a request waits for the
/// queue ahead of it to drain: about 4 s at most in a debug build on a 2-core machine running
/// both encodings at once. The bound is generous for that. It catches a hang, or a server that
/// falls further and further behind, not a slow machine.
const MAX_LATENCY: Duration = Duration::from_secs(if cfg!(debug_assertions) { 15 } else { 5 });
/// Edits in the UTF-16 run (the LSP default, and the encoding with surrogate pairs) and in the
/// UTF-8 run; `MI_STRESS_EDITS` sets both.
const EDITS_UTF16: u64 = 10_000;
const EDITS_UTF8: u64 = 3_000;
const DEFAULT_SEED: u64 = 0x5EED_2026_1122;

// ---------------------------------------------------------------- random numbers

mod blaster;
mod compare;
mod doc;
mod editor;

use blaster::*;
use compare::*;
use doc::*;
use editor::*;

fn stress(utf8: bool) -> Figures {
    let base = env_number("MI_STRESS_SEED").unwrap_or(DEFAULT_SEED);
    let seed = base ^ u64::from(utf8);
    let edits = env_number("MI_STRESS_EDITS").unwrap_or(if utf8 { EDITS_UTF8 } else { EDITS_UTF16 }) as usize;
    let enc = if utf8 { "utf-8" } else { "utf-16" };
    println!("[{enc}] seed {seed:#x} (replay: MI_STRESS_SEED={base:#x}), {edits} edits");
    let t0 = Instant::now();

    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let index_path = root.join("agents/memory-index.md");
    let index = uri(&index_path);
    let text = std::fs::read_to_string(&index_path).expect("index");

    let mut s = Blaster::spawn();
    let caps =
        json!({"general": {"positionEncodings": if utf8 { json!(["utf-8", "utf-16"]) } else { json!(["utf-16"]) }}});
    let init = s.call(
        "initialize",
        json!({"processId": null, "rootUri": uri(&root), "capabilities": caps,
               "workspaceFolders": [{"uri": uri(&root), "name": "root"}]}),
    );
    assert_eq!(init["result"]["capabilities"]["positionEncoding"], enc);
    s.notify("initialized", json!({}));
    s.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": index, "languageId": "markdown", "version": 1, "text": text}}),
    );

    // The burst: edits, requests and cancellations, never waiting.
    let mut ed = Editor { rng: Rng::new(seed), doc: Doc { text, utf8 }, cursor: 0 };
    let mut version = 1;
    let mut requests: Vec<i64> = Vec::new();
    let mut cancelled: Vec<i64> = Vec::new();
    let mut to_cancel: Vec<(usize, i64)> = Vec::new();
    let burst_start = Instant::now();
    let mut send_edit = |s: &mut Blaster, changes: Vec<Change>| {
        version += 1;
        let json_changes: Vec<Value> = changes.iter().map(Change::json).collect();
        s.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": index, "version": version}, "contentChanges": json_changes}),
        );
    };
    for n in 0..edits {
        // Usually one change per notification, sometimes a batch (applied in order).
        let k = if ed.rng.chance(3) { 2 + ed.rng.below(2) } else { 1 };
        let mut changes = Vec::new();
        for _ in 0..k {
            let c = ed.next_change();
            ed.doc.apply(&c);
            changes.push(c);
        }
        send_edit(&mut s, changes);
        if ed.rng.chance(10) {
            let at = if ed.rng.chance(50) {
                ed.pos(ed.cursor.min(ed.doc.text.len()))
            } else {
                (ed.rng.below(ed.doc.line_count() + 2) as u32, ed.rng.below(60) as u32)
            };
            let method = if ed.rng.chance(50) { "textDocument/completion" } else { "textDocument/hover" };
            let id = s.request(
                method,
                json!({"textDocument": {"uri": index}, "position": {"line": at.0, "character": at.1}}),
            );
            requests.push(id);
            if ed.rng.chance(30) {
                to_cancel.push((n + ed.rng.below(4), id));
            }
        }
        for (_, id) in to_cancel.iter().filter(|(when, _)| *when <= n) {
            s.notify("$/cancelRequest", json!({"id": id}));
            cancelled.push(*id);
        }
        to_cancel.retain(|(when, _)| *when > n);
    }
    for (_, id) in std::mem::take(&mut to_cancel) {
        s.notify("$/cancelRequest", json!({"id": id}));
        cancelled.push(id);
    }

    // The finale. First a section at the top, so that every entry typed above is checked
    // (entries before the first section are the index's preamble). Then a block appended through
    // a range past the end, with known findings (orphan entries with non-ASCII text, after CRLF
    // and lone CR line breaks; a section that may repeat) and a known entry to hover.
    let top = Change { start: (0, 0), end: (0, 0), text: "## agents/decisions/api.md\n".into() };
    ed.doc.apply(&top);
    send_edit(&mut s, vec![top]);
    let n = ed.doc.line_count() as u32;
    let block = "\n\n/when crlf orphan é\r\n/how lone cr orphan\r## agents/decisions/testing.md\n\n\
                 /when writing mock tests | stress é\n/when stress orphan café 😀\n/how nothing like this\n";
    let append = Change { start: (n + 7, 3), end: (n + 9, 0), text: block.into() };
    ed.doc.apply(&append);
    send_edit(&mut s, vec![append]);
    // Type and erase a character inside the orphan's trigger, after the emoji.
    // The text ends in a line break, so its last line is empty.
    let orphan_line = ed.doc.line_count() as u32 - 3;
    let after_emoji = ed.doc.units("/when stress orphan café 😀") as u32;
    for c in [
        Change { start: (orphan_line, after_emoji), end: (orphan_line, after_emoji), text: "!".into() },
        Change { start: (orphan_line, after_emoji), end: (orphan_line, after_emoji + 1), text: String::new() },
        Change { start: (orphan_line, after_emoji), end: (orphan_line, after_emoji), text: "s".into() },
    ] {
        ed.doc.apply(&c);
        send_edit(&mut s, vec![c]);
    }
    let burst = burst_start.elapsed();
    let final_text = ed.doc.text.clone();
    assert!(final_text.ends_with("/when stress orphan café 😀s\n/how nothing like this\n"), "{final_text}");

    // One more request, behind every edit: when it is answered, every edit has been processed.
    let sync = s.request(
        "textDocument/hover",
        json!({"textDocument": {"uri": index}, "position": {"line": 0, "character": 0}}),
    );
    requests.push(sync);
    let all = requests.clone();
    s.wait_for(Duration::from_secs(120), "an answer to every request", |i| {
        all.iter().all(|id| i.responses.contains_key(id))
    });
    let drained = lock(&s.shared.inbox).responses[&sync][0].0.duration_since(burst_start);
    let server_cpu = cpu_seconds(s.child.id());

    // Every request got exactly one answer: a result, or RequestCancelled if it was cancelled.
    let mut latencies = Vec::new();
    let mut cancelled_answered_with_result = 0;
    {
        let inbox = lock(&s.shared.inbox);
        for id in &requests {
            let answers = &inbox.responses[id];
            assert_eq!(answers.len(), 1, "request {id} got {} answers: {answers:?}", answers.len());
            let (at, m) = &answers[0];
            latencies.push(at.duration_since(s.sent_at[id]));
            if cancelled.contains(id) {
                match m.get("error") {
                    Some(e) => assert_eq!(e["code"], -32800, "cancelled request {id}: {m}"),
                    None => cancelled_answered_with_result += 1,
                }
            } else {
                assert!(m.get("error").is_none(), "request {id} failed: {m}");
            }
        }
        let unknown: Vec<&i64> = inbox.responses.keys().filter(|id| !s.sent_at.contains_key(id)).collect();
        assert!(unknown.is_empty(), "answers to requests never sent: {unknown:?}");
        assert!(inbox.other.iter().all(|m| m["method"] != "window/showMessage"), "{:?}", inbox.other);
    }
    latencies.sort();
    let f = Figures {
        edits: version as usize - 1,
        requests: requests.len(),
        cancelled: cancelled.len(),
        cancelled_answered_with_result,
        max: latencies[latencies.len() - 1],
        p99: percentile(&latencies, 0.99),
        p50: percentile(&latencies, 0.5),
        burst,
        drained,
    };
    println!(
        "[{enc}] {} didChange ({:.1} MB) written in {:.1} s, all processed after {:.1} s (server CPU {}); \
         {} requests ({} cancelled, {} of those answered with a result): latency p50 {:.0} ms, p99 {:.0} ms, \
         max {:.0} ms",
        f.edits,
        s.bytes_sent as f64 / 1e6,
        f.burst.as_secs_f64(),
        f.drained.as_secs_f64(),
        server_cpu.map_or("unknown".to_string(), |c| format!("{c:.1} s")),
        f.requests,
        f.cancelled,
        f.cancelled_answered_with_result,
        f.p50.as_secs_f64() * 1e3,
        f.p99.as_secs_f64() * 1e3,
        f.max.as_secs_f64() * 1e3,
    );
    assert!(s.child.try_wait().expect("try_wait").is_none(), "the server is still running");

    // The server's text equals ours: a cold check of our final text, on a second copy of the
    // workspace, finds exactly what the server holds (pulled) and what it last pushed.
    let cold = demo_copy();
    let cold_root = cold.path().canonicalize().expect("canon");
    std::fs::write(cold_root.join("agents/memory-index.md"), &final_text).expect("write");
    let expected: BTreeMap<String, Vec<Diag>> =
        cold_check(&cold_root, utf8).into_iter().map(|(u, d)| (u.replace(&uri(&cold_root), &uri(&root)), d)).collect();
    let codes: Vec<&str> = expected[&index].iter().map(|d| d.4.as_str()).collect();
    assert!(codes.contains(&"orphan-entry"), "the final text has findings to compare: {codes:?}");
    let crlf = final_text.matches("\r\n").count();
    println!(
        "[{enc}] final text: {} bytes, {} lines ({crlf} CRLF, {} lone CR, {} non-ASCII chars), \
         {} findings in the index",
        final_text.len(),
        Doc { text: final_text.clone(), utf8 }.line_count(),
        final_text.matches('\r').count() - crlf,
        final_text.chars().filter(|c| !c.is_ascii()).count(),
        codes.len(),
    );
    let pushed_ok = |i: &Inbox| expected.iter().all(|(u, want)| i.newest(u).as_ref() == Some(want));
    let converged = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        s.wait_for(Duration::from_secs(20), "pushed diagnostics equal to the cold check", pushed_ok)
    }))
    .is_ok();
    // ... and they stay equal: nothing older arrives after a round trip.
    let _ =
        s.call("textDocument/hover", json!({"textDocument": {"uri": index}, "position": {"line": 0, "character": 0}}));
    std::thread::sleep(Duration::from_millis(300));
    let stable = pushed_ok(&lock(&s.shared.inbox));
    if !(converged && stable) {
        let mut report = String::new();
        let inbox = lock(&s.shared.inbox);
        for (u, want) in &expected {
            let got = inbox.newest(u).unwrap_or_default();
            if &got != want {
                report.push_str(&format!("{u}\n  cold check: {want:?}\n  newest push: {got:?}\n  last pushes:\n"));
                for (n, at, body) in inbox.history.get(u).into_iter().flatten() {
                    let at = at.duration_since(t0).as_secs_f64();
                    report.push_str(&format!("    #{n} at {at:.3} s: {:?}\n", published(body)));
                }
            }
        }
        let publishes = inbox.publishes;
        drop(inbox);
        let held = pulled_differences(&mut s, &expected);
        panic!(
            "the newest pushed diagnostics are not those of the final text ({}; {publishes} publishes); \
             what the server holds (pulled) {}\n{report}",
            if converged { "they were, then an older set arrived" } else { "not within 20 s" },
            if held.is_empty() { "equals the cold check".to_string() } else { format!("differs for {held:?}") },
        );
    }
    let held = pulled_differences(&mut s, &expected);
    assert!(held.is_empty(), "pulled diagnostics differ from the cold check for {held:?}");

    // Hover and definition at the appended entry reflect the final text.
    let entry_line = orphan_line - 1;
    let at = json!({"textDocument": {"uri": index}, "position": {"line": entry_line, "character": 10}});
    let hover = s.call("textDocument/hover", at.clone());
    let preview = hover["result"]["contents"]["value"].as_str().unwrap_or("");
    assert!(preview.contains("Patch where the name is used"), "{hover}");
    assert_eq!(hover["result"]["range"]["start"]["line"], entry_line, "{hover}");
    let definition = s.call("textDocument/definition", at.clone());
    assert_eq!(definition["result"]["uri"], uri(&root.join("agents/decisions/testing.md")), "{definition}");

    // A fresh server on the same text (not opened: read from disk) answers exactly the same.
    let mut fresh = Client::spawn();
    fresh.initialize(&cold_root, utf8, json!({}));
    let cold_index = uri(&cold_root.join("agents/memory-index.md"));
    let want = expected[&index].clone();
    fresh.diagnostics(&cold_index, |d| {
        let mut v: Vec<Diag> = d.iter().map(diag_key).collect();
        v.sort();
        v == want
    });
    let doc = json!({"textDocument": {"uri": index}});
    let cold_doc = json!({"textDocument": {"uri": cold_index}});
    let cold_at = json!({"textDocument": {"uri": cold_index}, "position": {"line": entry_line, "character": 10}});
    let everything = json!({"start": {"line": 0, "character": 0}, "end": {"line": 99999, "character": 0}});
    let doc_range = json!({"textDocument": {"uri": index}, "range": everything});
    let cold_doc_range = json!({"textDocument": {"uri": cold_index}, "range": everything});
    for (method, ours, theirs) in [
        ("textDocument/documentSymbol", &doc, &cold_doc),
        ("textDocument/semanticTokens/full", &doc, &cold_doc),
        ("textDocument/foldingRange", &doc, &cold_doc),
        ("textDocument/inlayHint", &doc_range, &cold_doc_range),
        ("textDocument/semanticTokens/range", &doc_range, &cold_doc_range),
        ("textDocument/hover", &at, &cold_at),
        ("textDocument/definition", &at, &cold_at),
        ("textDocument/completion", &at, &cold_at),
    ] {
        let a = normalized(&s.call(method, ours.clone()), &root);
        let b = normalized(&fresh.request(method, theirs.clone()), &cold_root);
        assert_eq!(a, b, "{method} differs from a fresh server on the same text");
    }
    assert_eq!(fresh.shutdown(), Some(0));

    // Still alive, no late duplicate answers, and a clean exit.
    assert!(s.child.try_wait().expect("try_wait").is_none(), "the server is still running");
    {
        let inbox = lock(&s.shared.inbox);
        let twice: Vec<&i64> = requests.iter().filter(|id| inbox.responses[id].len() != 1).collect();
        assert!(twice.is_empty(), "requests answered more than once: {twice:?}");
    }
    let status = s.shutdown();
    assert_eq!(status, Some(0), "clean exit after shutdown and exit");
    println!("[{enc}] total {:.1} s", t0.elapsed().as_secs_f64());
    f
}

/// The files whose diagnostics, pulled from the server now, differ from `expected`.
fn pulled_differences(s: &mut Blaster, expected: &BTreeMap<String, Vec<Diag>>) -> Vec<String> {
    let mut out = Vec::new();
    for (u, want) in expected {
        let pulled = s.call("textDocument/diagnostic", json!({"textDocument": {"uri": u}}));
        if &sorted(&pulled["result"]["items"]) != want {
            out.push(u.clone());
        }
    }
    out
}

/// CPU time (user + system) a process has used so far, from /proc (Linux; 100 ticks a second).
fn cpu_seconds(pid: u32) -> Option<f64> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.get(stat.rfind(')')? + 2..)?.split_whitespace().collect();
    let ticks = fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?;
    Some(ticks / 100.0)
}

#[test]
fn ten_thousand_rapid_edits_with_requests_and_cancellations_utf16() {
    let f = stress(false);
    assert!(f.max < MAX_LATENCY, "slowest answer took {:?} (p99 {:?})", f.max, f.p99);
}

#[test]
fn three_thousand_rapid_edits_with_requests_and_cancellations_utf8() {
    let f = stress(true);
    assert!(f.max < MAX_LATENCY, "slowest answer took {:?} (p99 {:?})", f.max, f.p99);
}

/// The newest diagnostics a client holds must be those of the newest text. An edit that changes
/// the diagnostics of several files (emptying the index un-indexes every heading), followed at
/// once by an edit that changes only the index's: however the server schedules the two, the
/// index's last publish must be the second edit's. Ten trials, each checked after a round trip.
#[test]
fn diagnostics_of_a_later_edit_are_never_overtaken_by_an_earlier_one() {
    let tmp = demo_copy();
    let root = tmp.path().canonicalize().expect("canon");
    let index_path = root.join("agents/memory-index.md");
    let index = uri(&index_path);
    let original = std::fs::read_to_string(&index_path).expect("index");
    let mut s = Blaster::spawn();
    let init = s.call(
        "initialize",
        json!({"processId": null, "capabilities": {}, "workspaceFolders": [{"uri": uri(&root), "name": "root"}]}),
    );
    assert!(init.get("error").is_none(), "{init}");
    s.notify("initialized", json!({}));
    s.notify(
        "textDocument/didOpen",
        json!({"textDocument": {"uri": index, "languageId": "markdown", "version": 1, "text": original}}),
    );
    let everything = |text: &str| {
        json!({"range": {"start": {"line": 0, "character": 0}, "end": {"line": 9999, "character": 0}},
               "text": text})
    };
    let mut version = 1;
    let mut change = |s: &mut Blaster, c: Value| {
        version += 1;
        s.notify(
            "textDocument/didChange",
            json!({"textDocument": {"uri": index, "version": version}, "contentChanges": [c]}),
        );
    };
    for trial in 0..10 {
        // Back to the original text (every file's diagnostics change back), and settle.
        change(&mut s, everything(&original));
        let _ = s.call(
            "textDocument/hover",
            json!({"textDocument": {"uri": index}, "position": {"line": 0, "character": 0}}),
        );
        // A: empty the index (the index's and every decision file's diagnostics change);
        // B, at once: one orphan entry (the index's change again).
        change(&mut s, everything(""));
        let entry = format!("## agents/decisions/api.md\n\n/when trial {trial}\n");
        change(&mut s, everything(&entry));
        let _ = s.call(
            "textDocument/hover",
            json!({"textDocument": {"uri": index}, "position": {"line": 0, "character": 0}}),
        );
        std::thread::sleep(Duration::from_millis(300));
        let newest = lock(&s.shared.inbox).newest(&index).unwrap_or_default();
        let messages: Vec<&str> = newest.iter().map(|d| d.6.as_str()).collect();
        if !messages.iter().any(|m| m.contains(&format!("When trial {trial}"))) {
            // What the server holds now (a pull reads its current state).
            let pulled = s.call("textDocument/diagnostic", json!({"textDocument": {"uri": index}}));
            let publishes = lock(&s.shared.inbox).publishes;
            panic!(
                "trial {trial}: the index's newest pushed diagnostics are those of an older text: \
                 {messages:?}; {publishes} publishes; the server's current ones: {}",
                pulled["result"]["items"]
            );
        }
    }
    assert_eq!(s.shutdown(), Some(0));
}
