//! The failover race view without a browser: the page's reducer driven by the race's buttons,
//! keys, slider, scrubber, host commands and frames (on a clock that stands still, so each frame
//! finishes the preparing or fast-forwarding it starts), checked on the race it shows.

use kraftscope::experiments::failover::{BROKERS, KraftRoles};
use kraftscope::harness::{MS, Micros};
use kraftscope::page::host::{Command, HostEvent};
use kraftscope::page::race::request::HEALTHY_HOLD_MS;
use kraftscope::page::race::{Playback, RaceFrame, RaceScreen};
use kraftscope::page::{Action, Effect, PageState, RaceAction, Tab};
use kraftscope::quorum::RoleKind;
use kraftscope::race::{BUILDING, RaceStage};
use kraftscope::zk::FailoverPhase;

const FRAME_MS: f64 = 1_000.0 / 60.0;

/// The page on the failover view, its race of `partitions` partitions prepared and waiting.
fn ready(partitions: u64) -> PageState {
    let mut page = PageState::new(&format!("?partitions={partitions}"), "http://localhost/", false);
    let outcome = page.reduce(Action::Tab(Tab::Failover));
    assert!(outcome.effects.contains(&Effect::FetchMeasured), "opening the view fetches the measured curve");
    settle(&mut page);
    assert_eq!(stage(&page), Some(RaceStage::Ready));
    page
}

/// Frames until the race has nothing to do (prepared, paused, scripted moment reached, or over),
/// with every effect they had.
fn settle(page: &mut PageState) -> Vec<Effect> {
    let mut effects = Vec::new();
    for _ in 0..100 {
        if !page.race.busy() {
            return effects;
        }
        effects.extend(page.reduce(Action::Frame { elapsed: FRAME_MS }).effects);
    }
    panic!("the race is still busy after 100 frames: {:?}", stage(page));
}

/// Play `frames` frames of 1/60 s.
fn frames(page: &mut PageState, frames: usize) -> Vec<Effect> {
    (0..frames).flat_map(|_| page.reduce(Action::Frame { elapsed: FRAME_MS }).effects).collect()
}

fn stage(page: &PageState) -> Option<RaceStage> {
    page.race.race().map(|r| r.stage())
}

fn elapsed(page: &PageState) -> Micros {
    match stage(page) {
        Some(RaceStage::Running { elapsed }) => elapsed,
        other => panic!("not running: {other:?}"),
    }
}

fn race(page: &mut PageState, action: RaceAction) -> Vec<Effect> {
    page.reduce(Action::Race(action)).effects
}

fn finished(effects: &[Effect]) -> Vec<&HostEvent> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Post(event @ HostEvent::FailoverFinished { .. }) => Some(event),
            _ => None,
        })
        .collect()
}

#[test]
fn kill_plays_the_race_space_pauses_it_and_step_moves_half_a_second_of_playback() {
    let mut page = ready(1_000);
    assert!(!page.race.busy() && !page.animating(), "a race waiting for the kill asks for no frames");
    race(&mut page, RaceAction::Kill);
    assert!(page.race.playing() && page.animating());
    assert_eq!(elapsed(&page), 0);
    frames(&mut page, 30);
    let played = elapsed(&page);
    assert!(played > 0, "frames play the race on");
    race(&mut page, RaceAction::TogglePlay);
    assert!(!page.race.playing() && !page.animating());
    frames(&mut page, 30);
    assert_eq!(elapsed(&page), played, "no time passes while paused");
    race(&mut page, RaceAction::Step);
    let stepped = elapsed(&page);
    assert!(stepped > played && !page.race.playing(), "a step plays on and stays paused");
    assert_eq!(page.race.horizon(), stepped, "the scrubber reaches as far as the step");
    race(&mut page, RaceAction::TogglePlay);
    assert!(page.race.playing(), "Space plays again");
}

#[test]
fn play_on_a_healthy_race_kills_and_step_kills_without_playing() {
    let mut page = ready(1_000);
    race(&mut page, RaceAction::TogglePlay);
    assert_eq!((elapsed(&page), page.race.playing()), (0, true), "Play on a healthy race kills and plays");
    race(&mut page, RaceAction::RunAgain);
    settle(&mut page);
    race(&mut page, RaceAction::Step);
    assert_eq!((elapsed(&page), page.race.playing()), (0, false), "Step on a healthy race kills, paused");
}

