//! #64, third step: the migration view in the page, natively: links open it (scenario, seed,
//! the viewer's steps, the moment), a share link taken at a paused moment reopens the same
//! state and the same picture, its keys, and bad links said in notices.

use kraftscope::harness::MS;
use kraftscope::migration::sim::{Action as Step, BrokerMode};
use kraftscope::migration::state::MigrationDriverState;
use kraftscope::page::host::{Command, HostEvent};
use kraftscope::page::migration::MigrationAction;
use kraftscope::page::{Action, Effect, PageState, StillAction, Tab};

const FRAME_MS: f64 = 1_000.0 / 60.0;

fn page(query: &str) -> PageState {
    PageState::new(query, "http://localhost:8080/", false)
}

fn frames(page: &mut PageState, n: usize) {
    for _ in 0..n {
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
}

/// The link the page shares now (its query).
fn shared(page: &mut PageState) -> String {
    let outcome = page.reduce(Action::Share);
    let [Effect::Copy(url)] = outcome.effects.as_slice() else { panic!("{:?}", outcome.effects) };
    url.split_once('?').expect("a query").1.to_string()
}

/// The picture "Save picture" writes of the view shown.
fn saved(page: &mut PageState) -> String {
    page.reduce(Action::Still(StillAction::Open));
    let outcome = page.reduce(Action::Still(StillAction::Save));
    let [Effect::SaveStill(still)] = outcome.effects.as_slice() else { panic!("{:?}", outcome.effects) };
    still.drawing.markup()
}

#[test]
fn a_scenario_link_opens_the_migration_playing_and_the_header_tab_opens_the_whole_migration() {
    let mut linked = page("?scenario=migration-zk-down&seed=3");
    assert_eq!(linked.tab, Tab::Migration);
    assert!(linked.animating(), "it plays");
    let view = linked.migration.as_ref().unwrap().view();
    assert_eq!((view.scenario, view.now), ("migration-zk-down", 0));
    frames(&mut linked, 60);
    assert!(linked.migration.as_ref().unwrap().view().now > 0);

    let mut plain = page("");
    assert!(plain.migration.is_none(), "nothing is recorded before the view is opened");
    plain.reduce(Action::Tab(Tab::Migration));
    assert_eq!(plain.migration.as_ref().unwrap().scenario(), ("migration", 1));
    plain.reduce(Action::Migration("migration-stranded"));
    assert_eq!(plain.migration.as_ref().unwrap().scenario().0, "migration-stranded");
}

#[test]
fn a_link_taken_at_a_paused_moment_after_the_viewers_own_steps_reopens_the_same_state_and_picture() {
    let mut first = page("?scenario=migration-failover&seed=5");
    while first.migration.as_ref().unwrap().view().picture.driver != Some(MigrationDriverState::DualWrite) {
        frames(&mut first, 1);
    }
    first.reduce(Action::Key(" ".into()));
    first.reduce(Action::Key("z".into()));
    assert_eq!(first.migration.as_ref().unwrap().view().refusal, None);
    first.reduce(Action::Key(" ".into()));
    frames(&mut first, 37);
    first.reduce(Action::Migrating(MigrationAction::Operator(Step::KillBroker(2))));
    frames(&mut first, 23);
    first.reduce(Action::Migrating(MigrationAction::Operator(Step::CutFromZk(3))));
    assert_eq!(first.migration.as_ref().unwrap().view().refusal, None);
    frames(&mut first, 41);
    first.reduce(Action::Key(" ".into()));
    let link = shared(&mut first);
    assert!(link.starts_with("scenario=migration-failover&seed=5&ops="), "{link}");
    assert!(link.contains(":zk-outage-30000~") && link.contains(":kill-2~"), "{link}");
    assert!(link.contains(":zk-cut-3&t="), "{link}");
    let fingerprint = first.migration.as_ref().unwrap().view().fingerprint.clone().expect("paused");

    let mut second = page(&format!("?{link}"));
    assert!(second.notices.is_empty(), "{:?}", second.notices);
    let reopened = second.migration.as_ref().unwrap().view();
    assert_eq!(reopened.fingerprint.as_deref(), Some(fingerprint.as_str()), "{link}");
    assert_eq!(saved(&mut first), saved(&mut second), "{link}");
}

#[test]
fn keys_play_step_seek_and_act_on_the_migration_shown_only() {
    let mut page = page("?scenario=migration&autoplay=0");
    assert!(!page.animating(), "autoplay=0 opens paused at the start");
    let view = |page: &PageState| page.migration.as_ref().unwrap().view().clone();
    assert_eq!(view(&page).now, 0);
    page.reduce(Action::Key("s".into()));
    let stepped = view(&page).now;
    assert!(stepped > 0);
    page.reduce(Action::Key(".".into()));
    assert_eq!(view(&page).now, stepped + 1_000 * MS);
    page.reduce(Action::Key(",".into()));
    assert_eq!(view(&page).now, stepped);
    // K kills the active KRaft controller: none is provisioned yet, and Kafka's refusal is said.
    page.reduce(Action::Key("k".into()));
    assert!(view(&page).refusal.is_some_and(|r| r.contains("refused")));
    let session_now = page.session.now();
    assert!(!page.reduce(Action::Key("h".into())).handled, "the live cluster's keys do not act unseen");
    assert_eq!(page.session.now(), session_now);
    page.reduce(Action::Key("r".into()));
    assert!(page.animating() && view(&page).now == 0, "R replays the migration from its start");
}

#[test]
fn bad_migration_links_are_named_and_the_rest_is_kept() {
    let far = page("?scenario=migration&t=9999999");
    assert!(far.notices.iter().any(|n| n.contains("past the end of migration")), "{:?}", far.notices);
    let view = far.migration.as_ref().unwrap().view();
    assert_eq!(view.now, view.end);

    let garbled = page("?scenario=migration&ops=12:nonsense&t=4000.5");
    assert!(garbled.notices.iter().any(|n| n.starts_with("ops: '12:nonsense'")), "{:?}", garbled.notices);
    assert_eq!(garbled.migration.as_ref().unwrap().view().now, 4_000_500);

    let refused = page("?scenario=migration&ops=1000:finalize&t=2000");
    assert!(
        refused.notices.iter().any(|n| n.contains("ops: at 1.000 s") && n.contains("refused")),
        "{:?}",
        refused.notices
    );

    let beyond = page("?scenario=migration&ops=1000:kill-0&t=9999999");
    assert!(beyond.notices.iter().any(|n| n.contains("more than")), "{:?}", beyond.notices);
    assert!(page("?scenario=migration&t=abc").notices.iter().any(|n| n.starts_with("t: 'abc'")));
}

#[test]
fn the_stranded_migration_ends_saying_why_in_words() {
    let mut page = page("?scenario=migration-stranded");
    while page.animating() {
        frames(&mut page, 60);
    }
    let view = page.migration.as_ref().unwrap().view();
    assert_eq!(view.now, view.end);
    let standing = view.standing.join(" ");
    assert!(
        standing.contains("INACTIVE") && standing.contains("cannot leave this without an operator"),
        "{standing}"
    );
}

#[test]
fn from_dual_write_the_viewer_rolls_the_brokers_into_kraft_and_finalizes_by_the_buttons() {
    let mut page = page("?scenario=migration");
    let view = |page: &PageState| page.migration.as_ref().unwrap().view().clone();
    while view(&page).picture.driver != Some(MigrationDriverState::DualWrite) {
        frames(&mut page, 1);
    }
    page.reduce(Action::Key(" ".into()));
    let finalize = |page: &PageState| {
        view(page).steps.iter().flat_map(|g| g.buttons.clone()).find(|b| b.action == Step::Finalize).unwrap()
    };
    // Kafka 3.9 does not check that the brokers were rolled first (its guide says to): nor does
    // the button. The viewer rolls them, one at a time as the guide does.
    assert_eq!(finalize(&page).refused, None);
    for b in 0..4 {
        page.reduce(Action::Migrating(MigrationAction::Operator(Step::BrokerToKraft(b))));
        assert_eq!(view(&page).refusal, None, "broker {b}");
        let up = |page: &PageState| {
            let broker = view(page).picture.brokers[b as usize];
            broker.mode == BrokerMode::Kraft && broker.alive
        };
        for _ in 0..100 {
            page.reduce(Action::Migrating(MigrationAction::Step));
        }
        assert!(up(&page), "broker {b} runs in KRaft mode 100 steps later");
    }

    page.reduce(Action::Migrating(MigrationAction::Operator(Step::Finalize)));
    assert_eq!(view(&page).refusal, None);
    for _ in 0..200 {
        page.reduce(Action::Migrating(MigrationAction::Step));
    }
    let standing = view(&page).standing.join(" ");
    assert!(standing.contains("ZooKeeper is no longer written"), "{standing}");
}

/// The error events a host command posted.
fn host_errors(page: &mut PageState, command: Command) -> Vec<String> {
    let outcome = page.reduce(Action::Host(command));
    outcome
        .effects
        .into_iter()
        .filter_map(|effect| match effect {
            Effect::Post(HostEvent::Error { error }) => Some(error),
            _ => None,
        })
        .collect()
}

#[test]
fn a_host_page_loads_a_migration_takes_its_steps_and_hears_kafkas_refusals() {
    let mut page = page("?origins=https://docs.example");
    assert!(
        host_errors(&mut page, Command::LoadScenario { scenario: "migration-rollback".into() }).is_empty()
    );
    assert_eq!(page.tab, Tab::Migration);
    assert_eq!(page.migration.as_ref().unwrap().scenario().0, "migration-rollback");
    assert!(host_errors(&mut page, Command::Pause).is_empty());
    assert!(!page.animating());
    let refused = host_errors(&mut page, Command::MigrationStep { action: Step::BrokerToKraft(0) });
    assert_eq!(refused.len(), 1);
    assert!(
        refused[0].starts_with("migration-step: ") && refused[0].contains("only a broker in migration mode"),
        "{refused:?}"
    );
    assert!(host_errors(&mut page, Command::MigrationStep { action: Step::ProvisionControllers }).is_empty());
    assert_eq!(page.migration.as_ref().unwrap().view().refusal, None);
    let end = page.migration.as_ref().unwrap().end() / MS;
    let far = host_errors(&mut page, Command::Seek { ms: end + 1 });
    assert!(far.len() == 1 && far[0].contains("past the end of the migration shown"), "{far:?}");
    assert!(host_errors(&mut page, Command::Seek { ms: end }).is_empty());
    assert_eq!(page.migration.as_ref().unwrap().view().now, end * MS);
    let other = host_errors(&mut page, Command::Crash { node: 1 });
    assert!(other.len() == 1 && other[0].contains("play, pause, step, seek and migration-step"), "{other:?}");
    assert!(host_errors(&mut page, Command::Play).is_empty());
    assert!(page.animating(), "the host's own step forked the run: it plays on past the recorded end");
}

#[test]
fn the_chips_name_every_node_with_its_state_in_words() {
    let page = page("?scenario=migration&t=30000");
    let view = page.migration.as_ref().unwrap().view();
    let chips: Vec<String> = view.chips.iter().map(|c| format!("{} {}", c.name, c.state)).collect();
    assert_eq!(chips.len(), 1 + 3 + 4, "ZooKeeper, three controllers, four brokers: {chips:?}");
    assert_eq!(chips[0], format!("ZooKeeper controller epoch {}", view.picture.zk.controller_epoch));
    let leader = view.picture.controllers.iter().find(|c| c.leader).expect("a KRaft leader in dual-write");
    assert!(
        chips.contains(&format!("c{} leader epoch {}", leader.id, view.picture.kraft_epoch)),
        "{chips:?}"
    );
    assert!(view.chips.iter().filter(|c| c.class == "role-leader").count() == 1, "{chips:?}");
    for b in &view.picture.brokers {
        let chip = chips.iter().find(|c| c.starts_with(&format!("b{} ", b.id))).unwrap();
        assert_eq!(chip.contains("down"), !b.alive, "{chip}");
    }
}

/// A link may size the migration (`partitions=`): a large cluster's run is recorded a slice a
/// frame while the view says how far it has got, then plays with its copy sped up (a burst
/// plays within 15 s), and its share link keeps the size. Above the most it runs, a notice.
#[test]
fn a_sized_link_records_a_large_migration_over_frames_then_plays_it() {
    let mut large = page("?scenario=migration&partitions=100000");
    assert!(large.migration.is_none(), "still recording");
    let progress = large.recording.as_ref().expect("recording").progress();
    assert!(progress.contains("100,000 partitions"), "{progress}");
    assert!(large.animating(), "frames record it");
    let mut recorded = 0;
    while large.recording.is_some() {
        frames(&mut large, 1);
        recorded += 1;
        assert!(
            recorded < 1_000,
            "still recording after {recorded} frames: {}",
            large.recording.as_ref().unwrap().progress()
        );
    }
    assert!(recorded > 20, "{recorded} frames");
    let mut played = 0;
    while large.migration.as_ref().unwrap().view().picture.driver != Some(MigrationDriverState::DualWrite) {
        frames(&mut large, 1);
        played += 1;
        assert!(played < 60 * 60, "not in dual-write after {played} frames");
    }
    assert!(played > 10 * 60, "{played} frames: the copy of 100,000 partitions flashed by");
    let copy = large.migration.as_ref().unwrap().view().picture.copy.expect("the copy's progress");
    assert!(copy.records == copy.records_total && copy.records_total > 100_000, "{copy:?}");
    large.reduce(Action::Key(" ".into()));
    assert!(shared(&mut large).contains("&partitions=100000"));

    let capped = page("?scenario=migration&partitions=300000");
    assert!(capped.notices.iter().any(|n| n.contains("at most 200,000 partitions")), "{:?}", capped.notices);
}

/// A bridge release tour step's id as a scenario link opens its migration scenario as that
/// scenario's own link does: from its start, playing, with no question to hold at (the question
/// is the tour's).
#[test]
fn a_bridge_step_named_as_a_scenario_opens_its_migration_without_the_question() {
    let linked = page("?scenario=bridge-stranded");
    let migration = linked.migration.as_ref().expect("the migration");
    assert_eq!(migration.scenario().0, "migration-stranded");
    assert!(migration.playing() && migration.question().is_none());
    assert_eq!(migration.view().now, 0);
}
