//! The metadata log view's drop zone and pickers: it reads the files picked or dropped, or the
//! files below the folders picked or dropped (each named by its path below them), keeping the
//! browser's file readers and the batch they fill here while they run, and hands the batch's
//! files to the log reader (`open`) once all are read: the page's state hears only that files
//! are being read, that one could not be, or that they are decoding.

use gloo::file::callbacks::{FileReader, read_as_bytes};
use web_sys::{DragEvent, HtmlInputElement};
use yew::prelude::*;

use super::folder_drop::{self, Found};
use crate::log_reader::batch::{BatchStep, FileBatch};
use crate::page::{Action, MetadataLogAction};

#[derive(Properties, PartialEq)]
pub struct LogDropProps {
    /// Files are dragged over the zone.
    pub dragging: bool,
    /// Files are being read.
    pub reading: bool,
    /// Whether the files are read and the log reader is decoding them.
    pub decoding: bool,
    pub on: Callback<Action>,
    /// Receives the files of a batch, named, once all are read.
    pub open: Callback<Vec<(String, Vec<u8>)>>,
}

/// The drop zone: the readers of the files last picked or dropped (a new pick drops them, which
/// stops any still running).
pub struct LogDrop {
    readers: Vec<FileReader>,
    batch: FileBatch,
}

/// What reaches the drop zone: files picked or dropped, and each file's bytes once read.
pub enum LogDropMsg {
    Picked(Vec<Found>),
    Arrived { name: String, bytes: Result<Vec<u8>, String> },
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

impl LogDrop {
    /// Starts reading the files of a new pick or drop (the last batch's readers stop).
    fn pick(&mut self, ctx: &Context<Self>, files: Vec<Found>) {
        ctx.props().on.emit(Action::MetadataLog(MetadataLogAction::Reading(files.len())));
        self.batch = FileBatch::new(files.len());
        self.readers.clear();
        for (name, file) in files {
            match file {
                Ok(file) => {
                    let link = ctx.link().clone();
                    self.readers.push(read_as_bytes(&gloo::file::File::from(file), move |bytes| {
                        let bytes = bytes.map_err(|e| e.to_string());
                        link.send_message(LogDropMsg::Arrived { name, bytes });
                    }));
                }
                Err(error) => self.arrived(ctx, name, Err(error)),
            }
        }
    }

    /// File `name` was read, or could not be.
    fn arrived(&mut self, ctx: &Context<Self>, name: String, bytes: Result<Vec<u8>, String>) {
        match self.batch.arrived(name, bytes) {
            BatchStep::Waiting => {}
            BatchStep::Complete(files) => {
                self.readers.clear();
                ctx.props().open.emit(files);
            }
            BatchStep::Unreadable(error) => {
                ctx.props().on.emit(Action::MetadataLog(MetadataLogAction::Unreadable(error)))
            }
        }
    }
}

impl Component for LogDrop {
    type Message = LogDropMsg;
    type Properties = LogDropProps;

    fn create(_: &Context<Self>) -> Self {
        LogDrop { readers: Vec::new(), batch: FileBatch::default() }
    }

    fn update(&mut self, ctx: &Context<Self>, msg: LogDropMsg) -> bool {
        match msg {
            LogDropMsg::Picked(files) if files.is_empty() => {}
            LogDropMsg::Picked(files) => self.pick(ctx, files),
            LogDropMsg::Arrived { name, bytes } => self.arrived(ctx, name, bytes),
        }
        false
    }

    fn view(&self, ctx: &Context<Self>) -> Html {
        let (link, props) = (ctx.link(), ctx.props());
        let drag = |over: bool| props.on.reform(move |_| Action::MetadataLog(MetadataLogAction::Drag(over)));
        let onchange = link.callback(|e: Event| {
            LogDropMsg::Picked(files_of(e.target_unchecked_into::<HtmlInputElement>().files()))
        });
        let ondragover = {
            let over = drag(true);
            Callback::from(move |e: DragEvent| {
                e.prevent_default();
                over.emit(());
            })
        };
        let ondragleave = drag(false).reform(|_: DragEvent| ());
        let ondrop = {
            let (left, link) = (drag(false), link.clone());
            Callback::from(move |e: DragEvent| {
                e.prevent_default();
                left.emit(());
                let Some(data) = e.data_transfer() else { return };
                match folder_drop::dropped_folders(&data) {
                    Some(entries) => folder_drop::walk(entries, link.callback(LogDropMsg::Picked)),
                    None => link.send_message(LogDropMsg::Picked(files_of(data.files()))),
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
                    <p class="hint" role="status">{ "Decoding in a background worker (the page stays responsive)…" }</p>
                } else if props.reading {
                    <p class="hint" role="status">{ "Reading…" }</p>
                }
                <p>{ "No cluster of your own at hand? " }
                    <button id="log-download" class="secondary" onclick={props.on.reform(|_| Action::DownloadLog)}>
                        { "Download the live cluster's log" }</button>
                    { " saves the simulation's committed metadata log and snapshots as these files, ready to drop back here." }</p>
            </div>
        }
    }
}
