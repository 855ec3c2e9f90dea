//! The page's URL parameters: what to open (a scenario, a tour step, a shared session), how
//! (speed, autoplay, which controls, embedded or presenting), and the cluster. Anything garbled,
//! unknown or out of range is replaced by its default and named in a notice; parsing never fails.

use crate::experiments::failover::KraftRoles;
use crate::harness::{MS, Micros};
#[cfg(feature = "full")]
use crate::migration::sim::Action as MigrationStep;
use crate::sim::simulation::QuorumFormat;
use crate::sweep::sabotage::Sabotage;
use crate::util::format;

use super::host::Origins;
use super::views::Tab;
use crate::session::Session;
use crate::session::action::RecordedAction;
use crate::session::settings::Settings;
use crate::teaching::stories;

/// Which controls the page shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Controls {
    /// Everything.
    Full,
    /// Play/pause, step, kill the leader and reset only.
    Min,
    /// None: a moving picture.
    None,
}

/// Everything the URL can ask for.
#[derive(Clone, Debug, PartialEq)]
pub struct PageParams {
    pub settings: Settings,
    /// A built-in scenario (`failover` opens the race, `migration...` the migration view).
    pub scenario: Option<&'static str>,
    /// The viewer's own steps and faults in a shared migration (`ops=`), each at its moment
    /// (read by the full page only: the first screen's build hands such a link over as it is).
    #[cfg(feature = "full")]
    pub ops: Vec<(Micros, MigrationStep)>,
    /// A tour step, 1-based.
    pub tour: Option<usize>,
    /// The view to open on the live session (`tab=`): how the first screen hands a view it
    /// does not carry to the full page.
    pub tab: Option<Tab>,
    /// The moment of an opened log's history to show once its files are opened again
    /// (`history-at=`, ms since the Unix epoch on the cluster's clock).
    pub history_at: Option<i64>,
    /// Whether the link asks for the full page (`full=1`): the first screen's wasm never
    /// hands over such a link again (index.html loads the full page for it).
    pub full: bool,
    /// Open the session-file panel (`files=1`): saving and opening session files comes with the
    /// full page, which the first screen hands over to for them.
    pub files: bool,
    /// Playback speed factor.
    pub speed: f64,
    /// Play quiet stretches faster below 1x ([`crate::page::pacing`]); `skip=0` turns it off.
    pub skip_quiet: bool,
    pub autoplay: bool,
    pub controls: Controls,
    pub embed: bool,
    pub present: bool,
    /// Partition count of the failover race (and of the migration, if the link names it).
    pub partitions: u64,
    /// The link names a partition count.
    pub sized: bool,
    /// How the race's KRaft side is laid out (`kraft-roles=dedicated|combined`).
    pub kraft_roles: KraftRoles,
    /// Shared actions to replay, and the moment to open at: a time, and (from a shared link)
    /// how many events had been processed and how many of the actions carried out by then.
    pub actions: Vec<RecordedAction>,
    pub at: Option<Micros>,
    pub events: Option<u64>,
    pub applied: Option<usize>,
    /// The short code of the state's fingerprint a shared link was made at.
    pub fingerprint: Option<String>,
    /// Show the error panel (a demonstration of what a crash looks like).
    pub panic: bool,
    /// The host pages allowed to command the page (none: the host-page API is off).
    pub origins: Origins,
    /// Walk the guided tour on its own.
    pub kiosk: bool,
    /// In kiosk mode, hold every step this long (ms) instead of its reading time.
    pub hold_ms: Option<u64>,
    /// Class mode (`class=1`): a tour step's question full screen, with a QR code for phones.
    pub class: bool,
    /// A phone's view of a tour step's question (`ask=<step id>`), opened from class mode's code.
    pub ask: Option<&'static str>,
}

impl Default for PageParams {
    fn default() -> Self {
        PageParams {
            settings: Settings { snapshot_bytes: PAGE_SNAPSHOT_BYTES, ..Settings::default() },
            scenario: None,
            #[cfg(feature = "full")]
            ops: Vec::new(),
            tour: None,
            tab: None,
            history_at: None,
            full: false,
            files: false,
            speed: DEFAULT_SPEED,
            skip_quiet: true,
            autoplay: true,
            controls: Controls::Full,
            embed: false,
            present: false,
            partitions: 1_000_000,
            sized: false,
            kraft_roles: KraftRoles::DEDICATED,
            actions: Vec::new(),
            at: None,
            events: None,
            applied: None,
            fingerprint: None,
            panic: false,
            origins: Origins::default(),
            kiosk: false,
            hold_ms: None,
            class: false,
            ask: None,
        }
    }
}