#[test]
fn run_again_waits_healthy_and_kill_while_running_restarts_and_plays() {
    let mut page = ready(1_000);
    race(&mut page, RaceAction::Kill);
    frames(&mut page, 20);
    race(&mut page, RaceAction::RunAgain);
    assert!(matches!(stage(&page), Some(RaceStage::Preparing { .. })), "the KRaft cluster settles again");
    settle(&mut page);
    assert_eq!((stage(&page), page.race.playing(), page.race.horizon()), (Some(RaceStage::Ready), false, 0));
    race(&mut page, RaceAction::Kill);
    frames(&mut page, 20);
    race(&mut page, RaceAction::Kill);
    assert!(!page.race.playing() && page.race.busy(), "Kill while running starts over and kills when ready");
    frames(&mut page, 3);
    assert!(page.race.playing(), "killed again and playing: {:?}", stage(&page));
    assert!(elapsed(&page) < 100 * MS);
}

#[test]
fn skip_to_the_end_posts_the_result_once_and_a_rewind_replays_it_exactly() {
    let mut page = ready(2_000);
    race(&mut page, RaceAction::Kill);
    race(&mut page, RaceAction::SkipToEnd);
    let effects = settle(&mut page);
    let [event] = finished(&effects)[..] else { panic!("one failover-finished: {effects:?}") };
    let event = event.clone();
    assert!(page.race.race().is_some_and(|r| r.finished()) && !page.race.playing());
    assert!(finished(&frames(&mut page, 5)).is_empty(), "told once");
    let end = (page.race.race().unwrap().kraft_recovered_after(), elapsed(&page));
    race(&mut page, RaceAction::Seek(3_000 * MS));
    assert!(page.race.busy(), "the rewind replays the race");
    settle(&mut page);
    assert_eq!(elapsed(&page), 3_000 * MS, "rewound to exactly 3 s");
    assert!(!page.race.race().unwrap().finished() && !page.race.playing(), "paused there, not back yet");
    assert!(page.race.horizon() >= end.1, "the scrubber still reaches the end");
    race(&mut page, RaceAction::SkipToEnd);
    let effects = settle(&mut page);
    assert_eq!(finished(&effects), vec![&event], "the replayed race ends the same way, told again");
    assert_eq!((page.race.race().unwrap().kraft_recovered_after(), elapsed(&page)), end);
}

#[test]
fn a_fixed_speed_plays_at_that_speed_and_auto_shows_the_sports_replay_pace() {
    let mut page = ready(1_000);
    race(&mut page, RaceAction::Kill);
    frames(&mut page, 1);
    assert_eq!(page.race.shown_speed(), Some(1.0), "KRaft's followers wait out the timeout in real time");
    race(&mut page, RaceAction::Playback(Playback::Fixed(10.0)));
    let before = elapsed(&page);
    frames(&mut page, 1);
    assert_eq!(page.race.shown_speed(), Some(10.0));
    assert_eq!(elapsed(&page) - before, (FRAME_MS * 1_000.0 * 10.0) as Micros, "a frame plays 10x its time");
    race(&mut page, RaceAction::TogglePlay);
    frames(&mut page, 1);
    assert_eq!(page.race.shown_speed(), None, "no pace is shown while paused");
}

#[test]
fn the_slider_builds_a_race_of_the_size_it_shows() {
    let mut page = ready(1_000);
    race(&mut page, RaceAction::Kill);
    race(&mut page, RaceAction::Partitions(3.3));
    assert_eq!(page.race.partitions(), 1_900);
    assert_eq!(page.race.race().map(|r| r.partitions()), Some(1_900));
    assert!(matches!(stage(&page), Some(RaceStage::Preparing { .. })) && !page.race.playing());
    // #61 item 8: while nothing is drawn, neither side claims an election or a cache state.
    let building = page.race.screen(RaceFrame::Page);
    let (kraft, zk) = (building.kraft.unwrap(), building.zk.unwrap());
    assert_eq!((kraft.leader.as_str(), zk.summary.as_str()), (BUILDING, BUILDING));
    race(&mut page, RaceAction::Partitions(9.0));
    assert_eq!(page.race.partitions(), 2_000_000, "the slider stops at its end");
}

