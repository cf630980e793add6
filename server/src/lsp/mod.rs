//! The language server over stdio: protocol types and IO live only in this module.

mod backend;
mod capabilities;
mod convert;
mod docs;
pub mod framing;
mod handlers;
mod memory;
mod publish;
mod remember;
mod server;
mod state;
mod transport;
mod watch;

use tower_lsp_server::LspService;

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
    let ending = transport::Ending::default();
    runtime.block_on(async {
        let (out, output) = transport::output();
        let (eof_tx, eof_rx) = tokio::sync::oneshot::channel::<()>();
        let writer = tokio::spawn(transport::write_output(output, tokio::io::stdout()));
        let (service, socket) = LspService::new(backend::Backend::new);
        // End of input means the client is gone: a handler still waiting on a
        // request to the client must not keep the process alive for ever.
        let client_gone = async {
            let _ = eof_rx.await;
            tokio::time::sleep(std::time::Duration::from_secs(2)).await;
        };
        tokio::select! {
            _ = transport::serve(service, socket, tokio::io::stdin(), out, &ending, eof_tx) => {}
            _ = client_gone => tracing::info!("input closed; exiting"),
        }
        // Every sender of the output queues is gone now: let the writer
        // drain what is left.
        let _ = tokio::time::timeout(std::time::Duration::from_secs(2), writer).await;
    });
    runtime.shutdown_timeout(std::time::Duration::from_millis(100));
    ending.code()
}
