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
//! Lines that are not JSON objects (or that the reader skipped as too long)
//! are counted as malformed and skipped;
//! nothing here fails on bad input. Strings are searched wherever they sit
//! in a line, so the count does not depend on one client version's field
//! names for hook output or tool results.

use super::inject;
use crate::model::Workspace;
use crate::search::recall::recall;

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
}

impl Stats {
    /// Reached over opportunities (None without opportunities).
    pub fn rate(&self) -> Option<f64> {
        (self.opportunities > 0).then(|| self.reached as f64 / self.opportunities as f64)
    }

    /// Adds another session's counts.
    pub fn add(&mut self, o: &Stats) {
        self.prompts += o.prompts;
        self.opportunities += o.opportunities;
        self.injected += o.injected;
        self.fetched += o.fetched;
        self.reached += o.reached;
        self.malformed_lines += o.malformed_lines;
    }
}

/// One turn: the prompt, and the text that reached the agent after it (tool
/// results, skill output, hook output, system messages).
#[derive(Debug, Default, Clone, PartialEq, Eq)]
pub struct Turn {
    pub prompt: String,
    pub context: String,
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
    stats
}
