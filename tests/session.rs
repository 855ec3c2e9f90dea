//! The page's session: deterministic replay from the seed and the recorded actions, which is
//! what time travel and shared links rely on.

use kraftscope::harness::{MS, Micros};
use kraftscope::session::{ActError, Action, RecordedAction, Session, Settings};
use kraftscope::sim::ActionError;

/// A comparable summary of the cluster: each node's role, epoch, leader and log.
fn state(session: &Session) -> Vec<String> {
    let sim = session.sim();
    sim.node_ids()
        .map(|id| match sim.node(id) {
            Some(n) => format!(
                "n{id} {} e{} l{:?} log {}..{} hw {:?}",
                n.role(),
                n.epoch(),
                n.leader(),
                n.log().start_offset(),
                n.log().end_offset(),
                n.high_watermark()
            ),
            None => format!("n{id} down"),
        })
        .collect()
}

/// Run to `at` in small budgets, as animation frames do.
fn run_in_frames(session: &mut Session, at: Micros) {
    for _ in 0..100_000 {
        if session.advance_to(at, 7) {
            return;
        }
    }
    panic!("advance_to never reached {at}");
}

/// A session played frame by frame with a kill, a restart, a topic and an isolation.
fn played() -> Session {
    let mut session = Session::new(Settings::default());
    run_in_frames(&mut session, 4_000 * MS);
    let leader = session.sim().leader().expect("a leader after 4 s").id();
    session.act(Action::KillLeader).unwrap();
    run_in_frames(&mut session, 6_000 * MS);
    session.act(Action::Restart(leader)).unwrap();
    run_in_frames(&mut session, 8_000 * MS);
    session.act(Action::CreateTopic { partitions: 6, replication: 2 }).unwrap();
    run_in_frames(&mut session, 9_000 * MS);
    session.act(Action::Isolate(101)).unwrap();
    run_in_frames(&mut session, 12_000 * MS);
    session
}

#[test]
fn a_replay_from_the_recorded_actions_reaches_the_same_state_and_log() {
    let live = played();
    assert!(live.actions().len() >= 3, "actions: {:?}", live.actions());
    let replayed = Session::replay(live.settings().clone(), live.actions().to_vec(), live.now());
    assert_eq!(state(&replayed), state(&live));
    let lines = |s: &Session| s.log().iter().map(|l| l.to_string()).collect::<Vec<_>>();
    assert_eq!(lines(&replayed), lines(&live));
}

#[test]
fn seeking_back_shows_the_exact_past_and_forward_again_the_same_future() {
    let mut session = played();
    let (end, end_state) = (session.now(), state(&session));
    let mut straight = Session::new(Settings::default());
    straight.advance_to(3_500 * MS, usize::MAX);

    session.seek(3_500 * MS).unwrap();
    assert_eq!(session.now(), 3_500 * MS);
    assert_eq!(session.horizon(), end);
    assert_eq!(state(&session), state(&straight), "before any action the past is the plain run");
    session.seek(5_000 * MS).unwrap();
    assert!(session.sim().leader().is_none_or(|l| l.epoch() >= 2), "after the kill the epoch moved on");
    session.seek(end).unwrap();
    assert_eq!(state(&session), end_state);
}

#[test]
fn acting_in_the_past_forks_a_new_future() {
    let mut session = played();
    assert_eq!(session.actions().len(), 4);
    session.seek(6_500 * MS).unwrap();
    session.act(Action::Heal).unwrap();
    let kinds: Vec<&Action> = session.actions().iter().map(|a| &a.action).collect();
    assert_eq!(kinds.len(), 3, "the kill and the restart stay, the later two are dropped: {kinds:?}");
    assert_eq!(session.horizon(), 6_500 * MS);
    assert_eq!(session.actions().last().unwrap().action, Action::Heal);
}

#[test]
fn a_refused_action_is_not_recorded() {
    let mut session = Session::new(Settings::default());
    assert_eq!(session.act(Action::Restart(1)), Err(ActError::Refused(ActionError::AlreadyRunning(1))));
    assert_eq!(session.act(Action::Isolate(77)), Err(ActError::NoSuchNode(77)));
    assert!(session.actions().is_empty());
}

#[test]
fn a_sabotaged_cluster_shows_its_violation() {
    let mut settings = Settings::default();
    settings.sabotage.enable("hw-on-minority").unwrap();
    let mut session = Session::new(settings);
    session.advance_to(5_000 * MS, usize::MAX);
    let seen = session.violation().expect("the sabotage is caught");
    assert_eq!(seen.violation.invariant, "a majority of voters holds every offset below the high watermark");
    assert!(!seen.event.is_empty());
}

#[test]
fn an_action_that_cannot_be_replayed_where_it_was_made_is_dropped_with_a_reason() {
    let live = played();
    let mut actions = live.actions().to_vec();
    actions[1].events += 1_000_000;
    let replayed = Session::replay(live.settings().clone(), actions, live.now());
    assert_eq!(replayed.actions().len(), 1, "the damaged action and everything after it are dropped");
    assert!(replayed.replay_problem().is_some_and(|p| p.contains("could not be replayed")));
    let early = vec![RecordedAction { at: 0, events: 0, action: Action::Isolate(101) }];
    let replayed = Session::replay(live.settings().clone(), early, live.now());
    assert!(replayed.replay_problem().is_none(), "an action at the very start replays");
    assert_eq!(replayed.actions().len(), 1);
}