#[test]
fn the_measured_curve_is_parsed_and_leaving_the_view_drops_the_race() {
    let mut page = ready(1_000);
    race(&mut page, RaceAction::Measured("partitions,kraft_ms,zk_ms\n1000,1500,3000\n".into()));
    assert_eq!(page.race.measured(), &[(1_000, 1.5, 3.0, 1.5)]);
    race(&mut page, RaceAction::Kill);
    page.reduce(Action::Tab(Tab::Cluster));
    assert!(!page.race.is_open() && !page.race.busy(), "the race's clusters are dropped");
    let outcome = page.reduce(Action::Tab(Tab::Failover));
    assert!(outcome.effects.contains(&Effect::FetchMeasured));
    assert!(
        matches!(stage(&page), Some(RaceStage::Preparing { .. })),
        "back on the view, the race starts afresh"
    );
}

#[test]
fn host_commands_play_pause_step_seek_and_kill_the_race() {
    let mut page = ready(1_000);
    page.reduce(Action::Host(Command::Play));
    assert!(page.race.playing(), "play kills and plays");
    frames(&mut page, 10);
    page.reduce(Action::Host(Command::Pause));
    page.reduce(Action::Host(Command::Pause));
    assert!(!page.race.playing(), "pause twice stays paused");
    let paused = elapsed(&page);
    page.reduce(Action::Host(Command::Step));
    assert!(elapsed(&page) > paused);
    page.reduce(Action::Host(Command::Seek { ms: 1_000 }));
    settle(&mut page);
    assert_eq!(elapsed(&page), 1_000 * MS);
    page.reduce(Action::Host(Command::KillLeader));
    assert!(page.race.busy() && !page.race.playing(), "kill-leader mid-race starts over, then kills");
    let outcome = page.reduce(Action::Host(Command::Crash { node: 1 }));
    assert!(
        outcome.effects.iter().any(|e| matches!(e, Effect::Post(HostEvent::Error { .. }))),
        "crash is not a race command: {:?}",
        outcome.effects
    );
}

