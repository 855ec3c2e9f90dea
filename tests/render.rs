//! `kraftscope render` writes a scenario's cluster at a moment as an SVG of its own: the
//! page's drawing (`drawing::cluster`) and stylesheet, deterministic, bad input refused
//! with a clear message.

use crate::common;

use std::process::{Command, Output};

use kraftscope::harness::MS;
use kraftscope::quorum::RoleKind;
use kraftscope::session::picture::session_picture;
use kraftscope::teaching::stories;

fn render(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_kraftscope")).arg("render").args(args).output().unwrap()
}

fn svg_of(args: &[&str]) -> String {
    let out = render(args);
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).unwrap()
}

#[test]
fn a_still_draws_every_node_as_the_session_has_it_at_that_moment() {
    let svg = svg_of(&["--scenario", "leader-crash", "--seed", "3"]);
    assert!(svg.starts_with("<?xml"), "{}", &svg[..80]);
    assert!(
        svg.contains("<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"cluster\" viewBox=\"0 0 "),
        "a file of its own"
    );
    assert!(svg.contains("<style><![CDATA[") && svg.contains(".node .name{"), "the page's stylesheet inside");
    let session = stories::find("leader-crash").unwrap().opening(3);
    let picture = session_picture(&session, false);
    assert!(!picture.nodes.is_empty());
    for node in &picture.nodes {
        let (_, role_class) = node.role_text();
        let kind = if node.voter { "controller" } else { "broker" };
        let group = format!("class=\"node {role_class}\" ");
        let named = format!("aria-label=\"{kind} {} ", node.label);
        assert!(
            svg.split("<g ").any(|g| g.starts_with(&group) && g.contains(&named)),
            "{} drawn as {role_class}",
            node.label
        );
    }
    let leaders = picture.nodes.iter().filter(|n| n.role == Some(RoleKind::Leader)).count();
    assert_eq!(svg.matches("class=\"crown\"").count(), leaders, "a crown on each leader");
    assert_eq!(svg.matches("<g class=\"node ").count(), picture.nodes.len());
    assert!(!svg.contains("tabindex") && !svg.contains("role=\"button\""), "pictures, not buttons");
}

#[test]
fn the_same_moment_draws_the_same_file_and_another_moment_another() {
    let args = ["--scenario", "divergence", "--seed", "5", "--at", "9000"];
    let first = svg_of(&args);
    assert_eq!(first, svg_of(&args), "deterministic");
    let later = svg_of(&["--scenario", "divergence", "--seed", "5", "--at", "15000"]);
    assert_ne!(first, later);
    let story = stories::find("divergence").unwrap();
    let mut session = story.opening(5);
    session.seek(15_000 * MS).unwrap();
    let ends: Vec<String> = session_picture(&session, false)
        .nodes
        .iter()
        .filter(|n| n.voter && n.role.is_some())
        .map(|n| format!("log {}..{} · HW", n.log_start, n.log_end))
        .collect();
    assert!(!ends.is_empty());
    for end in ends {
        assert!(later.contains(&end), "{end} drawn at 15 s");
    }
}

