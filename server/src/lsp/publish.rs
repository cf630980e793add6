//! Diagnostics out of the server: one task checks what changed and publishes, in order.
//!
//! Handlers only apply their change and mark the root dirty ([`State::mark_dirty`])
//! and wake this task. So a burst of edits costs one check once the burst
//! has been applied, not one per edit, and every set of diagnostics leaves in
//! the order it was computed: handlers publishing on their own could
//! overtake each other and leave the editor showing an older text's
//! diagnostics. Open documents' versions go with their diagnostics, so a
//! client can drop a set that no longer matches its text.

use std::sync::{Arc, Mutex};

use tokio::sync::Notify;
use tower_lsp_server::ls_types::{Diagnostic, Uri};
use tower_lsp_server::Client;

use super::server::{lock, ClientCaps};
use super::state::State;

/// Diagnostics of one file, with the open document's version.
pub type Batch = (Uri, Vec<Diagnostic>, Option<i32>);

/// Runs until the runtime stops: waits to be woken, then publishes what changed.
pub async fn run(client: Client, state: Arc<Mutex<State>>, caps: Arc<Mutex<ClientCaps>>, wake: Arc<Notify>) {
    loop {
        wake.notified().await;
        // Let notifications already queued behind the one that woke us apply first.
        tokio::task::yield_now().await;
        let batches = lock(&state).take_changed();
        let caps = lock(&caps).clone();
        send(&client, &caps, batches).await;
    }
}

/// Publishes (push mode) or asks the client to pull again (pull mode).
async fn send(client: &Client, caps: &ClientCaps, batches: Vec<Batch>) {
    if caps.pull_diagnostics {
        if caps.diagnostic_refresh && !batches.is_empty() {
            let _ = client.workspace_diagnostic_refresh().await;
        }
        return;
    }
    for (uri, diags, version) in batches {
        client.publish_diagnostics(uri, diags, version).await;
    }
}
