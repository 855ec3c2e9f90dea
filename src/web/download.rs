//! Saving bytes from the page as a file (a temporary object URL and a clicked link).

use wasm_bindgen::JsCast;
use web_sys::{Blob, HtmlAnchorElement, Url};

/// Offer `bytes` as a download called `name`.
pub fn save(name: &str, bytes: &[u8]) -> Result<(), String> {
    let parts = js_sys::Array::of1(&js_sys::Uint8Array::from(bytes));
    let blob = Blob::new_with_u8_array_sequence(&parts).map_err(|_| format!("cannot make {name}"))?;
    let url = Url::create_object_url_with_blob(&blob).map_err(|_| format!("cannot make a link to {name}"))?;
    let link: HtmlAnchorElement = gloo::utils::document()
        .create_element("a")
        .ok()
        .and_then(|e| e.dyn_into().ok())
        .ok_or_else(|| format!("cannot make a link to {name}"))?;
    link.set_href(&url);
    link.set_download(name);
    link.click();
    let _ = Url::revoke_object_url(&url);
    Ok(())
}

/// Save the live cluster's committed metadata log and snapshots as Kafka's files; the status
/// line to show.
pub fn save_cluster_log(sim: &crate::sim::Simulation) -> String {
    let Some((node, committed, files)) = sim.kafka_files() else {
        return "No node is running, so there is no log to download.".into();
    };
    for file in &files {
        if let Err(error) = save(&file.name, &file.bytes) {
            return error;
        }
    }
    let names: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    format!("Downloaded n{node}'s committed metadata log (offsets below {committed}): {}", names.join(", "))
}
