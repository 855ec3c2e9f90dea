//! Shared links reopen the very same state: the fingerprint of the whole cluster matches at
//! random pause points (mid-frame, mid-instant after single steps, mid-election), and a damaged
//! link still opens, with a notice naming what did not match.

use kraftscope::harness::MS;
use kraftscope::page::params::PageParams;
use kraftscope::quorum::RoleKind;
use kraftscope::session::{Action, Session, Settings};
use kraftscope::util::rng::Rng;

/// Whether an election is under way: no leader, or a voter campaigning.
fn mid_election(session: &Session) -> bool {
    let sim = session.sim();
    sim.leader().is_none()
        || sim.running_nodes().any(|n| matches!(n.role(), RoleKind::Candidate | RoleKind::Prospective))
}

/// Share `session` and open the link as a fresh page would; returns the reopened session and
/// the notices.
fn reopen(session: &Session) -> (Session, Vec<String>) {
    let (params, mut notices) = PageParams::parse(&PageParams::share_query(session));
    let (reopened, problem) = params.open_session(params.settings.clone());
    notices.extend(problem);
    (reopened, notices)
}

/// Moves `session` on by a random amount the way the page does: a frame with a small event
/// budget (which may stop short), a few single steps, an action, or a seek back to just before
/// a recorded action followed by single steps onto its moment (where the action is still ahead).
fn wander(session: &mut Session, rng: &mut Rng) {
    match rng.below(12) {
        10 | 11 => {
            if let Some(action) = session.actions().last().cloned() {
                session.seek(action.at.saturating_sub(rng.range(1, 3) * MS)).unwrap();
                while session.events() < action.events && session.step() {}
            }
        }
        0..=4 => {
            let target = session.now() + rng.range(1, 400) * MS + rng.below(1000);
            session.advance_to(target, rng.range(1, 40) as usize);
        }
        5..=7 => {
            for _ in 0..rng.range(1, 4) {
                session.step();
            }
        }
        8 => {
            let _ = session.act(Action::KillLeader);
        }
        _ => {
            let down: Vec<u32> =
                session.sim().node_ids().filter(|id| session.sim().server(*id).is_none()).collect();
            let action = match down.first() {
                Some(id) => Action::Restart(*id),
                None => Action::CreateTopic { partitions: rng.range(1, 6) as u32, replication: 2 },
            };
            let _ = session.act(action);
        }
    }
}

#[test]
fn a_shared_link_reopens_the_same_fingerprint_at_random_pause_points() {
    let mut elections = 0;
    let mut points = 0;
    for seed in [1, 7, 42] {
        let mut rng = Rng::new(seed);
        let mut session = Session::new(Settings { seed, ..Settings::default() });
        for _ in 0..60 {
            wander(&mut session, &mut rng);
            let (reopened, notices) = reopen(&session);
            assert!(notices.is_empty(), "seed {seed}: {notices:?}");
            assert_eq!(reopened.fingerprint(), session.fingerprint(), "seed {seed}");
            elections += usize::from(mid_election(&session));
            points += 1;
        }
    }
    assert!(elections >= 10, "only {elections} of {points} pause points fell in an election");
}

/// A session paused just after a single step, between two events of the same microsecond when
/// the seed gives one.
fn paused_mid_run() -> Session {
    let mut session = Session::new(Settings { seed: 5, ..Settings::default() });
    session.advance_to(3_000 * MS, usize::MAX);
    session.act(Action::KillLeader).unwrap();
    session.advance_to(3_400 * MS, usize::MAX);
    session.step();
    session
}

