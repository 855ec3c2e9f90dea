//! #64, first step: what a drawing of the migration shows at a moment, read from the
//! simulation (`migration::picture`), and the drawing and still made of it
//! (`drawing::migration`, `kraftscope render --view migration`).

use kraftscope::drawing::migration::{migration_drawing, standing_lines};
use kraftscope::harness::MS;
use kraftscope::migration::picture::{ControllerZnode, Link, MigrationPicture};
use kraftscope::migration::scenarios;
use kraftscope::migration::sim::{BrokerMode, MigrationSim, TraceKind};
use kraftscope::migration::state::{MigrationDriverState, ZkMigrationState};
use kraftscope::migration::timeline::Timeline;

/// Scenario `id` (seed 1) recorded, standing at its end.
fn recorded(id: &str) -> Timeline {
    let scenario = scenarios::find(id).expect("a scenario");
    Timeline::record(scenario, scenario.config(), 1).expect("it runs")
}

/// The first moment the trace says the driver entered DUAL_WRITE.
fn dual_write_at(timeline: &Timeline) -> u64 {
    timeline
        .sim()
        .trace()
        .iter()
        .find(|l| l.kind.to_string().ends_with("-> DUAL_WRITE"))
        .map(|l| l.at)
        .expect("dual-write")
}

#[test]
fn in_dual_write_the_picture_shows_both_controllers_the_copy_done_and_every_link() {
    let mut timeline = recorded("migration");
    timeline.seek(dual_write_at(&timeline) + 500 * MS);
    let p = MigrationPicture::of(timeline.sim());
    assert_eq!(p.driver, Some(MigrationDriverState::DualWrite));
    assert_eq!(p.log_state, ZkMigrationState::Migration);
    let leader = p.controllers.iter().find(|c| c.leader).expect("a KRaft leader");
    assert_eq!(p.zk.controller, ControllerZnode::Kraft { id: leader.id, epoch: p.kraft_epoch });
    assert!(p.zk.controller_epoch >= 2 && p.zk.migration.is_some(), "{:?}", p.zk);
    let copy = p.copy.expect("the copy");
    assert_eq!((copy.records, copy.batches), (copy.records_total, copy.batches_total));
    // No controller acts until every ZooKeeper-mode broker applied the KRaft controller's first
    // push: here one broker, registered but still fenced at the push, has not had one yet.
    let resigned =
        timeline.sim().trace().iter().find(|l| matches!(l.kind, TraceKind::ZkControllerResigned { .. }));
    let (no_controller, over) = p.no_controller.expect("the ZooKeeper controller resigned");
    assert_eq!((no_controller, over), (p.now - resigned.unwrap().at, false));
    for b in &p.brokers {
        assert_eq!(b.mode, BrokerMode::Migrating);
        for link in [Link::Session(b.id), Link::Fetch(b.id), Link::Rpcs(b.id)] {
            assert!(p.links.contains(&link), "{link:?} in {:?}", p.links);
        }
    }
    assert!(p.links.contains(&Link::DualWrite));
    let lines = standing_lines(&p);
    assert_eq!(lines[0], "The log says MIGRATION (ZkMigrationStateRecord)");
    assert!(
        lines.iter().any(|l| l.starts_with("No controller has acted for the ZooKeeper-mode brokers for ")),
        "{lines:?}"
    );

    let markup = migration_drawing(&p).markup();
    assert_eq!(markup.matches("mig-step current").count(), 1, "one step lit");
    let current = markup.split("mig-step current").nth(1).unwrap();
    assert!(current.split("</g>").next().unwrap().contains("<title>DUAL_WRITE</title>"));
    assert_eq!(markup.matches("ZooKeeper + migration").count(), p.brokers.len());
    // Both sides' epochs side by side, in the two titles.
    assert!(markup.contains(&format!(">ZooKeeper · controller epoch {}<", p.zk.controller_epoch)));
    assert!(markup.contains(&format!(">KRaft quorum · leader epoch {}<", p.kraft_epoch)));
    assert!(
        markup.contains(&format!(
            "/controller: c{} (KRaft, kraftControllerEpoch {})",
            leader.id, p.kraft_epoch
        ))
    );
}

#[test]
fn before_the_claim_a_broker_is_zookeepers_controller_and_nothing_is_written_by_kraft() {
    let sim = MigrationSim::new(scenarios::find("migration").unwrap().config(), 1).unwrap();
    let p = MigrationPicture::of(&sim);
    assert!(matches!(p.zk.controller, ControllerZnode::Broker(_)));
    assert_eq!((p.driver, p.kraft_epoch, p.copy, p.no_controller), (None, 0, None, None));
    assert!(p.standing().contains("not provisioned"), "{}", p.standing());
    assert!(p.brokers.iter().all(|b| b.mode == BrokerMode::Zk && p.links.contains(&Link::Session(b.id))));
    assert!(!p.links.iter().any(|l| matches!(l, Link::Fetch(_) | Link::Rpcs(_) | Link::DualWrite)));
}

