//! Session files: a whole session (settings, seed, recorded actions, the moment shown, the tour
//! step, a name and notes) saved as versioned JSON, for demos too long for a shared link.
//! Importing checks every field and names the first one that is wrong; a valid file reopens the
//! very same state, which its fingerprint code confirms.

use serde::{Deserialize, Serialize};

use super::params::PageParams;
use crate::session::{LINK_LIMIT, MAX_ACTIONS, RecordedAction, Session, Settings};
use crate::teaching::stories::TOUR;

/// What the `format` field of every session file says.
pub const FORMAT: &str = "kraftscope-session";
/// The version this page writes and reads.
pub const VERSION: u32 = 1;
/// The longest name and notes a file may carry, in characters.
const MAX_NAME: usize = 200;
const MAX_NOTES: usize = 20_000;
/// The largest snapshot interval a file may ask for (as `?snapshot=`).
const MAX_SNAPSHOT_BYTES: u64 = 1 << 30;

/// The first fields of any version, read before the rest so that a file of another version is
/// named as such rather than as a missing field.
#[derive(Clone, Debug, PartialEq, Deserialize)]
pub struct Header {
    pub format: String,
    pub version: u32,
}

impl Header {
    /// Whether this is a session file this page reads.
    pub fn check(&self) -> Result<(), String> {
        if self.format != FORMAT {
            return Err(format!("format: '{}' is not a kraftscope session file ('{FORMAT}')", self.format));
        }
        if self.version != VERSION {
            return Err(format!("version: {} is not a version this page reads ({VERSION})", self.version));
        }
        Ok(())
    }
}

/// A session file, version 1.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SessionFile {
    pub format: String,
    pub version: u32,
    #[serde(default)]
    pub name: String,
    #[serde(default)]
    pub notes: String,
    pub settings: Settings,
    #[serde(default)]
    pub actions: Vec<FileAction>,
    /// The moment shown: simulated microseconds, events processed and actions carried out by
    /// then (without it, every action due by then).
    pub at_us: u64,
    pub events: u64,
    #[serde(default)]
    pub applied_actions: Option<usize>,
    /// The short code of the state's fingerprint at that moment (8 hex digits).
    #[serde(default)]
    pub fingerprint: Option<String>,
    /// The guided tour step shown, 1-based.
    #[serde(default)]
    pub tour_step: Option<usize>,
}

/// A recorded action: when, after how many events, and its code (as in shared links: `k` kill
/// the leader, `c2` crash n2, `r2` restart, `i3` isolate, `h` heal, `g` resign, `t6-2` create a
/// topic, `s102` controlled shutdown, `x1-2` cut a link, `n10-30-0` network).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FileAction {
    pub at_us: u64,
    pub events: u64,
    pub action: String,
}

impl SessionFile {
    /// The file of `session` at its current moment.
    pub fn of(session: &Session, tour: Option<usize>, name: &str, notes: &str) -> SessionFile {
        SessionFile {
            format: FORMAT.into(),
            version: VERSION,
            name: name.into(),
            notes: notes.into(),
            settings: session.settings().clone(),
            actions: session
                .actions()
                .iter()
                .map(|a| FileAction { at_us: a.at, events: a.events, action: a.action.to_string() })
                .collect(),
            at_us: session.now(),
            events: session.events(),
            applied_actions: Some(session.applied_actions()),
            fingerprint: Some(session.fingerprint().code()),
            tour_step: tour.map(|step| step + 1),
        }
    }

