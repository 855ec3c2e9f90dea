//! The cluster in words for screen readers (`session::summary`): the sentence a live region
//! announces, checked against the simulation it describes.

use kraftscope::harness::MS;
use kraftscope::quorum::RoleKind;
use kraftscope::session::picture::{ClusterPicture, Membership, NodePicture, QuorumPicture, picture};
use kraftscope::session::summary::summary;
use kraftscope::session::{Action, Session, Settings};

fn node(id: u32, voter: bool, role: Option<RoleKind>, epoch: u32, applied: u64) -> NodePicture {
    NodePicture {
        id,
        label: format!("n{id}"),
        voter,
        role,
        epoch,
        leader: None,
        voted_for: None,
        timeout: None,
        cells: Vec::new(),
        log_start: 0,
        log_end: applied,
        high_watermark: None,
        known_committed: 0,
        doomed_from: None,
        lifecycle: (!voter && role.is_some()).then_some("RUNNING"),
        applied_offset: applied,
        lag: None,
        topics: 0,
        partitions: 0,
        fenced: (!voter).then_some(false),
        combined: false,
        membership: voter.then_some(Membership::Voter),
    }
}

fn drawn(nodes: Vec<NodePicture>) -> ClusterPicture {
    ClusterPicture {
        now: 0,
        nodes,
        messages: Vec::new(),
        links: Vec::new(),
        cut_links: Vec::new(),
        broken: None,
        quorum: QuorumPicture::default(),
    }
}

#[test]
fn the_issue_example_reads_as_written() {
    let picture = drawn(vec![
        node(1, true, None, 2, 0),
        node(2, true, Some(RoleKind::Leader), 3, 120),
        node(3, true, Some(RoleKind::Follower), 3, 120),
        node(101, false, Some(RoleKind::Follower), 3, 120),
        node(102, false, Some(RoleKind::Follower), 3, 120),
        node(103, false, Some(RoleKind::Follower), 3, 118),
    ]);
    assert_eq!(
        summary(&picture).to_string(),
        "n2 leads at epoch 3; n1 is down; brokers at offset 120, n103 two records behind."
    );
}

#[test]
fn an_election_names_the_campaigners_and_fenced_or_starting_brokers() {
    let mut starting = node(102, false, Some(RoleKind::Follower), 4, 30);
    starting.lifecycle = Some("RECOVERY");
    let mut fenced = node(103, false, Some(RoleKind::Follower), 4, 40);
    fenced.fenced = Some(true);
    let picture = drawn(vec![
        node(1, true, None, 3, 0),
        node(2, true, Some(RoleKind::Candidate), 5, 40),
        node(3, true, Some(RoleKind::Prospective), 4, 40),
        node(101, false, None, 4, 40),
        starting,
        fenced,
    ]);
    assert_eq!(
        summary(&picture).to_string(),
        "no leader at epoch 5: n2 and n3 are campaigning; n1 and n101 are down; n103 is fenced; \
         n102 in RECOVERY; brokers at offset 40, n102 10 records behind."
    );
}

#[test]
fn a_live_cluster_is_summed_up_and_a_kill_changes_the_story_but_a_fetch_does_not() {
    let mut session = Session::new(Settings::default());
    session.advance_to(4_000 * MS, usize::MAX);
    let before = summary(&picture(session.sim(), &[], 2_000 * MS, None));
    let leader = session.sim().leader().expect("a leader after 4 s");
    let (id, epoch) = (leader.id(), leader.epoch());
    let text = before.to_string();
    assert!(text.starts_with(&format!("n{id} leads at epoch {epoch}; brokers at offset ")), "{text}");

    session.act(Action::CreateTopic { partitions: 3, replication: 2 }).unwrap();
    session.advance_to(6_000 * MS, usize::MAX);
    let grown = summary(&picture(session.sim(), &[], 2_000 * MS, None));
    assert_ne!(grown.to_string(), text, "the brokers' offset moved");
    assert!(grown.same_story(&before), "new records alone are not news: {grown}");

    session.act(Action::KillLeader).unwrap();
    let killed = summary(&picture(session.sim(), &[], 2_000 * MS, None));
    assert!(killed.to_string().contains(&format!("n{id} is down")), "{killed}");
    assert!(!killed.same_story(&before), "a kill is news");
    session.advance_to(12_000 * MS, usize::MAX);
    let after = summary(&picture(session.sim(), &[], 2_000 * MS, None)).to_string();
    let new = session.sim().leader().expect("a new leader");
    assert!(
        after.starts_with(&format!("n{} leads at epoch {}; n{id} is down", new.id(), new.epoch())),
        "{after}"
    );
}
