//! The metadata log view's drop zone and pickers: the files picked or dropped, or the files
//! below the folders picked or dropped (each named by its path below them), go to the log
//! reader's worker as the browser holds them (`open`), which reads and decodes them: their bytes
//! never enter the page's thread. The page's state hears that files are opening, or that one
//! of a folder's could not be had.

use web_sys::{DragEvent, HtmlInputElement};
use yew::prelude::*;

use super::folder_drop::{self, Found};
use crate::page::{Action, MetadataLogAction};

/// Files handed to the log reader, each named by its path below what was picked or dropped.
pub type PickedFiles = Vec<(String, web_sys::File)>;

#[derive(Properties, PartialEq)]
pub struct LogDropProps {
    /// Files are dragged over the zone.
    pub dragging: bool,
    /// Whether the log reader is reading and decoding files.
    pub decoding: bool,
    pub on: Callback<Action>,
    /// Receives the files picked or dropped, named.
    pub open: Callback<PickedFiles>,
}

/// A file's path below the folder picked (`webkitRelativePath`), or its name.
fn path_of(file: &web_sys::File) -> String {
    js_sys::Reflect::get(file, &"webkitRelativePath".into())
        .ok()
        .and_then(|path| path.as_string())
        .filter(|path| !path.is_empty())
        .unwrap_or_else(|| file.name())
}

fn files_of(list: Option<web_sys::FileList>) -> Vec<Found> {
    let files: Vec<web_sys::File> =
        list.map(|l| (0..l.length()).filter_map(|i| l.get(i)).collect()).unwrap_or_default();
    files.into_iter().map(|file| (path_of(&file), Ok(file))).collect()
}

/// Hands the files found to `open`, or tells `on` which could not be had (none is opened then).
fn picked(on: &Callback<Action>, open: &Callback<PickedFiles>, found: Vec<Found>) {
    if found.is_empty() {
        return;
    }
    let mut files = Vec::with_capacity(found.len());
    for (name, file) in found {
        match file {
            Ok(file) => files.push((name, file)),
            Err(error) => {
                let error = format!("Cannot read {name}: {error}");
                return on.emit(Action::MetadataLog(MetadataLogAction::Unreadable(error)));
            }
        }
    }
    open.emit(files);
}

/// The drop zone.
#[function_component(LogDrop)]
pub fn log_drop(props: &LogDropProps) -> Html {
    let drag = |over: bool| props.on.reform(move |_| Action::MetadataLog(MetadataLogAction::Drag(over)));
    let pick = {
        let (on, open) = (props.on.clone(), props.open.clone());
        Callback::from(move |found: Vec<Found>| picked(&on, &open, found))
    };
    let onchange = pick.reform(|e: Event| files_of(e.target_unchecked_into::<HtmlInputElement>().files()));
    let ondragover = {
        let over = drag(true);
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            over.emit(());
        })
    };
    let ondragleave = drag(false).reform(|_: DragEvent| ());
    let ondrop = {
        let left = drag(false);
        Callback::from(move |e: DragEvent| {
            e.prevent_default();
            left.emit(());
            let Some(data) = e.data_transfer() else { return };
            match folder_drop::dropped_folders(&data) {
                Some(entries) => folder_drop::walk(entries, pick.clone()),
                None => pick.emit(files_of(data.files())),
            }
        })
    };
    html! {
        <div class={classes!("drop-zone", "panel", props.dragging.then_some("dragging"))}
             {ondragover} {ondragleave} {ondrop}>
            <h2>{ "Open a metadata log" }</h2>
            <p>{ "Drop the files of a KRaft cluster's " }<code>{ "__cluster_metadata-0" }</code>
               { " directory here (a " }<code>{ ".log" }</code>{ " segment, " }<code>{ ".checkpoint" }</code>
               { " snapshots), or choose them: " }
               <input type="file" id="log-file" multiple=true accept=".log,.checkpoint" aria-label="Choose .log and .checkpoint files" onchange={onchange.clone()} /></p>
            <p>{ "Or drop or choose a node's log directory (with its " }<code>{ "meta.properties" }</code>{ ", " }<code>{ "quorum-state" }</code>
               { " and the rest), or a folder holding several nodes' directories, to see each node as its files hold it and what they disagree on: " }
               <input type="file" id="log-folder" webkitdirectory=true multiple=true aria-label="Choose a folder of nodes' directories" {onchange} /></p>
            <p class="hint">{ "Decoded in your browser; nothing is uploaded. The command line does the same: " }
               <code>{ "kraftscope inspect DIR" }</code>{ ", and " }<code>{ "kraftscope run --scenario NAME --write-log DIR" }</code>
               { " writes the simulation's log as these files." }</p>
            if props.decoding {
                <p class="hint" role="status">{ "Reading and decoding in a background worker (the page stays responsive)…" }</p>
            }
            <p>{ "No cluster of your own at hand? " }
                <button id="log-download" class="secondary" onclick={props.on.reform(|_| Action::DownloadLog)}>
                    { "Download the live cluster's log" }</button>
                { " saves the simulation's committed metadata log and snapshots as these files, ready to drop back here." }</p>
        </div>
    }
}
