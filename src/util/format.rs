//! Numbers and times as the page and the command line print them.

/// Simulated time in microseconds (the harness's `Micros`) as seconds with milliseconds:
/// `12.345 s`.
pub fn seconds(t: u64) -> String {
    format!("{}.{:03} s", t / 1_000_000, (t / 1_000) % 1_000)
}

/// Simulated time in microseconds as exact milliseconds for a link: `30000`, `30000.125`.
pub fn exact_ms(t: u64) -> String {
    match t % 1_000 {
        0 => (t / 1_000).to_string(),
        us => format!("{}.{}", t / 1_000, format!("{us:03}").trim_end_matches('0')),
    }
}

/// The microseconds [`exact_ms`] wrote (at most three decimals).
pub fn parse_exact_ms(text: &str) -> Option<u64> {
    let (ms, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |t: &str| t.bytes().all(|b| b.is_ascii_digit());
    if ms.is_empty() || !digits(ms) || fraction.len() > 3 || !digits(fraction) || text.ends_with('.') {
        return None;
    }
    let us = format!("{fraction:0<3}").parse::<u64>().ok()?;
    ms.parse::<u64>().ok()?.checked_mul(1_000)?.checked_add(us)
}

/// A speed factor: `0.1×`, `1×`, `20×`, and the slowest slow motion `0.0004×`.
pub fn speed(factor: f64) -> String {
    if factor >= 1.0 {
        format!("{:.0}×", factor)
    } else if factor >= 0.1 {
        format!("{:.2}×", factor)
    } else if factor >= 0.001 {
        format!("{:.3}×", factor)
    } else {
        format!("{:.4}×", factor)
    }
}

/// A count of things, with thousands separators and the noun in the plural unless there is one:
/// `1 topic`, `2,000,000 partitions`, `3 batches`, `2 entries`.
pub fn counted(n: u64, one: &str) -> String {
    let noun = match () {
        _ if n == 1 => one.to_string(),
        _ if ["ch", "sh", "s", "x"].iter().any(|end| one.ends_with(end)) => format!("{one}es"),
        _ if one.ends_with('y') && !one.ends_with("ay") && !one.ends_with("ey") => {
            format!("{}ies", &one[..one.len() - 1])
        }
        _ => format!("{one}s"),
    };
    format!("{} {noun}", count(n))
}

/// A count with thousands separators: `2,000,000`.
pub fn count(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn exact_milliseconds_read_back_to_the_microsecond() {
        for t in [0, 1, 999, 1_000, 30_000_125, 30_000_100, 86_400_000_000] {
            assert_eq!(super::parse_exact_ms(&super::exact_ms(t)), Some(t), "{}", super::exact_ms(t));
        }
        assert_eq!(super::exact_ms(30_000_100), "30000.1");
        for bad in ["", ".5", "5.", "1.2345", "-1", "1e3", "99999999999999999999"] {
            assert_eq!(super::parse_exact_ms(bad), None, "{bad}");
        }
    }

    use super::{count, counted, seconds, speed};

    #[test]
    fn formats_read_naturally() {
        assert_eq!(seconds(12_345_678), "12.345 s");
        assert_eq!(speed(0.1), "0.10×");
        assert_eq!(speed(0.001), "0.001×");
        assert_eq!(speed(0.0004), "0.0004×", "ZooKeeper mode's milestones in slow motion");
        assert_eq!(speed(0.015), "0.015×", "the default speed reads as itself");
        assert_eq!(speed(20.0), "20×");
        assert_eq!(count(2_000_000), "2,000,000");
        assert_eq!(count(999), "999");
        assert_eq!(counted(1, "topic"), "1 topic");
        assert_eq!(counted(1_000_000, "partition"), "1,000,000 partitions");
        assert_eq!(counted(1, "batch"), "1 batch");
        assert_eq!(counted(3, "batch"), "3 batches");
        assert_eq!(counted(0, "LeaderChange record"), "0 LeaderChange records");
        assert_eq!(counted(2, "entry"), "2 entries");
        assert_eq!(counted(2, "key"), "2 keys");
    }
}
