//! The page's behaviour without a browser: its reducer (`kraftscope::page`) driven by the same
//! actions the DOM sends, checked on the state the page draws.

use kraftscope::page::{Action, CommandError, Effect, PageState, PainsAction, Tab};
use kraftscope::session::{self, Settings};
use kraftscope::teaching::stories::TOUR;
use kraftscope::zk::Pain;

const FRAME_MS: f64 = 1_000.0 / 60.0;

fn page(query: &str) -> PageState {
    PageState::new(query, "http://localhost:8080/", false)
}

/// Play `seconds` of real time in frames.
fn play(page: &mut PageState, seconds: f64) {
    let frames = (seconds * 1_000.0 / FRAME_MS) as usize;
    for _ in 0..frames {
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
}

/// A page whose first leader is elected, paused.
fn with_leader() -> PageState {
    let mut page = page("?speed=1&partitions=1000");
    play(&mut page, 8.0);
    assert!(page.session.sim().leader().is_some(), "a leader after 8 s at 1x");
    page.reduce(Action::TogglePlay);
    page
}

#[test]
fn a_plain_page_plays_and_frames_advance_only_while_playing() {
    let mut page = page("");
    assert!(page.live.playing && page.animating());
    play(&mut page, 1.0);
    let now = page.session.now();
    assert!(now > 0);
    page.reduce(Action::TogglePlay);
    play(&mut page, 1.0);
    assert_eq!(page.session.now(), now, "no time passes while paused");
}

#[test]
fn shortcuts_act_and_other_keys_are_left_to_the_browser() {
    let mut page = with_leader();
    let leader = page.session.sim().leader().unwrap().id();
    assert!(page.reduce(Action::Key("k".into())).handled);
    assert!(page.session.sim().running_nodes().all(|n| n.id() != leader), "n{leader} is down");
    assert_eq!(page.status, "Killed the active controller");
    assert!(!page.reduce(Action::Key("q".into())).handled);
    let playing = page.live.playing;
    assert!(page.reduce(Action::Key(" ".into())).handled);
    assert_eq!(page.live.playing, !playing, "space toggles play");
    page.reduce(Action::Key("p".into()));
    assert!(page.present);
    page.reduce(Action::Key("?".into()));
    assert!(page.help);
    page.reduce(Action::Key("Escape".into()));
    assert!(!page.help);
    assert_eq!(page.reduce(Action::Key("f".into())).effects, vec![Effect::Fullscreen]);
}

#[test]
fn on_the_failover_view_the_race_keys_play_the_race_and_not_the_cluster() {
    let mut page = page("?partitions=1000");
    let now = page.session.now();
    page.reduce(Action::Tab(Tab::Failover));
    assert!(page.race.busy() && page.animating(), "frames run while the race prepares");
    while page.race.busy() {
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
    assert!(!page.animating(), "the live cluster does not animate behind the race");
    assert!(page.reduce(Action::Key("k".into())).handled);
    assert!(page.race.playing(), "K kills both controllers and plays");
    assert!(page.reduce(Action::Key(" ".into())).handled);
    assert!(!page.race.playing(), "Space pauses the race");
    assert!(page.reduce(Action::Key("r".into())).handled);
    while page.race.busy() {
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
    let stage = page.race.race().map(|r| r.stage());
    assert_eq!(stage, Some(kraftscope::race::RaceStage::Ready), "R: healthy again, waiting for the kill");
    assert!(page.reduce(Action::Key("p".into())).handled);
    play(&mut page, 0.5);
    assert_eq!(page.session.now(), now, "the live cluster stood still");
}

#[test]
fn the_pains_view_plays_its_pain_on_the_page_frames_and_leaves_the_live_cluster_alone() {
    let mut page = page("?scenario=zk-watch-storm");
    assert_eq!((page.tab, page.pains.pain(), page.pains.playing()), (Tab::Pains, Pain::WatchStorm, true));
    assert!(page.animating(), "frames run for the pain");
    let cluster_now = page.session.now();
    play(&mut page, 1.0);
    assert!(page.pains.view().now > 0);
    assert_eq!(page.session.now(), cluster_now, "the live cluster waits behind the pains view");
    page.reduce(Action::Pains(PainsAction::TogglePlay));
    assert!(!page.animating(), "a paused pain asks for no frames");
    let now = page.pains.view().now;
    play(&mut page, 1.0);
    assert_eq!(page.pains.view().now, now);
    page.reduce(Action::Pains(PainsAction::Step));
    assert!(page.pains.view().now > now && !page.pains.playing());
    page.reduce(Action::Pains(PainsAction::Replay));
    assert_eq!((page.pains.view().now, page.pains.playing()), (0, true));
    let share = page.reduce(Action::Share).effects;
    assert_eq!(share, vec![Effect::Copy("http://localhost:8080/?scenario=zk-watch-storm".into())]);
}

#[test]
fn on_the_pains_view_space_s_and_r_are_the_pains_and_k_is_nobodys() {
    let mut page = page("");
    page.reduce(Action::Pain(Pain::SplitLiveness));
    assert_eq!((page.tab, page.pains.pain()), (Tab::Pains, Pain::SplitLiveness));
    assert!(page.reduce(Action::Key(" ".into())).handled);
    assert!(!page.pains.playing(), "space pauses");
    assert!(page.reduce(Action::Key("s".into())).handled);
    let stepped = page.pains.view().now;
    assert!(stepped > 0, "s steps");
    assert!(page.reduce(Action::Key("R".into())).handled);
    assert_eq!((page.pains.view().now, page.pains.playing()), (0, true), "r replays");
    assert!(!page.reduce(Action::Key("k".into())).handled, "no controller to kill here");
    assert!(page.reduce(Action::Key("p".into())).handled, "the page's own keys still work");
}

#[test]
fn the_pains_view_opens_on_its_pains_start() {
    let mut page = page("?scenario=zk-stale-cache");
    play(&mut page, 2.0);
    assert!(page.pains.view().now > 0);
    page.reduce(Action::Tab(Tab::Pains));
    assert!(page.pains.view().now > 0, "a click on the shown tab changes nothing");
    page.reduce(Action::Tab(Tab::Cluster));
    page.reduce(Action::Tab(Tab::Pains));
    assert_eq!(
        (page.pains.pain(), page.pains.view().now),
        (Pain::StaleCache, 0),
        "back on the tab, from its start"
    );
}

#[test]
fn a_pain_tour_step_is_ticked_off_when_its_pain_reaches_the_moment_and_replay_unticks_it() {
    let step = TOUR.iter().position(|s| s.id == "zk-liveness").expect("a pain step");
    let mut page = page(&format!("?tour={}", step + 1));
    assert_eq!((page.tab, page.pains.pain(), page.key_seen), (Tab::Pains, Pain::SplitLiveness, None));
    for _ in 0..2_000 {
        if page.key_seen.is_some() {
            break;
        }
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
    let seen = page.key_seen.expect("the moment is reached within half a minute of frames");
    assert!(page.pains.view().seen && seen > kraftscope::zk::pains::FAULT_AT);
    page.reduce(Action::ReplayStep);
    assert_eq!((page.key_seen, page.pains.view().now), (None, 0));
    page.reduce(Action::Pain(Pain::WatchStorm));
    while page.pains.playing() {
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
    assert_eq!(page.key_seen, None, "another pain's moment is not this step's");
}

#[test]
fn seeking_back_pauses_and_restores_the_earlier_state() {
    let mut page = with_leader();
    let (then, fingerprint) = (page.session.now(), page.session.fingerprint());
    page.reduce(Action::TogglePlay);
    play(&mut page, 2.0);
    page.reduce(Action::Seek(then));
    assert!(!page.live.playing);
    assert_eq!((page.session.now(), page.session.fingerprint()), (then, fingerprint));
}

#[test]
fn share_copies_a_link_that_reopens_the_same_state() {
    let mut page = with_leader();
    page.reduce(Action::Act(session::Action::CreateTopic { partitions: 3, replication: 2 }));
    page.reduce(Action::Step);
    let outcome = page.reduce(Action::Share);
    let [Effect::Copy(url)] = outcome.effects.as_slice() else { panic!("{:?}", outcome.effects) };
    assert_eq!(page.share.as_ref(), Some(url));
    let query = url.strip_prefix("http://localhost:8080/").expect("the page's own address");
    let reopened = self::page(query);
    assert!(reopened.notices.is_empty(), "{:?}", reopened.notices);
    assert!(!reopened.live.playing);
    assert_eq!(reopened.session.fingerprint(), page.session.fingerprint());
}

#[test]
fn the_tour_moves_by_keys_and_buttons_and_sets_the_address() {
    let mut page = page("");
    let outcome = page.reduce(Action::Tour(Some(3)));
    assert!(outcome.effects.contains(&Effect::SetQuery("?tour=4".into())), "{:?}", outcome.effects);
    assert_eq!(page.tour, Some(3));
    let next = page.reduce(Action::Key("ArrowRight".into()));
    assert_eq!(page.tour, Some(4));
    // #61 item 5: a step opens at the page's top, not where the step before was scrolled.
    assert!(next.effects.contains(&Effect::ScrollToTop), "{:?}", next.effects);
    page.reduce(Action::Key("PageUp".into()));
    page.reduce(Action::Key("ArrowLeft".into()));
    assert_eq!(page.tour, Some(2));
    page.reduce(Action::Tour(Some(0)));
    assert_eq!(page.tab, Tab::Failover, "the first step is the ZooKeeper race");
    assert!(page.reduce(Action::Tour(None)).effects.contains(&Effect::SetQuery("?".into())));
    assert_eq!(page.tour, None);
}

#[test]
fn a_reset_with_bad_settings_says_why_and_keeps_the_session() {
    let mut page = with_leader();
    let now = page.session.now();
    page.reduce(Action::Edit(Settings { voters: 0, ..page.live.form.clone() }));
    page.reduce(Action::Reset);
    assert!(page.status.starts_with("Cannot reset: controllers must be"), "{}", page.status);
    assert_eq!(page.session.now(), now);
    page.reduce(Action::Edit(Settings { voters: 5, brokers: 1, ..page.live.form.clone() }));
    page.reduce(Action::Reset);
    assert_eq!((page.session.now(), page.session.sim().node_ids().count()), (0, 6));
}

#[test]
fn a_broken_invariant_pauses_the_page_and_says_which() {
    let mut page = page("?sabotage=hw-on-minority&speed=1");
    play(&mut page, 60.0);
    let seen = page.session.violation().expect("the sabotage is caught within a minute");
    assert!(!page.live.playing);
    assert!(page.status.contains(&seen.violation.invariant.to_string()), "{}", page.status);
    assert_drawn_as_it_is(&page);
}

/// Every running node is drawn as it is now, not as a fast-forward's earlier frame left it.
fn assert_drawn_as_it_is(page: &PageState) {
    let sim = page.session.sim();
    for n in &page.live.picture.nodes {
        if let Some(node) = sim.node(n.id) {
            assert_eq!(n.log_end, node.log().end_offset(), "n{} is drawn at its log end", n.id);
        }
    }
}

#[test]
fn a_fast_forward_may_draw_nodes_a_few_frames_late_but_pausing_draws_them_all() {
    let mut page = page("?speed=0.1");
    play(&mut page, 1.5);
    let lagging = (0..120).any(|_| {
        page.reduce(Action::Frame { elapsed: FRAME_MS });
        let sim = page.session.sim();
        page.live
            .picture
            .nodes
            .iter()
            .any(|n| sim.node(n.id).is_some_and(|node| node.log().end_offset() != n.log_end))
    });
    assert!(lagging, "through a quiet stretch at 100x some strips lag a frame or more");
    page.reduce(Action::TogglePlay);
    assert_drawn_as_it_is(&page);
}

#[test]
fn a_new_leader_is_posted_to_the_host_page_and_selection_toggles() {
    use kraftscope::page::host::HostEvent;
    let mut page = page("?speed=1");
    let mut posted = Vec::new();
    while page.session.sim().leader().is_none() {
        let outcome = page.reduce(Action::Frame { elapsed: FRAME_MS });
        posted.extend(outcome.effects);
    }
    let leader = page.session.sim().leader().unwrap();
    assert!(
        posted.iter().any(|e| matches!(e, Effect::Post(HostEvent::LeaderElected { leader: l, epoch, .. }) if *l == leader.id() && *epoch == leader.epoch())),
        "{posted:?}"
    );
    page.reduce(Action::Select(2));
    assert_eq!(page.live.selected, Some(2));
    page.reduce(Action::Select(2));
    assert_eq!(page.live.selected, None);
}

#[test]
fn the_event_log_follows_the_filter() {
    let mut page = with_leader();
    assert!(page.live.log.lines.iter().any(|(_, notable)| !notable), "messages are shown unfiltered");
    page.reduce(Action::Filter(kraftscope::page::LogFilter { notable_only: true, ..Default::default() }));
    assert!(!page.live.log.lines.is_empty() && page.live.log.lines.iter().all(|(_, notable)| *notable));
    assert!(page.live.log.kept > page.live.log.lines.len());
}

#[test]
fn host_commands_take_the_page_paths_and_a_wrong_one_is_answered_with_an_error() {
    use kraftscope::page::host::{Command, HostEvent};
    let mut page = with_leader();
    page.reduce(Action::Host(Command::Play));
    page.reduce(Action::Host(Command::Pause));
    assert!(!page.live.playing, "pause stops the clock");
    page.reduce(Action::Host(Command::Seek { ms: 2_000 }));
    assert_eq!(page.session.now(), 2_000 * kraftscope::harness::MS, "seek goes back to 2 s");
    let events = page.session.events();
    page.reduce(Action::Host(Command::Step));
    assert_eq!((page.session.events(), page.live.playing), (events + 1, false), "step processes one event");
    page.reduce(Action::Host(Command::SetSpeed { speed: 1.0 }));
    assert_eq!(page.live.speed_exp, 0.0, "set-speed 1 is 10^0");
    page.reduce(Action::Host(Command::Play));
    play(&mut page, 0.5);
    assert!(page.session.now() > 2_000 * kraftscope::harness::MS, "play runs on from there");
    let leader = page.session.sim().leader().unwrap().id();
    let outcome = page.reduce(Action::Host(Command::KillLeader));
    assert!(page.session.sim().running_nodes().all(|n| n.id() != leader));
    assert!(!outcome.effects.iter().any(|e| matches!(e, Effect::Post(HostEvent::Error { .. }))));
    page.reduce(Action::Host(Command::TourStep { step: 4 }));
    assert_eq!((page.tour, page.live.playing), (Some(3), true));
    page.reduce(Action::Tab(Tab::Failover));
    let outcome = page.reduce(Action::Host(Command::Heal));
    let errors: Vec<_> =
        outcome.effects.iter().filter(|e| matches!(e, Effect::Post(HostEvent::Error { .. }))).collect();
    let race_shown = Effect::Post(HostEvent::Error { error: CommandError::RaceShown.to_string() });
    assert_eq!(errors, [&race_shown], "heal is not a race command");
    while page.race.busy() {
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
    page.reduce(Action::Host(Command::KillLeader));
    assert!(page.race.playing(), "kill-leader kills both active controllers of the race");
}

#[test]
fn kiosk_mode_walks_the_tour_and_a_key_hands_control_back() {
    let mut page = page("?kiosk=1&hold=500");
    assert_eq!(page.tour, Some(0));
    assert_eq!(page.kiosk_hold(), Some(Effect::KioskHold { next: 1, ms: 500 }));
    let outcome = page.reduce(Action::Kiosk(Some(1)));
    assert_eq!(page.tour, Some(1));
    assert!(outcome.effects.contains(&Effect::KioskHold { next: 2, ms: 500 }));
    let outcome = page.reduce(Action::Kiosk(None));
    assert!(!page.kiosk && outcome.effects.contains(&Effect::KioskStop));
    page.reduce(Action::Kiosk(Some(5)));
    assert_eq!(page.tour, Some(1), "a late timer after the hand-back changes nothing");
}

#[test]
fn a_page_left_playing_runs_on_past_ten_simulated_minutes() {
    let mut page = page("?speed=1000");
    let mut frames = 0;
    while page.session.now() < kraftscope::session::WINDOW + 60_000 * kraftscope::harness::MS {
        page.reduce(Action::Frame { elapsed: FRAME_MS });
        frames += 1;
        assert!(page.live.playing && frames < 10_000, "still playing after {frames} frames: {}", page.status);
    }
    play(&mut page, 1.0);
    assert!(page.live.playing);
    assert!(page.session.window_start() > 0, "the window moved on");
}

#[test]
fn skipping_quiet_stretches_is_shown_and_can_be_switched_off() {
    let mut page = page("");
    let mut frames = 0;
    while !page.live.skipping() {
        page.reduce(Action::Frame { elapsed: FRAME_MS });
        frames += 1;
        assert!(frames < 100_000, "the default pace skips quiet stretches");
    }
    page.reduce(Action::SkipQuiet(false));
    for _ in 0..60 {
        let before = page.session.now();
        page.reduce(Action::Frame { elapsed: FRAME_MS });
        assert!(!page.live.skipping());
        let speed = 10f64.powf(page.live.speed_exp);
        assert_eq!(page.session.now() - before, (FRAME_MS * 1_000.0 * speed) as u64);
    }
    assert!(!page.live.skip_quiet);
    assert!(!kraftscope::page::PageState::new("?skip=0", "http://x/", false).live.skip_quiet);
}

#[test]
fn a_long_shared_session_reopens_frame_by_frame_and_checks_its_fingerprint() {
    use kraftscope::harness::MS;
    use kraftscope::page::params::PageParams;
    let mut live = page("?speed=1000");
    play(&mut live, 1.0);
    live.reduce(Action::Act(session::Action::KillLeader));
    while live.session.now() < 40 * 60_000 * MS {
        play(&mut live, 1.0);
    }
    live.reduce(Action::TogglePlay);
    let query = PageParams::share_query(&live.session);
    let mut reopened = page(&format!("?{query}"));
    assert!(reopened.live.reopening.is_some(), "a 40-minute session is replayed frame by frame");
    assert!(reopened.animating());
    reopened.reduce(Action::Key("k".into()));
    assert!(reopened.status.contains("replaying"), "{}", reopened.status);
    let mut frames = 0;
    while reopened.live.reopening.is_some() {
        reopened.reduce(Action::Frame { elapsed: FRAME_MS });
        frames += 1;
        assert!(frames < 10_000);
    }
    assert!(frames > 1, "it took {frames} frames");
    assert_eq!(reopened.session.fingerprint(), live.session.fingerprint());
    assert!(reopened.notices.is_empty(), "{:?}", reopened.notices);
    assert!(!reopened.live.playing, "a shared moment opens paused");
}

#[test]
fn what_the_browser_reports_of_a_save_goes_to_the_status_line() {
    let mut page = page("");
    page.reduce(Action::Report("Downloaded 00000000000000000000.log".into()));
    assert_eq!(page.status, "Downloaded 00000000000000000000.log");
}

#[test]
fn the_paused_live_cluster_stays_put_while_other_views_play() {
    let mut page = with_leader();
    page.reduce(Action::Key("k".into()));
    let before = page.session.fingerprint().to_string();
    // The race and the pain play by the space key; the log reader has nothing to play.
    for (tab, key) in [(Tab::Failover, Some(" ")), (Tab::Pains, Some(" ")), (Tab::Log, None)] {
        page.reduce(Action::Tab(tab));
        if let Some(key) = key {
            assert!(page.reduce(Action::Key(key.into())).handled);
        }
        play(&mut page, 3.0);
    }
    page.reduce(Action::Tab(Tab::Cluster));
    assert!(!page.live.playing);
    assert_eq!(page.session.fingerprint().to_string(), before, "the live cluster moved while hidden");
}

#[test]
fn a_link_names_the_view_to_open_on_the_live_session() {
    let mut live = with_leader();
    let Effect::Copy(link) = live.reduce(Action::Share).effects.remove(0) else { panic!("a link") };
    for tab in Tab::ALL {
        let opened = page(&format!("{}&tab={}&full=1", link.split_once('?').unwrap().1, tab.name()));
        assert!(opened.notices.is_empty(), "{:?}", opened.notices);
        assert_eq!(opened.tab, tab);
        assert_eq!(opened.session.fingerprint(), live.session.fingerprint());
    }
    let bad = page("?tab=chart");
    assert_eq!(bad.tab, Tab::Cluster);
    assert_eq!(
        bad.notices,
        ["tab: 'chart' is not one of cluster, failover, pains, migration, log; opening the live cluster"]
    );
}

#[test]
fn a_second_removal_while_the_first_is_pending_is_answered_request_timed_out() {
    let mut page = page("?speed=1&quorum=initial-controllers&voters=3");
    play(&mut page, 8.0);
    page.reduce(Action::TogglePlay);
    page.reduce(Action::Act(session::Action::RemoveLeader));
    assert_eq!(page.status, "Asked to remove the active controller from the voters");
    let leader = page.session.sim().leader().expect("still leading while the removal is pending").id();
    page.reduce(Action::Act(session::Action::RemoveVoter(leader)));
    assert!(
        page.status.ends_with("REQUEST_TIMED_OUT (another voter change is still under way)"),
        "the leader answers, not a local VOTER_NOT_FOUND: {}",
        page.status
    );
}

#[test]
fn a_voter_change_refused_later_is_an_error_event_for_the_host_page() {
    let mut page = page("?speed=1&quorum=standalone&voters=1");
    play(&mut page, 1.0);
    page.reduce(Action::Act(session::Action::NewController));
    play(&mut page, 1.0);
    let new = *page.session.sim().controller_ids().last().unwrap();
    page.reduce(Action::Act(session::Action::AddVoter(new)));
    page.reduce(Action::Act(session::Action::Isolate(new)));
    let mut errors = Vec::new();
    for _ in 0..(3.0 * 1_000.0 / FRAME_MS) as usize {
        for effect in page.reduce(Action::Frame { elapsed: FRAME_MS }).effects {
            if let Effect::Post(kraftscope::page::host::HostEvent::Error { error }) = effect {
                errors.push(error);
            }
        }
    }
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].contains(&format!("AddRaftVoter n{new}")), "{}", errors[0]);
    assert!(
        errors[0].contains("answered REQUEST_TIMED_OUT (the new controller did not answer ApiVersions"),
        "{}",
        errors[0]
    );
    assert_eq!(page.status, errors[0], "the status line says the same");
}

/// #61 item 1: a refusal because no controller is active names its moment, reads as a refusal,
/// and goes once a controller is active; the crown and the status line never disagree.
#[test]
fn a_refusal_about_the_active_controller_goes_when_one_is_elected() {
    let mut page = page("?speed=1&partitions=1000");
    page.reduce(Action::Key("k".into()));
    assert!(page.session.sim().leader().is_none(), "no leader at 0 s");
    assert_eq!(
        page.status,
        "Kill the active controller: refused at 0.000 s, no controller is active at this moment (no leader of the quorum)"
    );
    let mut frames = 0;
    while page.session.active_controller().is_none() {
        page.reduce(Action::Frame { elapsed: FRAME_MS });
        let none = page.session.active_controller().is_none();
        assert!(!none || !page.status.is_empty(), "the refusal stays while no controller is active");
        frames += 1;
        assert!(frames < 1_000, "a leader within 16 s at 1x");
    }
    assert_eq!(page.status, "", "a crowned leader and the refusal are never on screen together");
    let leader = page.session.active_controller();
    page.reduce(Action::Key("k".into()));
    assert_eq!(page.status, "Killed the active controller");
    play(&mut page, 1.0);
    assert_ne!(page.session.active_controller(), leader);
    assert_eq!(page.status, "Killed the active controller", "a done action stays");
}