#[test]
fn an_action_made_while_messages_are_lost_replays_at_the_same_point() {
    let mut session = Session::new(Settings { drop_percent: 30, ..Settings::default() });
    for (at, action) in
        [(3_000, Action::Isolate(1)), (3_001, Action::Resign), (3_002, Action::Heal), (6_000, Action::Resign)]
    {
        session.advance_to(at * MS, usize::MAX);
        let _ = session.act(action);
    }
    session.advance_to(9_000 * MS, usize::MAX);
    let replayed = Session::replay(session.settings().clone(), session.actions().to_vec(), session.now());
    assert!(replayed.replay_problem().is_none(), "{:?}", replayed.replay_problem());
    assert_eq!(state(&replayed), state(&session));
}

#[test]
fn a_timeline_runs_on_past_its_window_and_refuses_actions_past_the_most_it_keeps() {
    use kraftscope::session::{MAX_ACTIONS, SeekError, WINDOW};
    let mut session = Session::new(Settings::default());
    let end = 3 * WINDOW;
    assert!(session.advance_to(end, usize::MAX));
    assert_eq!(session.now(), end);
    let events = session.events();
    assert!(session.step(), "the timeline has no end");
    assert_eq!(session.events(), events + 1);
    let starts = session.window_start();
    assert!(
        starts > 0 && starts <= end - WINDOW,
        "the window reaches {WINDOW} us back: it starts at {starts}"
    );
    assert_eq!(session.seek(starts - 1), Err(SeekError::BeforeWindow { asked: starts - 1, starts }));
    assert!(session.now() > end, "a refused seek changes nothing");
    session.seek(starts).unwrap();
    assert_eq!(session.now(), starts);

    let mut session = Session::new(Settings::default());
    for i in 0..MAX_ACTIONS {
        session.act(Action::Heal).unwrap_or_else(|e| panic!("action {i}: {e}"));
    }
    assert_eq!(session.act(Action::Heal), Err(ActError::TimelineFull));
    assert_eq!(session.actions().len(), MAX_ACTIONS);
}

/// The settings the live page starts from (a page-sized snapshot interval).
fn page_settings(seed: u64) -> Settings {
    Settings { seed, snapshot_bytes: kraftscope::page::params::PAGE_SNAPSHOT_BYTES, ..Settings::default() }
}

/// A long session with actions at seeded random moments: kills, restarts, isolations, heals,
/// resignations and topics, frame by frame.
fn long_session(seed: u64, until: Micros) -> Session {
    let mut rng = kraftscope::util::rng::Rng::new(seed);
    let mut session = Session::new(page_settings(seed));
    let mut at = 0;
    while at < until {
        at += rng.range(5_000, 90_000) * MS;
        run_in_frames(&mut session, at.min(until));
        let node = rng.range(1, 4) as u32;
        let action = match rng.range(0, 6) {
            0 => Action::KillLeader,
            1 => Action::Restart(node),
            2 => Action::Isolate(node),
            3 => Action::Heal,
            4 => Action::Resign,
            _ => Action::CreateTopic { partitions: 3, replication: 2 },
        };
        let _ = session.act(action);
    }
    session
}

/// A comparable record of a moment: the state, its fingerprint, the event log and the actions
/// carried out.
fn moment(session: &Session) -> (Vec<String>, String, Vec<String>, usize, Micros, u64) {
    let lines = session.log().iter().map(|l| l.to_string()).collect();
    let fingerprint = session.fingerprint().code();
    (state(session), fingerprint, lines, session.applied_actions(), session.now(), session.events())
}

#[test]
fn a_seek_from_a_checkpoint_gives_what_a_replay_from_the_seed_gives() {
    for seed in [1, 2, 3] {
        let mut live = long_session(seed, 2 * WINDOW_MINUTES * 60_000 * MS);
        let mut rng = kraftscope::util::rng::Rng::new(seed ^ 0x5eed);
        let (starts, horizon) = (live.window_start(), live.horizon());
        assert!(starts > 0, "the session outgrew its window");
        for i in 0..12 {
            let mut t = rng.range(starts, live.horizon() + 1);
            live.seek(t).unwrap();
            if i % 4 == 3 {
                // Acting in the past forks the timeline: the checkpoints ahead must go.
                live.act(Action::Isolate(101)).unwrap();
                live.advance_to(horizon, usize::MAX);
                t = rng.range(t, horizon + 1);
                live.seek(t).unwrap();
            }
            let replayed = Session::replay(live.settings().clone(), live.actions().to_vec(), t);
            assert_eq!(
                moment(&live),
                moment(&replayed),
                "seed {seed}, seek to {t} us (reproduce: cargo test --release --test suite session::a_seek_from)"
            );
        }
    }
}

const WINDOW_MINUTES: u64 = kraftscope::session::WINDOW / (60_000 * MS);

#[test]
fn the_checkpoints_and_the_logs_stay_bounded_however_long_a_session_runs() {
    use kraftscope::session::checkpoint::KEPT;
    let longest_log =
        |s: &Session| s.sim().logs().map(|(_, log)| log.end_offset() - log.start_offset()).max();
    let mut session = Session::new(page_settings(1));
    session.advance_to(3 * 3_600_000 * MS, usize::MAX);
    let (kept, log) = (session.checkpoints_kept(), longest_log(&session));
    session.advance_to(12 * 3_600_000 * MS, usize::MAX);
    assert_eq!(session.checkpoints_kept(), KEPT);
    assert_eq!(kept, KEPT);
    let (before, after) = (log.unwrap(), longest_log(&session).unwrap());
    assert!(after <= before * 3 / 2, "the longest log held {before} records at 3 h and {after} at 12 h");
    assert!(session.horizon() - session.window_start() >= kraftscope::session::WINDOW);
}
