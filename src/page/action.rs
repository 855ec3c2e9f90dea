//! What can happen to the page (the reducer's actions) and what the page asks the browser to do
//! in return (effects).

use std::fmt;

use crate::harness::{MS, Micros};
#[cfg(feature = "full")]
use crate::page::host::command::MIGRATION_COMMANDS;
use crate::page::host::command::RACE_COMMANDS;
use crate::page::host::{Command, HostEvent};
#[cfg(feature = "full")]
use crate::page::session_file::SessionFile;
use crate::page::views::Tab;
use crate::quorum::NodeId;
use crate::session::{self, ActError, SeekError, Settings, WINDOW};
#[cfg(feature = "full")]
use crate::zk::Pain;

use super::log_filter::LogFilter;
#[cfg(feature = "full")]
use super::metadata_log::MetadataLogAction;
#[cfg(feature = "full")]
use super::pains::PainsAction;
#[cfg(feature = "full")]
use super::race::RaceAction;
#[cfg(feature = "full")]
use crate::log_reader::LogQuery;

/// Everything the viewer (or the animation frame loop) can do to the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Action {
    /// An animation frame, `elapsed` real ms after the previous one.
    Frame {
        elapsed: f64,
    },
    TogglePlay,
    /// Answer the tour step's question with this option (0-based), or (`None`) just watch.
    Predict(Option<usize>),
    /// Answer self-check question `question` (its place in `CHECKS`) with `option`.
    Check {
        question: usize,
        option: usize,
    },
    /// Forget every self-check answer.
    ResetChecks,
    /// A phone's reader asks for the answer to the question it shows.
    Reveal,
    /// The self-check answers the browser kept (`CheckAnswers::parse` reads them).
    RestoreChecks(String),
    /// Process one event and pause.
    Step,
    /// The speed slider: the speed is 10^exp.
    SpeedExp(f64),
    /// Whether quiet stretches play faster below 1x.
    SkipQuiet(bool),
    /// Travel to a moment of the timeline.
    Seek(Micros),
    /// Ask for a link to this moment.
    Share,
    /// Act on the cluster (recorded in the timeline).
    Act(session::Action),
    /// Change the settings form (applied by Reset).
    Edit(Settings),
    /// Change the topic form.
    Topic {
        partitions: u32,
        replication: u32,
    },
    /// Start over from the settings form (or the tour step).
    Reset,
    /// Click on a node: select it, or deselect it.
    Select(NodeId),
    Filter(LogFilter),
    Tab(Tab),
    /// A key pressed as a shortcut (not typed into a field).
    Key(String),
    /// Go to a tour step (0-based), or leave the tour.
    Tour(Option<usize>),
    /// Play the current tour step again from its opening.
    ReplayStep,
    Help(bool),
    /// The "Save picture" form.
    Still(super::StillAction),
    DismissNotices,
    /// A host page's command (`postMessage` or the JS export), validated.
    Host(Command),
    /// Kiosk mode asks for this tour step, or (`None`) a key or click ended it.
    Kiosk(Option<usize>),
    /// Race the failover of a cluster the size of an opened metadata log.
    #[cfg(feature = "full")]
    RaceFromLog(u64),
    /// The race shown by a tour step reached the step's key moment, this long after the kill.
    #[cfg(feature = "full")]
    ViewKeySeen(Micros),
    /// Show one of ZooKeeper mode's other pains (from its start).
    #[cfg(feature = "full")]
    Pain(Pain),
    /// Play, pause, step or replay the pain shown.
    #[cfg(feature = "full")]
    Pains(PainsAction),
    /// Show a migration scenario from its start, by its id.
    #[cfg(feature = "full")]
    Migration(&'static str),
    /// Play, pause, step, seek, or take an operator's step or a fault in the migration shown.
    #[cfg(feature = "full")]
    Migrating(super::migration::MigrationAction),
    /// Save the live cluster's metadata log as Kafka's files.
    #[cfg(feature = "full")]
    DownloadLog,
    /// Save the session as a file with this name and these notes.
    #[cfg(feature = "full")]
    SaveFile {
        name: String,
        notes: String,
    },
    /// Open a session file (or say what was wrong with it).
    #[cfg(feature = "full")]
    OpenFile(Result<SessionFile, String>),
    /// Save or open a session file: the first screen's build hands the session to the full
    /// page, which carries the session-file panel (its reading of files is about 8 KiB of the
    /// first screen gzipped).
    #[cfg(not(feature = "full"))]
    SessionFiles,
    /// One of the failover race's controls.
    #[cfg(feature = "full")]
    Race(RaceAction),
    /// Something done to the opened metadata log.
    #[cfg(feature = "full")]
    MetadataLog(MetadataLogAction),
    /// What the browser did with an effect (the files a download saved, or why it failed), for
    /// the status line.
    Report(String),
}

