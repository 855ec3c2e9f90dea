//! Every scripted story (the tour's steps, the scenarios a URL can open) reaches the state its
//! narration describes, the same way every time.

use kraftscope::harness::MS;
use kraftscope::migration::scenarios;
use kraftscope::quorum::{Message, RoleKind};
use kraftscope::session::Session;
use kraftscope::sim::TraceKind;
use kraftscope::sim::packet::Payload;
use kraftscope::teaching::stories::{TOUR, View, find};

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
            TraceKind::Deliver(p, _) if p.from == 101 => match &p.payload {
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
            View::Migration => {
                let script = story.migration.expect("a migration story names its scenario");
                let opens = || {
                    let run = scenarios::find(script.scenario).expect("a scenario").run(5).expect("it runs");
                    script.opens_at(run.trace())
                };
                assert!(opens().is_some() && opens() == opens() && story.race.is_none(), "{}", story.id);
            }
        }
    }
}

/// The ids of the voter set the cluster's most up-to-date controller holds, committed.
fn committed_voters(session: &Session) -> Vec<u32> {
    session.sim().committed_voter_set().ids().collect()
}

#[test]
fn the_sizing_chapter_ends_where_its_narration_says() {
    for seed in [1, 2, 3] {
        let odd = find("odd-quorum").unwrap().ending(seed);
        let up = odd.sim().running_nodes().filter(|n| n.id() < 100).count();
        assert_eq!((up, committed_voters(&odd).len()), (2, 4), "seed {seed}: two of four voters left");
        assert!(odd.sim().leader().is_none(), "seed {seed}: 2 of 4 is no majority, nobody leads");

        let added = find("add-controller").unwrap().ending(seed);
        assert_eq!(committed_voters(&added), vec![1, 2, 3, 4], "seed {seed}");
        assert!(added.sim().node(4).is_some_and(|n| n.is_voter()), "seed {seed}: n4 votes");

        let replaced = find("replace-disk").unwrap().ending(seed);
        assert_eq!(committed_voters(&replaced), vec![1, 2, 3], "seed {seed}");
        let n3 = replaced.sim().node(3).expect("n3 runs");
        assert!(n3.is_voter(), "seed {seed}: the new n3 is the voter");
        let key = replaced.sim().committed_voter_set().key_of(3).unwrap();
        assert_eq!(key, n3.key(), "seed {seed}: the voter entry names the new directory");

        let left = find("leader-leaves").unwrap();
        let before = left.opening(seed);
        let first = before.sim().leader().map(|l| l.id()).expect("a leader before the removal");
        let after = left.ending(seed);
        assert!(!committed_voters(&after).contains(&first), "seed {seed}: n{first} left the voters");
        let now = after.sim().leader().map(|l| l.id());
        assert!(now.is_some_and(|l| l != first), "seed {seed}: another voter leads: {now:?}");
    }
}
