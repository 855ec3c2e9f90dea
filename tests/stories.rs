//! Every scripted story (the tour's steps, the scenarios a URL can open) reaches the state its
//! narration describes, the same way every time.

use kraftscope::quorum::{MS, Message, RoleKind};
use kraftscope::session::Session;
use kraftscope::session::stories::{TOUR, View, find};
use kraftscope::sim::TraceKind;
use kraftscope::sim::packet::Payload;

fn story(id: &str) -> Session {
    find(id).unwrap_or_else(|| panic!("no story {id}")).ending(1)
}

fn leader(session: &Session) -> (u32, u32) {
    let l = session.sim().leader().expect("a leader");
    (l.id(), l.epoch())
}

#[test]
fn the_first_election_has_a_leader_at_epoch_one() {
    assert_eq!(leader(&story("first-election")).1, 1);
}

#[test]
fn after_the_crash_a_new_leader_leads_a_higher_epoch() {
    let first = leader(&story("first-election"));
    let after = leader(&story("leader-crash"));
    assert!(after.1 > first.1 && after.0 != first.0, "{first:?} then {after:?}");
}

#[test]
fn pre_vote_keeps_the_leader_and_epoch_while_without_it_the_epoch_jumps() {
    let calm = story("pre-vote");
    let (leader_before, epoch_before) = leader(&story("first-election"));
    assert_eq!(leader(&calm), (leader_before, epoch_before));
    assert_eq!(calm.sim().node(3).unwrap().role(), RoleKind::Follower);
    let disrupted = story("no-pre-vote");
    assert!(leader(&disrupted).1 > 2, "without pre-vote the epoch climbs: {:?}", leader(&disrupted));
}

#[test]
fn brokers_hold_the_new_topic_and_a_restarted_broker_fetched_only_the_delta() {
    let fetched = story("brokers-fetch");
    for broker in [101, 102, 103] {
        assert_eq!(fetched.sim().node(broker).unwrap().applied().state.image.topics().count(), 1);
    }
    // After its restart n101 asks from the end of the log it kept on disk, not from offset 0.
    let restarted = story("broker-restart");
    let first_fetch = restarted
        .log()
        .iter()
        .filter(|l| l.at >= 6_000 * MS)
        .find_map(|l| match &l.kind {
            TraceKind::Deliver(p) if p.from == 101 => match &p.payload {
                Payload::Quorum(Message::Fetch { fetch_offset, .. }) => Some(*fetch_offset),
                _ => None,
            },
            _ => None,
        })
        .expect("n101 fetches after its restart");
    let topic_records = 41;
    assert!(
        first_fetch > topic_records,
        "n101's first fetch after the restart starts at offset {first_fetch}"
    );
}

#[test]
fn the_far_behind_broker_loaded_a_snapshot() {
    let session = story("snapshot");
    assert_eq!(session.sim().node(103).unwrap().snapshots_loaded(), 1);
}

#[test]
fn the_silent_broker_is_fenced_and_the_shut_down_one_stopped() {
    let fenced = story("fencing");
    let image = &fenced.sim().leader().unwrap().applied().state.image;
    assert!(image.brokers().get(&101).is_some_and(|b| b.fenced));
    assert!(!image.leads_any(101));
    let shut = story("controlled-shutdown");
    assert!(shut.sim().node(102).is_none(), "n102 stopped after its controlled shutdown");
}

#[test]
fn every_story_is_deterministic_and_failover_stories_name_a_race_and_pain_stories_their_pain() {
    for story in TOUR {
        match story.view {
            View::Cluster => {
                let (a, b) = (story.ending(5), story.ending(5));
                assert_eq!(a.sim().events_processed(), b.sim().events_processed(), "{}", story.id);
                assert!(story.race.is_none());
            }
            View::Failover => assert!(story.race.is_some(), "{}", story.id),
            View::Pain(pain) => {
                assert_eq!((story.id, story.race), (pain.id(), None), "a pain story is named after its pain");
                let trace = |pain: kraftscope::zk::Pain| {
                    let mut zk = pain.cluster();
                    zk.run_until(pain.moments().1).iter().map(ToString::to_string).collect::<Vec<_>>()
                };
                assert_eq!(trace(pain), trace(pain), "{}", story.id);
            }
        }
    }
}
