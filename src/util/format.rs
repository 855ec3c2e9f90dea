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

/// Milliseconds since the Unix epoch as a UTC date and time: `2024-06-28 09:41:07.123` (the
/// proleptic Gregorian calendar, Howard Hinnant's `civil_from_days`).
pub fn utc(ms: i64) -> String {
    let days = ms.div_euclid(86_400_000);
    let in_day = ms.rem_euclid(86_400_000);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era = (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let mp = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    let (h, m, s, milli) = (in_day / 3_600_000, in_day / 60_000 % 60, in_day / 1_000 % 60, in_day % 1_000);
    format!("{year:04}-{month:02}-{day:02} {h:02}:{m:02}:{s:02}.{milli:03}")
}

/// A span of milliseconds as a person reads it: `0.412 s`, `12.031 s`, `4 min 12 s`, `3 h 5 min`,
/// `2 d 4 h`.
pub fn span_ms(ms: i64) -> String {
    let sign = if ms < 0 { "-" } else { "" };
    let ms = ms.unsigned_abs();
    let (s, m, h, d) = (ms / 1_000, ms / 60_000, ms / 3_600_000, ms / 86_400_000);
    match () {
        _ if ms < 60_000 => format!("{sign}{}.{:03} s", s, ms % 1_000),
        _ if ms < 3_600_000 => format!("{sign}{m} min {} s", s % 60),
        _ if ms < 86_400_000 => format!("{sign}{h} h {} min", m % 60),
        _ => format!("{sign}{d} d {} h", h % 24),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn utc_dates_match_known_instants() {
        assert_eq!(super::utc(0), "1970-01-01 00:00:00.000");
        // `date -u -d @1719567667.123`: Fri Jun 28 09:41:07 UTC 2024
        assert_eq!(super::utc(1_719_567_667_123), "2024-06-28 09:41:07.123");
        assert_eq!(super::utc(951_782_400_000), "2000-02-29 00:00:00.000", "a leap day");
        assert_eq!(super::utc(-1), "1969-12-31 23:59:59.999");
        assert_eq!(super::span_ms(412), "0.412 s");
        assert_eq!(super::span_ms(252_000), "4 min 12 s");
        assert_eq!(super::span_ms(11_100_000), "3 h 5 min");
        assert_eq!(super::span_ms(-1_500), "-1.500 s");
    }

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