#[test]
fn a_damaged_link_opens_with_a_notice_naming_what_did_not_match() {
    let session = paused_mid_run();
    let query = PageParams::share_query(&session);
    let code = session.fingerprint().code();
    let other = if code.starts_with('0') { "10000000" } else { "00000000" };
    let (params, notices) = PageParams::parse(&query.replace(&code, other));
    assert!(notices.is_empty(), "{notices:?}");
    let (reopened, problem) = params.open_session(params.settings.clone());
    let problem = problem.expect("a fingerprint mismatch is reported");
    assert!(
        problem.starts_with("fp:") && problem.contains(other) && problem.contains("opened anyway"),
        "{problem}"
    );
    assert_eq!(reopened.fingerprint(), session.fingerprint(), "the link still opens at its moment");

    let events = session.events();
    let now = session.now();
    let (params, _) = PageParams::parse(
        &query.replace(&format!("at={now}.{events}."), &format!("at={now}.{}.", events + 1_000_000)),
    );
    let (_, problem) = params.open_session(params.settings.clone());
    let problem = problem.expect("an unreachable moment is reported");
    assert!(problem.starts_with("at:") && problem.contains(&(events + 1_000_000).to_string()), "{problem}");

    for (garbled, key) in [
        ("at=12x.4", "at:"),
        ("at=1000", "at:"),
        ("at=1000.4.x", "at:"),
        ("at=1000.4.1.1", "at:"),
        ("fp=xyz", "fp:"),
        ("at=999999999999.1", "at:"),
    ] {
        let (params, notices) = PageParams::parse(&format!("seed=5&{garbled}"));
        assert_eq!(notices.len(), 1, "{garbled}: {notices:?}");
        assert!(notices[0].starts_with(key), "{garbled}: {notices:?}");
        assert_eq!((params.at, params.events, params.fingerprint), (None, None, None));
    }
}

#[test]
fn the_fingerprint_tells_apart_two_moments_of_the_same_millisecond() {
    let mut session = Session::new(Settings { seed: 5, ..Settings::default() });
    session.advance_to(2_000 * MS, usize::MAX);
    let before = session.fingerprint();
    session.step();
    assert_ne!(session.fingerprint(), before);
    assert!(before.summary.starts_with("2000000 us, "), "{}", before.summary);
}

#[test]
fn duplication_and_reordering_set_on_the_page_are_named_in_the_log_and_kept_by_a_share_link() {
    let mut session = Session::new(Settings::default());
    session.advance_to(2_000 * MS, usize::MAX);
    let chaos = Action::Network {
        latency_min_ms: 10,
        latency_max_ms: 30,
        drop_percent: 0,
        duplicate_percent: 30,
        reorder: true,
    };
    session.act(chaos).unwrap();
    session.advance_to(8_000 * MS, usize::MAX);
    let counts = session.sim().chaos_counts();
    assert!(counts.duplicated > 0 && counts.overtaken > 0, "{counts:?}");
    let said = |ending: &str| session.log().iter().filter(|l| l.kind.to_string().ends_with(ending)).count();
    assert!(said("(a duplicate: its second copy)") > 0, "each second copy is named in the event log");
    assert!(said("(overtook a message sent before it)") > 0, "each overtaking message is named");
    assert!(session.sim().leader().is_some(), "the quorum still leads through them");
    let (reopened, notices) = reopen(&session);
    assert_eq!(notices, Vec::<String>::new());
    assert_eq!((reopened.now(), reopened.sim().chaos_counts()), (session.now(), counts), "the same run");
}

#[test]
fn a_power_loss_and_a_torn_write_set_on_the_page_are_named_in_the_log_and_kept_by_a_share_link() {
    let mut session = Session::new(Settings::default());
    session.advance_to(4_000 * MS, usize::MAX);
    session.act(Action::PowerLoss(101)).unwrap();
    session.act(Action::TornWrite(2)).unwrap();
    session.advance_to(6_000 * MS, usize::MAX);
    let counts = session.sim().chaos_counts();
    assert_eq!((counts.power_losses, counts.torn_writes), (2, 1), "{counts:?}");
    let said = |session: &Session, part: &str| {
        session.log().iter().filter(|l| l.kind.to_string().contains(part)).count()
    };
    assert_eq!(said(&session, "n101's disk after the power loss: "), 1, "what the power loss took is named");
    assert_eq!(said(&session, "n2's disk after the power loss: the batch it was writing at offset "), 1);
    session.act(Action::Restart(2)).unwrap();
    session.advance_to(7_000 * MS, usize::MAX);
    let recovered = said(&session, "n2 recovers its log: the batch at offset ");
    assert_eq!(recovered, 1, "the torn batch is found at restart");
    let (reopened, notices) = reopen(&session);
    assert_eq!(notices, Vec::<String>::new());
    assert_eq!((reopened.now(), reopened.sim().chaos_counts()), (session.now(), counts), "the same run");
    assert_eq!(reopened.fingerprint(), session.fingerprint());
}
