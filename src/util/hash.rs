//! The one 64-bit hash of the crate's fingerprints: SplitMix64's finaliser, and text hashed
//! byte by byte through it (the same in native and WebAssembly builds).

use std::fmt;

/// A 64-bit mixing function (the SplitMix64 finaliser).
pub fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// A running hash of text: `write!` into it, read `.0`.
pub struct TextHash(pub u64);

impl fmt::Write for TextHash {
    fn write_str(&mut self, text: &str) -> fmt::Result {
        self.0 = text.bytes().fold(self.0, |h, b| mix(h ^ u64::from(b)));
        Ok(())
    }
}

/// `text` hashed on from `seed`.
pub fn text(seed: u64, text: &str) -> u64 {
    let mut hash = TextHash(seed);
    let _ = fmt::Write::write_str(&mut hash, text);
    hash.0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_byte_and_its_order_count() {
        assert_ne!(text(0, "ab"), text(0, "ba"));
        assert_ne!(text(0, "a"), text(0, "b"));
        assert_ne!(text(1, "a"), text(0, "a"));
        assert_eq!(text(text(0, "ab"), "c"), text(0, "abc"));
    }
}
