//! The language server over stdio: protocol types and IO live only in this module.

mod backend;
mod capabilities;
mod convert;
pub mod framing;
mod handlers;
mod publish;
mod remember;
mod server;
mod state;
mod transport;
mod watch;

use tower_lsp_server::{LspService, Server};

pub use capabilities::{FIX_ALL_COMMAND, FIX_ALL_KIND};
pub use remember::REMEMBER_COMMAND;

/// Runs the server on stdin/stdout until `exit` or end of input; returns the
/// exit code: 1 for `exit` without `shutdown` (as the protocol asks), else 0.
/// Logs go to stderr at `log_level` (or `MEMORY_INDEX_LSP_LOG`, default `warn`).
pub fn run(log_level: Option<&str>) -> i32 {
    let filter = log_level
        .map(str::to_string)
        .or_else(|| std::env::var("MEMORY_INDEX_LSP_LOG").ok())
        .unwrap_or_else(|| "warn".into());
    let _ = tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(tracing_subscriber::EnvFilter::try_new(&filter).unwrap_or_else(|_| "warn".into()))
        .try_init();
    let runtime = match tokio::runtime::Builder::new_multi_thread().worker_threads(2).enable_all().build() {
        Ok(rt) => rt,
        Err(e) => {
            eprintln!("memory-index-lsp: cannot start the async runtime: {e}");
            return 2;
        }
    };
    let ending = std::sync::Arc::new(transport::Ending::default());
    let seen = ending.clone();
    runtime.block_on(async {
        let (to_server, server_in) = tokio::io::duplex(1 << 20);
        let (server_out, from_server) = tokio::io::duplex(1 << 20);
        let (err_tx, err_rx) = tokio::sync::mpsc::channel(transport::MAX_QUEUED_ERRORS);
        let (eof_tx, eof_rx) = tokio::sync::oneshot::channel::<()>();
        let reader = tokio::spawn(async move {
            transport::filter_input(tokio::io::stdin(), to_server, err_tx, &seen).await;
            let _ = eof_tx.send(());
        });
        let writer = tokio::spawn(transport::merge_output(from_server, err_rx, tokio::io::stdout()));
        let (service, socket) = LspService::new(backend::Backend::new);
        // End of input means the client is gone: a handler still waiting on a
        // request to the client must not keep the process alive for ever.
        let client_gone = async {
            let _ = eof_rx.await;
            tokio::time::sleep(std::time::Duration::from_secs(2)).await;
        };
        tokio::select! {
            _ = Server::new(server_in, server_out, socket).serve(service) => {}
            _ = client_gone => tracing::info!("input closed; exiting"),
        }
        // The server's output side is closed now. Stop reading stdin (which closes
        // the error channel), then let the writer drain what is left.
        reader.abort();
        let _ = reader.await;
        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), writer).await;
    });
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    ending.code()
}
