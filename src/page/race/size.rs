//! The partition slider: it moves log10 of the race's partition count, rounded to a figure a
//! reader can say (two significant digits at most).

/// The slider's range of exponents.
pub const MIN_EXP: f64 = 1.0;
pub const MAX_EXP: f64 = 6.35;

/// The partition count the slider shows at exponent `exp`.
pub(crate) fn partitions_for(exp: f64) -> u64 {
    let raw = 10f64.powf(exp).round() as u64;
    let magnitude = 10u64.pow((raw as f64).log10().floor().max(1.0) as u32 - 1);
    (raw / magnitude * magnitude).clamp(10, 2_000_000)
}

/// The slider's exponent for `partitions`.
pub(crate) fn exp_for(partitions: u64) -> f64 {
    (partitions as f64).log10().clamp(MIN_EXP, MAX_EXP)
}

#[cfg(test)]
mod tests {
    use super::{MAX_EXP, MIN_EXP, exp_for, partitions_for};

    #[test]
    fn the_slider_shows_round_counts_within_the_race_sizes() {
        assert_eq!(partitions_for(MIN_EXP), 10);
        assert_eq!(partitions_for(6.0), 1_000_000);
        assert_eq!(partitions_for(4.3), 19_000);
        assert_eq!(partitions_for(MAX_EXP), 2_000_000);
        assert_eq!(partitions_for(exp_for(54)), 54);
    }
}
