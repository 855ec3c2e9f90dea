//! Small shared utilities, beneath every other layer: they import nothing of the crate.

// The one source of randomness: a seeded SplitMix64 generator.
pub mod rng;
// Stable sorting through one copy of the sort algorithm (a smaller wasm).
pub mod sort;
// Reading an `f64` exactly as `str::parse` does, without its tables in the wasm.
pub mod float;
// Maps and sets of a handful of keys, in key order (never hash order).
pub mod small_map;
// Sets of brokers as one bitmask: ISRs and replica sets, for millions of partitions.
pub mod broker_set;
// The one hash of fingerprints, of numbers and of text.
pub mod hash;
// Numbers and times as the page and the command line print them.
pub mod format;
// The page's stylesheet minified as it is served (and embedded in stills).
pub mod css;
