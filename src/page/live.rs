//! The live cluster view's own state, around the page's session: whether it plays and how fast,
//! the node selected, the event log's filter and text, the settings and topic forms, the picture
//! as drawn (with which nodes a fast-forwarding frame redraws), what the host page was last told,
//! and a long shared session being replayed. [`PageState`](super::PageState) holds it as `live`
//! and calls it for the live cluster's frames and after every action.

use std::rc::Rc;

use super::log_filter::LogFilter;
use super::pacing;
use super::redraw::Redraw;
use crate::harness::Micros;
use crate::page::host::{HostEvent, Observation};
use crate::page::params::PageParams;
use crate::quorum::NodeId;
use crate::quorum::outbox::NoteKind;
use crate::quorum::reconfig::ChangeStep;
use crate::session::picture::{ClusterPicture, session_picture};
use crate::session::{Session, Settings, WINDOW};
use crate::sim::TraceKind;

/// While playing, the event log is refreshed every this many frames (its text reflows).
const LOG_REFRESH_FRAMES: u32 = 8;

/// The event log as shown: lines (newest first, each with whether it is a state change), and
/// the trace lines and actions the timeline holds.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogView {
    pub lines: Vec<(String, bool)>,
    pub kept: usize,
    pub actions: usize,
}

/// A shared session (link or file) longer than [`Reopening::AT_ONCE`], replayed from its seed a
/// frame at a time while the page shows the progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Reopening {
    /// The moment it opens at.
    pub until: Micros,
}

impl Reopening {
    /// Moments up to this late open at once (a replay of well under a second).
    pub const AT_ONCE: Micros = WINDOW;
}

/// The live cluster view's state.
pub struct LiveView {
    /// The settings form (applied by Reset).
    pub form: Settings,
    pub playing: bool,
    pub speed_exp: f64,
    /// Whether quiet stretches play faster below 1x (see [`pacing`]).
    pub skip_quiet: bool,
    /// A long shared session being replayed from its seed, frame by frame.
    pub reopening: Option<Reopening>,
    pub selected: Option<NodeId>,
    pub filter: LogFilter,
    /// The topic form: partitions and replication factor.
    pub topic: (u32, u32),
    /// Shared with the event log's view, which is drawn again only when it changes.
    pub log: Rc<LogView>,
    frames_since_log: u32,
    /// The live cluster as the view draws it (kept up to date while the view is shown).
    pub picture: ClusterPicture,
    redraw: Redraw,
    /// Whether the last frame fast-forwarded through a quiet stretch.
    fast_forwarding: bool,
    /// The cluster as last observed: the next observation's differences are posted to the
    /// host page.
    observed: Observation,
    /// The time of the latest answer to a voter change the status line reported.
    answer_seen: Micros,
}

impl LiveView {
    /// The view as the page's parameters open it.
    pub(super) fn new(params: &PageParams) -> LiveView {
        LiveView {
            form: params.settings.clone(),
            playing: params.autoplay,
            speed_exp: params.speed.log10(),
            skip_quiet: params.skip_quiet,
            reopening: None,
            selected: None,
            filter: LogFilter::default(),
            topic: (6, 2),
            log: Rc::default(),
            frames_since_log: 0,
            picture: ClusterPicture::default(),
            redraw: Redraw::default(),
            fast_forwarding: false,
            observed: Observation::default(),
            answer_seen: 0,
        }
    }

    /// Whether the clock is skipping through a quiet stretch (the page labels it): the last
    /// frame did, and the clock still runs (a frame that paused, at a question or a broken
    /// invariant, is the last one drawn).
    pub fn skipping(&self) -> bool {
        self.fast_forwarding && self.playing
    }

    /// A new action: no frame of it fast-forwards yet.
    pub(super) fn begin_action(&mut self) {
        self.fast_forwarding = false;
    }

    /// While playing, whether the event log is due for a refresh (every few frames).
    pub(super) fn log_due(&mut self) -> bool {
        self.frames_since_log += 1;
        self.frames_since_log >= LOG_REFRESH_FRAMES
    }

    /// Play `session` on by a frame `elapsed` real milliseconds long, at the chosen speed, no
    /// further than `hold`. When an invariant breaks in it, pause and return what the status line
    /// says.
    pub(super) fn play(
        &mut self,
        session: &mut Session,
        elapsed: f64,
        hold: Option<Micros>,
    ) -> Option<String> {
        let clean = session.violation().is_none();
        self.fast_forwarding = pacing::advance(session, elapsed, self.speed_exp, self.skip_quiet, hold);
        let broken = session.violation().filter(|_| clean).map(|seen| {
            self.playing = false;
            format!(
                "Paused: an invariant broke ({}); the nodes involved are marked in red",
                seen.violation.invariant
            )
        });
        // A frame that pauses (a broken invariant) draws every node afresh: no frame follows to
        // catch up.
        self.fast_forwarding &= self.playing;
        broken
    }

    /// What changed in `session` since it was last observed, for the host page.
    pub(super) fn observe(&mut self, session: &Session) -> Vec<HostEvent> {
        let now = Observation::of(session.sim(), session.violation());
        let events = now.events_since(&self.observed);
        self.observed = now;
        events
    }

    /// The active controller's answers to AddRaftVoter and RemoveRaftVoter since the last call
    /// (they come later than the requests, and may be errors): each refusal as an `error` event
    /// naming Kafka's error, and the latest answer for the status line.
    pub(super) fn voter_change_answers(&mut self, session: &Session) -> (Vec<HostEvent>, Option<String>) {
        self.answer_seen = self.answer_seen.min(session.now());
        let answers: Vec<(String, bool)> = session
            .log()
            .iter()
            .rev()
            .take_while(|l| l.at > self.answer_seen)
            .filter_map(|l| match &l.kind {
                TraceKind::Note(note) => match note.what {
                    NoteKind::VoterChange { step: ChangeStep::Committed, .. } => {
                        Some((note.to_string(), false))
                    }
                    NoteKind::VoterChange { step: ChangeStep::Failed(_), .. } => {
                        Some((note.to_string(), true))
                    }
                    _ => None,
                },
                _ => None,
            })
            .collect();
        self.answer_seen = session.now();
        // Oldest first, as they happened.
        let refusals = answers.iter().rev().filter(|(_, refused)| *refused);
        let events = refusals.map(|(text, _)| HostEvent::Error { error: text.clone() }).collect();
        (events, answers.into_iter().next().map(|(text, _)| text))
    }

    /// Draw `session` afresh (the nodes due this frame when fast-forwarding); lost messages
    /// fall unless motion is reduced.
    pub(super) fn draw(&mut self, session: &Session, reduced_motion: bool) {
        let fresh = session_picture(session, reduced_motion);
        let mut nodes = std::mem::take(&mut self.picture.nodes);
        self.redraw.update(&mut nodes, fresh.nodes, self.fast_forwarding);
        self.picture = ClusterPicture { nodes, ..fresh };
    }

    /// The event log's text afresh, through the filter.
    pub(super) fn refresh_log(&mut self, session: &Session) {
        self.frames_since_log = 0;
        self.log = Rc::new(LogView {
            lines: self.filter.shown(session.log().iter()),
            kept: session.log().len(),
            actions: session.actions().len(),
        });
    }
}
