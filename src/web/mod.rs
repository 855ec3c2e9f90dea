//! The browser front end (compiled for wasm32 only): a Yew app over the same core.

mod app;
#[cfg(feature = "full")]
mod chart;
#[cfg(feature = "full")]
mod chips;
#[cfg(feature = "full")]
mod class_mode;
#[cfg(feature = "full")]
mod cluster_files;
mod cluster_view;
mod controls;
#[cfg(feature = "full")]
mod download;
mod event_log;
#[cfg(feature = "full")]
mod failover_tab;
mod focus;
#[cfg(feature = "full")]
mod folder_drop;
mod frame_clock;
mod frame_size;
mod help;
mod host;
mod invariants_panel;
mod keys;
mod kiosk;
mod legend;
mod links_view;
#[cfg(feature = "full")]
mod log_drop;
#[cfg(feature = "full")]
mod log_reader;
#[cfg(feature = "full")]
mod log_tab;
#[cfg(feature = "full")]
mod migration_tab;
mod node_view;
mod on_screen;
#[cfg(feature = "full")]
mod pains_tab;
mod panic_panel;
#[cfg(feature = "full")]
mod partition_grid;
mod phone_question;
mod prediction;
#[cfg(feature = "full")]
mod race_legend;
#[cfg(feature = "full")]
mod race_question;
mod self_check;
mod session_files;
mod still_export;
mod still_form;
mod svg_html;
mod timeline;
mod tour;
#[cfg(feature = "full")]
mod zk_view;

use wasm_bindgen::prelude::*;

/// Entry point, run by wasm-bindgen as soon as the module is instantiated.
#[wasm_bindgen(start)]
pub fn start() {
    // Under node (the cross-platform determinism check) there is no DOM to mount into.
    let Some(window) = web_sys::window() else {
        return;
    };
    panic_panel::install();
    let search = window.location().search().unwrap_or_default();
    let Some(root) = gloo::utils::document().get_element_by_id("app") else {
        return;
    };
    yew::Renderer::<app::App>::with_root_and_props(root, app::AppProps { search }).render();
}

/// The trace fingerprint of a built-in scenario, so node can compare this build with the
/// native one (`cargo xtask test`). Only in the determinism-check build: the page itself does
/// not carry the scenario texts and runner.
#[cfg(feature = "fingerprint")]
#[wasm_bindgen(js_name = scenarioFingerprint)]
pub fn scenario_fingerprint(name: &str, seed: u64) -> String {
    crate::scenario::fingerprint(name, seed).unwrap_or_else(|error| format!("error: {error}"))
}

/// The quorum events benchmark's run (`crate::experiments::events`: the static quorum, no
/// checks) for `seed`, its simulated events counted, so node can time it beside the native one
/// (`cargo xtask bench`). Only in the determinism-check build, beside the fingerprint.
#[cfg(feature = "fingerprint")]
#[wasm_bindgen(js_name = quorumEvents)]
pub fn quorum_events(seed: u64) -> f64 {
    crate::experiments::events::steady_writes(seed, false, false, false).events as f64
}
