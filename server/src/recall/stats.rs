//! Recall in real sessions: counts, per session, the prompts a decision applied to and whether it reached the agent.
//!
//! The transcript is read at the edge (`project::transcript`: Claude Code's
//! JSONL, one object a line) into [`Turn`]s; this module ranks and counts.
//! What counts:
//! - a **prompt** is a `"type": "user"` line (not `isMeta`, not a sidechain)
//!   whose `message.content` is text, or text blocks without a
//!   `tool_result`; a slash command (`<command-name>/when</command-name>
//!   <command-args>x</command-args>`) counts as the prompt `/when x`;
//! - a **turn** runs from a prompt to the next one;
//! - an **opportunity** is a prompt whose first ranked decision
//!   ([`recall`]) reaches the threshold (the hook's, by default);
//! - the decision **reached** the agent in that turn when a `user` (tool
//!   results, skill output), `attachment` (hook output) or `system` line of
//!   the turn carries it: the
//!   hook's block header for that decision, read back by
//!   [`inject::Header::parse`] (**injected**), or a
//!   line `# Title` as `resolve` prints it, from a `/when` skill, an MCP
//!   call or a `resolve` command (**fetched**).
//!
//! Whether an **injected** decision (every hook block in a turn, one per
//! decision: the hook never repeats one in a session) was **used** is read
//! from what the agent did in that turn and the next ([`USE_TURNS`]): it
//! read the decision's file, ran its trigger (`/when writing mock tests`,
//! `resolve "when writing mock tests"`), named its title or trigger, or
//! used every word of a trigger of two words or more (stemmed: "wrote the
//! mock test" uses `writing mock tests`). Not measured: a command changed
//! because of the decision. The anchor for the share: one hook-based recall
//! tool reports 39.6% of injected items cited by the agent.
//!
//! A **pointer** (`[memory-index?]`, [`inject::Pointer`]: a decision named,
//! not shown) was **followed** when the agent read that decision in that
//! turn or the next: its section printed (`# Title`), its trigger run, or
//! its file read at the heading's line.
//!
//! Lines that are not JSON objects (or that the reader skipped as too long)
//! are counted as malformed and skipped;
//! nothing here fails on bad input. Strings are searched wherever they sit
//! in a line, so the count does not depend on one client version's field
//! names for hook output or tool results.

use super::inject;
use crate::model::Workspace;
use crate::search::bm25::tokens;
use crate::search::recall::recall;

/// The turns an injected decision may be used in: the one it was injected
/// in and the next.
pub const USE_TURNS: usize = 2;

/// One decision the hook injected, and whether the agent used it.
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Injection {
    /// The entry as injected (`/when writing mock tests`).
    pub entry: String,
    pub title: String,
    /// How the agent used it (`read its file`, `ran its trigger`, …); None: not used.
    pub used: Option<String>,
}

/// Counts for one session (or the total).
#[derive(Clone, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct Stats {
    pub session: String,
    pub prompts: usize,
    pub opportunities: usize,
    pub injected: usize,
    pub fetched: usize,
    /// Opportunities whose decision reached the agent (injected or fetched).
    pub reached: usize,
    pub malformed_lines: usize,
    /// Decisions the hook injected (every block, opportunity or not).
    pub injections: usize,
    /// Of those, how many the agent used.
    pub used: usize,
    /// Decisions the hook pointed at without showing them (`[memory-index?]` lines; each once a turn).
    pub pointers: usize,
    /// Of those, how many the agent read afterwards (in that turn or the
    /// next: ran its trigger, read its file, or had its section printed).
    pub followed: usize,
    /// Each injected decision (empty in a total).
    pub decisions: Vec<Injection>,
}

impl Stats {
    /// Reached over opportunities (None without opportunities).
    pub fn rate(&self) -> Option<f64> {
        (self.opportunities > 0).then(|| self.reached as f64 / self.opportunities as f64)
    }

    /// Used over injected decisions (None when nothing was injected).
    pub fn used_rate(&self) -> Option<f64> {
        (self.injections > 0).then(|| self.used as f64 / self.injections as f64)
    }

    /// Adds another session's counts.
    pub fn add(&mut self, o: &Stats) {
        self.prompts += o.prompts;
        self.opportunities += o.opportunities;
        self.injected += o.injected;
        self.fetched += o.fetched;
        self.reached += o.reached;
        self.malformed_lines += o.malformed_lines;
        self.injections += o.injections;
        self.used += o.used;
        self.pointers += o.pointers;
        self.followed += o.followed;
    }

