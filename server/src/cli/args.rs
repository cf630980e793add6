//! The command line's grammar (clap, derive): every command, flag and help text; `main.rs` dispatches on it.
//!
//! Exit codes stay the tool's own: 0 success, 1 findings at error severity
//! (or a failed query), 2 usage errors (clap's own code for a bad command
//! line, with a suggestion for a misspelled command or flag).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand, ValueEnum};

/// memory-index-lsp: language server and checker for agent memory indexes.
///
/// ROOT (and --root) default to the nearest folder at or above
/// $CLAUDE_PROJECT_DIR, else the current directory, that holds
/// memory-index.toml or agents/memory-index.md. Without a command, runs the
/// language server on stdin/stdout.
#[derive(Debug, Parser)]
#[command(
    name = "memory-index-lsp",
    version,
    after_help = "Exit codes: 0 ok, 1 errors found (or a query failed), 2 usage error (or an input that cannot be read)."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Option<Command>,
    /// The language server's log filter (e.g. `debug`, `memory_index_lsp=trace`).
    #[arg(long, value_name = "LEVEL", global = true)]
    pub log_level: Option<String>,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Run the language server on stdin/stdout (the default).
    #[command(alias = "lsp")]
    Serve,
    /// Check the index against its decision files: the CI gate (exit 1 on any error).
    Check(CheckArgs),
    /// Apply every safe fix, then report like `check`.
    Fix(FixArgs),
    /// Print the decision a trigger names, as an agent's `/when` does.
    ///
    /// QUERY is what follows /when or /how (`when writing mock tests`, `how
    /// split test modules`), `.Title` for one section, `..file.md` for a whole
    /// decision file. When the first word is `when` or `how`, all the words
    /// are one query; otherwise each argument is one query, and so is each
    /// line of stdin when it is not a terminal. Exit 0 when every query
    /// resolved, 1 when one did not.
    #[command(alias = "when")]
    Resolve(ResolveArgs),
    /// Suggest the shortest unique trigger for each heading (TAB-separated).
    CompressKey(CompressKeyArgs),
    /// Write a decision down: its section in a decision file and its entry in the index.
    ///
    /// Appends `## When TITLE` (or `How to TITLE`, at the level the file's
    /// decisions use) with the body to agents/decisions/NAME (a new file when
    /// it does not exist; without --file, the file whose decisions are
    /// closest), and adds `/when title words | extras` to that file's index
    /// section, in heading order. Refuses, writing nothing, when a decision
    /// on the same subject exists (unless --force), when the trigger or an
    /// extra would resolve elsewhere, or when `check` would find something
    /// new. Run again after an interruption, it completes what was begun.
    Remember(RememberArgs),
    /// List the decisions that best match any text, with a confidence.
    ///
    /// TEXT is a question, a task or an error (stdin when none is given).
    /// Type the /when line shown to read a whole section. Exit 1 when
    /// nothing matches.
    Search(SearchArgs),
    /// Measure recall over Claude Code session transcripts (JSONL).
    ///
    /// Per session: the prompts a decision applied to (at the hook's
    /// threshold) and how many of those had the decision reach the agent in
    /// the same turn. PATHS are .jsonl files or folders; default: this
    /// project's folder under ~/.claude/projects/.
    RecallStats(RecallStatsArgs),
    /// Measure recall on labelled queries.
    ///
    /// FILE has one case a line: kind<TAB>query<TAB>expected, where expected
    /// is a heading title, several joined by ` || `, or `-` for nothing.
    /// Lines starting with # are comments. The hook's threshold for each
    /// kind decides which first results count as answers: [recall] prompt,
    /// or command / error for kinds starting `command` / `error` (ranked as
    /// the hook ranks a shell command or a failure). In the table, `right`
    /// counts every case (silence is right for `-`); P@1 and P@3 count only
    /// the answers given; R@10 and MRR read the ranking whatever the
    /// confidence.
    Eval(EvalArgs),
    /// Compute the decisions' vectors for semantic recall (fetching the model first; the hook ranks by meaning once it is there).
    ///
    /// Embeds every decision section that has no vector yet with the model
    /// ([recall] model, else $MEMORY_INDEX_LSP_MODEL, else
    /// ~/.cache/memory-index-lsp/models/all-MiniLM-L6-v2, fetched there from
    /// Hugging Face with curl when missing, or from $MEMORY_INDEX_LSP_MODEL_URL)
    /// and keeps them in the cache folder. The hook runs it in the background
    /// when a prompt met a decision without one, or no model. Exit 1 when the
    /// model cannot be fetched or loaded.
    Embed(EmbedArgs),
    /// Start a memory (when there is none) and set the project up for agents: hooks, MCP server, skills or instructions.
    ///
    /// Claude Code by default (without the plugin: skills, hooks, .mcp.json);
    /// --agent codex writes .codex/hooks.json, .codex/config.toml and an
    /// AGENTS.md block; copilot .github/hooks/memory-index.json, .mcp.json and
    /// a .github/copilot-instructions.md block; gemini .gemini/settings.json
    /// and a GEMINI.md block. Other keys are kept byte for byte; a second run
    /// changes nothing. The trust each agent needs is said, not written.
    Init(InitArgs),
    /// Bring decisions a project already wrote into the memory: ADRs, CLAUDE.md / AGENTS.md sections, rules files.
    ///
    /// PATHS are files or folders of them (`*.md`, `*.mdc`, not recursive).
    /// ADRs in Nygard's template or MADR become one decision each, a rules
    /// file one decision per section under its title (a long section with
    /// sub-sections: one per sub-section): a heading made from the title
    /// (`Use Helm` → `When Using Helm`, `Running Tests` → `When Running
    /// Tests`), a body that leads with the decision (at most 24 lines of an
    /// ADR, 60 of a rules section; the source keeps the rest) and ends with
    /// `Source: PATH`, and an entry that resolves to it. Text above a rules
    /// file's first section is named as left out.
    /// Superseded, deprecated, rejected and proposed records are skipped and
    /// listed (or, with --all, imported with their status). Importing the
    /// same sources again changes nothing; a changed source updates its
    /// decision in place; a section whose text a decision already has (a
    /// copied AGENTS.md) is imported once. A file that cannot be read is
    /// reported and makes the exit code 1; the rest still imports.
    Import(ImportArgs),
    /// Run the MCP server on stdin/stdout (tools: resolve, search, remember, check).
    Mcp(McpArgs),
    /// An agent's hook: its hook JSON on stdin, the context its model receives on stdout (always exit 0).
    ///
    /// `--agent claude|codex|copilot|gemini` names the agent (default:
    /// detected from the payload and the hook's environment, Claude Code when
    /// unsure); `--event NAME` names the event when the payload does not
    /// (Copilot's camel-case events). `init --agent` writes these. Any other
    /// argument is named on stderr and ignored: a hook never fails a prompt
    /// over its command line.
    Hook(HookArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish) to stdout.
    Completions {
        #[arg(value_enum)]
        shell: clap_complete::Shell,
    },
}

