//! The `memory-index-lsp` binary: parse argv, then run a CLI command or the language server.

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match memory_index_lsp::cli::run(&args) {
        Some(code) => std::process::exit(code),
        None => {
            std::process::exit(memory_index_lsp::cli::usage_error("the language server is not part of this build yet"))
        }
    }
}
