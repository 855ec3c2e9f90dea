//! "Open a metadata log": a real `__cluster_metadata` segment or snapshot, picked or dropped,
//! decoded here in wasm; its records on a timeline marked with epochs and LeaderChange records,
//! the image at any record (time travel), and the failover race sized from the file.

use gloo::file::callbacks::{FileReader, read_as_bytes};
use web_sys::{DragEvent, HtmlInputElement};
use yew::prelude::*;

use crate::kafka_log::image::LogImage;
use crate::kafka_log::report;
use crate::kafka_log::timeline::LogTimeline;

#[derive(Properties, PartialEq)]
pub struct LogTabProps {
    /// Open the failover race with this many partitions.
    pub on_race: Callback<u64>,
    /// Download the live cluster's metadata log as Kafka's files.
    pub on_download: Callback<()>,
}

pub enum LogMsg {
    Files(Vec<web_sys::File>),
    Loaded(String, Result<Vec<u8>, String>),
    Seek(usize),
    Drag(bool),
}

/// At most this many topics are listed (the rest are counted).
const TOPICS_SHOWN: usize = 12;
/// At most this many LeaderChange ticks are drawn.
const TICKS_SHOWN: usize = 200;

pub struct LogTab {
    readers: Vec<FileReader>,
    pending: usize,
    loaded: Vec<(String, Vec<u8>)>,
    started_ms: f64,
    open_ms: Option<f64>,
    timeline: Option<LogTimeline>,
    error: Option<String>,
    dragging: bool,
}

fn now_ms() -> f64 {
    gloo::utils::window().performance().map_or(0.0, |p| p.now())
}

impl Component for LogTab {
    type Message = LogMsg;
    type Properties = LogTabProps;

    fn create(_: &Context<Self>) -> Self {
        LogTab {
            readers: Vec::new(),
            pending: 0,
            loaded: Vec::new(),
            started_ms: 0.0,
            open_ms: None,
            timeline: None,
            error: None,
            dragging: false,
        }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: LogMsg) -> bool {
        match msg {
            LogMsg::Files(files) if files.is_empty() => return false,
            LogMsg::Files(files) => {
                self.started_ms = now_ms();
                self.pending = files.len();
                self.loaded.clear();
                self.error = None;
                self.readers = files
                    .into_iter()
                    .map(|file| {
                        let name = file.name();
                        let link = ctx.link().clone();
                        read_as_bytes(&gloo::file::File::from(file), move |bytes| {
                            link.send_message(LogMsg::Loaded(name, bytes.map_err(|e| e.to_string())));
                        })
                    })
                    .collect();
            }
            LogMsg::Loaded(name, Ok(bytes)) => {
                self.loaded.push((name, bytes));
                self.pending = self.pending.saturating_sub(1);
                if self.pending == 0 {
                    self.readers.clear();
                    let timeline = LogTimeline::open(std::mem::take(&mut self.loaded));
                    self.open_ms = Some(now_ms() - self.started_ms);
                    self.error = timeline.is_empty().then(|| {
                        let first =
                            timeline.inspection.problems.first().or(timeline.inspection.crc_failures.first());
                        format!("No metadata records could be read. {}", first.map_or("", String::as_str))
                    });
                    self.timeline = Some(timeline);
                }
            }
            LogMsg::Loaded(name, Err(error)) => {
                self.readers.clear();
                self.pending = 0;
                self.error = Some(format!("Cannot read {name}: {error}"));
            }
            LogMsg::Seek(count) => {
                if let Some(timeline) = &mut self.timeline {
                    timeline.seek(count);
                }
            }
            LogMsg::Drag(over) => self.dragging = over,
        }
        true
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let link = ctx.link();
        let onchange = link.callback(|e: Event| {
            let input: HtmlInputElement = e.target_unchecked_into();
            LogMsg::Files(files_of(input.files()))
        });
        let ondragover = link.callback(|e: DragEvent| {
            e.prevent_default();
            LogMsg::Drag(true)
        });
        let ondragleave = link.callback(|_: DragEvent| LogMsg::Drag(false));
        let ondrop = link.batch_callback(|e: DragEvent| {
            e.prevent_default();
            let files = files_of(e.data_transfer().and_then(|d| d.files()));
            vec![LogMsg::Drag(false), LogMsg::Files(files)]
        });
        html! {
            <section class="log-tab">
                <div class={classes!("drop-zone", "panel", self.dragging.then_some("dragging"))}
                     {ondragover} {ondragleave} {ondrop}>
                    <h2>{ "Open a metadata log" }</h2>
                    <p>{ "Drop the files of a KRaft cluster's " }<code>{ "__cluster_metadata-0" }</code>
                       { " directory here (a " }<code>{ ".log" }</code>{ " segment, " }<code>{ ".checkpoint" }</code>
                       { " snapshots), or choose them: " }
                       <input type="file" id="log-file" multiple=true accept=".log,.checkpoint" {onchange} /></p>
                    <p class="hint">{ "Decoded in your browser; nothing is uploaded. The command line does the same: " }
                       <code>{ "kraftscope inspect DIR" }</code>{ ", and " }<code>{ "kraftscope run --scenario NAME --write-log DIR" }</code>
                       { " writes the simulation's log as these files." }</p>
                    if self.pending > 0 { <p class="hint">{ "Reading…" }</p> }
                    <p>{ "No cluster of your own at hand? " }
                        <button id="log-download" class="secondary" onclick={ctx.props().on_download.reform(|_| ())}>
                            { "Download the live cluster's log" }</button>
                        { " saves the simulation's committed metadata log and snapshots as these files, ready to drop back here." }</p>
                </div>
                if let Some(error) = &self.error { <p class="log-error" role="alert">{ error }</p> }
                if let Some(timeline) = &self.timeline {
                    { self.opened(ctx, timeline) }
                }
            </section>
        }
    }
}

fn files_of(list: Option<web_sys::FileList>) -> Vec<web_sys::File> {
    list.map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect()).unwrap_or_default()
}

impl LogTab {
    fn opened(&self, ctx: &Context<Self>, timeline: &LogTimeline) -> Html {
        let inspection = &timeline.inspection;
        let position = timeline.position();
        let len = timeline.len();
        let oninput = ctx.link().callback(|e: InputEvent| {
            let input: HtmlInputElement = e.target_unchecked_into();
            LogMsg::Seek(input.value().parse().unwrap_or(0))
        });
        let last = position.checked_sub(1).and_then(|i| timeline.record(i));
        let at = last.as_ref().map_or("before the first record".to_string(), |r| report::record(r, 160));
        let partitions = timeline.partitions();
        let on_race = ctx.props().on_race.clone();
        let files: Vec<&str> = inspection.files.iter().map(|f| f.name.as_str()).collect();
        let open_ms = self.open_ms.map_or(String::new(), |ms| format!("{ms:.0}"));
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
                    { self.strip(timeline) }
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
                        <button id="log-race" onclick={Callback::from(move |_| on_race.emit(partitions))}>
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
    fn strip(&self, timeline: &LogTimeline) -> Html {
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
