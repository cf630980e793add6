//! `memory-index-lsp mcp [--root DIR]` (parsed with every command in main.rs): the engine as an MCP server on stdio (rmcp), for agents that speak MCP rather than Claude Code hooks.
//!
//! Tools: `resolve`, `search`, `remember`, `check`. Each call loads the
//! workspace afresh from the root (the `--root` given, else the nearest
//! folder at or above the working directory with `memory-index.toml` or an
//! index), so a file changed by anyone between calls never gives a stale
//! answer; a load costs a few milliseconds. A tool that cannot do what was
//! asked answers an MCP tool error (`isError`) with a message that says
//! what to do; malformed requests get JSON-RPC errors from rmcp, a line
//! that is not JSON a parse error from [`filter`]; nothing a client sends
//! stops the server. Logs go to stderr only.
//!
//! `remember`'s `dry_run` defaults to false: the plan is verified before
//! anything is written (the trigger resolves to the new heading, `check`
//! finds nothing new, no existing decision covers the subject), so an agent
//! that asks to remember gets it written in one call, and the answer shows
//! what changed. Pass `dry_run: true` to see the diff first.

mod filter;

use std::path::PathBuf;

use rmcp::handler::server::router::tool::ToolRouter;
use rmcp::handler::server::wrapper::Parameters;
use rmcp::model::{CallToolResult, ContentBlock, Implementation, ServerCapabilities, ServerConfig};
use rmcp::{tool, tool_handler, tool_router, ErrorData, ServerHandler, ServiceExt};
use serde::Deserialize;

use crate::model::Workspace;
use crate::project::recall::{Loaded, Notes};
use crate::recall::remember;
use crate::syntax::index::Op;

/// Runs the server until the client closes stdin; returns the exit code.
pub fn run(root: Option<PathBuf>) -> i32 {
    let root = crate::project::root(root.as_deref(), None);
    let rt = match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("memory-index-lsp mcp: cannot start: {e}");
            return 2;
        }
    };
    rt.block_on(async move {
        let server = Memory { root, tool_router: Memory::tool_router() };
        let pipes = filter::start(tokio::io::stdin(), tokio::io::stdout());
        let code = match server.serve((pipes.read, pipes.write)).await {
            Ok(running) => {
                let _ = running.waiting().await;
                0
            }
            Err(e) => {
                eprintln!("memory-index-lsp mcp: the client did not initialize: {e}");
                1
            }
        };
        // Every reply written before exiting.
        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), pipes.writer).await;
        code
    })
}

