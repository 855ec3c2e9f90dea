//! The "Open a metadata log" view without a browser: files picked or dropped handed to the log
//! reader (natively here; in the page, the same code in a Web Worker, which reads them) while
//! the page's reducer hears that they are opening, its queries answered by the same reader, then
//! scrubbed, checked on the log and image it shows.

use kraftscope::log_reader::{LogReader, LogRequest, OpenedLog};
use kraftscope::page::{Action, Effect, MetadataLogAction, PageState, Tab};

use crate::common;

/// A real one-node log (`../shared/fixtures/kafka/`) and its bootstrap snapshot.
const SEGMENT: &str = "ldi-poc/__cluster_metadata-0/00000000000000000000.log";
const SNAPSHOT: &str = "ldi-poc/bootstrap.checkpoint";

/// The page on its log tab, with the reader its files and queries go to.
struct LogTab {
    page: PageState,
    reader: LogReader,
    /// Requests sent to the reader, the last first answered.
    sent: Vec<LogRequest>,
}

fn log_tab() -> LogTab {
    log_tab_at("")
}

/// The page opened at `search` (a link), on its log tab.
fn log_tab_at(search: &str) -> LogTab {
    let mut page = PageState::new(search, "http://localhost/", false);
    page.reduce(Action::Tab(Tab::Log));
    LogTab { page, reader: LogReader::default(), sent: Vec::new() }
}

impl LogTab {
    /// Do `action`, answering the reader's requests as the worker does.
    fn act(&mut self, action: MetadataLogAction) {
        let mut pending = vec![Action::MetadataLog(action)];
        while let Some(action) = pending.pop() {
            for effect in self.page.reduce(action).effects {
                if let Effect::ReadLog(query) = effect {
                    let request = LogRequest::from(query);
                    self.sent.push(request.clone());
                    let answer = self.reader.answer(request).map(Box::new);
                    pending.push(Action::MetadataLog(MetadataLogAction::Answered(answer)));
                }
            }
        }
    }

    /// The viewer picks or drops `files` (named): the page hears they are opening, the reader
    /// reads and decodes them.
    fn open(&mut self, files: Vec<(&str, Vec<u8>)>) {
        self.act(MetadataLogAction::Opening(files.len()));
        let request =
            LogRequest::Open(files.into_iter().map(|(name, bytes)| (name.to_string(), bytes)).collect());
        self.sent.push(request.clone());
        let answer = self.reader.answer(request).map(Box::new);
        self.act(MetadataLogAction::Answered(answer));
    }

    fn opened(&self) -> Option<&OpenedLog> {
        self.page.metadata_log.opened()
    }
}

/// The real segment's bytes, or `None` (said) without `../shared`.
fn segment() -> Option<Vec<u8>> {
    common::real(SEGMENT).map(|path| std::fs::read(path).expect("the segment fixture"))
}

#[test]
fn a_dropped_segment_opens_at_its_last_record_and_scrubbing_replays_the_image() {
    let Some(segment) = segment() else { return };
    let mut tab = log_tab();
    tab.act(MetadataLogAction::Drag(true));
    assert!(tab.page.metadata_log.dragging());
    tab.act(MetadataLogAction::Drag(false));
    tab.open(vec![("00000000000000000000.log", segment)]);
    assert!(
        matches!(&tab.sent[..], [LogRequest::Open(files), LogRequest::History] if files.len() == 1),
        "one open, all files, then the history once the log is shown"
    );
    let view = &tab.page.metadata_log;
    assert!(!view.decoding() && view.error().is_none() && view.open_ms() == Some(0.0));
    let log = tab.opened().expect("opened");
    assert_eq!((log.records, log.last_offset), (4_929, Some(4_928)));
    assert_eq!((log.position, log.len), (4_929, 4_929));
    assert_eq!((log.image.topic_count, log.image.partition_count), (5, 54));
    assert_eq!(log.partitions, 54);
    assert!(log.at.starts_with("offset 4928"), "{}", log.at);

    tab.act(MetadataLogAction::Seek(10));
    let log = tab.opened().unwrap();
    assert_eq!((log.position, log.image.topic_count), (10, 0), "back at record 10: no topic yet");
    assert_eq!(log.partitions, 54, "the race's size is the whole log's");
    tab.act(MetadataLogAction::Seek(4_000));
    assert_ne!(tab.opened().unwrap().image.topic_count, 0, "forward again: topics");
    tab.act(MetadataLogAction::Seek(usize::MAX));
    let log = tab.opened().unwrap();
    assert_eq!((log.position, log.image.partition_count), (4_929, 54), "the end, replayed");
}

