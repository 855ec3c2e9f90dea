//! Every guided-tour step opens a few seconds before its key moment and plays it at the page's
//! default pacing: the moment is not there when the step opens, and happens within a few seconds
//! of real time (frames of 1/60 s through the page's reducer, or the race's sports-replay pace).

use kraftscope::harness::MS;
use kraftscope::page::{Action, PageState, RaceAction, Stage, Tab};
use kraftscope::race::{FailoverRace, RaceStage};
use kraftscope::teaching::stories::{TOUR, View};

const FRAME_MS: f64 = 1_000.0 / 60.0;
/// The browser test allows 10 s of wall time; the native pacing must leave room for slow frames.
const MOST_WALL_MS: f64 = 7_000.0;
/// Seeds other than the tour's own may hit a split vote on the way.
const OTHER_SEEDS_WALL_MS: f64 = 20_000.0;
/// "A few seconds before": the viewer gets at least this long to see the scene first.
const LEAST_WALL_MS: f64 = 800.0;

/// Skip the step's question if it is open ("Just watch"; tests/predictions_page.rs and
/// tests/race_question.rs answer them): the live cluster's, the pain's or the race's.
fn just_watch(page: &mut PageState) {
    let live_asks = page.question.as_ref().is_some_and(|q| q.stage(page.session.now()) == Stage::Asking);
    if live_asks || page.pains.asking() {
        page.reduce(Action::Predict(None));
    }
    if page.race.asking() {
        page.reduce(Action::Race(RaceAction::Predict(false)));
    }
}

