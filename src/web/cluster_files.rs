//! A real cluster drawn from its nodes' files ([`ClusterFiles`]): the controllers as cards in a
//! row with the epoch, leader and vote each one's quorum-state holds (a crown on the one leading
//! the latest epoch, a dashed outline on a stale one), each log's reach as a strip to scale with
//! its latest snapshot, the observers below, and a numbered badge on every node a disagreement
//! names, the sentences listed under them. Cards wrap, so a phone shows them one under another
//! at the page's type size.

use yew::prelude::*;

use crate::log_reader::node_dirs::{ClusterFiles, FileNode};

/// The cluster the files draw, as a panel.
pub fn cluster_files(cluster: &ClusterFiles) -> Html {
    let controllers: Vec<&FileNode> = cluster.nodes.iter().filter(|n| n.controller).collect();
    let observers: Vec<&FileNode> = cluster.nodes.iter().filter(|n| !n.controller).collect();
    let row = |nodes: &[&FileNode], label: &'static str| -> Html {
        html! {
            <ul class="file-nodes" aria-label={label}>
                { for nodes.iter().map(|node| card(node, cluster.furthest)) }
            </ul>
        }
    };
    html! {
        <div class="panel cluster-files" id="cluster-files" data-nodes={cluster.nodes.len().to_string()}>
            <h2>{ "The cluster its files describe" }</h2>
            { row(&controllers, "Controllers") }
            if !observers.is_empty() {
                <h3>{ "Observers (brokers, or controllers not in the voter set)" }</h3>
                { row(&observers, "Observers") }
            }
            <p class="hint">{ "Each node as its own files hold it: its quorum-state's epoch, leader and vote; its log's reach to scale (the dark tick: its latest snapshot). A crown marks the node leading the latest epoch, a dashed outline a node at an older one. Numbers point to what the files disagree on:" }</p>
            if cluster.disagreements.is_empty() {
                <p id="cluster-files-agree">{ "The nodes' files agree." }</p>
            } else {
                <ol class="disagreements" id="disagreements">
                    { for cluster.disagreements.iter().map(|text| html! { <li>{ text }</li> }) }
                </ol>
            }
            if !cluster.skipped.is_empty() {
                <details class="hint" id="files-skipped">
                    <summary>{ format!("{} of other partitions skipped (not metadata records)", crate::util::format::counted(cluster.skipped.len() as u64, "file")) }</summary>
                    <ul>{ for cluster.skipped.iter().map(|path| html! { <li><code>{ path }</code></li> }) }</ul>
                </details>
            }
        </div>
    }
}

/// One node's card, its strip scaled to `furthest`.
fn card(node: &FileNode, furthest: i64) -> Html {
    let role = node.role();
    let class = classes!(
        "file-node",
        node.leads.then_some("role-leader"),
        node.stale.then_some("stale"),
        (node.problems > 0).then_some("damaged")
    );
    let scale = |offset: i64| offset as f64 / furthest.max(1) as f64 * 100.0;
    let label = format!("{} {role}: {}{}", node.name, node.line, marks_text(&node.marks));
    html! {
        <li class={class} aria-label={label} data-name={node.name.clone()}>
            <p class="file-node-head" aria-hidden="true">
                if node.leads { <span class="crown">{ "♛ " }</span> }
                <strong>{ &node.name }</strong>
                { for node.marks.iter().map(|mark| html! { <span class="disagreement-mark">{ mark }</span> }) }
            </p>
            <p aria-hidden="true">{ format!("{role}, {}", node.epoch_text()) }</p>
            <p aria-hidden="true">{ node.vote_text() }</p>
            <svg class="file-log-track" viewBox="0 0 100 10" preserveAspectRatio="none" aria-hidden="true">
                if let (Some(start), Some(end)) = (node.log_start, node.log_end) {
                    <rect class="file-log" x={format!("{:.2}", scale(start))} y="0" height="10"
                          width={format!("{:.2}", (scale(end) - scale(start)).max(1.0))} />
                }
                if let Some(snapshot) = node.snapshot_end {
                    <rect class="file-snapshot" x={format!("{:.2}", scale(snapshot).min(99.0))} y="0" width="1" height="10" />
                }
            </svg>
            <p class="file-log-end" aria-hidden="true">
                { node.log_text() }</p>
        </li>
    }
}

fn marks_text(marks: &[usize]) -> String {
    match marks {
        [] => String::new(),
        [one] => format!("; disagreement {one}"),
        _ => format!("; disagreements {}", marks.iter().map(usize::to_string).collect::<Vec<_>>().join(", ")),
    }
}
