//! The configuration the property tests share: how many cases, and from which seed.

use proptest::test_runner::{Config, RngSeed};

/// Seed of the generated cases, so that a run repeats exactly: KRAFTSCOPE_FUZZ_SEED, 1 unless
/// set (a failure under another seed is reproduced by setting the same one again).
fn seed() -> u64 {
    std::env::var("KRAFTSCOPE_FUZZ_SEED").ok().and_then(|s| s.parse().ok()).unwrap_or(1)
}

/// A property's configuration: its `1 / share` of KRAFTSCOPE_FUZZ_CASES (256 by default), cases
/// drawn from [`seed`], no failure files.
pub fn config(share: u32) -> Config {
    let cases = std::env::var("KRAFTSCOPE_FUZZ_CASES").ok().and_then(|c| c.parse().ok()).unwrap_or(256u32);
    Config {
        cases: (cases / share).max(1),
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed()),
        ..Config::default()
    }
}
