//! The page's quorum actions (KIP-853) through its reducer: a new controller joins as an
//! observer and is added, a voter is removed, refusals show Kafka's error name, and a share
//! link carries the changes.

use kraftscope::kafka_log::quorum::QuorumDescription;
use kraftscope::page::host::Command;
use kraftscope::page::{Action, Effect, PageState};
use kraftscope::session::Action as Act;
use kraftscope::session::picture::Membership;

const FRAME_MS: f64 = 1_000.0 / 60.0;

fn page(query: &str) -> PageState {
    PageState::new(query, "http://localhost:8080/", false)
}

/// Play frames until `done` holds (at most `seconds` of real time at the page's speed).
fn play_until(page: &mut PageState, seconds: f64, done: impl Fn(&PageState) -> bool) -> bool {
    for _ in 0..(seconds * 1_000.0 / FRAME_MS) as usize {
        if done(page) {
            return true;
        }
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
    done(page)
}

fn membership(page: &PageState, id: u32) -> Option<Membership> {
    page.live.picture.nodes.iter().find(|n| n.id == id).and_then(|n| n.membership)
}

/// Whether controller `id`'s log reaches the leader's end.
fn caught_up(page: &PageState, id: u32) -> bool {
    let (leader, node) = (page.session.sim().leader(), page.session.sim().node(id));
    leader.zip(node).is_some_and(|(l, n)| n.log().end_offset() >= l.log().end_offset())
}

/// A page at 1x whose first leader was elected and committed its voter set.
fn led(query: &str) -> PageState {
    led_from(page(&format!("?speed=1{query}")))
}

/// `page` played until its first leader committed its voter set.
fn led_from(mut page: PageState) -> PageState {
    let committed = |p: &PageState| p.session.sim().leader().and_then(|l| l.high_watermark()).is_some();
    assert!(play_until(&mut page, 10.0, committed));
    page
}

#[test]
fn a_new_controller_joins_as_an_observer_and_is_added_then_removed() {
    let mut page = led("");
    assert_eq!(page.live.picture.quorum.majority(), "2 of 3 voters must agree; 1 may fail");
    assert!(page.live.picture.quorum.dynamic, "the page formats a dynamic quorum");
    page.reduce(Action::Act(Act::NewController));
    page.reduce(Action::Frame { elapsed: FRAME_MS });
    assert_eq!(membership(&page, 4), Some(Membership::Observer), "{}", page.status);
    // Let it catch up as an observer, then add it.
    assert!(play_until(&mut page, 10.0, |p| caught_up(p, 4)));
    page.reduce(Action::Act(Act::AddVoter(4)));
    let mut joining = false;
    assert!(play_until(&mut page, 10.0, |p| membership(p, 4) == Some(Membership::Voter)), "{}", page.status);
    joining |= page.status.contains("committed, answered NONE");
    assert!(joining, "the status line says the change committed: {}", page.status);
    assert_eq!(page.live.picture.quorum.voters, vec![1, 2, 3, 4]);
    assert_eq!(page.live.picture.quorum.majority(), "3 of 4 voters must agree; 1 may fail");
    page.reduce(Action::Act(Act::RemoveVoter(2)));
    assert!(
        play_until(&mut page, 10.0, |p| p.live.picture.quorum.committed == vec![1, 3, 4]),
        "{}",
        page.status
    );
    assert_eq!(membership(&page, 2), Some(Membership::Observer));
    assert_eq!(page.live.picture.quorum.majority(), "2 of 3 voters must agree; 1 may fail");
}

#[test]
fn the_voter_change_is_drawn_pending_until_it_commits() {
    let mut page = led("");
    page.reduce(Action::TogglePlay);
    page.reduce(Action::Act(Act::RemoveVoter(3)));
    let mut seen = Vec::new();
    while page.live.picture.quorum.committed != vec![1, 2] {
        page.reduce(Action::Step);
        let m = membership(&page, 3);
        if seen.last() != Some(&m) {
            seen.push(m);
        }
        assert!(seen.len() < 10 && page.session.now() < 30_000_000, "{seen:?}");
    }
    assert_eq!(
        seen.first().copied().flatten(),
        Some(Membership::Leaving),
        "the removal counts at once, before it commits: {seen:?}"
    );
    assert!(
        page.live.picture.quorum.describe().contains("Voters n1 n2"),
        "{}",
        page.live.picture.quorum.describe()
    );
}

#[test]
fn refusals_name_kafkas_error() {
    let mut page = led("");
    page.reduce(Action::Act(Act::RemoveVoter(3)));
    page.reduce(Action::Act(Act::RemoveVoter(2)));
    assert!(
        page.status.contains("REQUEST_TIMED_OUT"),
        "a second change while one is pending: {}",
        page.status
    );
    assert_eq!(page.session.actions().len(), 1, "a refused change is not recorded");
    page.reduce(Action::Act(Act::AddVoter(101)));
    assert!(page.status.contains("n101 is a broker, not a controller"), "{}", page.status);

    let mut fixed = led("&quorum=static");
    assert!(!fixed.live.picture.quorum.dynamic);
    fixed.reduce(Action::Act(Act::NewController));
    fixed.reduce(Action::Frame { elapsed: FRAME_MS });
    fixed.reduce(Action::Act(Act::AddVoter(4)));
    assert!(fixed.status.contains("UNSUPPORTED_VERSION"), "{}", fixed.status);

    let mut full = led("&voters=7");
    full.reduce(Action::Act(Act::NewController));
    assert!(full.status.contains("at most 7 controllers"), "{}", full.status);
    assert_eq!(full.session.sim().controller_ids().len(), 7);
}

#[test]
fn a_share_link_reopens_the_changed_voter_set() {
    let mut page = led("");
    page.reduce(Action::Act(Act::WipeDisk(3)));
    assert!(play_until(&mut page, 10.0, |p| membership(p, 3) == Some(Membership::WipedVoter)));
    page.reduce(Action::Act(Act::RemoveVoter(3)));
    assert!(
        play_until(&mut page, 10.0, |p| p.live.picture.quorum.committed == vec![1, 2]),
        "{}",
        page.status
    );
    page.reduce(Action::TogglePlay);
    let link = page.reduce(Action::Share).effects.into_iter().find_map(|e| match e {
        Effect::Copy(url) => Some(url),
        _ => None,
    });
    let link = link.expect("a share link");
    assert!(
        link.contains("quorum=initial-controllers") && link.contains(".w3~") && link.contains(".d3"),
        "{link}"
    );
    let query = &link[link.find('?').unwrap()..];
    let mut reopened = PageState::new(query, "http://localhost:8080/", false);
    assert!(play_until(&mut reopened, 30.0, |p| p.live.reopening.is_none()));
    reopened.reduce(Action::Frame { elapsed: FRAME_MS });
    assert_eq!(reopened.live.picture.quorum, page.live.picture.quorum);
    assert_eq!(membership(&reopened, 3), Some(Membership::Observer));
    assert!(reopened.notices.is_empty(), "{:?}", reopened.notices);
}

#[test]
fn the_host_hears_voters_changed_when_the_change_is_appended_and_when_it_commits() {
    use kraftscope::page::host::HostEvent;
    let mut page = led("");
    let mut heard = Vec::new();
    let mut outcome = page.reduce(Action::Act(Act::RemoveVoter(3)));
    for _ in 0..600 {
        for effect in std::mem::take(&mut outcome.effects) {
            if let Effect::Post(HostEvent::VotersChanged { voters, pending, .. }) = effect {
                heard.push((voters, pending));
            }
        }
        outcome = page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
    assert_eq!(heard, [(vec![1, 2], true), (vec![1, 2], false)]);
}

#[test]
fn the_settings_form_resets_to_the_format_and_roles_chosen() {
    use kraftscope::session::Settings;
    use kraftscope::sim::simulation::QuorumFormat;
    let mut page = page("?speed=1");
    let form = Settings { quorum: QuorumFormat::Standalone, combined: true, ..page.live.form.clone() };
    page.reduce(Action::Edit(form));
    page.reduce(Action::Reset);
    assert_eq!(page.status, "Reset: seed 1, 3 controllers (combined nodes) formatted standalone, 3 brokers");
    assert!(page.session.sim().runs_broker(2));
    let mut page = led_from(page);
    assert_eq!(page.live.picture.quorum.voters, vec![1], "--standalone: n1 alone votes");
    assert_eq!(membership(&page, 2), Some(Membership::Observer));
    assert!(play_until(&mut page, 10.0, |p| caught_up(p, 2)));
    page.reduce(Action::Act(Act::AddVoter(2)));
    assert!(
        play_until(&mut page, 20.0, |p| p.live.picture.quorum.committed == vec![1, 2]),
        "{}",
        page.status
    );
}

/// Tour step 20 (a leader removes itself): once the status line says the removal committed, the
/// Quorum panel does not call it uncommitted, and the drawing shows the leaver out of the voters.
#[test]
fn once_a_removal_is_said_committed_the_panel_and_the_drawing_agree() {
    let step =
        kraftscope::teaching::stories::TOUR.iter().position(|s| s.id == "leader-leaves").expect("the step");
    let mut page = page(&format!("?tour={}", step + 1));
    let said_committed = |page: &PageState| {
        page.status.contains("RemoveRaftVoter") && page.status.contains("committed, answered NONE")
    };
    assert!(play_until(&mut page, 30.0, said_committed), "the removal commits: {}", page.status);
    for _ in 0..600 {
        if said_committed(&page) {
            let panel = page.live.picture.quorum.describe();
            assert!(
                !panel.contains("Not committed yet"),
                "at {} us the notice says '{}' and the panel '{panel}'",
                page.session.now(),
                page.status
            );
            let leaving: Vec<u32> = page
                .live
                .picture
                .nodes
                .iter()
                .filter(|n| n.membership == Some(Membership::Leaving))
                .map(|n| n.id)
                .collect();
            assert!(leaving.is_empty(), "at {} us n{leaving:?} still drawn leaving", page.session.now());
        }
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
}

/// A wiped controller's old voter entry and its new directory are two keys of one node id: the
/// status line says what the wipe did, and the Quorum panel names both directories.
#[test]
fn after_a_disk_wipe_the_status_and_the_panel_name_both_directories() {
    let mut page = led("");
    let old = page.session.sim().node(3).expect("n3 runs").key();
    page.reduce(Action::Act(Act::WipeDisk(3)));
    assert!(play_until(&mut page, 10.0, |p| p.session.sim().node(3).is_some_and(|n| n.key() != old)));
    let new = page.session.sim().node(3).expect("n3 runs again").key();
    assert_eq!(membership(&page, 3), Some(Membership::WipedVoter));
    for _ in 0..120 {
        page.reduce(Action::Frame { elapsed: FRAME_MS });
        assert!(page.status.contains("Wiped n3's disk"), "the status says what happened: {}", page.status);
    }
    let panel = page.live.picture.quorum.describe();
    assert!(
        panel.contains(&old.to_string()) && panel.contains(&new.to_string()),
        "{old} and {new} in: {panel}"
    );
    assert_eq!(
        page.live.picture.quorum.names_for_change(3),
        (new.to_string(), old.to_string()),
        "add the new key, remove the old"
    );
    assert_eq!(page.live.picture.quorum.names_for_change(2), ("n2".to_string(), "n2".to_string()));
}

/// A new controller that found the leader: its circle and the line over it agree that it is an
/// observer (not "follower" inside and "observer" above).
#[test]
fn an_observer_following_the_leader_reads_observer_once() {
    let mut page = led("");
    page.reduce(Action::Act(Act::NewController));
    let following = |p: &PageState| {
        p.live
            .picture
            .nodes
            .iter()
            .any(|n| n.id == 4 && n.role == Some(kraftscope::quorum::RoleKind::Follower))
    };
    assert!(play_until(&mut page, 10.0, following), "n4 follows the leader");
    let n4 = page.live.picture.nodes.iter().find(|n| n.id == 4).expect("n4 drawn");
    assert_eq!(n4.membership, Some(Membership::Observer));
    assert_eq!(n4.role_text().0, "observer");
    assert_eq!(n4.membership_shown(), None, "the line over it does not say it again");
    let voter = page
        .live
        .picture
        .nodes
        .iter()
        .find(|n| n.id != 4 && n.role == Some(kraftscope::quorum::RoleKind::Follower));
    assert_eq!(voter.map(|n| n.role_text().0), Some("follower"), "a voter that follows reads follower");
}

/// A static quorum becomes dynamic from the page: the Quorum panel names the voters the leader
/// has not heard UpdateRaftVoter from, the upgrade (here the host page's command) is refused
/// (INVALID_UPDATE_VERSION, an `error` event) until it has heard from all, then writes the first VotersRecord, after which a
/// new controller can be added; a share link replays the upgrade.
#[test]
fn a_static_quorum_is_upgraded_once_every_voter_has_sent_update_raft_voter() {
    let mut page = led("&quorum=static");
    let leader = page.session.sim().leader().map(|l| l.id()).unwrap();
    let followers: Vec<String> =
        [1, 2, 3].iter().filter(|&&v| v != leader).map(|v| format!("n{v}")).collect();
    let waiting = format!("waits for UpdateRaftVoter from {}", followers.join(" "));
    assert!(
        page.live.picture.quorum.describe().contains(&waiting),
        "{}",
        page.live.picture.quorum.describe()
    );
    let effects = page.reduce(Action::Host(Command::UpgradeKRaftVersion)).effects;
    assert!(page.status.contains("INVALID_UPDATE_VERSION"), "{}", page.status);
    assert!(format!("{effects:?}").contains("INVALID_UPDATE_VERSION"), "the host hears it: {effects:?}");
    assert!(!page.live.picture.quorum.dynamic);

    let heard =
        |p: &PageState| p.live.picture.quorum.upgrade_waits_for.as_ref().is_some_and(|w| w.is_empty());
    assert!(play_until(&mut page, 10.0, heard), "{}", page.live.picture.quorum.describe());
    assert!(page.live.picture.quorum.describe().contains("kraft.version can be upgraded to 1"));
    page.reduce(Action::Act(Act::UpgradeKRaftVersion));
    assert!(play_until(&mut page, 2.0, |p| p.live.picture.quorum.dynamic), "{}", page.status);
    assert!(page.live.picture.quorum.describe().contains("kraft.version 1: VotersRecords in the log"));
    assert_eq!(page.live.picture.quorum.upgrade_waits_for, None, "no in-memory voters after the upgrade");

    page.reduce(Action::Act(Act::NewController));
    assert!(play_until(&mut page, 10.0, |p| caught_up(p, 4)));
    page.reduce(Action::Act(Act::AddVoter(4)));
    assert!(play_until(&mut page, 10.0, |p| membership(p, 4) == Some(Membership::Voter)), "{}", page.status);

    page.reduce(Action::TogglePlay);
    let link = page.reduce(Action::Share).effects.into_iter().find_map(|e| match e {
        Effect::Copy(url) => Some(url),
        _ => None,
    });
    let link = link.expect("a share link");
    assert!(link.contains(".u~") || link.ends_with(".u"), "the upgrade is recorded: {link}");
    let query = &link[link.find('?').unwrap()..];
    let mut reopened = PageState::new(query, "http://localhost:8080/", false);
    assert!(play_until(&mut reopened, 30.0, |p| p.live.reopening.is_none()));
    reopened.reduce(Action::Frame { elapsed: FRAME_MS });
    assert_eq!(reopened.live.picture.quorum, page.live.picture.quorum);
    assert!(reopened.notices.is_empty(), "{:?}", reopened.notices);
}

/// The quorum panel's `describe --replication` table is the active controller's
/// `DescribeQuorum` answer at this moment: the leader's row first, the voters as followers, the
/// brokers as observers. Killed, the old leader is a row the new leader has heard nothing from
/// (-1), and the controller line names the new leader beside what a broker tells admin tools.
#[test]
fn the_quorum_panel_describes_the_quorum_as_the_active_controller_answers() {
    let mut page = led("");
    let _ = play_until(&mut page, 3.0, |_| false);
    let sim = page.session.sim();
    let leader = sim.leader().expect("a leader");
    let old = leader.id();
    let tools = &page.live.picture.quorum.tools;
    assert_eq!(tools.described, QuorumDescription::of_leader(leader, sim.now()));
    let rows = &tools.described.as_ref().unwrap().replicas;
    let statuses: Vec<(i64, &str)> = rows.iter().map(|r| (r.node_id, r.status)).collect();
    let brokers = sim.node_ids().filter(|id| !sim.controller_ids().contains(id)).count();
    assert_eq!(statuses[0], (i64::from(old), "Leader"));
    assert_eq!(statuses.iter().filter(|(_, s)| *s == "Follower").count(), sim.controller_ids().len() - 1);
    assert_eq!(statuses.iter().filter(|(_, s)| *s == "Observer").count(), brokers, "the brokers observe");
    assert!(rows.iter().all(|r| r.last_fetch_timestamp >= 0), "every replica fetched: {rows:?}");

    page.reduce(Action::Act(Act::KillLeader));
    let new_leader = |p: &PageState| p.session.sim().leader().is_some_and(|l| l.id() != old);
    assert!(play_until(&mut page, 15.0, new_leader));
    let sim = page.session.sim();
    let leader = sim.leader().unwrap();
    let tools = &page.live.picture.quorum.tools;
    let rows = &tools.described.as_ref().unwrap().replicas;
    let dead = rows.iter().find(|r| r.node_id == i64::from(old)).expect("the old leader is still a voter");
    assert_eq!((dead.log_end_offset, dead.last_fetch_timestamp, dead.status), (-1, -1, "Follower"));
    let text = tools.controller_text();
    let said = format!("Active controller: n{}, epoch {}.", leader.id(), leader.epoch());
    assert!(text.starts_with(&said), "{text}");
    assert!(text.contains("Admin tools asking broker n"), "{text}");
}