/// The default speed: a message crossing the default network (10-30 ms) takes 0.67 to 2 s of
/// wall time, slow enough for a newcomer to follow each one; quiet stretches are fast-forwarded.
pub const DEFAULT_SPEED: f64 = 0.015;
/// The bounds of the speed factor.
pub const MIN_SPEED: f64 = 0.001;
pub const MAX_SPEED: f64 = 1000.0;
/// The bounds of the race's partition count.
pub const MIN_PARTITIONS: u64 = 10;
pub const MAX_PARTITIONS: u64 = 2_000_000;
/// The bounds of kiosk mode's hold time per step (`hold=`), in milliseconds.
const MIN_HOLD_MS: u64 = 100;
const MAX_HOLD_MS: u64 = 600_000;
/// The live page's snapshot interval in bytes of records (`snapshot=`): about every eight and a
/// half simulated minutes of the active controller's NoOpRecords, so that a page left open keeps a
/// bounded log, as Kafka's cleaner bounds its own. Kafka's 20 MiB (`snapshot=0`) would take a
/// simulated month to reach, and the log would grow in memory all that time.
pub const PAGE_SNAPSHOT_BYTES: u64 = 4_096;
/// The latest moment a URL may ask to open at.
const MAX_AT: Micros = crate::session::LINK_LIMIT;

/// Decode `%XX` and `+` in a query component.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let escaped = (bytes[i] == b'%' && i + 2 < bytes.len())
            .then(|| {
                std::str::from_utf8(&bytes[i + 1..i + 3]).ok().and_then(|h| u8::from_str_radix(h, 16).ok())
            })
            .flatten();
        match (bytes[i], escaped) {
            (_, Some(b)) => {
                out.push(b);
                i += 2;
            }
            (b'+', None) => out.push(b' '),
            (b, None) => out.push(b),
        }
        i += 1;
    }
    String::from_utf8_lossy(&out).into_owned()
}

/// The migration scenario named `value` (the first screen's build knows their names, to hand
/// such a link or a host page's `load-scenario` over to the full page).
pub fn migration_scenario(value: &str) -> Option<&'static str> {
    crate::migration::scenarios::IDS.into_iter().find(|id| *id == value)
}

/// Every scenario id a link or a host page may name: the tour's steps, then the migration's.
pub fn scenario_ids() -> Vec<&'static str> {
    let mut ids = stories::ids();
    ids.extend(crate::migration::scenarios::IDS);
    ids
}

fn flag(value: &str) -> Option<bool> {
    match value {
        "1" | "true" | "yes" | "on" | "" => Some(true),
        "0" | "false" | "no" | "off" => Some(false),
        _ => None,
    }
}

/// `value` of parameter `key` as a whole number, or what it is not.
fn number(key: &str, value: &str, what: &str) -> Result<u64, String> {
    value.parse::<u64>().map_err(|_| format!("{key}: '{value}' is not {what}; using the default"))
}

/// `v` of parameter `key` if it lies in `lo..=hi`, or where it lies outside.
fn within(key: &str, v: u64, lo: u64, hi: u64) -> Result<u64, String> {
    if (lo..=hi).contains(&v) {
        Ok(v)
    } else {
        Err(format!("{key}: {v} is outside {lo} to {hi}; using the default"))
    }
}

impl PageParams {
    /// Read a query string (with or without the leading `?`); returns the parameters and one
    /// notice per parameter that was ignored.
    pub fn parse(query: &str) -> (PageParams, Vec<String>) {
        let mut params = PageParams::default();
        let mut notices = Vec::new();
        for (key, value) in PageParams::pairs(query) {
            if let Err(problem) = params.set(&key, &value) {
                notices.push(problem);
            }
        }
        if let Err(problem) = params.settings.validate() {
            notices.push(format!("cluster settings: {problem}; using the defaults"));
            params.settings = Settings { seed: params.settings.seed, ..Settings::default() };
        }
        (params, notices)
    }

