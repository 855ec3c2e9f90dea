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

/// A fingerprint of the full trace of scenario `name` run with `seed`: the number of lines and a
/// 64-bit hash of their text. Native and WebAssembly builds must agree on it.
pub fn fingerprint(name: &str, seed: u64) -> Result<String, String> {
    let outputs = run_script(catalog::find(name)?, seed, Detail::Full)?;
    let lines = outputs.iter().flatten();
    let (count, hash) = lines.fold((0u64, 0u64), |(count, hash), line| {
        let line_hash = line.bytes().fold(hash, |h, b| crate::quorum::record::mix(h ^ u64::from(b)));
        (count + 1, crate::quorum::record::mix(line_hash ^ count))
    });
    Ok(format!("{count} lines, {hash:016x}"))
}
