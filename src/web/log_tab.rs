//! "Open a metadata log" as drawn: the drop zone, then the opened log's records on a timeline
//! marked with epochs and LeaderChange records, the image at any record (time travel), and the
//! failover race sized from the file. What the view holds lives in
//! [`crate::page::metadata_log`].

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::log_drop::LogDrop;
use crate::kafka_log::image::LogImage;
use crate::kafka_log::report;
use crate::kafka_log::timeline::LogTimeline;
use crate::page::{Action, MetadataLogAction, MetadataLogView};

/// At most this many topics are listed (the rest are counted).
const TOPICS_SHOWN: usize = 12;
/// At most this many LeaderChange ticks are drawn.
const TICKS_SHOWN: usize = 200;

/// The metadata log view of `view`; its controls send `on` their actions.
pub fn log_tab(view: &MetadataLogView, on: &Callback<Action>) -> Html {
    html! {
        <section class="log-tab">
            <LogDrop dragging={view.dragging()} reading={view.reading()} on={on.clone()} />
            if let Some(error) = view.error() { <p class="log-error" role="alert">{ error }</p> }
            if let Some(timeline) = view.timeline() {
                { opened(view, timeline, on) }
            }
        </section>
    }
}

fn opened(view: &MetadataLogView, timeline: &LogTimeline, on: &Callback<Action>) -> Html {
    let inspection = &timeline.inspection;
    let position = timeline.position();
    let len = timeline.len();
    let oninput = on.reform(|e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        Action::MetadataLog(MetadataLogAction::Seek(input.value().parse().unwrap_or(0)))
    });
    let last = position.checked_sub(1).and_then(|i| timeline.record(i));
    let at = last.as_ref().map_or("before the first record".to_string(), |r| report::record(r, 160));
    let partitions = timeline.partitions();
    let on_race = on.reform(move |_| Action::RaceFromLog(partitions));
    let files: Vec<&str> = inspection.files.iter().map(|f| f.name.as_str()).collect();
    let open_ms = view.open_ms().map_or(String::new(), |ms| format!("{ms:.0}"));
    html! {
        <div class="log-opened" data-records={inspection.records.to_string()}
             data-last-offset={inspection.last_offset.map_or(String::new(), |o| o.to_string())}
             data-open-ms={open_ms.clone()}>
            <div class="panel log-summary">
                <p id="log-totals"><strong>{ files.join(", ") }</strong>{ ": " }{ report::totals(inspection) }</p>
                <p id="log-epochs">{ report::epochs(inspection, 8) }{ "; " }
                    { format!("{} LeaderChange record(s)", inspection.leader_changes.len()) }
                    { for inspection.leader_changes.iter().take(4).map(|c| format!("; leader {} at offset {} (epoch {})", c.leader, c.offset, c.epoch)) }</p>
                <p class={classes!((!inspection.crc_failures.is_empty() || inspection.problem_count > 0).then_some("log-warning"))}>
                    { format!("CRC failures: {}; other problems: {}", inspection.crc_failures.len(), inspection.problem_count) }
                    { for inspection.crc_failures.iter().chain(&inspection.problems).take(3).map(|p| html! { <><br />{ p }</> }) }</p>
                <p class="hint">{ format!("Opened in {open_ms} ms.") }</p>
            </div>
            <div class="panel log-travel">
                <h2>{ "Time travel: the image after each record" }</h2>
                { strip(timeline) }
                <p class="hint">{ "Each band is a leader epoch; orange ticks are LeaderChange records; the dark line is where the image below stands. Drag the slider to replay the records up to any point." }</p>
                <input type="range" id="log-scrub" aria-label="Records replayed" min="0" max={len.to_string()}
                       value={position.to_string()} {oninput} />
                <p id="log-position" data-position={position.to_string()}>
                    { format!("After {position} of {len} records: ") }{ at }</p>
            </div>
            { image_view(timeline.image()) }
            <div class="panel">
                <h2>{ "What if this cluster's controller failed?" }</h2>
                if partitions > 0 {
                    <p>{ format!("Race the failover of a cluster this size ({partitions} partitions), KRaft against ZooKeeper mode.") }</p>
                    <button id="log-race" onclick={on_race}>
                        { format!("Fail the controller: race with {partitions} partitions") }</button>
                } else {
                    <p>{ "These files hold no partitions; the Failover tab races a cluster of any size." }</p>
                }
            </div>
            <details class="panel">
                <summary>{ "Records per type" }</summary>
                <table class="log-types">
                    { for inspection.record_types.iter().map(|(name, count)| html! { <tr><td>{ count }</td><td>{ name }</td></tr> }) }
                </table>
            </details>
        </div>
    }
}

/// The records as a strip: a band per leader epoch, a tick per LeaderChange, the position.
fn strip(timeline: &LogTimeline) -> Html {
    let len = timeline.len().max(1) as f64;
    let x = |i: usize| format!("{:.2}", i as f64 / len * 1000.0);
    let (epochs, changes) = timeline.marks();
    let mut starts = vec![0];
    starts.extend(epochs);
    let bands = starts.iter().enumerate().map(|(n, &start)| {
            let end = starts.get(n + 1).copied().unwrap_or(timeline.len());
            let epoch = timeline.entries.get(start).map_or(0, |e| e.epoch);
            let width = format!("{:.2}", (end - start) as f64 / len * 1000.0);
            html! { <rect class={classes!("epoch-band", (n % 2 == 1).then_some("odd"))} x={x(start)} y="0" width={width} height="28">
                        <title>{ format!("epoch {epoch}") }</title></rect> }
        });
    let ticks = changes.iter().take(TICKS_SHOWN).map(|&i| {
            html! { <line class="leader-change" x1={x(i)} x2={x(i)} y1="0" y2="28"><title>{ "LeaderChange" }</title></line> }
        });
    let at = x(timeline.position());
    html! {
        <svg class="log-strip" viewBox="0 0 1000 28" preserveAspectRatio="none" role="img"
             aria-label={format!("{} epochs, {} LeaderChange records", starts.len(), changes.len())}>
            { for bands }
            { for ticks }
            <line class="log-cursor" x1={at.clone()} x2={at} y1="0" y2="28" />
        </svg>
    }
}

fn image_view(image: &LogImage) -> Html {
    let topics = image
        .topics
        .iter()
        .take(TOPICS_SHOWN)
        .map(|(uuid, topic)| html! { <li>{ report::topic(uuid, topic) }</li> });
    let more = image.topics.len().saturating_sub(TOPICS_SHOWN);
    html! {
        <div class="panel log-image" id="log-image" data-topics={image.topics.len().to_string()}
             data-partitions={image.partition_count().to_string()}>
            <h2>{ "The cluster at this record" }</h2>
            <p id="log-image-totals">{ report::image_totals(image) }{ "; " }{ report::features(image) }</p>
            <ul class="log-brokers">
                { for image.controllers.iter().map(|id| html! { <li class="controller">{ format!("controller {id}") }</li> }) }
                { for image.brokers.iter().map(|(id, b)| html! {
                    <li class={classes!("broker", report::broker_state(b).replace(' ', "-"))}>
                        { format!("broker {id}: {} (epoch {})", report::broker_state(b), b.epoch) }</li> }) }
            </ul>
            <ul class="log-topics">{ for topics }
                if more > 0 { <li>{ format!("and {more} more topics") }</li> }</ul>
        </div>
    }
}
