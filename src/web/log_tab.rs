//! "Open a metadata log" as drawn: the drop zone, then (for nodes' directories) the cluster
//! their files describe, the opened log's records on a timeline marked with epochs and
//! LeaderChange records, the image at any record (time travel), and the failover race sized
//! from the file. What the view holds lives in
//! [`crate::page::metadata_log`].

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::cluster_files::cluster_files;
use super::log_drop::{LogDrop, PickedFiles};
use super::still_form::StillFormView;
use super::svg_html;
use crate::drawing::log::{
    epochs_line, history_status, history_strip, node_words, partitions_line, position_line, problems_line,
    strip,
};
use crate::log_reader::{ImageSummary, OpenedLog};
use crate::page::metadata_log::history::{HistoryAction, HistoryPlayer, SPEEDS};
use crate::page::{Action, MetadataLogAction, MetadataLogView, StillAction, StillForm};
use crate::util::format::{span_ms, utc};

/// The metadata log view of `view`, with "Save picture" once files are opened (its button where
/// `stills`; its form while `still` is open); its controls send `on` their actions, and the
/// files picked or dropped go to `open`.
pub fn log_tab(
    view: &MetadataLogView,
    stills: bool,
    still: Option<&StillForm>,
    share: Option<&String>,
    on: &Callback<Action>,
    open: &Callback<PickedFiles>,
) -> Html {
    html! {
        <main class="log-tab">
            <LogDrop dragging={view.dragging()} decoding={view.decoding()} on={on.clone()} open={open.clone()} />
            if let Some(error) = view.error() { <p class="log-error" role="alert">{ error }</p> }
            if let Some(log) = view.opened() {
                if let Some(form) = still { <StillFormView form={form.clone()} of="log" on={on.clone()} /> }
                { opened(view, log, stills, share, on) }
            }
        </main>
    }
}

fn opened(
    view: &MetadataLogView,
    log: &OpenedLog,
    stills: bool,
    share: Option<&String>,
    on: &Callback<Action>,
) -> Html {
    let (position, len) = (log.position, log.len);
    let oninput = on.reform(|e: InputEvent| {
        let input: HtmlInputElement = e.target_unchecked_into();
        Action::MetadataLog(MetadataLogAction::Seek(input.value().parse().unwrap_or(0)))
    });
    let partitions = log.partitions;
    let on_race = on.reform(move |_| Action::RaceFromLog(partitions));
    let open_ms = view.open_ms().map_or(String::new(), |ms| format!("{ms:.0}"));
    let warning = log.crc_failures > 0 || log.problem_count > 0;
    html! {
        <div class="log-opened" data-records={log.records.to_string()}
             data-last-offset={log.last_offset.map_or(String::new(), |o| o.to_string())}
             data-open-ms={open_ms.clone()}>
            if let Some(cluster) = &log.cluster { { cluster_files(cluster) } }
            <div class="panel log-summary">
                <p id="log-totals"><strong>{ log.files.join(", ") }</strong>{ ": " }{ &log.totals }</p>
                <p id="log-epochs">{ epochs_line(log) }</p>
                <p class={classes!(warning.then_some("log-warning"))}>
                    { problems_line(log) }
                    { for log.problems_quoted.iter().map(|p| html! { <><br />{ p }</> }) }</p>
                <p class="hint">{ format!("Opened in {open_ms} ms (decoded in a background worker).") }
                    if stills {
                        { " " }<button id="still" class="secondary" title="E" onclick={on.reform(|_: MouseEvent| Action::Still(StillAction::Open))}>{ "Save picture" }</button>
                    }</p>
            </div>
            if let Some(history) = view.history() { { history_view(history, share, on) } }
            <div class="panel log-travel">
                <h2>{ "Time travel: the image after each record" }</h2>
                { svg_html::html(&strip(log)) }
                <p class="hint">{ "Each band is a leader epoch; orange ticks are LeaderChange records, green ones voter-set changes (KRaftVoters); the dark line is where the image below stands. Drag the slider to replay the records up to any point." }</p>
                <input type="range" id="log-scrub" aria-label="Records replayed" min="0" max={len.to_string()}
                       value={position.to_string()} {oninput} />
                <p id="log-position" data-position={position.to_string()}>{ position_line(log) }</p>
            </div>
            { image_view(&log.image) }
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
                    { for log.record_types.iter().map(|(name, count)| html! { <tr><td>{ count }</td><td>{ name }</td></tr> }) }
                </table>
            </details>
        </div>
    }
}

