//! `kraftscope render`: a still of a scenario's cluster at a moment, as an SVG file: the same
//! drawing code and stylesheet the page draws with, the same file its "Save picture" saves.

use kraftscope::harness::MS;
use kraftscope::session::cluster_drawing::{CAPTION_MAX, StillStyle, still};
use kraftscope::session::picture::session_picture;
use kraftscope::session::stories::{self, View};
use kraftscope::session::{LINK_LIMIT, Session};
use kraftscope::util::css::minify;

use super::args::Args;

/// The page's stylesheet (minified as served): a still looks as the drawing does on screen.
const STYLE: &str = include_str!("../../www/style.css");

pub(crate) fn run(args: &Args) -> Result<bool, String> {
    args.only(&["scenario", "at", "seed", "theme", "caption", "out"])?;
    let seed: u64 = args.get("seed", 1)?;
    let dark = match args.text("theme").unwrap_or("light") {
        "light" => false,
        "dark" => true,
        other => return Err(format!("--theme: '{other}' is neither light nor dark")),
    };
    let caption = args.text("caption").unwrap_or_default().to_string();
    let length = caption.chars().count();
    if length > CAPTION_MAX {
        return Err(format!("--caption: {length} characters; a caption takes at most {CAPTION_MAX}"));
    }
    let session = scenario_at(args.text("scenario"), args.text("at"), seed)?;
    let style = StillStyle { dark, caption };
    let svg = still(&session_picture(&session, false), false, &style).document(&minify(STYLE));
    match args.text("out") {
        Some(path) => {
            std::fs::write(path, &svg).map_err(|e| format!("cannot write {path}: {e}"))?;
            eprintln!("wrote the cluster at {} ms to {path} ({} bytes)", session.now() / MS, svg.len());
        }
        None => print!("{svg}"),
    }
    Ok(true)
}

/// The session of scenario `name` with `seed` at `at` ms (its opening moment if not given).
fn scenario_at(name: Option<&str>, at: Option<&str>, seed: u64) -> Result<Session, String> {
    let cluster_stories = || {
        let ids: Vec<&str> = stories::TOUR.iter().filter(|s| s.view == View::Cluster).map(|s| s.id).collect();
        ids.join(", ")
    };
    let name = name.ok_or_else(|| format!("give --scenario NAME (scenarios: {})", cluster_stories()))?;
    let story = stories::find(name)
        .ok_or_else(|| format!("--scenario: '{name}' is unknown (scenarios: {})", cluster_stories()))?;
    if story.view != View::Cluster {
        return Err(format!(
            "--scenario: '{name}' opens another view than the cluster, which is the one render draws (scenarios: {})",
            cluster_stories()
        ));
    }
    let mut session = story.opening(seed);
    if let Some(at) = at {
        let ms: u64 = at.parse().map_err(|_| format!("--at: '{at}' is not a time in ms"))?;
        if ms > LINK_LIMIT / MS {
            return Err(format!("--at: {ms} ms is later than {} ms", LINK_LIMIT / MS));
        }
        session.seek(ms * MS).map_err(|e| format!("--at: {e}"))?;
    }
    Ok(session)
}
