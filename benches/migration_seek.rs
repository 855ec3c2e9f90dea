//! Scrubbing a migration (#62 item 6): for every scenario, the time to record its timeline and
//! the time of a seek to a random moment (forwards or back), median and worst of 200, against a
//! frame's budget (16.7 ms), on the scenarios' own cluster and on one of 10,000 partitions.
//! Run: `cargo bench --bench migration_seek`.

use std::time::Instant;

use kraftscope::migration::scenarios::SCENARIOS;
use kraftscope::migration::sim::MigrationConfig;
use kraftscope::migration::timeline::Timeline;
use kraftscope::util::rng::Rng;

const SEEKS: usize = 200;

fn ms(started: Instant) -> f64 {
    started.elapsed().as_secs_f64() * 1_000.0
}

fn main() {
    println!(
        "{:<34} {:>11} {:>10} {:>12} {:>12}",
        "scenario (partitions)", "sim time", "record", "seek median", "seek worst"
    );
    for scenario in &SCENARIOS {
        let small = scenario.config();
        let large =
            MigrationConfig { brokers: 6, topics: 1_000, partitions_per_topic: 10, ..scenario.config() };
        for config in [small, large] {
            let partitions = config.partitions();
            let started = Instant::now();
            let mut timeline = Timeline::record(scenario, config, 42).expect("the scenario runs");
            let record = ms(started);
            let mut rng = Rng::new(7);
            let mut seeks: Vec<f64> = (0..SEEKS)
                .map(|_| {
                    let t = rng.below(timeline.end() + 1);
                    let started = Instant::now();
                    timeline.seek(t);
                    ms(started)
                })
                .collect();
            seeks.sort_by(f64::total_cmp);
            println!(
                "{:<34} {:>9.1} s {:>7.0} ms {:>9.2} ms {:>9.2} ms",
                format!("{} ({partitions})", scenario.id),
                timeline.end() as f64 / 1e6,
                record,
                seeks[SEEKS / 2],
                seeks[SEEKS - 1]
            );
        }
    }
}