#[test]
fn finalized_the_brokers_run_in_kraft_mode_and_nothing_is_written_to_zookeeper() {
    let timeline = recorded("migration");
    let p = MigrationPicture::of(timeline.sim());
    assert!(p.finalized && p.state_word() == "POST_MIGRATION");
    assert!(p.brokers.iter().all(|b| b.mode == BrokerMode::Kraft && !b.zk_session));
    assert!(p.links.iter().all(|l| matches!(l, Link::Fetch(_))), "{:?}", p.links);
    let markup = migration_drawing(&p).markup();
    assert!(!markup.contains("mig-step current") && !markup.contains("mig-link dual-write"));
    assert_eq!(markup.matches("mig-step done").count(), 7, "every step behind it");
}

#[test]
fn stranded_the_picture_says_why_in_words() {
    let timeline = recorded("migration-stranded");
    let p = MigrationPicture::of(timeline.sim());
    assert!(p.stranded);
    let standing = p.standing();
    for words in ["Stranded", "MIGRATION", "/migration records no copy", "INACTIVE", "operator"] {
        assert!(standing.contains(words), "{words:?} in {standing}");
    }
}

#[test]
fn rolled_back_a_broker_controls_again_and_the_controllers_are_gone() {
    let timeline = recorded("migration-rollback");
    let sim = timeline.sim();
    let p = MigrationPicture::of(sim);
    assert!(p.rolled_back && p.driver.is_none());
    let ControllerZnode::Broker(b) = p.zk.controller else { panic!("{:?}", p.zk.controller) };
    assert_eq!(sim.zk_controller(), Some(b));
    assert!(p.brokers.iter().any(|x| x.id == b && x.zk_controller));
    let elected =
        sim.trace().iter().filter(|l| matches!(l.kind, TraceKind::ZkControllerElected { .. })).count();
    assert!(elected >= 1);
    assert!(p.controllers.iter().all(|c| !c.alive));
    assert!(p.brokers.iter().all(|x| x.mode == BrokerMode::Zk));
}

#[test]
fn kraftscope_render_draws_a_migration_and_says_what_is_wrong() {
    let kraftscope = |args: &[&str]| {
        let out = std::process::Command::new(env!("CARGO_BIN_EXE_kraftscope")).args(args).output().unwrap();
        (
            out.status.success(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let (ok, svg, _) =
        kraftscope(&["render", "--view", "migration", "--scenario", "migration", "--at", "30000"]);
    assert!(ok && svg.contains("<svg") && svg.contains("<title>DUAL_WRITE</title>"));
    assert!(svg.contains("Migration from ZooKeeper mode to KRaft (Kafka 3.9)") && svg.contains("DUAL_WRITE"));
    let (ok, _, err) = kraftscope(&["render", "--view", "migration", "--scenario", "nope"]);
    assert!(!ok && err.contains("not a migration scenario") && err.contains("migration-stranded"), "{err}");
    let (ok, _, err) = kraftscope(&["render", "--view", "migration", "--at", "99999999"]);
    assert!(!ok && err.contains("past the end"), "{err}");
}

/// migration-zk-session: while broker 1 is cut off ZooKeeper its box says so and its session's
/// line is drawn cut; once ZooKeeper has expired the session the line is gone; back, it holds a
/// new session, drawn whole.
#[test]
fn a_broker_cut_off_zookeeper_is_drawn_cut_then_without_a_session_then_with_a_new_one() {
    let mut timeline = recorded("migration-zk-session");
    let at =
        |kind: fn(&TraceKind) -> bool| timeline.sim().trace().iter().find(|l| kind(&l.kind)).map(|l| l.at);
    let expired = at(|k| matches!(k, TraceKind::SessionExpired { broker: 1, .. })).expect("expired");
    let back = at(|k| matches!(k, TraceKind::ZkLinkBack { broker: 1, expired: true })).expect("back");
    let b1 = |p: &MigrationPicture| *p.brokers.iter().find(|b| b.id == 1).expect("broker 1");
    timeline.seek(expired - 1_000 * MS);
    let p = MigrationPicture::of(timeline.sim());
    assert!(b1(&p).cut_from_zk && b1(&p).zk_session, "cut, the session not yet expired");
    let markup = migration_drawing(&p).markup();
    assert!(markup.contains("cut off ZooKeeper"), "the box says it");
    assert_eq!(markup.matches(r#"class="mig-link session cut""#).count(), 1, "one line drawn cut");
    timeline.seek(expired + 1_000 * MS);
    let p = MigrationPicture::of(timeline.sim());
    assert!(b1(&p).cut_from_zk && !b1(&p).zk_session);
    assert!(!p.links.contains(&Link::Session(1)), "no session line once it expired");
    timeline.seek(back + 1_000 * MS);
    let p = MigrationPicture::of(timeline.sim());
    assert!(!b1(&p).cut_from_zk && b1(&p).zk_session && p.links.contains(&Link::Session(1)));
    assert!(!migration_drawing(&p).markup().contains("cut off ZooKeeper"));
}