#[test]
fn several_files_open_together() {
    let Some(segment) = segment() else { return };
    let Some(snapshot) = common::real(SNAPSHOT) else { return };
    let mut tab = log_tab();
    tab.open(vec![
        ("bootstrap.checkpoint", std::fs::read(snapshot).unwrap()),
        ("00000000000000000000.log", segment),
    ]);
    let log = tab.opened().expect("both opened");
    assert_eq!(log.files.len(), 2);
    assert_eq!(log.partitions, 54);
}

#[test]
fn scrubbing_waits_until_the_files_are_decoded() {
    let mut page = log_tab().page;
    let effects = page.reduce(Action::MetadataLog(MetadataLogAction::Opening(1))).effects;
    assert!(effects.is_empty(), "the files went to the reader from the web layer: {effects:?}");
    assert!(page.metadata_log.decoding());
    let seek = page.reduce(Action::MetadataLog(MetadataLogAction::Seek(3))).effects;
    assert!(seek.is_empty(), "no seek before the log is decoded: {seek:?}");
    let failed = MetadataLogAction::Answered(Err("RuntimeError: unreachable".into()));
    page.reduce(Action::MetadataLog(failed));
    assert!(!page.metadata_log.decoding());
    assert_eq!(page.metadata_log.error(), Some("The log reader failed: RuntimeError: unreachable"));
    assert_eq!(LogReader::default().answer(LogRequest::Seek(3)), Err("no log is open to scrub".to_string()));
}

#[test]
fn bad_bytes_are_named_and_an_unreadable_file_is_said() {
    let Some(segment) = segment() else { return };
    let mut tab = log_tab();
    tab.open(vec![("00000000000000000000.log", segment[..500].to_vec())]);
    let log = tab.opened().expect("opened what could be read");
    let problems = log.problems_quoted.join("; ");
    assert!(problems.contains("00000000000000000000.log: byte"), "{problems}");
    assert!(problems.contains("truncated"), "{problems}");
    let records_of_500_bytes = log.records;

    // The worker could not read a file of the next pick (the browser's reason): said, and the
    // log opened before stays.
    tab.act(MetadataLogAction::Opening(2));
    assert_eq!(tab.page.metadata_log.error(), None, "a new pick clears the last error");
    assert!(tab.page.metadata_log.decoding());
    tab.act(MetadataLogAction::Unreadable("Cannot read a.log: NotReadableError".into()));
    assert_eq!(tab.page.metadata_log.error(), Some("Cannot read a.log: NotReadableError"));
    assert!(!tab.page.metadata_log.decoding());
    assert_eq!(tab.opened().map(|log| log.records), Some(records_of_500_bytes));
}

#[test]
fn files_with_no_metadata_record_say_so() {
    let mut tab = log_tab();
    tab.open(vec![("empty.log", Vec::new())]);
    let error = tab.page.metadata_log.error().expect("an error");
    assert!(error.starts_with("No metadata records could be read."), "{error}");
    tab.act(MetadataLogAction::Opening(0));
    assert!(!tab.page.metadata_log.decoding(), "picking no file changes nothing");
    assert!(tab.page.metadata_log.error().is_some());
}

/// A dynamic quorum's log, as the writer exports it, shows its voter-set changes on the strip.
#[test]
fn voter_set_changes_are_marked_on_the_timeline() {
    use kraftscope::harness::MS;
    use kraftscope::kafka_log::writer;
    use kraftscope::sim::simulation::QuorumFormat;
    use kraftscope::sim::{ClusterConfig, Simulation};
    let config = ClusterConfig {
        voters: 3,
        observers: 1,
        format: QuorumFormat::Standalone,
        ..ClusterConfig::default()
    };
    let mut sim = Simulation::new(config, 3);
    sim.run_until(300 * MS);
    for (id, at) in [(2, 600), (3, 1200)] {
        sim.add_voter(id).unwrap();
        sim.run_until(at * MS);
    }
    sim.remove_voter(3).unwrap();
    sim.run_until(2000 * MS);
    let node = sim.leader().unwrap();
    let files = writer::directory(node.log(), node.high_watermark().unwrap());
    let log = LogReader::default()
        .answer(LogRequest::Open(files.into_iter().map(|f| (f.name, f.bytes)).collect()))
        .unwrap();
    // The standalone bootstrap's VotersRecord, n2 added, n3 added, n3 removed.
    assert_eq!(log.voter_tick_count, 4, "{:?}", log.voter_ticks);
    assert_eq!(log.voter_ticks.len(), 4);
    assert!(log.voter_ticks.windows(2).all(|w| w[0] < w[1]) && *log.voter_ticks.last().unwrap() < log.len);
    assert!(log.ticks.iter().all(|tick| !log.voter_ticks.contains(tick)), "LeaderChange ticks are others");
}

