//! Real Kafka files for the tests, read in place from `../shared/fixtures/kafka/` beside the
//! project (its README says what each folder is; the project commits none of their bytes). A
//! test that needs one asks [`real`] and, when the folder is absent (a clone without `../shared`
//! beside it), skips with one line naming it.

use std::path::Path;

/// The path of `../shared/fixtures/kafka/<path>`, or `None` after a line saying it is absent.
pub fn real(path: &str) -> Option<String> {
    let full = format!("{}/../shared/fixtures/kafka/{path}", env!("CARGO_MANIFEST_DIR"));
    if Path::new(&full).exists() {
        return Some(full);
    }
    eprintln!("skipped: ../shared/fixtures/kafka/{path} is absent (a clone without ../shared beside it)");
    None
}