/// Frames until the race has prepared its clusters (it may still hold them before an autoplay).
fn prepared(page: &mut PageState) {
    for _ in 0..100 {
        if !matches!(stage(page), Some(RaceStage::Preparing { .. })) {
            return;
        }
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
    panic!("the race is still preparing after 100 frames");
}

#[test]
fn a_scenario_link_shows_healthy_clusters_then_kills_and_plays_by_itself() {
    let mut page = PageState::new("?scenario=failover", "http://localhost/", false);
    assert_eq!(page.tab, Tab::Failover);
    assert_eq!(page.opening_effects(), vec![Effect::FetchMeasured]);
    prepared(&mut page);
    assert_eq!(stage(&page), Some(RaceStage::Ready), "it opens on two healthy clusters");
    let held = (HEALTHY_HOLD_MS / FRAME_MS) as usize - 1;
    frames(&mut page, held);
    assert_eq!(stage(&page), Some(RaceStage::Ready), "still healthy after {held} frames");
    frames(&mut page, 2);
    let killed_at = elapsed(&page);
    frames(&mut page, 60);
    assert!(page.race.playing() && elapsed(&page) > killed_at, "killed, then it plays on by itself");
    assert_eq!(page.key_seen, None, "no tour step, no key moment");
}

#[test]
fn without_autoplay_a_scenario_link_waits_on_kill_with_the_clusters_healthy() {
    for query in ["?scenario=failover&autoplay=0", "?embed=1&scenario=failover&autoplay=0&controls=min"] {
        let mut page = PageState::new(query, "http://localhost/", false);
        settle(&mut page);
        frames(&mut page, 600);
        assert_eq!((stage(&page), page.race.playing()), (Some(RaceStage::Ready), false), "{query}");
        race(&mut page, RaceAction::Kill);
        frames(&mut page, 30);
        assert!(page.race.playing() && elapsed(&page) > 0, "{query}: Kill plays it");
    }
}

#[test]
fn a_host_pause_during_the_healthy_hold_stops_the_autoplay() {
    let mut page = PageState::new("?embed=1&scenario=failover", "http://localhost/", false);
    prepared(&mut page);
    page.reduce(Action::Host(Command::Pause));
    frames(&mut page, 600);
    assert_eq!((stage(&page), page.race.playing()), (Some(RaceStage::Ready), false));
}

#[test]
fn a_moment_in_a_scenario_link_opens_a_still_there() {
    for query in [
        "?scenario=failover&t=10000",
        "?scenario=failover&t=10000&autoplay=1",
        "?scenario=failover&at=10000000.0",
    ] {
        let mut page = PageState::new(query, "http://localhost/", false);
        assert!(page.notices.is_empty(), "{query}: {:?}", page.notices);
        settle(&mut page);
        assert_eq!((elapsed(&page), page.race.playing()), (10_000 * MS, false), "{query}");
    }
}

#[test]
fn the_race_share_link_reopens_the_healthy_clusters_or_the_moment_since_the_kill() {
    let mut page =
        PageState::new("?scenario=failover&partitions=20000&autoplay=0", "http://localhost/", false);
    settle(&mut page);
    let link = |page: &mut PageState| match page.reduce(Action::Share).effects.as_slice() {
        [.., Effect::Copy(url)] => url.clone(),
        other => panic!("no link copied: {other:?}"),
    };
    let healthy = link(&mut page);
    assert!(healthy.ends_with("?scenario=failover&partitions=20000&seed=1&autoplay=0"), "{healthy}");
    race(&mut page, RaceAction::Kill);
    frames(&mut page, 120);
    race(&mut page, RaceAction::TogglePlay);
    let at = elapsed(&page) / MS;
    let moment = link(&mut page);
    assert!(moment.ends_with(&format!("&t={at}")), "{moment}");
    let query = &moment[moment.find('?').unwrap()..];
    let mut reopened = PageState::new(query, "http://localhost/", false);
    settle(&mut reopened);
    assert_eq!((elapsed(&reopened), reopened.race.playing()), (at * MS, false), "{query}");
}

#[test]
fn a_metadata_logs_size_opens_the_race() {
    let mut page = PageState::new("", "http://localhost/", false);
    page.reduce(Action::Tab(Tab::Log));
    page.reduce(Action::RaceFromLog(54));
    assert_eq!((page.tab, page.race.partitions()), (Tab::Failover, 54));
    settle(&mut page);
    assert_eq!(page.race.race().map(|r| (r.partitions(), r.stage())), Some((54, RaceStage::Ready)));
}

/// The like-for-like race: a link asks for combined nodes (or the select switches to them), the
/// killed KRaft node was also a broker, and the KRaft grid shows its partitions without a leader
/// until the new controller fences it; a share link keeps the layout.
#[test]
fn combined_nodes_lose_the_killed_brokers_partitions_until_it_is_fenced() {
    let mut page = PageState::new("?partitions=1000&kraft-roles=combined", "http://localhost/", false);
    assert!(page.notices.is_empty(), "{:?}", page.notices);
    page.reduce(Action::Tab(Tab::Failover));
    settle(&mut page);
    assert_eq!(page.race.roles(), KraftRoles::Combined);
    race(&mut page, RaceAction::Kill);
    let led = page.race.race().unwrap().kraft_leaderless_partitions();
    assert_eq!(led, 1_000 / u64::from(BROKERS), "the killed node's broker led its share");
    race(&mut page, RaceAction::SkipToEnd);
    let mut seen = Vec::new();
    while !page.race.race().unwrap().finished() {
        seen.push(page.race.race().unwrap().kraft_grid(2_000).leaderless);
        frames(&mut page, 1);
    }
    assert_eq!(seen.first(), Some(&led), "leaderless from the kill");
    assert_eq!(page.race.race().unwrap().kraft_grid(2_000).leaderless, 0, "led again at the end");
    let race_done = page.race.race().unwrap();
    let back = race_done.kraft_leaders_back_after().expect("fenced and moved");
    assert!(back > race_done.kraft_recovered_after().unwrap() + 8_000 * MS, "a broker session later");
    let shared = page.reduce(Action::Share).effects;
    let [Effect::Copy(url)] = shared.as_slice() else { panic!("a link: {shared:?}") };
    assert!(url.contains("&kraft-roles=combined&"), "{url}");
    race(&mut page, RaceAction::Roles(KraftRoles::DEDICATED));
    settle(&mut page);
    race(&mut page, RaceAction::Kill);
    assert_eq!(
        page.race.race().unwrap().kraft_leaderless_partitions(),
        0,
        "a dedicated controller leads none"
    );
}

#[test]
fn an_unknown_kraft_layout_is_told_and_the_race_keeps_dedicated_controllers() {
    let page = PageState::new("?kraft-roles=mixed", "http://localhost/", false);
    assert!(page.notices.iter().any(|n| n.contains("kraft-roles: 'mixed' is not dedicated or combined")));
    assert_eq!(page.race.roles(), KraftRoles::DEDICATED);
}

/// Whether every ZooKeeper-mode broker's cache is drawn fresh (the new controller's state).
fn every_cache_fresh(page: &PageState) -> bool {
    page.race
        .race()
        .and_then(|r| r.zk())
        .is_some_and(|zk| zk.picture().brokers.iter().all(|b| b.fresh >= 1.0))
}

#[test]
fn the_zookeeper_panel_line_says_what_the_drawn_caches_show_before_during_and_after_a_run() {
    let mut page = ready(20_000);
    let line = |page: &PageState| page.race.race().unwrap().zk_summary();
    assert!(every_cache_fresh(&page) && !line(&page).contains("not every"), "healthy: {}", line(&page));
    race(&mut page, RaceAction::Kill);
    let mut stale_seen = false;
    while page.race.race().unwrap().zk_report().is_none() {
        let stale = !every_cache_fresh(&page);
        stale_seen |= stale;
        if stale {
            assert_eq!(line(&page), "not every broker has the new state yet");
        }
        frames(&mut page, 10);
    }
    assert!(stale_seen, "the caches were drawn stale during the failover");
    assert!(
        every_cache_fresh(&page) && line(&page).starts_with("controller ready after "),
        "{}",
        line(&page)
    );
    race(&mut page, RaceAction::RunAgain);
    settle(&mut page);
    assert_eq!(stage(&page), Some(RaceStage::Ready));
    assert!(every_cache_fresh(&page), "run again: healthy clusters");
    assert_eq!(line(&page), "every broker's cache holds the controller's state", "after R the line agrees");
}

/// Seek on in steps of 100 ms of the race until `reached` holds of it (within 120 s).
fn seek_until(page: &mut PageState, reached: impl Fn(&kraftscope::race::FailoverRace) -> bool) {
    for step in 1..=1_200 {
        if page.race.race().is_some_and(&reached) {
            return;
        }
        race(page, RaceAction::Seek(step * 100 * MS));
        settle(page);
    }
    panic!("not reached within 120 s: {:?}", stage(page));
}

/// The leader the KRaft side's drawing crowns.
fn drawn_leader(screen: &RaceScreen) -> Option<u32> {
    let picture = screen.kraft.as_ref()?.picture.as_ref()?;
    picture.nodes.iter().find(|n| n.role == Some(RoleKind::Leader)).map(|n| n.id)
}

#[test]
fn the_screen_says_and_draws_each_moment_healthy_killed_loading_each_side_back_and_after_run_again() {
    let mut page = ready(10_000);
    let healthy = page.race.screen(RaceFrame::Page);
    let (kraft, zk) = (healthy.kraft.clone().unwrap(), healthy.zk.clone().unwrap());
    assert!(healthy.controls.prepared && !healthy.controls.running && healthy.headline.is_none());
    assert_eq!(
        healthy.stage,
        "Both clusters are healthy. Kill both active controllers to start the stopwatches."
    );
    assert!(kraft.caption.starts_with("Three controllers; the standbys"), "{}", kraft.caption);
    assert!(zk.caption.starts_with("Healthy:"), "{}", zk.caption);
    assert_eq!((kraft.stopwatch.as_str(), zk.stopwatch.as_str()), ("0.000 s", "0.000 s"));
    let first_leader = drawn_leader(&healthy).expect("a crowned leader before the kill");
    assert_eq!(kraft.leader, format!("active controller n{first_leader}, epoch 1"));

    race(&mut page, RaceAction::Kill);
    race(&mut page, RaceAction::TogglePlay);
    let killed = page.race.screen(RaceFrame::Page);
    let (kraft, zk) = (killed.kraft.unwrap(), killed.zk.unwrap());
    assert_eq!(killed.stage, "0.000 s since the kill (simulated)");
    assert_eq!((killed.controls.running, killed.controls.play_label), (true, "Play"));
    assert_eq!(kraft.leader, "no active controller: electing");
    assert!(kraft.caption.starts_with("The leader is gone: followers wait out"), "{}", kraft.caption);
    assert!(
        zk.caption.starts_with("The dead controller's ZooKeeper session is still alive"),
        "{}",
        zk.caption
    );
    assert_eq!(drawn_leader(&page.race.screen(RaceFrame::Page)), None, "no crown on the KRaft side");

    seek_until(&mut page, |r| r.kraft_recovered_after().is_some());
    let back = page.race.screen(RaceFrame::Page);
    let kraft = back.kraft.clone().unwrap();
    let recovered = page.race.race().unwrap().kraft_recovered_after().unwrap();
    assert_eq!(kraft.stopwatch, kraftscope::util::format::seconds(recovered), "the KRaft stopwatch stops");
    let leader = drawn_leader(&back).expect("a new leader drawn");
    assert_ne!(leader, first_leader);
    assert!(kraft.leader.starts_with(&format!("active controller n{leader}, epoch ")), "{}", kraft.leader);
    assert!(
        kraft.caption.starts_with(&format!("New leader n{leader} (epoch "))
            || kraft.caption.starts_with("Back after "),
        "{}",
        kraft.caption
    );
    assert!(back.headline.is_none(), "ZooKeeper mode is not back yet");

    seek_until(
        &mut page,
        |r| matches!(r.zk_phase(), Some(FailoverPhase::LoadingFromZk { read, .. }) if read > 0),
    );
    let loading = page.race.screen(RaceFrame::Page);
    let zk = loading.zk.unwrap();
    assert!(
        zk.caption.starts_with("Cold load: the new controller reads every partition's state"),
        "{}",
        zk.caption
    );
    assert!(zk.caption.ends_with(" of 10,000."), "{}", zk.caption);
    assert!(
        zk.grid.loaded > 0 && zk.grid.loaded < zk.grid.cells,
        "the grid fills as it loads: {:?}",
        zk.grid
    );
    assert!(matches!(zk.picture.unwrap().phase, FailoverPhase::LoadingFromZk { .. }));

    race(&mut page, RaceAction::SkipToEnd);
    settle(&mut page);
    let done = page.race.screen(RaceFrame::Page);
    let zk = done.zk.unwrap();
    let report = page.race.race().unwrap().zk_report().unwrap();
    assert_eq!(zk.stopwatch, kraftscope::util::format::seconds(report.brokers_updated_after));
    assert_eq!(zk.caption, "Back: every live broker holds the new controller's state.");
    assert_eq!(done.stage, "Both sides recovered.");
    let (headline, why) = (done.headline.unwrap(), done.why.unwrap());
    assert!(
        headline.starts_with("KRaft's controller was back") && headline.ends_with("sooner."),
        "{headline}"
    );
    assert!(
        why.contains("ZooKeeper mode had to read it all back")
            && why.contains("Partitions without a leader meanwhile"),
        "{why}"
    );
    let compact = page.race.screen(RaceFrame::Embed);
    assert_eq!(compact.caption, "10,000 partitions: both active controllers killed");
    assert_eq!(compact.headline, Some(headline), "the result in one line, in every frame");
    assert_eq!(compact.why, None, "an embed's headline is the result alone");
    let (stage, embed) = (page.race.screen(RaceFrame::Stage), page.race.screen(RaceFrame::Embed));
    assert_eq!(
        (stage.headline, stage.why),
        (embed.headline, None),
        "on a stage too, so the drawings stay in view (#61 item 8)"
    );
    assert!(stage.kraft.unwrap().chips.is_empty(), "a stage draws the clusters");
    assert!(
        !compact.kraft.unwrap().chips.is_empty() && done.kraft.unwrap().chips.is_empty(),
        "chips only embedded"
    );

    race(&mut page, RaceAction::RunAgain);
    settle(&mut page);
    assert_eq!(
        page.race.screen(RaceFrame::Page),
        healthy,
        "after R, the healthy clusters exactly as before the kill"
    );
}

/// #61 item 7: the race describes one cluster both ways: the ZooKeeper side's topics are the
/// KRaft brokers' topics, the measured spread says when it is not of this size, and the result
/// names the parts of ZooKeeper mode's time the chart's caption speaks of.
#[test]
fn both_sides_describe_one_cluster_and_the_result_names_its_parts() {
    let mut page = ready(5_400);
    let screen = page.race.screen(RaceFrame::Page);
    let zk_topics = screen.zk.as_ref().and_then(|z| z.picture.as_ref()).map(|p| p.znodes.topics);
    let kraft = screen.kraft.as_ref().and_then(|k| k.picture.as_ref()).expect("the KRaft side drawn");
    let broker = kraft.nodes.iter().find(|n| !n.voter && n.role.is_some()).expect("a running broker");
    assert_eq!(zk_topics, Some(broker.topics as u64), "/brokers/topics and the brokers' images agree");
    assert_eq!((broker.topics, broker.partitions), (6, 5_400), "topics of up to 1,000 partitions");
    race(
        &mut page,
        RaceAction::Measured(
            "partitions,kraft_ms,zk_ms,kraft_p99_ms\n1000,3000,9000,3600\n10000,3100,30000,3700\n".into(),
        ),
    );
    let spread = page.race.screen(RaceFrame::Page).kraft.and_then(|k| k.spread).expect("the measured spread");
    assert!(
        spread.contains("not measured at 5,400; at 1,000 partitions, the nearest size measured,"),
        "{spread}"
    );
    race(&mut page, RaceAction::Kill);
    race(&mut page, RaceAction::SkipToEnd);
    settle(&mut page);
    let report = page.race.race().and_then(|r| r.zk_report()).expect("ZooKeeper mode finished").clone();
    let why = page.race.screen(RaceFrame::Page).why.expect("a result");
    for part in [report.controller_elected_after, report.cold_load, report.brokers_updated_after] {
        let said = kraftscope::util::format::seconds(part);
        assert!(why.contains(&said), "the result names {said}: {why}");
    }
}

/// #61 item 8: a 1024 x 768 stage has no room for the drawings and the grids at 14 px, so G (or
/// its button) shows each side's partition grid, with its lead band, in place of its drawing,
/// and back; on the live cluster G is still the leader's resignation.
#[test]
fn g_shows_the_partitions_in_place_of_the_drawings_and_back() {
    let mut page = ready(1_000);
    assert!(!page.race.grids_first());
    assert_eq!(page.race.screen(RaceFrame::Stage).controls.grids_label, "Show the partitions");
    assert!(page.reduce(Action::Key("g".into())).effects.is_empty());
    assert!(page.race.grids_first(), "G on the race shows the grids first");
    assert_eq!(page.race.screen(RaceFrame::Stage).controls.grids_label, "Show the clusters");
    let screen = page.race.screen(RaceFrame::Stage);
    assert!(screen.kraft.unwrap().picture.is_some(), "a still still draws the clusters");
    race(&mut page, RaceAction::ToggleGrids);
    assert!(!page.race.grids_first(), "and back");

    let mut live = PageState::new("?seed=1", "http://localhost/", false);
    for _ in 0..300 {
        live.reduce(Action::Frame { elapsed: FRAME_MS });
    }
    let leader = live.session.sim().running_nodes().find(|n| n.role() == RoleKind::Leader).map(|n| n.id());
    assert!(leader.is_some(), "a leader after 5 s");
    live.reduce(Action::Key("g".into()));
    assert!(!live.race.grids_first(), "the live cluster's G is not the race's");
    assert_eq!(live.session.actions().len(), 1, "the leader resigned");
}