    /// Check every field and, only if all are valid, put the session in `params` (settings,
    /// actions, moment, fingerprint; no scenario) and return the tour step (0-based).
    pub fn apply_to(&self, params: &mut PageParams) -> Result<Option<usize>, String> {
        Header { format: self.format.clone(), version: self.version }.check()?;
        if self.name.chars().count() > MAX_NAME {
            return Err(format!("name: longer than {MAX_NAME} characters"));
        }
        if self.notes.chars().count() > MAX_NOTES {
            return Err(format!("notes: longer than {MAX_NOTES} characters"));
        }
        self.settings.validate().map_err(|e| format!("settings: {e}"))?;
        if self.settings.snapshot_bytes > MAX_SNAPSHOT_BYTES {
            return Err(format!("settings: snapshot_bytes must be at most {MAX_SNAPSHOT_BYTES}"));
        }
        if self.actions.len() > MAX_ACTIONS {
            return Err(format!(
                "actions: {} of them, more than the {MAX_ACTIONS} a timeline keeps",
                self.actions.len()
            ));
        }
        let actions = self
            .actions
            .iter()
            .enumerate()
            .map(|(i, a)| {
                if a.at_us > LINK_LIMIT {
                    return Err(format!("actions[{i}]: at_us {} is past the latest moment a session can be opened at (a simulated day)", a.at_us));
                }
                let action = a.action.parse().map_err(|e| format!("actions[{i}]: {e}"))?;
                Ok(RecordedAction { at: a.at_us, events: a.events, action })
            })
            .collect::<Result<Vec<RecordedAction>, String>>()?;
        if let Some(i) = actions.windows(2).position(|w| (w[0].events, w[0].at) > (w[1].events, w[1].at)) {
            return Err(format!("actions[{}]: earlier than the action before it", i + 1));
        }
        if let Some(applied) = self.applied_actions.filter(|a| *a > self.actions.len()) {
            return Err(format!(
                "applied_actions: {applied} is more than the {} actions",
                self.actions.len()
            ));
        }
        if self.at_us > LINK_LIMIT {
            return Err(format!(
                "at_us: {} is past the latest moment a session can be opened at ({LINK_LIMIT}, a simulated day)",
                self.at_us
            ));
        }
        let fingerprint = match &self.fingerprint {
            Some(code) if code.len() != 8 || !code.bytes().all(|b| b.is_ascii_hexdigit()) => {
                return Err(format!("fingerprint: '{code}' is not a fingerprint code (8 hex digits)"));
            }
            code => code.as_ref().map(|c| c.to_ascii_lowercase()),
        };
        let tour = match self.tour_step {
            Some(step) if !(1..=TOUR.len()).contains(&step) => {
                return Err(format!("tour_step: {step} is outside 1 to {}", TOUR.len()));
            }
            step => step.map(|s| s - 1),
        };
        params.settings = self.settings.clone();
        params.actions = actions;
        (params.at, params.events, params.applied, params.fingerprint) =
            (Some(self.at_us), Some(self.events), self.applied_actions, fingerprint);
        (params.scenario, params.tour) = (None, None);
        Ok(tour)
    }

    /// A file name from the session's name: its ASCII letters (lower-case) and digits, dashes between.
    #[cfg(feature = "full")]
    pub(crate) fn file_name(&self) -> String {
        let lower = self.name.to_ascii_lowercase();
        let words: Vec<&str> =
            lower.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
        if words.is_empty() { "kraftscope-session.json".into() } else { format!("{}.json", words.join("-")) }
    }

    /// The session this file describes, and what did not match (see [`PageParams::open_session`]).
    pub fn open(&self) -> Result<(Session, Option<String>), String> {
        let mut params = PageParams::default();
        self.apply_to(&mut params)?;
        Ok(params.open_session(params.settings.clone()))
    }
}

#[cfg(test)]
mod tests {
    use super::{Header, SessionFile};
    use crate::harness::MS;
    use crate::page::params::PageParams;
    use crate::session::{Action, Session, Settings};

    /// A session with a few actions, paused between two events after a kill.
    fn demo() -> Session {
        let mut session = Session::new(Settings { seed: 1 << 60, brokers: 2, ..Settings::default() });
        session.advance_to(3_000 * MS, usize::MAX);
        session.act(Action::KillLeader).expect("kill");
        session.advance_to(6_000 * MS, usize::MAX);
        session.act(Action::Isolate(101)).expect("isolate");
        session.advance_to(7_000 * MS, usize::MAX);
        for _ in 0..3 {
            session.step();
        }
        session
    }

    fn round_trip(file: &SessionFile) -> SessionFile {
        let json = serde_json::to_string_pretty(file).expect("serialises");
        let header: Header = serde_json::from_str(&json).expect("header");
        header.check().expect("this version");
        serde_json::from_str(&json).expect("reads back")
    }

    #[test]
    fn an_exported_session_reopens_at_the_same_fingerprint() {
        let session = demo();
        let file = SessionFile::of(&session, Some(3), "Leader crash", "Say: the epoch goes up.");
        let read = round_trip(&file);
        assert_eq!(read, file);
        let (reopened, problem) = read.open().expect("valid");
        assert_eq!(problem, None);
        assert_eq!(reopened.fingerprint(), session.fingerprint());
        assert_eq!(reopened.actions(), session.actions());
        let mut params = PageParams::default();
        assert_eq!(read.apply_to(&mut params), Ok(Some(3)));
        assert_eq!(params.settings.seed, 1 << 60);
        assert_eq!(file.file_name(), "leader-crash.json");
        assert_eq!(SessionFile { name: " ?! ".into(), ..file }.file_name(), "kraftscope-session.json");
    }

