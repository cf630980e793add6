//! What the stress test compares: diagnostics as tuples, a cold `check` of the same text, latency figures.

#[allow(unused_imports)]
use super::*;

/// One server diagnostic as a comparable tuple.
pub(super) fn diag_key(d: &Value) -> Diag {
    let n = |v: &Value| v.as_u64().unwrap_or(u64::MAX) as u32;
    let r = &d["range"];
    (
        n(&r["start"]["line"]),
        n(&r["start"]["character"]),
        n(&r["end"]["line"]),
        n(&r["end"]["character"]),
        d["code"].as_str().unwrap_or("").to_string(),
        d["severity"].as_i64().unwrap_or(0),
        d["message"].as_str().unwrap_or("").to_string(),
    )
}

pub(super) fn sorted(diags: &Value) -> Vec<Diag> {
    let mut v: Vec<Diag> = diags.as_array().map(|a| a.iter().map(diag_key).collect()).unwrap_or_default();
    v.sort();
    v
}

/// `check --format json` of `root`, per file uri, with the CLI's 1-based UTF-8 byte columns
/// converted to the negotiated LSP encoding. Every checked file has an entry (empty when clean).
pub(super) fn cold_check(root: &Path, utf8: bool) -> BTreeMap<String, Vec<Diag>> {
    let out = Command::new(env!("CARGO_BIN_EXE_memory-index-lsp"))
        .arg("check")
        .arg(root)
        .args(["--format", "json"])
        .output()
        .expect("run check");
    assert!(matches!(out.status.code(), Some(0 | 1)), "check failed: {}", String::from_utf8_lossy(&out.stderr));
    let findings: Value = serde_json::from_slice(&out.stdout).expect("check --format json prints JSON");
    let mut files = vec!["agents/memory-index.md".to_string()];
    for e in std::fs::read_dir(root.join("agents/decisions")).expect("decisions").flatten() {
        files.push(format!("agents/decisions/{}", e.file_name().to_string_lossy()));
    }
    let mut map: BTreeMap<String, Vec<Diag>> = files.iter().map(|f| (uri(&root.join(f)), Vec::new())).collect();
    for f in findings.as_array().expect("an array") {
        let rel = f["file"].as_str().expect("file");
        let doc = Doc { text: std::fs::read_to_string(root.join(rel)).expect("read"), utf8 };
        let starts = doc.line_starts();
        let conv = |line: &Value, col: &Value| -> (u32, u32) {
            let (line, col) = (line.as_u64().expect("line") as usize - 1, col.as_u64().expect("column") as usize - 1);
            let start = starts[line];
            (line as u32, doc.units(&doc.text[start..start + col]) as u32)
        };
        let (sl, sc) = conv(&f["line"], &f["column"]);
        let (el, ec) = conv(&f["end_line"], &f["end_column"]);
        let severity = match f["severity"].as_str() {
            Some("error") => 1,
            Some("warning") => 2,
            _ => 3,
        };
        let code = f["code"].as_str().unwrap_or("").to_string();
        let message = f["message"].as_str().unwrap_or("").to_string();
        map.entry(uri(&root.join(rel))).or_default().push((sl, sc, el, ec, code, severity, message));
    }
    for v in map.values_mut() {
        v.sort();
    }
    map
}

/// A response's result with the workspace root's uri replaced, for comparing two servers.
pub(super) fn normalized(response: &Value, root: &Path) -> String {
    assert!(response.get("error").is_none(), "{response}");
    response["result"].to_string().replace(&uri(root), "ROOT")
}

pub(super) fn percentile(sorted: &[Duration], p: f64) -> Duration {
    sorted[((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1]
}

// ---------------------------------------------------------------- the test

pub(super) struct Figures {
    pub(super) edits: usize,
    pub(super) requests: usize,
    pub(super) cancelled: usize,
    pub(super) cancelled_answered_with_result: usize,
    pub(super) max: Duration,
    pub(super) p99: Duration,
    pub(super) p50: Duration,
    pub(super) burst: Duration,
    pub(super) drained: Duration,
}

pub(super) fn env_number(name: &str) -> Option<u64> {
    let v = std::env::var(name).ok()?;
    let v = v.trim();
    match v.strip_prefix("0x") {
        Some(hex) => u64::from_str_radix(hex, 16).ok(),
        None => v.parse().ok(),
    }
}