#[test]
fn once_a_log_is_open_e_saves_the_still_render_draws_of_it_where_its_image_stands() {
    let Some(segment) = segment() else { return };
    use kraftscope::drawing::cluster::StillStyle;
    use kraftscope::drawing::log::log_still;
    use kraftscope::page::StillAction;

    let mut tab = log_tab();
    assert!(!tab.page.reduce(Action::Key("e".into())).handled, "nothing to picture before a log is open");
    assert!(!tab.page.still_open);
    tab.open(vec![("00000000000000000000.log", segment)]);
    tab.act(MetadataLogAction::Seek(4_000));
    assert!(tab.page.reduce(Action::Key("e".into())).handled);
    assert!(tab.page.still_open, "E opens the form once the log is open");
    tab.page.reduce(Action::Still(StillAction::Caption("A real log".into())));
    let effects = tab.page.reduce(Action::Still(StillAction::Save)).effects;
    let still = effects
        .into_iter()
        .find_map(|e| match e {
            Effect::SaveStill(still) => Some(still),
            _ => None,
        })
        .expect("a still of the log");
    assert_eq!(still.name, "kraftscope-log-4000-of-4929-records.svg");
    let style = StillStyle { dark: false, caption: "A real log".into() };
    let log = tab.opened().unwrap();
    assert_eq!(still.drawing, log_still(log, &style));
    let markup = still.drawing.markup();
    for line in [
        "After 4000 of 4929 records: offset 3999",
        "4000 of 4929 records",
        "The cluster at this record",
        "A real log",
    ] {
        assert!(markup.contains(&format!(">{line}")), "{line} in the still");
    }
    for topic in &log.image.topics {
        assert!(markup.contains(&format!(">{topic}<")), "{topic} listed");
    }
    tab.page.reduce(Action::Tab(Tab::Cluster));
    assert!(!tab.page.still_open, "another view closes the form");
}

#[test]
fn the_opened_logs_history_comes_with_the_open_and_stays_while_scrubbing_and_playing() {
    use kraftscope::page::metadata_log::history::HistoryAction;
    let Some(segment) = segment() else { return };
    let mut tab = log_tab();
    tab.open(vec![("00000000000000000000.log", segment)]);
    let history = tab.page.metadata_log.history().expect("a history with the open");
    assert_eq!(history.track().elections.len(), 1, "the one-node log's one election");
    assert_eq!(history.at(), history.track().start, "paused at the first record");
    assert!(!tab.page.animating(), "no frames while paused");
    tab.act(MetadataLogAction::Seek(10));
    assert!(tab.page.metadata_log.history().is_some(), "a seek's answer leaves the history");
    tab.act(MetadataLogAction::History(HistoryAction::TogglePlay));
    assert!(tab.page.animating(), "frames while the history plays on the log tab");
    let start = tab.page.metadata_log.history().unwrap().at();
    tab.page.reduce(Action::Frame { elapsed: 50.0 });
    let history = tab.page.metadata_log.history().unwrap();
    assert!(history.at() > start, "a frame moves the clock on");
    let moment = history.moment();
    assert_eq!(moment.active, Some((1, 1)), "n1 leads epoch 1");
    assert!(moment.nodes.iter().any(|n| n.id == 1 && n.leads));
}

#[test]
fn a_link_to_a_moment_of_the_history_shows_it_once_the_same_files_are_opened() {
    use kraftscope::page::metadata_log::history::HistoryAction;
    let Some(segment) = segment() else { return };
    let mut tab = log_tab();
    tab.open(vec![("00000000000000000000.log", segment.clone())]);
    let start = tab.page.metadata_log.history().unwrap().track().start;
    let moment = start + 1_234;
    tab.act(MetadataLogAction::History(HistoryAction::At(moment)));
    let effects = tab.page.reduce(Action::Share).effects;
    let Some(Effect::Copy(url)) = effects.first() else { panic!("a link: {effects:?}") };
    assert_eq!(url, &format!("http://localhost/?tab=log&history-at={moment}"));

    let mut again = log_tab_at(&format!("?tab=log&history-at={moment}"));
    assert!(again.page.notices.is_empty(), "{:?}", again.page.notices);
    again.open(vec![("00000000000000000000.log", segment.clone())]);
    assert_eq!(again.page.metadata_log.history().unwrap().at(), moment, "the moment the link names");

    let mut bad = log_tab_at("?tab=log&history-at=yesterday");
    assert_eq!(
        bad.page.notices,
        [
            "history-at: 'yesterday' is not a time in ms since 1970 (like 1758533058290); the history opens at its start"
        ]
    );
    bad.open(vec![("00000000000000000000.log", segment)]);
    assert_eq!(bad.page.metadata_log.history().unwrap().at(), start, "at its start");
}