/// The server: the workspace root, and the tools.
#[derive(Clone)]
struct Memory {
    root: PathBuf,
    #[expect(dead_code, reason = "read through the code that #[tool_handler] generates")]
    tool_router: ToolRouter<Self>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct ResolveArgs {
    /// The trigger as typed after /when or /how (e.g. "writing mock tests"); `.Title` for a section by
    /// its heading, `..file.md` for a whole decision file.
    query: String,
    /// "when" (behaviour: what to do in a situation) or "how" (procedure: how to do a task); optional.
    operator: Option<String>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct SearchArgs {
    /// Any text: a question, the task at hand, an error message.
    text: String,
    /// Most results (default 5, at most 20).
    limit: Option<usize>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct RememberArgs {
    /// "when" for a behaviour (a situation and what to do in it), "how" for a procedure.
    operator: String,
    /// The decision's title without "When"/"How to", e.g. "Pinning Toolchain Versions".
    title: String,
    /// What was decided and why: the section's text (Markdown).
    body: String,
    /// The decision file inside the decisions directory (e.g. "cli.md"); omitted: the file clearly about
    /// the subject, or, when none is, a refusal naming the closest files and a new file name to pass.
    file: Option<String>,
    /// Other words an agent may search with, e.g. ["rust-toolchain", "msrv"].
    extras: Option<Vec<String>>,
    /// Show the diff without writing (default false).
    dry_run: Option<bool>,
    /// Write even when a decision on the same subject exists (default false).
    force: Option<bool>,
}

#[derive(Debug, Deserialize, schemars::JsonSchema)]
struct CheckArgs {}

/// Most results `search` gives.
const MAX_RESULTS: usize = 20;
/// Longest query `resolve` takes (characters): a trigger is a few words.
const MAX_QUERY: usize = 1000;
/// Longest error message (bytes): user text it quotes is cut there.
const MAX_MESSAGE: usize = 4096;
/// Longest diff shown whole (bytes); a longer one is summarised.
const MAX_DIFF: usize = 16 * 1024;

/// At most `max` bytes of `text`, cut at a character boundary with a note of how much was left out.
fn bounded(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_string();
    }
    let kept = crate::text::cut(text, max);
    format!("{kept}… ({} more bytes not shown)", text.len() - kept.len())
}

/// A diff whole when short, else its first lines up to `max` bytes and how many lines were left out.
fn summarised(diff: &str, max: usize) -> String {
    if diff.len() <= max {
        return diff.to_string();
    }
    let mut out = String::new();
    let mut lines = diff.split_inclusive('\n');
    for l in lines.by_ref() {
        if out.len() + l.len() > max {
            break;
        }
        out.push_str(l);
    }
    let rest = lines.count() + 1;
    out.push_str(&format!("… {rest} more lines of the diff not shown ({} bytes in all)\n", diff.len()));
    out
}

/// A tool error: the message, flagged so the agent knows the call failed.
fn failed(msg: impl Into<String>) -> Result<CallToolResult, ErrorData> {
    Ok(CallToolResult::error(vec![ContentBlock::text(msg.into())]))
}

fn ok(text: impl Into<String>) -> Result<CallToolResult, ErrorData> {
    Ok(CallToolResult::success(vec![ContentBlock::text(text.into())]))
}

/// `result` with a last block naming each decision file the memory could
/// not read (its decisions are missing from the answer), when there is one;
/// the answer's own block stays as it was (search's stays JSON).
fn noting(ws: &Workspace, result: Result<CallToolResult, ErrorData>) -> Result<CallToolResult, ErrorData> {
    let notes = crate::project::load::unread_notes(ws);
    result.map(|mut r| {
        if !notes.is_empty() {
            r.content
                .push(ContentBlock::text(notes.iter().map(|n| format!("note: {n}")).collect::<Vec<_>>().join("\n")));
        }
        r
    })
}

/// Each call reads the memory afresh (never a stale answer); the ranking's
/// index comes from the snapshot `resolve`, `search` and the hook keep
/// (`project::search_cache`) while the files are unchanged.
impl Memory {
    fn load(&self) -> Result<Loaded, String> {
        Loaded::open(&self.root).map_err(|e| e.to_string())
    }
}

#[tool_router]
impl Memory {
    #[tool(description = "Recall one project decision by its trigger. Use it before deciding how to do something \
        the project may already have decided (tests, CLI output, git workflow, …): query is what you would type \
        after /when or /how, e.g. query \"writing mock tests\", operator \"when\". Returns the decision's section \
        with Broader/Related navigation. `.Title` reads a section by its heading, `..file.md` a whole decision \
        file. When unsure of the trigger, call search first.")]
    async fn resolve(&self, Parameters(a): Parameters<ResolveArgs>) -> Result<CallToolResult, ErrorData> {
        let memory = match self.load() {
            Ok(m) => m,
            Err(e) => return failed(e),
        };
        let op = a.operator.as_deref().map(str::trim).filter(|o| !o.is_empty());
        let query = match op {
            Some(o) if Op::from_word(o).is_some() => format!("{o} {}", a.query),
            Some(o) => return failed(format!("operator must be \"when\" or \"how\", not \"{o}\"")),
            None => a.query,
        };
        if query.chars().count() > MAX_QUERY {
            return failed(format!(
                "the query has {} characters, over the limit of {MAX_QUERY}: pass a trigger (a few words), or call \
                 search with the text",
                query.chars().count()
            ));
        }
        let answer = memory.resolve(&query, true);
        memory.keep();
        noting(
            memory.workspace(),
            match answer {
                Ok(r) => ok(r.text),
                Err(e) => failed(bounded(&e, MAX_MESSAGE)),
            },
        )
    }

