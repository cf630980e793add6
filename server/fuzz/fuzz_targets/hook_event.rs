//! Fuzz target: any bytes on the hook's stdin parse to an event or a reason, as any agent sends them, and any decision text stays data in a block.
#![no_main]

use libfuzzer_sys::fuzz_target;
use memory_index_lsp::hook::event;
use memory_index_lsp::project::agents::Agent;
use memory_index_lsp::recall::inject;

fuzz_target!(|data: &[u8]| {
    let agents = [None, Some(Agent::Claude), Some(Agent::Codex), Some(Agent::Copilot), Some(Agent::Gemini)];
    let agent = agents[data.first().map_or(0, |b| *b as usize % agents.len())];
    if let Ok(input) = event::parse(data, agent, None) {
        let _ = input.ask.event.name();
        let _ = memory_index_lsp::hook::dialect::render(input.ask.agent, &input.agent_event, "x");
    }
    if let Ok(text) = std::str::from_utf8(data) {
        let safe = inject::defang(text);
        assert!(safe.lines().all(|l| !l.trim_start().starts_with(inject::MARKER)), "a body line passes for a header");
        let cut = inject::fit_lines(&safe, data.len() / 2);
        assert!(cut.chars().count() <= data.len() / 2);
    }
});
