//! `kraftscope render`: a still of a scenario's cluster at a moment, as an SVG file: the same
//! drawing code and stylesheet the page draws with, the same file its "Save picture" saves.

use kraftscope::drawing::cluster::{CAPTION_MAX, StillStyle, still};
use kraftscope::drawing::svg::El;
use kraftscope::harness::MS;
#[cfg(feature = "full")]
use kraftscope::page::race::RaceFrame;
#[cfg(feature = "full")]
use kraftscope::page::{Action, PageState};
use kraftscope::session::picture::session_picture;
use kraftscope::session::{LINK_LIMIT, Session};
use kraftscope::teaching::stories::{self, View};
use kraftscope::util::css::still_sheet;
#[cfg(feature = "full")]
use kraftscope::util::format;
#[cfg(feature = "full")]
use kraftscope::zk::pains::Pain;

use super::args::Args;

pub(crate) fn run(args: &Args) -> Result<bool, String> {
    args.only(&[
        "scenario",
        "view",
        "partitions",
        "kraft-roles",
        "files",
        "at",
        "seed",
        "theme",
        "caption",
        "out",
        "clip",
        "fps",
        "frames",
    ])?;
    if args.has("files") && args.text("view") != Some("log") {
        return Err("--files is the log view's: give --view log".into());
    }
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
    let style = StillStyle { dark, caption };
    if args.has("clip") || args.has("frames") || args.has("fps") {
        return clip(args, seed, &style);
    }
    let (drawing, what) = match args.text("view").unwrap_or("cluster") {
        "cluster" => {
            if args.has("partitions") || args.has("kraft-roles") {
                return Err("--partitions and --kraft-roles are the race's: give --view race".into());
            }
            let session = scenario_at(args.text("scenario"), args.text("at"), seed)?;
            let what = format!("the cluster at {} ms", session.now() / MS);
            (still(&session_picture(&session, false), false, &style), what)
        }
        "race" => {
            if args.has("scenario") {
                return Err(
                    "--scenario is the cluster's: the race is one scenario (give --partitions N)".into()
                );
            }
            race_at(args, seed, &style)?
        }
        "pains" => {
            if args.has("partitions") || args.has("kraft-roles") {
                return Err("--partitions and --kraft-roles are the race's: give --view race".into());
            }
            pains_at(args, &style)?
        }
        "migration" => {
            if args.has("partitions") || args.has("kraft-roles") {
                return Err("--partitions and --kraft-roles are the race's: give --view race".into());
            }
            migration_at(args, seed, &style)?
        }
        "log" => {
            if args.has("scenario") || args.has("partitions") || args.has("kraft-roles") {
                return Err("the log view draws the files given: give --files PATH[,PATH...] alone".into());
            }
            log_at(args, &style)?
        }
        other => return Err(format!("--view: '{other}' is not cluster, race, pains, migration or log")),
    };
    let svg = drawing.document(&still_sheet());
    match args.text("out") {
        Some(path) => {
            std::fs::write(path, &svg).map_err(|e| format!("cannot write {path}: {e}"))?;
            eprintln!("wrote {what} to {path} ({} bytes)", svg.len());
        }
        None => print!("{svg}"),
    }
    Ok(true)
}

/// The shortest and longest clip, in seconds of wall time.
#[cfg(feature = "full")]
const CLIP_SECONDS: (u64, u64) = (2, 60);
/// The most frames a second a clip takes.
#[cfg(feature = "full")]
const FPS_MAX: u64 = 60;

