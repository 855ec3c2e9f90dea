//! Readable scenario scripts: directives in, expected trace out. The scripts live in
//! `tests/scenarios/` and are compiled in, so `kraftscope run --scenario NAME` runs them too.

pub mod catalog;
pub mod runner;
pub mod script;

use std::fmt;

pub use runner::{Detail, DirectiveError, ScenarioRun};

use catalog::UnknownScenario;
use script::MissingSeparator;

/// Why a script did not run to its end.
#[derive(Clone, Debug, PartialEq)]
pub enum ScriptError {
    /// No built-in scenario has this name.
    Unknown(UnknownScenario),
    /// The script is malformed.
    Parse(MissingSeparator),
    /// The directive at this line failed.
    Directive { line: usize, directive: String, error: DirectiveError },
}

impl ScriptError {
    /// The failure of `block`'s directive.
    pub fn at(block: &script::Block, error: DirectiveError) -> ScriptError {
        ScriptError::Directive { line: block.line, directive: block.directive(), error }
    }
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ScriptError::Unknown(error) => fmt::Display::fmt(error, f),
            ScriptError::Parse(error) => fmt::Display::fmt(error, f),
            ScriptError::Directive { line, directive, error } => {
                write!(f, "line {line} ({directive}): {error}")
            }
        }
    }
}

impl std::error::Error for ScriptError {}

impl From<UnknownScenario> for ScriptError {
    fn from(error: UnknownScenario) -> Self {
        ScriptError::Unknown(error)
    }
}

impl From<MissingSeparator> for ScriptError {
    fn from(error: MissingSeparator) -> Self {
        ScriptError::Parse(error)
    }
}

/// Run a whole script; returns each block's output, or the first error with its line.
pub fn run_script(text: &str, seed: u64, detail: Detail) -> Result<Vec<Vec<String>>, ScriptError> {
    let blocks = script::parse(text)?;
    let mut run = ScenarioRun::new(seed, detail);
    blocks.iter().map(|block| run.execute(block).map_err(|e| ScriptError::at(block, e))).collect()
}

/// A fingerprint of the full trace of scenario `name` run with `seed`: the number of lines and a
/// 64-bit hash of their text. Native and WebAssembly builds must agree on it.
pub fn fingerprint(name: &str, seed: u64) -> Result<String, ScriptError> {
    let outputs = run_script(catalog::find(name)?, seed, Detail::Full)?;
    let lines = outputs.iter().flatten();
    let (count, hash) = lines.fold((0u64, 0u64), |(count, hash), line| {
        (count + 1, crate::util::hash::mix(crate::util::hash::text(hash, line) ^ count))
    });
    Ok(format!("{count} lines, {hash:016x}"))
}
