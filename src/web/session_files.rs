//! Saving and opening session files: a name and notes, a Download button (the page builds the
//! file; a Blob behind an object URL saves it) and a file input that reads one back. JSON goes
//! through `JSON.parse`/`JSON.stringify` and serde-wasm-bindgen. The full page's: the first
//! screen's build shows the panel with one button, which hands the session to the full page
//! with the panel open.

use yew::prelude::*;

use crate::page::Action;

#[cfg(feature = "full")]
pub use full::{SessionFiles, download};

#[derive(Properties, PartialEq)]
pub struct SessionFilesProps {
    pub on: Callback<Action>,
    /// Open at once (`files=1`: the first screen handed the session over for its files).
    #[prop_or_default]
    pub open: bool,
}

const WHAT: &str =
    "Save the whole session (settings, seed, every action, this moment) as a file, or open one.";

/// The first screen's panel: its button opens the full page at this moment, the panel open.
#[cfg(not(feature = "full"))]
#[function_component(SessionFiles)]
pub fn session_files(props: &SessionFilesProps) -> Html {
    html! {
        <details class="panel session-files" open={props.open}>
            <summary>{ "Session file" }</summary>
            <p class="hint">{ WHAT }{ " They come with the rest of the page, which opens at this moment." }</p>
            <button id="session-files-load" onclick={props.on.reform(|_: MouseEvent| Action::SessionFiles)}>{ "Save or open a session file…" }</button>
        </details>
    }
}

/// The full page's panel, and the file's reading and writing.
#[cfg(feature = "full")]
mod full {
    use std::cell::RefCell;

    use gloo::file::callbacks::FileReader;
    use gloo::file::{Blob, ObjectUrl};
    use serde::Serialize;
    use wasm_bindgen::JsCast;
    use yew::prelude::*;

    use super::{SessionFilesProps, WHAT};
    use crate::page::Action;
    use crate::page::session_file::{Header, SessionFile};
    use crate::web::host::js_error;

    #[function_component(SessionFiles)]
    pub fn session_files(props: &SessionFilesProps) -> Html {
        let name = use_state(String::new);
        let notes = use_state(String::new);
        // The read in progress (dropping a reader cancels it).
        let reading = use_mut_ref(|| None::<FileReader>);
        let on_name = {
            let name = name.clone();
            Callback::from(move |e: InputEvent| {
                name.set(e.target_unchecked_into::<web_sys::HtmlInputElement>().value())
            })
        };
        let on_notes = {
            let notes = notes.clone();
            Callback::from(move |e: InputEvent| {
                notes.set(e.target_unchecked_into::<web_sys::HtmlTextAreaElement>().value())
            })
        };
        let on_save = {
            let (name, notes, on) = (name.clone(), notes.clone(), props.on.clone());
            Callback::from(move |_: MouseEvent| {
                on.emit(Action::SaveFile { name: (*name).clone(), notes: (*notes).clone() })
            })
        };
        let on_open = {
            let on = props.on.clone();
            Callback::from(move |e: Event| {
                let input = e.target_unchecked_into::<web_sys::HtmlInputElement>();
                let Some(file) = input.files().and_then(|files| files.get(0)) else { return };
                input.set_value("");
                let on = on.clone();
                let reader = gloo::file::callbacks::read_as_text(&file.into(), move |text| {
                    on.emit(Action::OpenFile(
                        text.map_err(|e| format!("cannot read the file: {e}")).and_then(|t| parse(&t)),
                    ));
                });
                *reading.borrow_mut() = Some(reader);
            })
        };
        html! {
            <details class="panel session-files" open={props.open}>
                <summary>{ "Session file" }</summary>
                <p class="hint">{ WHAT }</p>
                <label>{ "Name " }<input id="session-name" type="text" maxlength="200" value={(*name).clone()} oninput={on_name} /></label>
                <label>{ "Notes " }<textarea id="session-notes" rows="3" maxlength="20000" value={(*notes).clone()} oninput={on_notes} /></label>
                <div class="row">
                    <button id="session-save" onclick={on_save}>{ "Download session file" }</button>
                    <label class="file-button">{ "Open a session file " }
                        <input id="session-open" type="file" accept=".json,application/json" onchange={on_open} />
                    </label>
                </div>
            </details>
        }
    }

    /// Read a session file's text: JSON, a session file of this version, every field well-typed.
    fn parse(text: &str) -> Result<SessionFile, String> {
        let value = js_sys::JSON::parse(text).map_err(|_| "the file is not JSON".to_string())?;
        let header: Header = serde_wasm_bindgen::from_value(value.clone())
            .map_err(|e| format!("not a session file: {}", js_error(&e)))?;
        header.check()?;
        serde_wasm_bindgen::from_value(value).map_err(|e| js_error(&e))
    }

    thread_local! {
        /// The last download's object URL, kept until the next one so the browser can finish.
        static LAST_DOWNLOAD: RefCell<Option<ObjectUrl>> = const { RefCell::new(None) };
    }

    /// Save `file` as `<name>.json` through a Blob and an object URL.
    pub fn download(file: &SessionFile) -> Result<(), String> {
        let value = file
            .serialize(&serde_wasm_bindgen::Serializer::json_compatible())
            .map_err(|e| format!("cannot write the file: {e}"))?;
        let text =
            js_sys::JSON::stringify_with_replacer_and_space(&value, &wasm_bindgen::JsValue::NULL, &2.into())
                .ok()
                .and_then(|t| t.as_string())
                .ok_or("cannot write the file as JSON")?;
        let url = ObjectUrl::from(Blob::new_with_options(text.as_str(), Some("application/json")));
        let link = gloo::utils::document()
            .create_element("a")
            .ok()
            .and_then(|a| a.dyn_into::<web_sys::HtmlAnchorElement>().ok())
            .ok_or("cannot create a download link")?;
        link.set_href(&url);
        link.set_download(&file.file_name());
        link.click();
        LAST_DOWNLOAD.with(|last| *last.borrow_mut() = Some(url));
        Ok(())
    }
}