    #[test]
    fn settings_are_written_with_the_seed_as_text_and_sabotage_by_name() {
        let mut settings = Settings { seed: u64::MAX, ..Settings::default() };
        settings.sabotage.enable("hw-on-minority").expect("known");
        let json = serde_json::to_value(&settings).expect("serialises");
        assert_eq!(json["seed"], serde_json::json!("18446744073709551615"));
        assert_eq!(json["sabotage"], serde_json::json!(["hw-on-minority"]));
        assert_eq!(serde_json::from_value::<Settings>(json).expect("reads back"), settings);
    }

    #[test]
    fn a_tampered_file_opens_with_a_notice_that_the_state_differs() {
        let mut file = SessionFile::of(&demo(), None, "", "");
        file.actions.pop();
        file.applied_actions = Some(file.actions.len());
        let (_, problem) = file.open().expect("still valid");
        assert!(problem.expect("differs").contains("fp: the state here"));
    }

    /// A change that makes a file invalid.
    type Spoil = fn(&mut SessionFile);

    #[test]
    fn each_invalid_field_is_named() {
        let good = SessionFile::of(&demo(), None, "", "");
        let cases: Vec<(Spoil, &str)> = vec![
            (|f| f.format = "zip".into(), "format: 'zip' is not a kraftscope session file"),
            (|f| f.version = 2, "version: 2 is not a version this page reads (1)"),
            (|f| f.settings.voters = 9, "settings: controllers must be 1 to 7"),
            (|f| f.settings.latency_min_ms = 99, "settings: latency must be a range"),
            (|f| f.actions[1].action = "q9".into(), "actions[1]: 'q9' is not an action"),
            (|f| f.actions[1].events = 0, "actions[1]: earlier than the action before it"),
            (
                |f| f.actions[0].at_us = u64::MAX,
                "actions[0]: at_us 18446744073709551615 is past the latest moment",
            ),
            (|f| f.at_us = 86_400_000_001, "at_us: 86400000001 is past the latest moment"),
            (|f| f.applied_actions = Some(5), "applied_actions: 5 is more than the 2 actions"),
            (|f| f.fingerprint = Some("xyz".into()), "fingerprint: 'xyz' is not a fingerprint code"),
            (|f| f.tour_step = Some(27), "tour_step: 27 is outside 1 to 26"),
            (|f| f.name = "n".repeat(201), "name: longer than 200 characters"),
        ];
        for (spoil, named) in cases {
            let mut file = good.clone();
            spoil(&mut file);
            let mut params = PageParams::default();
            let error = file.apply_to(&mut params).expect_err(named);
            assert!(error.contains(named), "{named}: {error}");
            assert_eq!(params, PageParams::default(), "a refused file changes nothing");
        }
    }

    #[test]
    fn malformed_json_names_the_field() {
        let json = serde_json::to_value(SessionFile::of(&demo(), None, "", "")).expect("value");
        let mut missing = json.clone();
        missing["settings"].as_object_mut().expect("object").remove("voters");
        let error = serde_json::from_value::<SessionFile>(missing).expect_err("missing").to_string();
        assert!(error.contains("missing field `voters`"), "{error}");
        let mut typo = json.clone();
        typo["acts"] = serde_json::json!([]);
        let error = serde_json::from_value::<SessionFile>(typo).expect_err("unknown").to_string();
        assert!(error.contains("unknown field `acts`"), "{error}");
        let mut seed = json.clone();
        seed["settings"]["seed"] = serde_json::json!("-1");
        let error = serde_json::from_value::<SessionFile>(seed).expect_err("seed").to_string();
        assert!(error.contains("seed: '-1' is not a whole number"), "{error}");
        let mut sabotage = json.clone();
        sabotage["settings"]["sabotage"] = serde_json::json!(["gremlins"]);
        let error = serde_json::from_value::<SessionFile>(sabotage).expect_err("sabotage").to_string();
        assert!(error.contains("sabotage: unknown sabotage 'gremlins'"), "{error}");
        let mut quorum = json.clone();
        quorum["settings"]["quorum"] = serde_json::json!("paxos");
        let error = serde_json::from_value::<SessionFile>(quorum).expect_err("quorum").to_string();
        assert!(
            error.contains("quorum: 'paxos' is not static, standalone or initial-controllers"),
            "{error}"
        );
        let mut older = json.clone();
        older["settings"].as_object_mut().expect("object").remove("quorum");
        let file = serde_json::from_value::<SessionFile>(older).expect("a file without the quorum field");
        assert_eq!(file.settings.quorum, crate::sim::simulation::QuorumFormat::InitialControllers);
        let error = serde_json::from_str::<Header>("{\"version\": 1}").expect_err("no format").to_string();
        assert!(error.contains("missing field `format`"), "{error}");
    }
}
