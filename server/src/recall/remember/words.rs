//! How the caller names `remember`'s arguments in what it says: the CLI's flags or the MCP tool's arguments.

/// The caller's names for the request's arguments, so that a refusal or a
/// note tells the reader what *they* can pass (found by review: the MCP
/// tool told the agent to pass `--force`, a flag it does not have).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Words {
    /// `memory-index-lsp remember`'s flags.
    #[default]
    Flags,
    /// The MCP `remember` tool's arguments.
    Arguments,
}

impl Words {
    /// How to choose the decision file.
    pub fn file(self) -> &'static str {
        match self {
            Words::Flags => "--file",
            Words::Arguments => "`file`",
        }
    }

    /// How to write despite an existing decision on the subject.
    pub fn force(self) -> &'static str {
        match self {
            Words::Flags => "--force",
            Words::Arguments => "`force: true`",
        }
    }

    /// Where other search words go.
    pub fn extras(self) -> &'static str {
        match self {
            Words::Flags => "--extras",
            Words::Arguments => "`extras`",
        }
    }

    /// Where the body comes from.
    pub fn body(self) -> &'static str {
        match self {
            Words::Flags => "--body-file FILE, or - for stdin",
            Words::Arguments => "the `body` argument",
        }
    }

    /// How to say which kind of decision it is.
    pub fn operator(self) -> &'static str {
        match self {
            Words::Flags => "--when (behaviour) or --how (procedure)",
            Words::Arguments => "`operator` \"when\" (behaviour) or \"how\" (procedure)",
        }
    }

    /// How to read the decision `query` (`when writing mock tests`) names.
    pub fn resolve(self, query: &str) -> String {
        match self {
            Words::Flags => format!("`memory-index-lsp resolve \"{query}\"`"),
            Words::Arguments => format!("the `resolve` tool (query \"{query}\")"),
        }
    }

    /// An example of a title, passed as the caller passes one.
    pub fn title_example(self) -> &'static str {
        match self {
            Words::Flags => "--when \"Pinning Toolchain Versions\"",
            Words::Arguments => "`title` \"Pinning Toolchain Versions\"",
        }
    }
}
