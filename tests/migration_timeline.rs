//! #62 item 6: a migration the page can scrub. Every scenario, recorded once, reaches any moment
//! by seeking (forwards and back, from the nearest copy) exactly as playing from the start
//! reaches it, and playing its recorded inputs again gives the scripted run itself.

use kraftscope::harness::Micros;
use kraftscope::migration::scenarios::SCENARIOS;
use kraftscope::migration::sim::MigrationConfig;
use kraftscope::migration::sim::MigrationSim;
use kraftscope::migration::timeline::{COPIED_PARTITIONS, EVERY, Recording, Timeline};
use kraftscope::util::rng::Rng;

#[test]
fn seeking_equals_playing_for_every_scenario() {
    for scenario in &SCENARIOS {
        for seed in [1, 7, 42] {
            let again =
                format!("cargo test --test suite migration_timeline::  # {} seed {seed}", scenario.id);
            let run = scenario.run(seed).unwrap();
            let mut timeline = Timeline::record(scenario, scenario.config(), seed).unwrap();
            assert_eq!(timeline.end(), run.now(), "{again}");
            assert_eq!(timeline.sim().trace(), run.trace(), "{again}: the replay's trace");
            assert_eq!(timeline.sim().fingerprint(), run.fingerprint(), "{again}: the replay's end");
            assert!(!run.inputs().is_empty() && timeline.end() > 4 * EVERY, "{again}: a run to scrub");

            // Moments at random, some on a copy's own time and some at the very end, visited
            // in random order (so most seeks go back or jump ahead).
            let mut rng = Rng::new(seed);
            let mut moments: Vec<Micros> = (0..12).map(|_| rng.below(timeline.end() + 1)).collect();
            moments.extend([0, EVERY, 3 * EVERY, timeline.end(), timeline.end() - 1]);
            let mut played = MigrationSim::new(scenario.config(), seed).unwrap();
            let mut ascending = moments.clone();
            ascending.sort_unstable();
            ascending.dedup();
            let expected: Vec<(Micros, u64, u64)> = ascending
                .iter()
                .map(|&t| {
                    played.replay(run.inputs(), t);
                    (t, played.events(), played.fingerprint())
                })
                .collect();
            for &t in &moments {
                timeline.seek(t);
                let (_, events, fingerprint) = expected.iter().find(|e| e.0 == t).unwrap();
                assert_eq!(timeline.sim().now(), t, "{again}");
                assert_eq!(
                    (timeline.sim().events(), timeline.sim().fingerprint()),
                    (*events, *fingerprint),
                    "{again}: seeking to {t} us differs from playing to it"
                );
            }
        }
    }
}

/// An operator's step or fault taken at a moment forks the timeline there: what was recorded
/// after it is forgotten, it plays on past the old end taking copies, and seeking anywhere in
/// the new timeline still equals playing its inputs from the start.
#[test]
fn an_action_forks_the_timeline_and_seeking_still_equals_playing() {
    use kraftscope::migration::scenarios;
    use kraftscope::migration::sim::Action;
    for (id, action) in
        [("migration", Action::KillActiveController), ("migration-zk-down", Action::KillBroker(3))]
    {
        let scenario = scenarios::find(id).unwrap();
        let mut timeline = Timeline::record(scenario, scenario.config(), 7).unwrap();
        let (recorded_end, fork) = (timeline.end(), timeline.end() / 2 + 123);
        timeline.seek(fork);
        timeline.act(action).unwrap_or_else(|e| panic!("{id}: {action} at {fork} us: {e}"));
        assert_eq!(timeline.end(), fork, "{id}: the timeline ends where it forked");
        assert_eq!(
            timeline.inputs().last().map(|i| (i.at, &i.what)),
            Some((fork, &kraftscope::migration::sim::InputKind::Act(action)))
        );
        let later = recorded_end + 30 * EVERY + 77;
        timeline.play_to(later);
        assert_eq!(timeline.end(), later);
        let inputs = timeline.inputs().to_vec();
        let mut played = MigrationSim::new(scenario.config(), 7).unwrap();
        let mut rng = Rng::new(3);
        let mut moments: Vec<Micros> = (0..10).map(|_| rng.below(later + 1)).collect();
        moments.extend([fork, fork - 1, fork + 1, later]);
        let mut ascending = moments.clone();
        ascending.sort_unstable();
        ascending.dedup();
        let expected: Vec<(Micros, u64)> = ascending
            .iter()
            .map(|&t| {
                played.replay(&inputs, t);
                (t, played.fingerprint())
            })
            .collect();
        for &t in &moments {
            timeline.seek(t);
            let (_, fingerprint) = expected.iter().find(|e| e.0 == t).unwrap();
            assert_eq!(
                timeline.sim().fingerprint(),
                *fingerprint,
                "{id}: seeking to {t} us in the forked timeline"
            );
        }
        // A refused step changes nothing.
        timeline.seek(later);
        let before = timeline.sim().fingerprint();
        assert!(timeline.act(Action::ProvisionControllers).is_err());
        assert_eq!((timeline.end(), timeline.sim().fingerprint()), (later, before));
    }
}

/// A run recorded in slices of a few events (as the page records a large cluster's, a slice a
/// frame) is the run recorded at once: the same end, trace and state.
#[test]
fn recording_in_slices_equals_recording_at_once() {
    for scenario in &SCENARIOS {
        let again =
            format!("cargo test --test suite migration_timeline::recording_in_slices  # {}", scenario.id);
        let whole = Timeline::record(scenario, scenario.config(), 3).unwrap();
        let mut recording = Recording::new(scenario, scenario.config(), 3).unwrap();
        let mut rng = Rng::new(3);
        let mut slices = 0;
        let mut seen = (0, None);
        while !recording.advance(&mut (1 + rng.below(40))).unwrap() {
            slices += 1;
            let progress = recording.progress();
            assert!(progress >= seen || progress.1 > seen.1, "{again}: progress goes back");
            seen = progress;
        }
        assert!(slices > 10, "{again}: {slices} slices");
        let sliced = recording.finish().expect("recorded");
        assert_eq!(sliced.end(), whole.end(), "{again}");
        assert_eq!(sliced.sim().trace(), whole.sim().trace(), "{again}");
        assert_eq!(sliced.sim().fingerprint(), whole.sim().fingerprint(), "{again}");
    }
}

/// A large cluster's run keeps fewer copies, further apart (each holds the whole cluster), and
/// seeking in it still equals playing.
#[test]
fn a_large_cluster_keeps_fewer_copies() {
    let scenario = &SCENARIOS[0];
    let config =
        MigrationConfig { topics: 25_000, partitions_per_topic: 2, checked: false, ..scenario.config() };
    let copies = COPIED_PARTITIONS / 50_000;
    let mut timeline = Timeline::record(scenario, config.clone(), 5).unwrap();
    assert!(timeline.every() > EVERY, "{} us apart", timeline.every());
    assert_eq!(timeline.every(), timeline.end().div_ceil(copies));
    let t = timeline.end() * 2 / 3;
    let mut played = MigrationSim::new(config, 5).unwrap();
    played.replay(timeline.inputs(), t);
    timeline.seek(t);
    assert_eq!(timeline.sim().fingerprint(), played.fingerprint());
}
