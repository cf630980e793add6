//! The coding agents a project can be set up for (`init --agent`) and whose hook protocol the hook speaks (`hook --agent`): their names and limits.
//!
//! Each agent runs `memory-index-lsp hook --agent NAME` from its own
//! configuration; the hook maps that agent's events to the same four
//! moments (session start, a prompt, a shell command about to run, a
//! failed one) and answers in the shape its model receives.

/// A coding agent whose hooks we speak.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Agent {
    /// Claude Code: `hookSpecificOutput.additionalContext`; `Stop` capture.
    Claude,
    /// OpenAI's Codex CLI: Claude's hook format; context capped at 2,500 tokens.
    Codex,
    /// GitHub Copilot CLI: top-level `additionalContext`; camel-case events.
    Copilot,
    /// Gemini CLI: JSON output only; `BeforeAgent` for prompts, `AfterTool` for results.
    Gemini,
}

impl Agent {
    /// Every agent, in the order `init --agent all` sets them up.
    pub const ALL: [Agent; 4] = [Agent::Claude, Agent::Codex, Agent::Copilot, Agent::Gemini];

    /// The agent's name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Agent::Claude => "claude",
            Agent::Codex => "codex",
            Agent::Copilot => "copilot",
            Agent::Gemini => "gemini",
        }
    }

    /// The agent a command-line name means (`claude-code` and `copilot-cli` too), case-insensitively.
    pub fn from_name(name: &str) -> Option<Agent> {
        match name.trim().to_ascii_lowercase().as_str() {
            "claude" | "claude-code" => Some(Agent::Claude),
            "codex" | "codex-cli" => Some(Agent::Codex),
            "copilot" | "copilot-cli" | "github-copilot" => Some(Agent::Copilot),
            "gemini" | "gemini-cli" => Some(Agent::Gemini),
            _ => None,
        }
    }

    /// The most characters of context one hook answer may carry for this
    /// agent (None: only `[recall] max-chars`). Codex keeps about 2,500
    /// tokens of a hook's output (measured: 10,103 characters kept of
    /// 140,000, the middle cut out); 7,000 characters stay under it. Copilot
    /// cuts a post-tool context at 10,240 characters.
    pub fn max_context_chars(self) -> Option<usize> {
        match self {
            Agent::Codex => Some(7_000),
            Agent::Copilot => Some(10_000),
            _ => None,
        }
    }

    /// The agent that ran the hook, from the variables it sets in the
    /// hook's environment (`COPILOT_CLI`, `GEMINI_SESSION_ID`; Codex and
    /// Claude Code set none of their own, and Copilot and Gemini set
    /// `CLAUDE_PROJECT_DIR` too).
    pub fn from_env(var: impl Fn(&str) -> Option<String>) -> Option<Agent> {
        if var("COPILOT_CLI").is_some_and(|v| !v.is_empty() && v != "0") {
            Some(Agent::Copilot)
        } else if var("GEMINI_SESSION_ID").is_some_and(|v| !v.is_empty()) {
            Some(Agent::Gemini)
        } else {
            None
        }
    }

    /// The hook as a shell runs it where the program is on PATH
    /// (`memory-index-lsp hook --agent NAME`; Claude Code's without `--agent`).
    pub fn plain_hook_command(self) -> String {
        match self {
            Agent::Claude => "memory-index-lsp hook".to_string(),
            _ => format!("memory-index-lsp hook --agent {}", self.name()),
        }
    }

    /// The command an agent's configuration runs for our hook: the plain
    /// one when the program is on PATH; without it, nothing and exit 0 (a
    /// teammate who has not installed it gets no "command not found" on
    /// every event), except at a session's `start`, which says once what
    /// to install, where that agent shows it: to the person and the model
    /// in Claude Code (`systemMessage` and the context), to the model in
    /// Codex and Copilot, to the person in Gemini CLI (its plain output).
    /// Verified with each real CLI (`tests/agents/e2e.py`, `editors/claude-code/test/e2e.py`).
    pub fn hook_command(self, start: bool) -> String {
        // `if`, not `a && b || c`: a hook that ran and failed must not also say "not installed".
        let plain = self.plain_hook_command();
        let guard = format!("if command -v memory-index-lsp >/dev/null 2>&1; then {plain};");
        if !start {
            return format!("{guard} fi");
        }
        let said = match self {
            Agent::Claude => serde_json::json!({ "systemMessage": MISSING, "hookSpecificOutput": {
                "hookEventName": "SessionStart", "additionalContext": MISSING } })
            .to_string(),
            Agent::Copilot => serde_json::json!({ "additionalContext": MISSING }).to_string(),
            Agent::Codex | Agent::Gemini => MISSING.to_string(),
        };
        format!("{guard} else echo '{said}'; fi")
    }
}

/// What a session start says where the hooks are set up and the program is
/// not installed (no single quote: it sits in a shell's single-quoted word).
pub const MISSING: &str = "memory-index: the hooks of this project run memory-index-lsp, which is not installed \
here, so the decisions it records are not recalled. Install it (https://github.com/memory-index-lsp/memory-index-lsp#install), \
then start a new session.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip() {
        for a in Agent::ALL {
            assert_eq!(Agent::from_name(a.name()), Some(a));
            assert_eq!(Agent::from_name(&a.name().to_uppercase()), Some(a));
        }
        assert_eq!(Agent::from_name("cursor"), None);
    }
}