#[test]
fn a_dark_still_with_a_caption_and_out_writes_a_file() {
    let dir = std::env::temp_dir().join(format!("kraftscope-render-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("slide.svg");
    let args =
        ["--scenario", "first-election", "--theme", "dark", "--caption", "Epoch 1: <n2> wins", "--out"];
    let out = render(&[&args[..], &[file.to_str().unwrap()]].concat());
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    assert!(String::from_utf8_lossy(&out.stderr).starts_with("wrote the cluster at "));
    let svg = std::fs::read_to_string(&file).unwrap();
    let light = svg_of(&["--scenario", "first-election"]);
    let box_of = |svg: &str| -> Vec<f64> {
        let at = svg.find("viewBox=\"").unwrap() + 9;
        svg[at..].split('"').next().unwrap().split(' ').map(|n| n.parse().unwrap()).collect()
    };
    assert!(svg.contains("class=\"cluster still-dark\""), "{}", &svg[..400]);
    assert!(svg.contains(">Epoch 1: &lt;n2&gt; wins</text></svg>"), "the caption, escaped, last");
    assert_eq!(box_of(&svg)[3], box_of(&light)[3] + 44.0, "room for the caption");
    let drawing = light.split("</style>").nth(1).unwrap();
    assert!(!drawing.contains("still-caption") && !drawing.contains("still-dark"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_input_is_refused_with_a_clear_message() {
    for (args, says) in [
        (&["--scenario", "nope"][..], "--scenario: 'nope' is unknown (scenarios: "),
        (&["--scenario", "failover"][..], "opens another view than the cluster"),
        (&[][..], "give --scenario NAME"),
        (&["--scenario", "pre-vote", "--at", "soon"][..], "--at: 'soon' is not a time in ms"),
        (&["--scenario", "pre-vote", "--at", "999999999999"][..], "is later than"),
        (&["--scenario", "pre-vote", "--theme", "sepia"][..], "--theme: 'sepia' is neither light nor dark"),
        (
            &["--scenario", "pre-vote", "--caption", &"x".repeat(161)][..],
            "--caption: 161 characters; a caption takes at most 160",
        ),
        (&["--scenario", "pre-vote", "--colour", "red"][..], "unknown option --colour"),
    ] {
        let out = render(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(out.stdout.is_empty());
    }
}

/// The failover race's screen as the page shows it for this link, its work done.
fn race_screen(query: &str) -> kraftscope::page::race::RaceScreen {
    let mut page = kraftscope::page::PageState::new(query, "http://localhost/", false);
    while page.race.busy() {
        page.reduce(kraftscope::page::Action::Frame { elapsed: 1_000.0 / 60.0 });
    }
    page.race.screen(kraftscope::page::race::RaceFrame::Page)
}

#[test]
fn a_race_still_shows_both_sides_as_the_page_does_that_long_after_the_kill() {
    let svg = svg_of(&["--view", "race", "--partitions", "100000", "--at", "20000", "--seed", "4"]);
    let screen = race_screen("?scenario=failover&partitions=100000&seed=4&t=20000&autoplay=0");
    let (kraft, zk) = (screen.kraft.unwrap(), screen.zk.unwrap());
    assert_eq!(zk.stopwatch, "20.000 s", "the moment asked for");
    for text in [&kraft.stopwatch, &kraft.leader, &zk.stopwatch, &zk.summary] {
        assert!(svg.contains(&format!(">{text}</text>")), "{text} drawn");
    }
    assert!(svg.contains("class=\"still-sheet race-still\""), "{}", &svg[..300]);
    let drawing = svg.split("</style>").nth(1).unwrap();
    for part in [
        "class=\"cluster\"",
        "class=\"zk-cluster\"",
        "class=\"partition-grid kraft\"",
        "class=\"partition-grid zk\"",
    ] {
        assert_eq!(drawing.matches(part).count(), 1, "{part} once");
    }
    assert!(
        !drawing.contains("<svg class="),
        "the drawings are groups in the one picture, not nested pictures"
    );
    let before = svg_of(&["--view", "race", "--partitions", "100000", "--seed", "4"]);
    assert!(before.contains(">0.000 s</text>"), "before the kill without --at");
    assert_ne!(before, svg);
    assert_eq!(svg, svg_of(&["--view", "race", "--partitions", "100000", "--at", "20000", "--seed", "4"]));
}

#[test]
fn bad_race_input_is_refused_with_a_clear_message() {
    for (args, says) in [
        (&["--view", "pie"][..], "--view: 'pie' is not cluster, race, pains, migration or log"),
        (&["--view", "race", "--scenario", "failover"][..], "--scenario is the cluster's"),
        (&["--scenario", "leader-crash", "--partitions", "10"][..], "give --view race"),
        (&["--view", "race", "--partitions", "many"][..], "--partitions: 'many' is not a valid value"),
        (&["--view", "race", "--partitions", "99999999999"][..], "partitions"),
        (&["--view", "race", "--kraft-roles", "both"][..], "kraft-roles"),
        (&["--view", "race", "--at", "soon"][..], "--at: 'soon' is not a time in ms"),
    ] {
        let out = render(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

#[test]
fn a_pains_still_shows_the_pain_as_the_page_does_that_far_into_it() {
    let svg = svg_of(&["--view", "pains", "--scenario", "zk-liveness", "--at", "9000"]);
    let page = kraftscope::page::PageState::new("?scenario=zk-liveness&t=9000", "http://localhost/", false);
    let view = page.pains.view();
    assert_eq!(
        (view.now, view.playing, view.seen),
        (9_000 * MS, false, true),
        "paused at the moment asked for"
    );
    assert!(svg.contains("class=\"still-sheet pains-still\""), "{}", &svg[..300]);
    let drawing = svg.split("</style>").nth(1).unwrap();
    assert_eq!(drawing.matches("class=\"zk-cluster\"").count(), 1, "the ZooKeeper-mode drawing");
    for text in ["Two notions of liveness", "9.000 s", view.pain.kraft_answer().split(' ').next().unwrap()] {
        assert!(drawing.contains(&format!(">{text}")), "{text} drawn");
    }
    for event in &view.events {
        let start: String = event.chars().take(40).collect();
        assert!(drawing.contains(&format!(">{start}")), "latest event {event} drawn");
    }
    // Every copy's cell and every broker's answer, the disagreeing ones marked as on the page.
    let marked_copies: usize =
        view.copy_cells().iter().map(|(_, c)| c.iter().filter(|(_, m)| *m).count()).sum();
    let split = view.liveness_cells().iter().filter(|(_, split, _)| *split).count();
    assert!(
        marked_copies > 0 && split == 1,
        "the moment shows the pain: {marked_copies} stale cells, {split} split"
    );
    assert_eq!(drawing.matches("<rect class=\"marked\"").count(), marked_copies + split);
    let copies = drawing
        .split("class=\"still-table copies\"")
        .nth(1)
        .unwrap()
        .split("still-table liveness")
        .next()
        .unwrap();
    assert_eq!(
        copies.matches("<rect").count(),
        (view.copies.len() + 1) * 13,
        "a head row and a row per copy, 13 cells each"
    );
    let before = svg_of(&["--view", "pains", "--scenario", "zk-liveness"]);
    assert!(before.contains(">0.000 s</text>"), "its start without --at");
    assert_ne!(before, svg);
    assert_eq!(
        svg,
        svg_of(&["--view", "pains", "--scenario", "zk-liveness", "--at", "9000"]),
        "deterministic"
    );
}

#[test]
fn bad_pains_input_is_refused_with_a_clear_message() {
    for (args, says) in [
        (
            &["--view", "pains"][..],
            "give --scenario NAME (pains: zk-stale-cache, zk-liveness, zk-watch-storm, zk-security)",
        ),
        (&["--view", "pains", "--scenario", "leader-crash"][..], "'leader-crash' is not one of the pains"),
        (
            &["--view", "pains", "--scenario", "zk-liveness", "--at", "soon"][..],
            "--at: 'soon' is not a valid value",
        ),
        (
            &["--view", "pains", "--scenario", "zk-liveness", "--at", "999999999999"][..],
            "--at: 999999999999 ms is past the end of zk-liveness, which plays ",
        ),
        (&["--view", "pains", "--scenario", "zk-liveness", "--partitions", "5"][..], "give --view race"),
    ] {
        let out = render(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// A real one-node log (`../shared/fixtures/kafka/`).
const SEGMENT: &str = "ldi-poc/__cluster_metadata-0/00000000000000000000.log";

/// The files at `path` opened by the page's reader, its image after `at` records.
fn opened(path: &str, at: usize) -> kraftscope::log_reader::OpenedLog {
    use kraftscope::log_reader::{LogReader, LogRequest};
    let files = kraftscope::kafka_log::directory::read_tree(&[std::path::Path::new(path)]).unwrap();
    let mut reader = LogReader::default();
    reader.answer(LogRequest::Open(files)).unwrap();
    reader.answer(LogRequest::Seek(at)).unwrap()
}

#[test]
fn a_log_still_is_the_pages_drawing_of_the_files_opened_there() {
    use kraftscope::drawing::cluster::StillStyle;
    use kraftscope::drawing::log::log_still;
    use kraftscope::util::css::still_sheet;

    let Some(segment) = common::real(SEGMENT) else { return };
    let svg = svg_of(&["--view", "log", "--files", &segment, "--at", "4000", "--theme", "dark"]);
    let log = opened(&segment, 4_000);
    let style = StillStyle { dark: true, caption: String::new() };
    let expected = log_still(&log, &style).document(&still_sheet());
    assert_eq!(svg, expected, "the page's still of the same files, byte for byte");
    assert!(svg.contains(">After 4000 of 4929 records: offset 3999"), "where the image stands");
    assert!(svg.contains("class=\"log-strip\""), "the page's strip");
    let end = svg_of(&["--view", "log", "--files", &segment]);
    assert!(end.contains(">After 4929 of 4929 records: "), "after the last record without --at");
}

#[test]
fn nodes_directories_draw_their_nodes_and_disagreements_in_the_still() {
    let dir = std::env::temp_dir().join(format!("kraftscope-render-nodes-{}", std::process::id()));
    let status = Command::new(env!("CARGO_BIN_EXE_kraftscope"))
        .args(["run", "--scenario", "candidate_waits_out_timeout", "--notable", "--write-nodes"])
        .arg(&dir)
        .output()
        .unwrap();
    assert!(status.status.success(), "{}", String::from_utf8_lossy(&status.stderr));
    let path = dir.to_str().unwrap();
    let svg = svg_of(&["--view", "log", "--files", path]);
    let log = opened(path, usize::MAX);
    let cluster = log.cluster.as_ref().expect("nodes' directories");
    assert!(svg.contains(">The cluster its files describe<"));
    let table = svg.split("class=\"still-table file-nodes\"").nth(1).unwrap();
    for node in &cluster.nodes {
        assert!(table.contains(&format!("{}<", node.name)), "{} in the table", node.name);
    }
    let stale = cluster.nodes.iter().filter(|n| n.stale).count();
    assert_eq!(stale, 1, "the crashed leader's disk");
    assert_eq!(table.matches("<rect class=\"marked\"").count(), stale, "the stale node marked");
    assert!(table.contains(">♛ n1<"), "a crown on the leader");
    for (n, sentence) in cluster.disagreements.iter().enumerate() {
        let start: String = sentence.chars().take(40).collect();
        assert!(svg.contains(&format!(">{}. {start}", n + 1)), "disagreement {} listed", n + 1);
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn bad_log_input_is_refused_with_a_clear_message() {
    let mut cases: Vec<(Vec<&str>, &str)> = vec![
        (vec!["--view", "log"], "give --files PATH[,PATH...]"),
        (vec!["--view", "log", "--files", "no/such/file.log"], "--files: no/such/file.log does not exist"),
        (vec!["--view", "log", "--files", "Cargo.toml"], "No metadata records could be read"),
    ];
    let segment = common::real(SEGMENT);
    if let Some(segment) = &segment {
        cases.extend([
            (
                vec!["--view", "log", "--files", segment, "--at", "5000"],
                "--at: 5000 records, but the files hold 4929",
            ),
            (
                vec!["--view", "log", "--files", segment, "--at", "end"],
                "--at: 'end' is not a count of records",
            ),
            (
                vec!["--view", "log", "--files", segment, "--scenario", "leader-crash"],
                "give --files PATH[,PATH...] alone",
            ),
            (vec!["--files", segment], "--files is the log view's: give --view log"),
        ]);
    }
    for (args, says) in cases {
        let out = render(&args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", String::from_utf8_lossy(&out.stderr));
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
    }
}

/// #70's command line: `--clip 2 --fps 30 --frames DIR` writes 60 numbered SVGs, the page's own
/// frames at exact frame times; frame 0 is the still `render` draws without `--clip`, byte for
/// byte; the clip plays (its frames change) and is the same on every run.
#[test]
fn a_clip_writes_one_still_a_frame_the_first_the_plain_still_and_the_same_every_run() {
    let base = std::env::temp_dir().join(format!("kraftscope-clip-{}", std::process::id()));
    let frames_of = |name: &str, more: &[&str]| -> Vec<Vec<u8>> {
        let dir = base.join(name);
        let args = ["--scenario", "leader-crash", "--clip", "2", "--fps", "30", "--frames"];
        let out = render(&[&args[..], &[dir.to_str().unwrap()], more].concat());
        assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
        let mut names: Vec<String> =
            std::fs::read_dir(&dir).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        names.sort();
        let expected: Vec<String> = (0..60).map(|i| format!("frame-{i:04}.svg")).collect();
        assert_eq!(names, expected);
        names.iter().map(|n| std::fs::read(dir.join(n)).unwrap()).collect()
    };
    let first = frames_of("a", &[]);
    assert_eq!(first[0], svg_of(&["--scenario", "leader-crash"]).into_bytes(), "frame 0 is the still");
    let distinct: std::collections::BTreeSet<&Vec<u8>> = first.iter().collect();
    assert!(distinct.len() > 10, "the cluster moves: {} distinct frames of 60", distinct.len());
    assert!(first == frames_of("b", &[]), "a second run writes the same frames");
    let later = ["--at", "5000", "--theme", "dark"];
    let from_later = frames_of("c", &later);
    let still = svg_of(&[&["--scenario", "leader-crash"][..], &later].concat());
    assert_eq!(from_later[0], still.into_bytes(), "from --at, frame 0 is that moment's still");
    std::fs::remove_dir_all(&base).unwrap();
}

#[test]
fn bad_clip_input_is_refused_with_a_clear_message() {
    let dir = std::env::temp_dir().join(format!("kraftscope-clip-bad-{}", std::process::id()));
    let dir = dir.to_str().unwrap();
    for (args, says) in [
        (
            &["--scenario", "leader-crash", "--clip", "1", "--frames", dir][..],
            "--clip: 1 s; a clip lasts 2 to 60 s",
        ),
        (&["--scenario", "leader-crash", "--clip", "61", "--frames", dir][..], "a clip lasts 2 to 60 s"),
        (&["--scenario", "leader-crash", "--clip", "2"][..], "give --frames DIR"),
        (&["--scenario", "leader-crash", "--clip", "2", "--fps", "0", "--frames", dir][..], "--fps: 0"),
        (
            &["--scenario", "leader-crash", "--clip", "2", "--frames", dir, "--out", "x.svg"][..],
            "leave --out out",
        ),
        (&["--view", "race", "--clip", "2", "--frames", dir][..], "--clip draws the cluster view"),
        (&["--scenario", "nope", "--clip", "2", "--frames", dir][..], "--scenario: 'nope' is unknown"),
    ] {
        let out = render(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains(says), "{args:?}: {err}");
        assert!(!std::path::Path::new(dir).exists(), "{args:?}: nothing written");
    }
}