    #[tool(description = "Search the project's recorded decisions with any text (a question, the task at hand, an \
        error message) and get a ranked list: for each, the /when line to pass to resolve, the heading, \
        file:line, a confidence between 0 and 1, and the section's first line (when none is confident, the \
        closest few, marked weak: judge them). Use it when you do not know a decision's trigger, or when \
        resolve found nothing.")]
    async fn search(&self, Parameters(a): Parameters<SearchArgs>) -> Result<CallToolResult, ErrorData> {
        // Out of range is said, as the CLI's `--limit` says it (it was clamped: 0 gave one result).
        let limit = a.limit.unwrap_or(5);
        if !(1..=MAX_RESULTS).contains(&limit) {
            return failed(format!("limit must be 1 to {MAX_RESULTS}, not {limit}"));
        }
        let memory = match self.load() {
            Ok(m) => m,
            Err(e) => return failed(e),
        };
        // `[recall] semantic`: ranked by meaning too, when the model is there.
        let notes = Notes::default();
        let found = memory.search(&a.text, limit, &notes);
        memory.keep();
        for line in notes.into_lines() {
            eprintln!("memory-index-lsp mcp: {line}");
        }
        noting(memory.workspace(), ok(serde_json::to_string_pretty(&found).unwrap_or_else(|_| "[]".into())))
    }

    #[tool(description = "Write a decision down so it can be recalled later: adds the section \"When <title>\" (or \
        \"How to <title>\") with the body to a decision file, and its /when (or /how) entry to the index, \
        verified (the entry resolves to the new section; nothing new for check). Use it when the user settles \
        a question; something you concluded yourself, propose to the user first. Refuses, writing nothing, when a \
        decision on the same subject exists (read it with resolve; force to write anyway).")]
    async fn remember(&self, Parameters(a): Parameters<RememberArgs>) -> Result<CallToolResult, ErrorData> {
        let Some(op) = Op::from_word(a.operator.trim()) else {
            return failed(format!("operator must be \"when\" or \"how\", not \"{}\"", a.operator.trim()));
        };
        let req = remember::Request {
            op: Some(op),
            title: a.title,
            file: a.file,
            trigger: None,
            extras: a.extras.unwrap_or_default(),
            body: a.body,
            force: a.force.unwrap_or(false),
            words: remember::Words::Arguments,
        };
        let dry_run = a.dry_run.unwrap_or(false);
        let (plan, diff) = match crate::project::remember::remember(&self.root, &req, dry_run) {
            Ok(r) => (r.plan, summarised(&r.diff, MAX_DIFF)),
            Err(why) => return failed(bounded(&format!("not remembered: {}", why), MAX_MESSAGE)),
        };
        if dry_run {
            return ok(format!("Dry run, nothing written:\n{diff}"));
        }
        let notes = plan.notes.iter().map(|n| format!("{n}\n")).collect::<String>();
        // Named as this client calls it: the `resolve` tool (found by review: `/when …` is a Claude Code skill).
        ok(format!(
            "Remembered {} ({}:{}); its entry is {}; recall it with {}\n{notes}{diff}",
            plan.heading.trim_start_matches('#').trim_start(),
            plan.decision_path,
            plan.line,
            plan.entry,
            remember::Words::Arguments
                .resolve(plan.entry.trim_start_matches('/').split(" | ").next().unwrap_or_default())
        ))
    }

    #[tool(description = "Check the memory index against its decision files and list every finding (orphan \
        entries, unindexed headings, misplaced or unordered entries, …) as JSON: file, line, column, code, \
        severity, message, whether `memory-index-lsp fix` can fix it. Use it after editing decisions or the index.")]
    async fn check(&self, Parameters(_): Parameters<CheckArgs>) -> Result<CallToolResult, ErrorData> {
        let ws = match self.load() {
            Ok(ws) => ws,
            Err(e) => return failed(e),
        };
        let ws = ws.workspace();
        let findings = crate::rules::check(ws);
        ok(crate::ide::report::json(ws, &findings).to_string())
    }
}

#[tool_handler]
impl ServerHandler for Memory {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
            .with_server_info(Implementation::new("memory-index-lsp", env!("CARGO_PKG_VERSION")))
            .with_instructions(
                "This project records its decisions in Markdown files with an index of triggers. Before deciding \
                 how to do something, call search (any words) or resolve (a trigger); when a question is settled, \
                 call remember. check lists problems in the index.",
            )
    }
}