/// Real milliseconds of 60 Hz frames until the page ticks its key moment off; fails if the view
/// stops playing (`playing`) or a minute passes first. A step's question is skipped.
fn frames_until_key_moment(page: &mut PageState, what: &str, playing: fn(&PageState) -> bool) -> f64 {
    let mut wall = 0.0;
    while page.key_seen.is_none() {
        just_watch(page);
        assert!(
            playing(page) && wall < 60_000.0,
            "{what}: no key moment after {wall} ms of play (at {} us)",
            page.session.now()
        );
        wall += FRAME_MS;
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
    wall
}

/// Each cluster step's key moment as the event log words it, judged on the line's text without
/// the page's own matcher (src/teaching/key_moment.rs), so a wrong matcher shows here.
fn worded_as_its_moment(id: &str, line: &str) -> bool {
    let appended = |node: &str, record: &str| {
        line.strip_prefix(&format!("{node} appended ")).is_some_and(|rest| {
            rest.strip_prefix("a ")
                .or_else(|| rest.split_once(" records from a ").map(|(_, r)| r))
                .is_some_and(|first| first.starts_with(&format!("{record},")))
        })
    };
    let committed_add = |node: &str| {
        line.starts_with(&format!("AddRaftVoter {node} (dir ")) || line.contains(&format!(" AddRaftVoter {node} (dir "))
    } && line.ends_with("): committed, answered NONE");
    let epoch_after = |text: &str| line.rsplit_once(text).and_then(|(_, epoch)| epoch.parse::<u32>().ok());
    match id {
        "first-election" => line.ends_with("became Leader at epoch 1"),
        "leader-crash" => {
            epoch_after(" at epoch ").is_some_and(|e| (2..=9).contains(&e)) && line.contains(" became ")
        }
        "pre-vote" => line == "n3 became Prospective at epoch 1",
        "no-pre-vote" => line.starts_with("n3 became Candidate at epoch"),
        "divergence" => line.contains(" truncated its log to ") && line.contains(" (DivergingEpoch"),
        "brokers-fetch" => appended("n101", "TopicRecord"),
        "broker-restart" => line.starts_with("n101 appended"),
        "broker-power-loss" => appended("n101", "LeaderChange"),
        "snapshot" => line.contains(" -> n103 SnapshotId("),
        "fencing" => appended("n102", "PartitionChangeRecord"),
        "controlled-shutdown" => appended("n101", "BrokerRegistrationChangeRecord"),
        "odd-quorum" => {
            line.contains(" became Prospective at epoch ")
                && epoch_after(" at epoch ").is_some_and(|e| e >= 1)
        }
        "add-controller" => committed_add("n4"),
        "replace-disk" => committed_add("n3"),
        "leader-leaves" => line.contains(" resigned ("),
        other => panic!("no wording known for the cluster step {other}: add it here"),
    }
}

/// Real milliseconds of play from the step's opening until its key moment.
fn wall_ms_to_key_moment(step: usize, seed: u64) -> f64 {
    let mut page = PageState::new(&format!("?tour={}&seed={seed}", step + 1), "http://localhost/", false);
    let story = &TOUR[step];
    assert!(page.live.playing, "step {} ({}) opens playing", step + 1, story.id);
    assert_eq!(page.session.now(), story.opens_at_ms * MS);
    assert_eq!(
        page.key_seen,
        None,
        "step {} ({}): its key moment is not there when it opens",
        step + 1,
        story.id
    );
    let what = format!(
        "step {} ({}) seed {seed}; reproduce: cargo test --release --test suite tour_steps::",
        step + 1,
        story.id
    );
    let wall = frames_until_key_moment(&mut page, &what, |page| page.live.playing);
    let opened = story.opens_at_ms * MS;
    let worded: Vec<String> = page
        .session
        .log()
        .iter()
        .filter(|line| line.at >= opened)
        .map(|line| line.kind.to_string())
        .collect();
    assert!(
        worded.iter().any(|line| worded_as_its_moment(story.id, line)),
        "step {} ({}) seed {seed}: the event log since the opening has no line worded as its moment:\n{}",
        step + 1,
        story.id,
        worded.join("\n")
    );
    wall
}

#[test]
fn each_cluster_step_plays_its_key_moment_within_a_few_seconds() {
    let mut report = Vec::new();
    for (step, story) in TOUR.iter().enumerate().filter(|(_, s)| s.view == View::Cluster) {
        // The tour's own seed (the page's default) must be quick; any other seed still plays it.
        for (seed, most) in [(1, MOST_WALL_MS), (2, OTHER_SEEDS_WALL_MS), (3, OTHER_SEEDS_WALL_MS)] {
            let wall = wall_ms_to_key_moment(step, seed);
            report.push(format!("step {} {} seed {seed}: {:.1} s", step + 1, story.id, wall / 1_000.0));
            assert!(
                (LEAST_WALL_MS..=most).contains(&wall),
                "step {} ({}) seed {seed}: key moment after {wall:.0} ms of play, want {LEAST_WALL_MS}..{most}",
                step + 1,
                story.id
            );
        }
    }
    println!("{}", report.join("\n"));
}

#[test]
fn replay_step_reopens_the_step_before_its_key_moment() {
    let step = TOUR.iter().position(|s| s.id == "leader-crash").unwrap();
    let wall = wall_ms_to_key_moment(step, 1);
    let mut page = PageState::new(&format!("?tour={}", step + 1), "http://localhost/", false);
    let mut t = 0.0;
    while t < wall + 100.0 {
        just_watch(&mut page);
        t += FRAME_MS;
        page.reduce(Action::Frame { elapsed: FRAME_MS });
    }
    assert!(page.key_seen.is_some());
    page.reduce(Action::ReplayStep);
    assert_eq!(
        (page.key_seen, page.session.now(), page.live.playing),
        (None, TOUR[step].opens_at_ms * MS, true)
    );
}

/// Real milliseconds of the race's sports-replay playback, through the page's frames, from a
/// race step's opening (reached by preparing the race, killing and fast-forwarding, as the page
/// does) until the page ticks its key moment off.
fn race_wall_ms_to_key_moment(step: usize) -> f64 {
    let story = &TOUR[step];
    let opens = story.race.expect("a race step has a race").tour_opens_after_kill_ms * MS;
    let mut page = PageState::new(&format!("?tour={}", step + 1), "http://localhost/", false);
    assert_eq!(page.tab, Tab::Failover);
    let mut frames = 0;
    while !page.race.playing() {
        assert!(frames < 100, "{}: the race never reached its opening and played on", story.id);
        just_watch(&mut page);
        page.reduce(Action::Frame { elapsed: FRAME_MS });
        frames += 1;
    }
    let Some(RaceStage::Running { elapsed }) = page.race.race().map(FailoverRace::stage) else {
        panic!("{}: the race plays from its opening", story.id)
    };
    assert_eq!(elapsed, opens, "{}: the race opens at its moment", story.id);
    assert_eq!(page.key_seen, None, "{}: its key moment is not there when it opens", story.id);
    let wall = frames_until_key_moment(&mut page, story.id, |page| page.race.playing());
    let Some(RaceStage::Running { elapsed }) = page.race.race().map(FailoverRace::stage) else {
        panic!("{}: still running", story.id)
    };
    assert_eq!(
        page.key_seen,
        Some(elapsed),
        "{}: the panel ticks the moment off with the race's time",
        story.id
    );
    wall
}

#[test]
fn each_race_step_opens_before_its_moment_and_plays_it_within_a_few_seconds() {
    let mut report = Vec::new();
    for (step, story) in TOUR.iter().enumerate().filter(|(_, s)| s.view == View::Failover) {
        let wall = race_wall_ms_to_key_moment(step);
        report.push(format!("step {} {}: {:.1} s", step + 1, story.id, wall / 1_000.0));
        assert!(
            (LEAST_WALL_MS..=MOST_WALL_MS).contains(&wall),
            "step {} ({}): key moment after {wall:.0} ms of play, want {LEAST_WALL_MS}..{MOST_WALL_MS}",
            step + 1,
            story.id
        );
        let mut page = PageState::new(&format!("?tour={}", step + 1), "http://localhost/", false);
        assert_eq!(
            (page.race.request().plays_on, page.race.request().key),
            (true, story.race.map(|r| r.key))
        );
        page.reduce(Action::ViewKeySeen(6_000 * MS));
        assert_eq!(page.key_seen, Some(6_000 * MS), "step {}: the panel ticks the moment off", step + 1);
        page.reduce(Action::ReplayStep);
        assert_eq!(page.key_seen, None, "step {}: Replay step opens before the moment again", step + 1);
        assert!(
            matches!(page.race.race().map(FailoverRace::stage), Some(RaceStage::Preparing { .. })),
            "step {}: Replay step starts the race afresh",
            step + 1
        );
    }
    println!("{}", report.join("\n"));
    let scenario = PageState::new("?scenario=failover", "http://localhost/", false);
    assert!(
        !scenario.race.request().plays_on && scenario.race.request().autoplay,
        "a scenario link opens the race from its start and autoplays it"
    );
}

/// Real milliseconds of the pains view's playback, through the page's frames, from a pain
/// step's opening until the page ticks its key moment off.
fn pain_wall_ms_to_key_moment(step: usize) -> f64 {
    let story = &TOUR[step];
    let mut page = PageState::new(&format!("?tour={}", step + 1), "http://localhost/", false);
    assert_eq!(page.tab, Tab::Pains, "{} opens the pains view", story.id);
    assert!(page.pains.playing(), "{} opens playing", story.id);
    assert_eq!(page.key_seen, None, "{}: its key moment is not there when it opens", story.id);
    frames_until_key_moment(&mut page, story.id, |page| page.pains.playing())
}

#[test]
fn each_pain_step_plays_its_key_moment_within_a_few_seconds() {
    let steps: Vec<usize> = TOUR
        .iter()
        .enumerate()
        .filter(|(_, s)| matches!(s.view, View::Pain(_)))
        .map(|(step, _)| step)
        .collect();
    assert!(steps.len() >= 3, "the tour has ZooKeeper mode's pains");
    for step in steps {
        let wall = pain_wall_ms_to_key_moment(step);
        println!("step {} {}: {:.1} s", step + 1, TOUR[step].id, wall / 1_000.0);
        assert!(
            (LEAST_WALL_MS..=MOST_WALL_MS).contains(&wall),
            "step {} ({}): key moment after {wall:.0} ms of play, want {LEAST_WALL_MS}..{MOST_WALL_MS}",
            step + 1,
            TOUR[step].id
        );
    }
}

/// Real milliseconds of the migration view's playback, through the page's frames, from a
/// migration step's question (skipped) until the page ticks its moment (the answer) off.
fn migration_wall_ms_to_key_moment(step: usize) -> f64 {
    let story = &TOUR[step];
    let mut page = PageState::new(&format!("?tour={}", step + 1), "http://localhost/", false);
    assert_eq!(page.tab, Tab::Migration, "{} opens the migration view", story.id);
    assert!(page.migration.as_ref().is_some_and(|m| m.asking()), "{} opens at its question", story.id);
    assert_eq!(page.key_seen, None, "{}: its moment is not there when it opens", story.id);
    page.reduce(Action::Predict(None));
    frames_until_key_moment(&mut page, story.id, |page| page.migration.as_ref().is_some_and(|m| m.playing()))
}

#[test]
fn each_migration_step_plays_its_answer_within_a_few_seconds() {
    let steps: Vec<usize> =
        TOUR.iter().enumerate().filter(|(_, s)| s.view == View::Migration).map(|(step, _)| step).collect();
    assert!(steps.len() >= 3, "the tour has the bridge release's chapter");
    for step in steps {
        let wall = migration_wall_ms_to_key_moment(step);
        println!("step {} {}: {:.1} s", step + 1, TOUR[step].id, wall / 1_000.0);
        // The scene is there for as long as the question holds: the answer may come at once.
        assert!(
            wall <= MOST_WALL_MS,
            "step {} ({}): answer after {wall:.0} ms of play, want at most {MOST_WALL_MS}",
            step + 1,
            TOUR[step].id
        );
    }
}
