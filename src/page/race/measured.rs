//! The measured curve of unavailability against partition count for both modes: the core's
//! failover experiment, as the `failover.csv` that `cargo xtask dist` writes next to the page.

use crate::util::float;

/// One measured size: partitions, KRaft seconds (p50 over seeds), ZooKeeper-mode seconds,
/// KRaft seconds (p99 over seeds).
pub type Point = (u64, f64, f64, f64);

/// Parse `partitions,kraft_ms,zk_ms[,kraft_p99_ms]` lines after a header; bad lines are skipped.
pub(crate) fn parse_csv(text: &str) -> Vec<Point> {
    text.lines()
        .skip(1)
        .filter_map(|line| {
            let mut fields = line.split(',');
            let partitions = fields.next()?.trim().parse().ok()?;
            let kraft = float::parse(fields.next()?.trim())?;
            let zk = float::parse(fields.next()?.trim())?;
            let p99 = fields.next().and_then(|f| float::parse(f.trim())).unwrap_or(kraft);
            Some((partitions, kraft / 1_000.0, zk / 1_000.0, p99 / 1_000.0))
        })
        .collect()
}

/// The measured size nearest `partitions`.
pub(crate) fn nearest(points: &[Point], partitions: u64) -> Option<&Point> {
    points.iter().min_by_key(|p| p.0.abs_diff(partitions))
}

#[cfg(test)]
mod tests {
    use super::{nearest, parse_csv};

    #[test]
    fn the_csv_gives_seconds_per_size_and_skips_bad_lines() {
        let points = parse_csv(
            "partitions,kraft_ms,zk_ms,kraft_p99_ms\n1000,1500,3000,1800\nx,1,2\n10000,1600,9000\n",
        );
        assert_eq!(points, vec![(1_000, 1.5, 3.0, 1.8), (10_000, 1.6, 9.0, 1.6)]);
        assert_eq!(nearest(&points, 7_000).map(|p| p.0), Some(10_000));
        assert_eq!(nearest(&[], 7_000), None);
    }
}