    /// Followed over pointers (None when nothing was pointed at).
    pub fn followed_rate(&self) -> Option<f64> {
        (self.pointers > 0).then(|| self.followed as f64 / self.pointers as f64)
    }
}

/// One turn: the prompt, the text that reached the agent after it (tool
/// results, skill output, hook output, system messages), and what the agent
/// did (its text, its tool calls' inputs).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Turn {
    pub prompt: String,
    pub context: String,
    pub actions: String,
}

/// Ranks each turn's prompt on `ws` and counts what reached the agent;
/// `stats` comes with the session's name and its malformed lines.
pub fn count(ws: &Workspace, mut stats: Stats, turns: &[Turn], threshold: f64) -> Stats {
    for t in turns {
        stats.prompts += 1;
        let Some(top) = recall(ws, &t.prompt, 1).into_iter().next().filter(|r| r.confidence >= threshold) else {
            continue;
        };
        stats.opportunities += 1;
        let Some(title) = ws.heading(top.heading).map(|h| h.title.as_str()) else { continue };
        let injected = t.context.lines().filter_map(inject::Header::parse).any(|h| h.title == title);
        let fetched = t.context.lines().any(|l| l.trim_end().strip_prefix("# ") == Some(title));
        stats.injected += usize::from(injected);
        stats.fetched += usize::from(fetched && !injected);
        stats.reached += usize::from(injected || fetched);
    }
    for (i, t) in turns.iter().enumerate() {
        let mut seen: Vec<String> = Vec::new();
        let headers: Vec<inject::Header> = t.context.lines().filter_map(inject::Header::parse).collect();
        for h in &headers {
            if seen.contains(&h.title) {
                continue;
            }
            seen.push(h.title.clone());
            let after: Vec<&str> = turns[i..].iter().take(USE_TURNS).map(|t| t.actions.as_str()).collect();
            // Another decision of its file injected beside it: reading the file is no use of either.
            let shared = headers.iter().any(|o| o.path == h.path && o.title != h.title);
            let used = use_of(h, &after.join("\n"), shared);
            stats.injections += 1;
            stats.used += usize::from(used.is_some());
            stats.decisions.push(Injection { entry: h.written.clone(), title: h.title.clone(), used });
        }
        // Pointers: followed when the agent read the decision in that turn or the next.
        let mut pointed: Vec<String> = Vec::new();
        let after = turns[i..].iter().take(USE_TURNS);
        let (actions, context): (Vec<&str>, Vec<&str>) =
            after.map(|t| (t.actions.as_str(), t.context.as_str())).unzip();
        let actions = actions.join("\n");
        for p in t.context.lines().filter_map(inject::Pointer::parse) {
            if pointed.contains(&p.header.title) {
                continue;
            }
            pointed.push(p.header.title.clone());
            let printed =
                context.iter().any(|c| c.lines().any(|l| l.trim_end().strip_prefix("# ") == Some(&p.header.title)));
            let read =
                matches!(use_of(&p.header, &actions, true).as_deref(), Some("read its file" | "ran its trigger"));
            stats.pointers += 1;
            stats.followed += usize::from(printed || read);
        }
    }
    stats
}

/// How `actions` (what the agent did) used the decision `h` announced, if
/// it did. Its file named counts when no other decision of the file was
/// injected with it (`shared`), or named at its line (`path:12`): reading a file for one of the decisions
/// it gave is no use of the others (found by review: every decision of an
/// imported ADR file was counted used when the agent read it for one).
fn use_of(h: &inject::Header, actions: &str, shared: bool) -> Option<String> {
    let lower = actions.to_lowercase();
    let trigger = h.written.trim_start_matches('/').to_lowercase();
    let phrase = trigger.split_once(' ').map_or("", |(_, rest)| rest).trim();
    let at_line = actions.contains(&format!("{}:{}", h.path, h.line));
    if !h.path.is_empty() && actions.contains(h.path.as_str()) && (at_line || !shared) {
        return Some("read its file".into());
    }
    if !phrase.is_empty() && lower.contains(&trigger) {
        return Some("ran its trigger".into());
    }
    let title = h.title.to_lowercase();
    if lower.contains(&title) || (phrase.len() >= 8 && lower.contains(phrase)) {
        return Some("named it".into());
    }
    let want = tokens(phrase);
    if want.len() >= 2 {
        let have = tokens(actions);
        if want.iter().all(|w| have.contains(w)) {
            return Some("used its words".into());
        }
    }
    None
}