/// The history on the cluster's own clock: the clock, who leads, the drawing, the controls, the
/// elections with their gaps, and the latest events.
fn history_view(player: &HistoryPlayer, share: Option<&String>, on: &Callback<Action>) -> Html {
    let track = player.track();
    let moment = player.moment();
    let act = |action: HistoryAction| {
        on.reform(move |_: MouseEvent| Action::MetadataLog(MetadataLogAction::History(action)))
    };
    let on_skip = on.reform(|e: Event| {
        let input: HtmlInputElement = e.target_unchecked_into();
        Action::MetadataLog(MetadataLogAction::History(HistoryAction::SkipQuiet(input.checked())))
    });
    let shown = player.election();
    let gaps: Vec<i64> = track.elections.iter().filter_map(|e| e.gap_ms).collect();
    let longest = gaps.iter().max().map_or(String::new(), |max| {
        format!("; the longest time without an active controller: {}", span_ms(*max))
    });
    let recent = track.events[..moment.events].iter().rev().take(5);
    html! {
        <div class="panel log-history" id="log-history" data-at={moment.at.to_string()}
             data-active={moment.active.map_or(String::new(), |(leader, _)| leader.to_string())}
             data-epoch={moment.active.map_or(String::new(), |(_, epoch)| epoch.to_string())}
             data-election={shown.map_or(String::new(), |i| i.to_string())}>
            <h2>{ "History: the cluster on its own clock" }</h2>
            <p class="hint">{ format!("{}: each batch's timestamp, the writing leader's clock. A gap before an election runs from the last record any controller wrote (it writes at least every 500 ms) to the new leader's first.", track.source) }</p>
            <p id="history-clock" class="history-clock">{ track.clock(moment.at) }</p>
            <p id="history-status">{ history_status(track, &moment) }</p>
            { svg_html::html(&history_strip(track, &moment)) }
            <p id="history-partitions" class="hint">{ format!("{}. The strip: each orange tick an election, each red band a time without an active controller, the dark line this moment; under it the partitions with a leader (blue) and without (red).", partitions_line(&moment)) }</p>
            <ul id="history-nodes" class="history-nodes" aria-label="The nodes at this moment">
                { for moment.nodes.iter().map(|node| {
                    let (role, broker) = node_words(node, &moment);
                    let state = node.broker.map_or("none", |b| b.name()).replace(' ', "-");
                    let label = [format!("n{}", node.id), role.clone(), broker.clone()].into_iter().filter(|s| !s.is_empty()).collect::<Vec<_>>().join("; ");
                    html! {
                        <li class={classes!("history-node", node.leads.then_some("leads"), format!("broker-{state}"))}
                            data-node={node.id.to_string()} data-broker={state.clone()} aria-label={label}>
                            <strong>{ format!("n{}", node.id) }</strong>
                            if !role.is_empty() { <span>{ role }</span> }
                            if !broker.is_empty() { <span>{ broker }</span> }
                        </li>
                    }
                }) }
            </ul>
            <div class="history-controls">
                <button id="history-play" onclick={act(HistoryAction::TogglePlay)}>{ if player.playing() { "Pause" } else { "Play" } }</button>
                <button id="history-previous" class="secondary" onclick={act(HistoryAction::Previous)}>{ "Previous election" }</button>
                <button id="history-next" class="secondary" onclick={act(HistoryAction::Next)}>{ "Next election" }</button>
                <span role="group" aria-label="Speed of the cluster's time">
                    { for SPEEDS.iter().map(|&speed| html! {
                        <button class="secondary" aria-pressed={(player.speed() == speed).to_string()}
                                onclick={act(HistoryAction::Speed(speed))}>{ format!("{speed}×") }</button> }) }
                </span>
                <label><input type="checkbox" id="history-skip" checked={player.skip_quiet()} onchange={on_skip} />
                    { " Skip quiet stretches" }</label>
                <button id="share" class="secondary" onclick={on.reform(|_: MouseEvent| Action::Share)}>{ "Link to this moment" }</button>
            </div>
            if let Some(url) = share {
                <p class="share-url"><label>{ "Link to this moment (open the same files after following it) " }
                    <input id="share-url" type="text" readonly=true value={url.clone()} /></label></p>
            }
            <details class="history-elections" open=true>
                <summary>{ format!("{} elections{longest}", track.elections.len()) }</summary>
                <table id="history-elections">
                    <thead><tr><th>{ "epoch" }</th><th>{ "leader" }</th><th>{ "time (UTC)" }</th><th>{ "no active controller before it" }</th><th>{ "show it" }</th></tr></thead>
                    <tbody>
                    { for track.elections.iter().enumerate().map(|(i, e)| html! {
                        <tr class={classes!((shown == Some(i)).then_some("shown"))}>
                            <td>{ e.epoch }</td><td>{ format!("n{}", e.leader) }</td><td>{ utc(e.at) }</td>
                            <td>{ e.gap_ms.map_or("none (the log's first)".to_string(), span_ms) }</td>
                            <td><button class="secondary" aria-label={format!("Go to the election of epoch {}", e.epoch)}
                                        onclick={act(HistoryAction::Election(i))}>{ "Go" }</button></td>
                        </tr> }) }
                    </tbody>
                </table>
            </details>
            <ol id="history-recent" class="history-recent" aria-label="The latest events">
                { for recent.map(|e| html! { <li>{ format!("{}  {}", utc(e.at), e.line) }</li> }) }
            </ol>
        </div>
    }
}

fn image_view(image: &ImageSummary) -> Html {
    let more = image.topic_count.saturating_sub(image.topics.len());
    html! {
        <div class="panel log-image" id="log-image" data-topics={image.topic_count.to_string()}
             data-partitions={image.partition_count.to_string()}>
            <h2>{ "The cluster at this record" }</h2>
            <p id="log-image-totals">{ &image.totals }</p>
            <ul class="log-brokers">
                { for image.controllers.iter().map(|id| html! { <li class="controller">{ format!("controller {id}") }</li> }) }
                { for image.brokers.iter().map(|(line, state)| html! {
                    <li class={classes!("broker", state.replace(' ', "-"))}>{ line }</li> }) }
            </ul>
            <ul class="log-topics">{ for image.topics.iter().map(|topic| html! { <li>{ topic }</li> }) }
                if more > 0 { <li>{ format!("and {more} more topics") }</li> }</ul>
        </div>
    }
}
