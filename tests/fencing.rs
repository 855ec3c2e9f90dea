//! The active controller fences brokers whose sessions expired one at a time
//! (`ReplicationControlManager.maybeFenceOneStaleBroker`, 4.3.1), but a check that fenced one
//! runs again 10 ms later (`PeriodicTask`'s immediate period), not a whole check period
//! (an eighth of `broker.session.timeout.ms`) later.

use kraftscope::quorum::{MS, Micros};
use kraftscope::sim::{ClusterConfig, Simulation};

/// When each of `brokers` is first seen fenced in the active controller's image, polling
/// every millisecond.
fn fenced_at(sim: &mut Simulation, brokers: &[u32]) -> Vec<Micros> {
    let mut at = vec![None; brokers.len()];
    while at.iter().any(Option::is_none) {
        let now = sim.now() + MS;
        assert!(now < 60_000 * MS, "not fenced within a minute: {at:?}");
        sim.run_until(now);
        let Some(leader) = sim.leader() else { continue };
        let image = &leader.applied().state.image;
        for (seen, id) in at.iter_mut().zip(brokers) {
            if seen.is_none() && image.brokers().get(id).is_some_and(|b| b.fenced) {
                *seen = Some(now);
            }
        }
    }
    at.into_iter().flatten().collect()
}

#[test]
fn brokers_that_go_silent_together_are_fenced_one_right_after_the_other() {
    let config = ClusterConfig { voters: 3, observers: 3, ..ClusterConfig::default() };
    let session = config.metadata.session_timeout;
    let mut sim = Simulation::new(config, 5);
    sim.run_until(8_000 * MS);
    let crashed_at = sim.now();
    sim.crash(101).unwrap();
    sim.crash(102).unwrap();
    let at = fenced_at(&mut sim, &[101, 102]);
    let (first, last) = (at.iter().min().copied().unwrap(), at.iter().max().copied().unwrap());
    assert!(first - crashed_at >= session, "not before the session timeout: {at:?}");
    assert!(first - crashed_at <= session + session / 8 + 100 * MS, "within a check period after: {at:?}");
    assert!(last - first < session / 8, "the second right after the first, not a period later: {at:?}");
}