/// Why the page refused a host page's command (answered with an `error` event).
#[derive(Clone, Debug, PartialEq)]
pub enum CommandError {
    /// The live session refused the action.
    Act(ActError),
    /// A ZooKeeper pain is shown: it takes only load-scenario and tour-step.
    PainShown,
    /// The failover race is shown: it takes only [`RACE_COMMANDS`] (and the openers).
    RaceShown,
    /// A migration is shown: it takes only [`MIGRATION_COMMANDS`] (and the openers).
    #[cfg(feature = "full")]
    MigrationShown,
    /// The migration asked for is still being recorded.
    #[cfg(feature = "full")]
    MigrationRecording,
    /// The migration's step was refused, with Kafka's words (or what it waits for).
    #[cfg(feature = "full")]
    MigrationRefused(String),
    /// A seek past where the migration shown ends (it plays on past it only once forked).
    #[cfg(feature = "full")]
    MigrationEnds { asked: Micros, end: Micros },
    /// A seek more than [`WINDOW`] past the furthest moment the timeline reached.
    SeekTooFar { asked: Micros, horizon: Micros },
    /// The session refused the seek.
    Seek(SeekError),
}

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CommandError::Act(error) => fmt::Display::fmt(error, f),
            CommandError::PainShown => write!(
                f,
                "a ZooKeeper pain is shown: it takes load-scenario and tour-step; load a cluster scenario or tour step first"
            ),
            #[cfg(feature = "full")]
            CommandError::MigrationShown => write!(
                f,
                "a migration is shown: it takes {MIGRATION_COMMANDS}; load a cluster scenario or tour step first"
            ),
            #[cfg(feature = "full")]
            CommandError::MigrationRecording => {
                write!(
                    f,
                    "the migration asked for is still being recorded (a large cluster takes some seconds); try again"
                )
            }
            #[cfg(feature = "full")]
            CommandError::MigrationRefused(why) => write!(f, "migration-step: {why}"),
            #[cfg(feature = "full")]
            CommandError::MigrationEnds { asked, end } => write!(
                f,
                "seek: {} is past the end of the migration shown ({})",
                crate::util::format::seconds(*asked),
                crate::util::format::seconds(*end)
            ),
            CommandError::RaceShown => write!(
                f,
                "the failover race is shown: it takes {RACE_COMMANDS}; load a cluster scenario or tour step first"
            ),
            CommandError::SeekTooFar { asked, horizon } => write!(
                f,
                "seek: {} is more than {} minutes past the furthest moment reached ({}); play toward it first",
                crate::util::format::seconds(*asked),
                WINDOW / (60_000 * MS),
                crate::util::format::seconds(*horizon)
            ),
            CommandError::Seek(error) => write!(f, "seek: {error}"),
        }
    }
}

impl std::error::Error for CommandError {}

impl From<ActError> for CommandError {
    fn from(error: ActError) -> Self {
        CommandError::Act(error)
    }
}

impl From<SeekError> for CommandError {
    fn from(error: SeekError) -> Self {
        CommandError::Seek(error)
    }
}

/// What the page asks the browser to do after an action.
#[derive(Clone, Debug, PartialEq)]
pub enum Effect {
    /// Replace the address bar's query (no navigation).
    SetQuery(String),
    /// Put this text on the clipboard.
    Copy(String),
    Fullscreen,
    /// Scroll the page to its top: a tour step opens with its title, question, drawing and
    /// buttons in view, whatever the step before left scrolled.
    ScrollToTop,
    /// Keep the self-check answers in the browser (empty: forget them).
    StoreChecks(String),
    /// Tell the host page (and only it) about a change.
    Post(HostEvent),
    /// Kiosk mode: show the current step for `ms`, then ask for step `next`.
    KioskHold {
        next: usize,
        ms: u64,
    },
    /// Kiosk mode ended.
    KioskStop,
    /// Offer the live cluster's metadata log as Kafka's files to download.
    #[cfg(feature = "full")]
    DownloadLog,
    /// Ask the log reader (the page's Web Worker) to open or scrub the metadata log; its answer
    /// comes back as [`MetadataLogAction::Answered`].
    #[cfg(feature = "full")]
    ReadLog(LogQuery),
    /// Offer this session file as a download.
    #[cfg(feature = "full")]
    Download(SessionFile),
    /// Save a picture of the view shown (the exporter, `www/still.js`, loads now); its
    /// outcome comes back as [`Action::Report`].
    SaveStill(super::Still),
    /// Open the full page at this query string: the first screen's build does not carry the
    /// view asked for (see [`crate::page`]).
    #[cfg(not(feature = "full"))]
    OpenFullPage(String),
    /// Fetch the failover race's measured curve (answered with [`RaceAction::Measured`]).
    #[cfg(feature = "full")]
    FetchMeasured,
}

/// The result of an action: whether it was used (a key that is no shortcut is not) and the
/// effects to carry out.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Outcome {
    pub handled: bool,
    pub effects: Vec<Effect>,
}