/// `--clip SECONDS [--fps N] --frames DIR`: the cluster view played as the page plays it from
/// `--at` (the scenario's opening without it), one still a frame at exact frame times: before
/// each frame after the first, the page's own frame of 1000/fps ms of wall time at the
/// scenario's speed. Written as DIR/frame-0000.svg, frame-0001.svg, ...; frame 0 is the still
/// `render` draws without `--clip`.
#[cfg(feature = "full")]
fn clip(args: &Args, seed: u64, style: &StillStyle) -> Result<bool, String> {
    if args.text("view").is_some_and(|view| view != "cluster") {
        return Err("--clip draws the cluster view (the page's other views: not yet)".into());
    }
    if args.has("out") {
        return Err("--clip writes one file a frame into --frames DIR: leave --out out".into());
    }
    let seconds: u64 = args.get("clip", 0)?;
    if !(CLIP_SECONDS.0..=CLIP_SECONDS.1).contains(&seconds) {
        return Err(format!("--clip: {seconds} s; a clip lasts {} to {} s", CLIP_SECONDS.0, CLIP_SECONDS.1));
    }
    let fps: u64 = args.get("fps", 30)?;
    if !(1..=FPS_MAX).contains(&fps) {
        return Err(format!("--fps: {fps}; a clip takes 1 to {FPS_MAX} frames a second"));
    }
    let dir = args.text("frames").ok_or("--clip writes its frames into a folder: give --frames DIR")?;
    // The moment and the scenario are checked as a still checks them.
    let opening = scenario_at(args.text("scenario"), args.text("at"), seed)?;
    let query = format!("?scenario={}&seed={seed}", args.text("scenario").unwrap_or_default());
    let mut page = PageState::new(&query, "http://localhost/", false);
    if let Some(notice) = page.notices.first() {
        return Err(notice.clone());
    }
    // The page opens a scenario at its opening moment; from `--at` it plays on the session
    // that the still of that moment draws.
    let from = opening.now();
    page.session = opening;
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {dir}: {e}"))?;
    let frames = seconds * fps;
    for frame in 0..frames {
        if frame > 0 {
            page.reduce(Action::Frame { elapsed: 1_000.0 / fps as f64 });
        }
        let svg = still(&session_picture(&page.session, false), false, style).document(&still_sheet());
        let path = std::path::Path::new(dir).join(format!("frame-{frame:04}.svg"));
        std::fs::write(&path, svg).map_err(|e| format!("cannot write {}: {e}", path.display()))?;
    }
    eprintln!(
        "wrote {frames} frames ({seconds} s at {fps} fps) to {dir}: {} ms to {} ms simulated",
        from / MS,
        page.session.now() / MS
    );
    Ok(true)
}

/// A build without the page's later views plays no page to clip.
#[cfg(not(feature = "full"))]
fn clip(_: &Args, _: u64, _: &StillStyle) -> Result<bool, String> {
    Err("this build plays no clip (built without the `full` feature)".into())
}

/// A build without the page's later views (`--no-default-features`) has no race to draw.
#[cfg(not(feature = "full"))]
fn race_at(_: &Args, _: u64, _: &StillStyle) -> Result<(El, String), String> {
    Err("this build has no failover race (built without the `full` feature)".into())
}

/// A build without the page's later views has no log view to draw.
#[cfg(not(feature = "full"))]
fn log_at(_: &Args, _: &StillStyle) -> Result<(El, String), String> {
    Err("this build has no log view (built without the `full` feature)".into())
}

/// The files at `--files` opened as the page opens them (the same reader; nodes' directories
/// draw their cluster), the image after `--at` records (after the last without it), and what it
/// shows. Files are named as given, as the page names them below the folder picked.
#[cfg(feature = "full")]
fn log_at(args: &Args, style: &StillStyle) -> Result<(El, String), String> {
    use kraftscope::drawing::log::log_still;
    use kraftscope::kafka_log::directory::read_tree;
    use kraftscope::log_reader::{LogReader, LogRequest};

    let paths =
        args.text("files").ok_or("give --files PATH[,PATH...] (a log's files, or nodes' directories)")?;
    let paths: Vec<&std::path::Path> = paths.split(',').map(std::path::Path::new).collect();
    let files = read_tree(&paths).map_err(|e| format!("--files: {e}"))?;
    let mut reader = LogReader::default();
    let mut log = reader.answer(LogRequest::Open(files))?;
    if let Some(error) = &log.error {
        return Err(error.clone());
    }
    if let Some(at) = args.text("at") {
        let at: usize = at.parse().map_err(|_| format!("--at: '{at}' is not a count of records"))?;
        if at > log.len {
            return Err(format!("--at: {at} records, but the files hold {}", log.len));
        }
        log = reader.answer(LogRequest::Seek(at))?;
    }
    let what = format!("the log after {} of {} records", log.position, log.len);
    Ok((log_still(&log, style), what))
}