/// How findings are printed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, ValueEnum)]
pub enum Format {
    #[default]
    Human,
    Json,
}

#[derive(Debug, Args)]
pub struct CheckArgs {
    /// The workspace root (the folder that contains agents/).
    pub root: Option<PathBuf>,
    /// How findings are printed.
    #[arg(long, value_enum, default_value_t)]
    pub format: Format,
    /// The same as `--format json`, as `search`, `eval` and `recall-stats` spell it.
    #[arg(long, conflicts_with = "format")]
    pub json: bool,
    /// Read the configuration from FILE instead of ROOT/memory-index.toml.
    #[arg(long, value_name = "FILE")]
    pub config: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct FixArgs {
    #[command(flatten)]
    pub check: CheckArgs,
    /// Print the unified diff instead of writing.
    #[arg(long)]
    pub dry_run: bool,
}

#[derive(Debug, Args)]
pub struct ResolveArgs {
    /// Print the section without its Broader/Related navigation.
    #[arg(long)]
    pub no_nav: bool,
    /// The project root (default: the nearest project at or above $CLAUDE_PROJECT_DIR, else the working directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Options may follow the query (`resolve when x --no-nav`); a word
    /// that starts with `-` goes after `--`.
    #[arg(value_name = "QUERY")]
    pub queries: Vec<String>,
}

#[derive(Debug, Args)]
pub struct CompressKeyArgs {
    /// The project root (default: the nearest project at or above $CLAUDE_PROJECT_DIR, else the working directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Titles (`When …`/`How to …`); none: every semantic heading.
    #[arg(value_name = "TITLE")]
    pub titles: Vec<String>,
}

#[derive(Debug, Args)]
pub struct RememberArgs {
    /// A behaviour: what to do in a situation.
    #[arg(long, value_name = "TITLE", conflicts_with = "how", required_unless_present = "how")]
    pub when: Option<String>,
    /// A procedure: how to do a task.
    #[arg(long, value_name = "TITLE")]
    pub how: Option<String>,
    /// The decision file inside the decisions directory (`cli.md`); default: the closest.
    #[arg(long, value_name = "NAME")]
    pub file: Option<String>,
    /// The trigger; it must be the title's words.
    #[arg(long, value_name = "T")]
    pub trigger: Option<String>,
    /// Other words an agent may search with, comma-separated.
    #[arg(long, value_name = "\"a, b\"")]
    pub extras: Option<String>,
    /// The body: a file, or - for stdin (at most 1 MiB).
    #[arg(long, value_name = "F|-")]
    pub body_file: Option<String>,
    /// The project root (default: the nearest project at or above $CLAUDE_PROJECT_DIR, else the working directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Print the diff without writing.
    #[arg(long)]
    pub dry_run: bool,
    /// Write even when a decision on the same subject exists.
    #[arg(long)]
    pub force: bool,
}

#[derive(Debug, Args)]
pub struct SearchArgs {
    /// The project root (default: the nearest project at or above $CLAUDE_PROJECT_DIR, else the working directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Most results, 1 to 100.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(1..=100))]
    pub limit: u64,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Options may follow the text (`search "store prices" --json`, as
    /// agents type it); a word that starts with `-` goes after `--`
    /// (`search -- git branch -D`) or in the quoted text.
    #[arg(value_name = "TEXT")]
    pub words: Vec<String>,
}

#[derive(Debug, Args)]
pub struct RecallStatsArgs {
    /// The project root (default: the nearest project at or above $CLAUDE_PROJECT_DIR, else the working directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Count a prompt as an opportunity from this confidence (default: [recall] prompt).
    #[arg(long, value_name = "C", value_parser = confidence)]
    pub threshold: Option<f64>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// Transcript files (*.jsonl) or folders of them.
    #[arg(value_name = "PATHS")]
    pub paths: Vec<PathBuf>,
}

#[derive(Debug, Args)]
pub struct EvalArgs {
    /// The labelled cases.
    pub file: String,
    /// The project root (default: the nearest project at or above $CLAUDE_PROJECT_DIR, else the working directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Count a first result as an answer from this confidence, for every kind (default: the hook's for each kind).
    #[arg(long, value_name = "C", value_parser = confidence)]
    pub threshold: Option<f64>,
    /// Point at a decision below the threshold from this confidence, for every kind (default: the hook's pointer floor for each kind).
    #[arg(long, value_name = "C", value_parser = confidence)]
    pub pointer: Option<f64>,
    /// With --semantic: point at the decisions nearest in meaning from this cosine (default: the hook's `[recall] meaning-pointer`).
    #[arg(long, value_name = "COS", value_parser = confidence)]
    pub meaning: Option<f64>,
    /// Print JSON instead of Markdown tables.
    #[arg(long)]
    pub json: bool,
    /// List the cases answered wrong or left silent, with what the first answer came from (words, code, …).
    #[arg(long)]
    pub misses: bool,
    /// Write each case's first-result features as TSV (for tests/tools/fit_recall.py).
    #[arg(long, value_name = "OUT")]
    pub features: Option<String>,
    /// Rank by meaning too, with the semantic model, as `[recall] semantic = true` does (every decision is embedded first; the vectors are kept).
    #[arg(long)]
    pub semantic: bool,
}

#[derive(Debug, Args)]
pub struct EmbedArgs {
    /// The project root (default: the nearest project at or above $CLAUDE_PROJECT_DIR, else the working directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
    /// Print nothing (the hook's background run).
    #[arg(long)]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct InitArgs {
    /// The project root (default: the current directory).
    pub root: Option<PathBuf>,
    /// The agents to set up: claude (the default), codex, copilot, gemini,
    /// or all; several with commas or a repeated --agent.
    #[arg(long, value_name = "AGENT")]
    pub agent: Vec<String>,
    /// Print the diff without writing.
    #[arg(long)]
    pub dry_run: bool,
    /// Say only what was written and what you must do (each agent's trust): no notes.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

#[derive(Debug, Args)]
pub struct ImportArgs {
    /// ADR or rules files, or folders of them.
    #[arg(value_name = "PATHS", required = true)]
    pub paths: Vec<PathBuf>,
    /// The decision file to write into (default: architecture-decisions.md for ADRs, NAME.md for a rules file NAME).
    #[arg(long, value_name = "NAME")]
    pub file: Option<String>,
    /// Import superseded, deprecated, rejected and proposed records too, marked with their status.
    #[arg(long)]
    pub all: bool,
    /// Remove each decision whose record is gone from the sources given (a section deleted from
    /// the rules file, an ADR gone from its folder, one superseded since) with its entries, when
    /// nobody edited it since it was imported; edited ones are kept and listed.
    #[arg(long)]
    pub prune: bool,
    /// Print the diff without writing.
    #[arg(long)]
    pub dry_run: bool,
    /// Say only what was done and what needs you (stale, skipped, not read): no cuts, notes or left-out lines.
    #[arg(long, short = 'q')]
    pub quiet: bool,
    /// The project root (default: the nearest project at or above $CLAUDE_PROJECT_DIR, else the working directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

#[derive(Debug, Args)]
pub struct McpArgs {
    /// The project root (default: the nearest project at or above $CLAUDE_PROJECT_DIR, else the working directory).
    #[arg(long, value_name = "DIR")]
    pub root: Option<PathBuf>,
}

/// The hook's words. `--agent` and `--event` are listed by `hook --help`;
/// the hook reads its words itself ([`HookArgs::words`]) so that nothing on
/// its command line can fail it: a word clap cannot read is passed on as
/// written, and the hook names it on stderr.
#[derive(Debug, Default, Args)]
pub struct HookArgs {
    /// The agent whose payload this is: claude, codex, copilot or gemini (default: detected).
    #[arg(long, value_name = "NAME")]
    pub agent: Option<String>,
    /// The event, when the payload does not name it (Copilot's camel-case events).
    #[arg(long, value_name = "NAME")]
    pub event: Option<String>,
    #[arg(hide = true, trailing_var_arg = true, allow_hyphen_values = true)]
    pub ignored: Vec<String>,
}

impl HookArgs {
    /// The words as the hook reads them: `--agent NAME`, `--event NAME`, then the rest as written.
    pub fn words(&self) -> Vec<String> {
        let mut out = Vec::new();
        for (flag, value) in [("--agent", &self.agent), ("--event", &self.event)] {
            if let Some(v) = value {
                out.extend([flag.to_string(), v.clone()]);
            }
        }
        out.extend(self.ignored.iter().cloned());
        out
    }
}

/// A confidence in [0, 1].
fn confidence(s: &str) -> Result<f64, String> {
    s.parse::<f64>().ok().filter(|t| (0.0..=1.0).contains(t)).ok_or_else(|| "a confidence between 0 and 1".into())
}

/// Parses `argv` (program name first) as the OS gives it: a word that is
/// not UTF-8 (Linux file names are bytes) is a path where a path is taken
/// and a usage error elsewhere, never a panic (found by review: `resolve
/// $'\xff'` exited 101 before parsing). Help, version and usage errors are
/// printed and exit here (0 for help and version, 2 for errors) — except for
/// `hook`, which never fails: a bad command line there runs the hook anyway.
pub fn parse(argv: Vec<std::ffi::OsString>) -> Cli {
    match Cli::try_parse_from(&argv) {
        Ok(cli) => cli,
        Err(e) if argv.get(1).is_some_and(|a| a == "hook") && e.use_stderr() => {
            // The hook reads the words itself and names what it cannot use.
            let ignored = argv[2..].iter().map(|a| a.to_string_lossy().into_owned()).collect();
            let hook = HookArgs { ignored, ..HookArgs::default() };
            Cli { command: Some(Command::Hook(hook)), log_level: None }
        }
        Err(e) if e.use_stderr() => {
            // As the tool's own messages: `memory-index-lsp: what is wrong`, then how to get help.
            let text = e.render().to_string();
            eprint!("memory-index-lsp: {}", text.strip_prefix("error: ").unwrap_or(&text));
            std::process::exit(2)
        }
        Err(e) => e.exit(),
    }
}

/// Writes the completion script for `shell` to stdout.
pub fn completions(shell: clap_complete::Shell) -> i32 {
    use clap::CommandFactory;
    let mut cmd = Cli::command();
    clap_complete::generate(shell, &mut cmd, "memory-index-lsp", &mut std::io::stdout());
    0
}
