//! Readable scenario scripts: directives in, expected trace out. The scripts live in
//! `tests/scenarios/` and are compiled in, so `kraftscope run --scenario NAME` runs them too.

pub mod catalog;
pub mod runner;
pub mod script;

pub use runner::{Detail, ScenarioRun};

/// Run a whole script; returns each block's output, or the first error with its line.
pub fn run_script(text: &str, seed: u64, detail: Detail) -> Result<Vec<Vec<String>>, String> {
    let blocks = script::parse(text)?;
    let mut run = ScenarioRun::new(seed, detail);
    blocks
        .iter()
        .map(|block| {
            run.execute(block).map_err(|e| format!("line {} ({}): {e}", block.line, block.directive()))
        })
        .collect()
}