/// A build without the page's later views has no migration to draw.
#[cfg(not(feature = "full"))]
fn migration_at(_: &Args, _: u64, _: &StillStyle) -> Result<(El, String), String> {
    Err("this build has no migration view (built without the `full` feature)".into())
}

/// Migration scenario `--scenario` (`migration` without it) with `seed`, `--at` ms into it (its
/// end without it), and what it shows.
#[cfg(feature = "full")]
fn migration_at(args: &Args, seed: u64, style: &StillStyle) -> Result<(El, String), String> {
    use kraftscope::page::migration::MigrationState;

    let name = args.text("scenario").unwrap_or("migration");
    let at = args.text("at").map(|_| args.get::<u64>("at", 0)).transpose()?;
    let asked = at.map_or(u64::MAX, |ms| ms.saturating_mul(MS));
    let (state, notices) =
        MigrationState::open(name, seed, &[], Some(asked), false).map_err(|e| format!("--{e}"))?;
    if let Some(problem) = notices.first().filter(|_| at.is_some()) {
        return Err(format!("--at: {}", problem.trim_start_matches("t: ")));
    }
    let view = state.view();
    let what = format!("{name} at {}: {}", format::seconds(view.now), view.picture.state_word());
    Ok((view.still(style), what))
}

/// A build without the page's later views has no pains to draw.
#[cfg(not(feature = "full"))]
fn pains_at(_: &Args, _: &StillStyle) -> Result<(El, String), String> {
    Err("this build has no pains view (built without the `full` feature)".into())
}

/// The pain as the page shows it for `?scenario=NAME&t=MS` (`--at`: ms into the pain; its
/// start without it), and what it shows.
#[cfg(feature = "full")]
fn pains_at(args: &Args, style: &StillStyle) -> Result<(El, String), String> {
    let pains = || Pain::ALL.iter().map(|p| p.id()).collect::<Vec<_>>().join(", ");
    let name = args.text("scenario").ok_or_else(|| format!("give --scenario NAME (pains: {})", pains()))?;
    let pain = Pain::ALL
        .into_iter()
        .find(|p| p.id() == name)
        .ok_or_else(|| format!("--scenario: '{name}' is not one of the pains ({})", pains()))?;
    let at: u64 = args.get("at", 0)?;
    let end_ms = pain.moments().1 / MS;
    if at > end_ms {
        return Err(format!("--at: {at} ms is past the end of {name}, which plays {end_ms} ms"));
    }
    let page = PageState::new(&format!("?scenario={}&t={at}", pain.id()), "http://localhost/", false);
    if let Some(notice) = page.notices.first() {
        return Err(notice.clone());
    }
    let view = page.pains.view();
    let what = format!("{} at {}", pain.title(), format::seconds(view.now));
    Ok((view.still(style), what))
}

/// The failover race as the page shows it for `?scenario=failover&partitions=N&t=MS&seed=S`
/// (`--at`: ms after the kill; before the kill without it), and what it shows.
#[cfg(feature = "full")]
fn race_at(args: &Args, seed: u64, style: &StillStyle) -> Result<(El, String), String> {
    let partitions: u64 = args.get("partitions", 1_000)?;
    let mut query = format!("?scenario=failover&partitions={partitions}&seed={seed}&autoplay=0");
    if let Some(roles) = args.text("kraft-roles") {
        query.push_str(&format!("&kraft-roles={roles}"));
    }
    if let Some(at) = args.text("at") {
        let ms: u64 = at.parse().map_err(|_| format!("--at: '{at}' is not a time in ms"))?;
        query.push_str(&format!("&t={ms}"));
    }
    let mut page = PageState::new(&query, "http://localhost/", false);
    if let Some(notice) = page.notices.first() {
        return Err(notice.clone());
    }
    // The command line's clock stands still: each frame finishes the work it starts.
    while page.race.busy() {
        page.reduce(Action::Frame { elapsed: 1_000.0 / 60.0 });
    }
    let screen = page.race.screen(RaceFrame::Page);
    let what = format!("the race of {} partitions: {}", format::count(partitions), screen.stage);
    let drawing = screen.still(style).ok_or("the race did not start")?;
    Ok((drawing, what))
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