    /// The decoded `key=value` pairs of a query string, in order (a notice names its key).
    pub fn pairs(query: &str) -> impl Iterator<Item = (String, String)> + '_ {
        query.trim_start_matches('?').split('&').filter(|p| !p.is_empty()).map(|pair| {
            let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
            (decode(key), decode(value))
        })
    }

    fn set(&mut self, key: &str, value: &str) -> Result<(), String> {
        if self.set_cluster(key, value)? || self.set_moment(key, value)? {
            return Ok(());
        }
        self.set_view(key, value)
    }

    /// A key of the cluster's settings, if `key` is one (whether it was).
    fn set_cluster(&mut self, key: &str, value: &str) -> Result<bool, String> {
        match key {
            "seed" => self.settings.seed = number(key, value, "a seed (a whole number)")?,
            "voters" | "controllers" => {
                self.settings.voters = within(key, number(key, value, "a count")?, 1, Settings::MAX_VOTERS.into())? as u32
            }
            "brokers" => {
                self.settings.brokers = within(key, number(key, value, "a count")?, 0, Settings::MAX_BROKERS.into())? as u32
            }
            "prevote" => {
                self.settings.pre_vote =
                    flag(value).ok_or_else(|| format!("{key}: '{value}' is not 0 or 1; using the default"))?
            }
            "quorum" => {
                self.settings.quorum = QuorumFormat::from_name(value).ok_or_else(|| {
                    format!("{key}: '{value}' is not static, standalone or initial-controllers; using initial-controllers")
                })?
            }
            "roles" => {
                self.settings.combined = match value {
                    "combined" => true,
                    "dedicated" => false,
                    _ => return Err(format!("{key}: '{value}' is not dedicated or combined; using dedicated")),
                }
            }
            "drop" => self.settings.drop_percent = within(key, number(key, value, "a percentage")?, 0, 100)? as u32,
            "snapshot" => self.settings.snapshot_bytes = within(key, number(key, value, "a byte count")?, 0, 1 << 30)?,
            "latency" => {
                let (lo, hi) = value.split_once('-').unwrap_or((value, value));
                let parse = |t: &str| t.parse::<u32>().ok().filter(|v| *v <= Settings::MAX_LATENCY_MS);
                match (parse(lo), parse(hi)) {
                    (Some(lo), Some(hi)) if lo <= hi => {
                        self.settings.latency_min_ms = lo;
                        self.settings.latency_max_ms = hi;
                    }
                    _ => {
                        return Err(format!(
                            "{key}: '{value}' is not a range like 10-30 (ms, at most {}); using the default",
                            Settings::MAX_LATENCY_MS
                        ));
                    }
                }
            }
            "sabotage" => {
                let mut sabotage = Sabotage::default();
                for name in value.split(',') {
                    sabotage.enable(name).map_err(|e| format!("{key}: {e}"))?;
                }
                self.settings.sabotage = sabotage;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A key of the shared moment and what led to it, if `key` is one (whether it was).
    fn set_moment(&mut self, key: &str, value: &str) -> Result<bool, String> {
        match key {
            #[cfg(feature = "full")]
            "ops" => {
                let bad = |op: &str| {
                    format!(
                        "ops: '{op}' is not a moment and a step like 30000.125:kill-controller; ignoring the shared steps"
                    )
                };
                let ops: Result<Vec<_>, String> = value
                    .split('~')
                    .filter(|op| !op.is_empty())
                    .map(|op| {
                        let (at, code) = op.split_once(':').ok_or_else(|| bad(op))?;
                        let at =
                            format::parse_exact_ms(at).filter(|at| *at <= MAX_AT).ok_or_else(|| bad(op))?;
                        Ok((at, MigrationStep::from_code(code).ok_or_else(|| bad(op))?))
                    })
                    .collect();
                let ops = ops?;
                if ops.windows(2).any(|w| w[0].0 > w[1].0) {
                    return Err(
                        "ops: they are out of order (is the link damaged?); ignoring the shared steps".into(),
                    );
                }
                self.ops = ops;
            }
            "t" => {
                let at = format::parse_exact_ms(value).ok_or_else(|| {
                    format!("t: '{value}' is not a time in ms (like 4000 or 4000.125); opening at the start")
                })?;
                if at > MAX_AT {
                    return Err(format!(
                        "t: {value} ms is later than {} ms; opening at the start",
                        MAX_AT / MS
                    ));
                }
                self.at = Some(at);
            }
            "at" => {
                let bad = || {
                    format!(
                        "at: '{value}' is not a moment like 4000123.567.2 (microseconds.events.actions carried out); opening at the start"
                    )
                };
                let mut parts = value.split('.');
                let (Some(at), Some(events), applied, None) =
                    (parts.next(), parts.next(), parts.next(), parts.next())
                else {
                    return Err(bad());
                };
                let at = at.parse::<u64>().map_err(|_| bad())?;
                let events = events.parse::<u64>().map_err(|_| bad())?;
                let applied = applied.map(str::parse::<usize>).transpose().map_err(|_| bad())?;
                if at > MAX_AT {
                    return Err(format!("at: {at} us is later than {MAX_AT} us; opening at the start"));
                }
                (self.at, self.events, self.applied) = (Some(at), Some(events), applied);
            }
            "fp" => {
                if value.len() != 8 || !value.bytes().all(|b| b.is_ascii_hexdigit()) {
                    return Err(format!(
                        "fp: '{value}' is not a fingerprint code (8 hex digits); not checked"
                    ));
                }
                self.fingerprint = Some(value.to_ascii_lowercase());
            }
            "actions" => {
                let actions: Result<Vec<RecordedAction>, _> =
                    value.split('~').filter(|a| !a.is_empty()).map(str::parse).collect();
                let actions = actions.map_err(|e| {
                    format!("actions: {e} (is the link truncated?); ignoring the shared actions")
                })?;
                if actions.len() > crate::session::MAX_ACTIONS {
                    return Err(format!(
                        "actions: {} of them, more than the {} a timeline keeps; ignoring the shared actions",
                        actions.len(),
                        crate::session::MAX_ACTIONS
                    ));
                }
                if actions.windows(2).any(|w| (w[0].events, w[0].at) > (w[1].events, w[1].at)) {
                    return Err(
                        "actions: they are out of order (is the link damaged?); ignoring the shared actions"
                            .into(),
                    );
                }
                self.actions = actions;
            }
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// A key of how the page opens and what it shows, or of none.
    fn set_view(&mut self, key: &str, value: &str) -> Result<(), String> {
        match key {
            "scenario" => {
                let story = stories::find(value).map(|s| s.id);
                self.scenario = Some(story.or_else(|| migration_scenario(value)).ok_or_else(|| {
                    format!(
                        "scenario: '{value}' is unknown (known: {}); opening the live cluster",
                        scenario_ids().join(", ")
                    )
                })?)
            }
            "tour" => {
                self.tour = Some(within(key, number(key, value, "a step number")?, 1, stories::TOUR.len() as u64)? as usize)
            }
            "tab" => {
                self.tab = Some(Tab::named(value).ok_or_else(|| {
                    let names: Vec<&str> = Tab::ALL.iter().map(|tab| tab.name()).collect();
                    format!("tab: '{value}' is not one of {}; opening the live cluster", names.join(", "))
                })?)
            }
            "history-at" => {
                // Up to the last millisecond of the year 9999.
                let at = value.parse::<i64>().ok().filter(|at| (0..=253_402_300_799_999).contains(at));
                self.history_at = Some(at.ok_or_else(|| {
                    format!("history-at: '{value}' is not a time in ms since 1970 (like 1758533058290); the history opens at its start")
                })?);
            }
            "full" => self.full = flag(value).ok_or_else(|| format!("full: '{value}' is not 0 or 1"))?,
            "files" => self.files = flag(value).ok_or_else(|| format!("files: '{value}' is not 0 or 1"))?,
            "speed" => {
                let speed = crate::util::float::parse(value).filter(|s| s.is_finite());
                self.speed = speed.filter(|s| (MIN_SPEED..=MAX_SPEED).contains(s)).ok_or_else(|| {
                    format!("speed: '{value}' is not a factor between {MIN_SPEED} and {MAX_SPEED}; using {DEFAULT_SPEED}")
                })?;
            }
            "skip" => {
                self.skip_quiet = flag(value).ok_or_else(|| {
                    format!("skip: '{value}' is not 0 or 1; skipping quiet stretches below 1x")
                })?
            }
            "autoplay" => {
                self.autoplay =
                    flag(value).ok_or_else(|| format!("autoplay: '{value}' is not 0 or 1; playing"))?
            }
            "embed" => self.embed = flag(value).ok_or_else(|| format!("embed: '{value}' is not 0 or 1"))?,
            "present" => {
                self.present = flag(value).ok_or_else(|| format!("present: '{value}' is not 0 or 1"))?
            }
            "controls" => {
                self.controls = match value {
                    "full" => Controls::Full,
                    "min" => Controls::Min,
                    "none" => Controls::None,
                    _ => return Err(format!("controls: '{value}' is not full, min or none; showing all")),
                }
            }
            "partitions" => {
                self.partitions = within(key, number(key, value, "a partition count")?, MIN_PARTITIONS, MAX_PARTITIONS)?;
                self.sized = true
            }
            "kraft-roles" => {
                self.kraft_roles = KraftRoles::from_name(value).ok_or_else(|| {
                    format!(
                        "kraft-roles: '{value}' is not dedicated or combined; racing dedicated controllers"
                    )
                })?
            }
            "panic" => self.panic = flag(value).unwrap_or(false),
            "origins" => {
                self.origins =
                    Origins::parse(value).map_err(|e| format!("origins: {e}; the host-page API stays off"))?
            }
            "kiosk" => self.kiosk = flag(value).ok_or_else(|| format!("kiosk: '{value}' is not 0 or 1"))?,
            "class" => self.class = flag(value).ok_or_else(|| format!("class: '{value}' is not 0 or 1"))?,
            "ask" => {
                self.ask = Some(crate::teaching::predictions::for_story(value).map(|p| p.story).ok_or_else(|| {
                    let asking: Vec<&str> = crate::teaching::predictions::PREDICTIONS.iter().map(|p| p.story).collect();
                    format!("ask: '{value}' is not a tour step with a question a phone can show ({}); opening the live cluster", asking.join(", "))
                })?)
            }
            "hold" => {
                self.hold_ms = Some(within(key, number(key, value, "a time in ms")?, MIN_HOLD_MS, MAX_HOLD_MS)?);
            }
            _ => return Err(format!("'{key}' is not a parameter kraftscope knows; ignored")),
        }
        Ok(())
    }

    /// The query string that reopens a session exactly: settings, actions and the moment (time
    /// and event count), paused there, with the short code of the state's fingerprint.
    pub fn share_query(session: &Session) -> String {
        let (settings, actions) = (session.settings(), session.actions());
        let mut query = format!(
            "seed={}&voters={}&quorum={}&brokers={}&prevote={}&latency={}-{}&drop={}",
            settings.seed,
            settings.voters,
            settings.quorum.name(),
            settings.brokers,
            u8::from(settings.pre_vote),
            settings.latency_min_ms,
            settings.latency_max_ms,
            settings.drop_percent
        );
        let sabotage: Vec<&str> =
            Sabotage::NAMES.iter().map(|(n, _)| *n).filter(|n| settings.sabotage.is_enabled(n)).collect();
        if settings.snapshot_bytes != PAGE_SNAPSHOT_BYTES {
            query.push_str(&format!("&snapshot={}", settings.snapshot_bytes));
        }
        if !sabotage.is_empty() {
            query.push_str(&format!("&sabotage={}", sabotage.join(",")));
        }
        if settings.combined {
            query.push_str("&roles=combined");
        }
        if !actions.is_empty() {
            let codes: Vec<String> = actions.iter().map(ToString::to_string).collect();
            query.push_str(&format!("&actions={}", codes.join("~")));
        }
        let code = session.fingerprint().code();
        query.push_str(&format!(
            "&at={}.{}.{}&fp={code}&autoplay=0",
            session.now(),
            session.events(),
            session.applied_actions()
        ));
        query
    }

    /// A session of `settings` at time 0 that replays these parameters' actions on its way to
    /// their moment ([`Session::replay_toward`] takes it there).
    pub(crate) fn begin_session(&self, settings: Settings) -> Session {
        Session::replaying(settings, self.actions.clone(), self.at.unwrap_or(0))
    }

    /// What does not match the link in `session`, replayed to its moment: the event count, the
    /// actions carried out, the fingerprint.
    pub(crate) fn check_session(&self, session: &Session) -> Option<String> {
        let at = self.at.unwrap_or(0);
        let mut problems = Vec::new();
        if let Some(events) = self.events.filter(|e| *e != session.events() || session.now() != at) {
            problems.push(format!(
                "at: the link asks for event {events} at {at} us; here it is event {} at {} us",
                session.events(),
                session.now()
            ));
        }
        if let Some(applied) = self.applied.filter(|a| *a != session.applied_actions()) {
            problems.push(format!(
                "at: the link asks for {applied} action(s) carried out by {at} us, but {} were by then",
                session.applied_actions()
            ));
        }
        let code = session.fingerprint().code();
        if let Some(expected) = self.fingerprint.as_ref().filter(|e| **e != code) {
            problems.push(format!(
                "fp: the state here (fingerprint {code}) differs from the shared one ({expected}); the link is damaged or from another version"
            ));
        }
        (!problems.is_empty()).then(|| format!("{}; opened anyway", problems.join("; ")))
    }

    /// The session the link shares, replayed to its moment at once, and what does not match.
    pub fn open_session(&self, settings: Settings) -> (Session, Option<String>) {
        let mut session = self.begin_session(settings);
        session.replay_toward(self.at.unwrap_or(0), self.events, self.applied, usize::MAX);
        let problem = self.check_session(&session);
        (session, problem)
    }
}
