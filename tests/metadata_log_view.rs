//! The "Open a metadata log" view without a browser: the page's reducer given files as the drop
//! zone reads them, then scrubbed, checked on the timeline and image it shows.

use kraftscope::page::{Action, MetadataLogAction, PageState, Tab};

const SEGMENT: &str = "tests/fixtures/kafka/ldi-poc/__cluster_metadata-0/00000000000000000000.log";
const SNAPSHOT: &str = "tests/fixtures/kafka/ldi-poc/bootstrap.checkpoint";

fn log_tab() -> PageState {
    let mut page = PageState::new("", "http://localhost/", false);
    page.reduce(Action::Tab(Tab::Log));
    page
}

fn act(page: &mut PageState, action: MetadataLogAction) {
    page.reduce(Action::MetadataLog(action));
}

fn read(page: &mut PageState, name: &str, bytes: Vec<u8>) {
    act(page, MetadataLogAction::Read { name: name.into(), bytes: Ok(bytes) });
}

fn segment() -> Vec<u8> {
    std::fs::read(SEGMENT).expect("the segment fixture")
}

#[test]
fn a_dropped_segment_opens_at_its_last_record_and_scrubbing_replays_the_image() {
    let mut page = log_tab();
    act(&mut page, MetadataLogAction::Drag(true));
    assert!(page.metadata_log.dragging());
    act(&mut page, MetadataLogAction::Drag(false));
    act(&mut page, MetadataLogAction::Reading(1));
    assert!(page.metadata_log.reading() && page.metadata_log.timeline().is_none());
    read(&mut page, "00000000000000000000.log", segment());
    let view = &page.metadata_log;
    assert!(!view.reading() && view.error().is_none() && view.open_ms() == Some(0.0));
    let timeline = view.timeline().expect("opened");
    assert_eq!((timeline.inspection.records, timeline.inspection.last_offset), (4_929, Some(4_928)));
    assert_eq!((timeline.position(), timeline.len()), (4_929, 4_929));
    assert_eq!((timeline.image().topics.len(), timeline.image().partition_count()), (5, 54));
    assert_eq!(timeline.partitions(), 54);

    act(&mut page, MetadataLogAction::Seek(10));
    let timeline = page.metadata_log.timeline().unwrap();
    assert_eq!(
        (timeline.position(), timeline.image().topics.len()),
        (10, 0),
        "back at record 10: no topic yet"
    );
    act(&mut page, MetadataLogAction::Seek(4_000));
    assert_ne!(page.metadata_log.timeline().unwrap().image().topics.len(), 0, "forward again: topics");
    act(&mut page, MetadataLogAction::Seek(usize::MAX));
    let timeline = page.metadata_log.timeline().unwrap();
    assert_eq!((timeline.position(), timeline.image().partition_count()), (4_929, 54), "the end, replayed");
}

#[test]
fn several_files_open_together_once_all_are_read() {
    let mut page = log_tab();
    act(&mut page, MetadataLogAction::Reading(2));
    read(&mut page, "bootstrap.checkpoint", std::fs::read(SNAPSHOT).unwrap());
    assert!(page.metadata_log.reading() && page.metadata_log.timeline().is_none(), "one of two read");
    read(&mut page, "00000000000000000000.log", segment());
    let timeline = page.metadata_log.timeline().expect("both opened");
    assert_eq!(timeline.inspection.files.len(), 2);
    assert_eq!(timeline.partitions(), 54);
}

#[test]
fn bad_bytes_are_named_and_an_unreadable_file_abandons_its_batch() {
    let mut page = log_tab();
    act(&mut page, MetadataLogAction::Reading(1));
    read(&mut page, "00000000000000000000.log", segment()[..500].to_vec());
    let timeline = page.metadata_log.timeline().expect("opened what could be read");
    let problems = timeline.inspection.problems.join("; ");
    assert!(problems.contains("00000000000000000000.log: byte"), "{problems}");
    assert!(problems.contains("truncated"), "{problems}");

    act(&mut page, MetadataLogAction::Reading(2));
    assert_eq!(page.metadata_log.error(), None, "a new pick clears the last error");
    act(&mut page, MetadataLogAction::Read { name: "a.log".into(), bytes: Err("NotReadableError".into()) });
    assert_eq!(page.metadata_log.error(), Some("Cannot read a.log: NotReadableError"));
    assert!(!page.metadata_log.reading());
    read(&mut page, "00000000000000000000.log", segment());
    assert_eq!(
        page.metadata_log.timeline().map(|t| t.inspection.records),
        Some(timeline_records_of_500_bytes()),
        "the abandoned batch's late file is not opened"
    );
}

/// Records decoded from the first 500 bytes of the segment.
fn timeline_records_of_500_bytes() -> u64 {
    let mut page = log_tab();
    act(&mut page, MetadataLogAction::Reading(1));
    read(&mut page, "00000000000000000000.log", segment()[..500].to_vec());
    page.metadata_log.timeline().unwrap().inspection.records
}

#[test]
fn files_with_no_metadata_record_say_so() {
    let mut page = log_tab();
    act(&mut page, MetadataLogAction::Reading(1));
    read(&mut page, "empty.log", Vec::new());
    let error = page.metadata_log.error().expect("an error");
    assert!(error.starts_with("No metadata records could be read."), "{error}");
    act(&mut page, MetadataLogAction::Reading(0));
    assert!(!page.metadata_log.reading(), "picking no file changes nothing");
    assert!(page.metadata_log.error().is_some());
}
