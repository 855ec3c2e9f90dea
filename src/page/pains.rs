//! The pains view without the DOM: which of ZooKeeper mode's pains plays, its small cluster,
//! where the play stands (at the pain's own pace, see [`pains::pace`]) and the latest events.
//! It changes only through [`PainsState::reduce`] and [`PainsState::frame`], called by the page
//! reducer, and [`PainsState::view`] is all the component draws.

use std::sync::OnceLock;

use crate::drawing::cluster::StillStyle;
use crate::drawing::svg::El;
use crate::harness::Micros;
use crate::harness::playback::{Pace, speed_label};
use crate::scenario::{Detail, ScenarioRun, catalog, script};
use crate::teaching::pain_predictions;
use crate::util::format;
use crate::zk::acl::{ASKED_OPERATION, ROGUE, ROGUE_TOPIC};
use crate::zk::pains::{self, BROKERS, Pain};
use crate::zk::{BrokerLiveness, CopyRow, PartitionState, TraceLine, ZkCluster, ZkPicture, copies};

use crate::drawing::pains::{AuthorizerRow, PainsSheet, pains_still};

use super::question::{Question, QuestionView};

/// Latest events shown (session pings left out).
pub const EVENTS_SHOWN: usize = 6;
/// Real milliseconds of playback one Step covers.
pub const STEP_MS: f64 = 500.0;

/// What the viewer can do to the pain shown.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PainsAction {
    /// Pause, or play on (unless it has played to its end).
    TogglePlay,
    /// Pause and play [`STEP_MS`] of it.
    Step,
    /// Play it again from its start (a tour step's question asked again).
    Replay,
    /// Answer the tour step's question with this option (0-based), or (`None`) just watch;
    /// either plays on.
    Predict(Option<usize>),
}

impl PainsAction {
    /// The shortcut for `key` while the pains view is shown: Space, S and R.
    pub(crate) fn for_key(key: &str) -> Option<PainsAction> {
        match key {
            " " => Some(PainsAction::TogglePlay),
            "s" | "S" => Some(PainsAction::Step),
            "r" | "R" => Some(PainsAction::Replay),
            _ => None,
        }
    }
}

/// One pain as it plays.
pub struct PainsState {
    pain: Pain,
    zk: ZkCluster,
    /// When the moment it is about happens, and when the play ends.
    key_at: Micros,
    ends_at: Micros,
    playing: bool,
    /// The latest events, oldest first.
    events: Vec<TraceLine>,
    /// Whether reaching the moment was reported (once a play).
    key_told: bool,
    /// KRaft's side, where the model plays it (the second door): its requests and answers.
    kraft_trace: &'static [String],
    /// A tour step's question: the play holds at it until it is answered or skipped.
    question: Option<Question>,
}

/// What the pains view draws, computed from the state.
#[derive(Clone, Debug, PartialEq)]
pub struct PainsView {
    pub pain: Pain,
    /// Simulated time.
    pub now: Micros,
    pub playing: bool,
    /// It has played to its end.
    pub finished: bool,
    /// The pace's label while playing ("time-lapse 4x", "slow motion ...").
    pub pace: Option<String>,
    /// The moment it is about has happened.
    pub seen: bool,
    pub picture: ZkPicture,
    /// The latest events, oldest first, each with its time.
    pub events: Vec<String>,
    pub copies: Vec<CopyRow>,
    pub liveness: Vec<BrokerLiveness>,
    /// The second door: what each broker's authorizer answers now (empty for the other pains).
    pub authorizer: Vec<AuthorizerRow>,
    /// The second door: KRaft's requests and answers, as `tests/scenarios/kraft_authorizer.txt`
    /// plays them (empty for the other pains).
    pub kraft_trace: &'static [String],
}

/// KRaft's requests and answers in the same situation: the action lines of the KRaft scenario
/// the model plays (`kraft_authorizer`), without their times, and the records the active
/// controller appended. Played once a page load: the same for every play.
fn kraft_trace(pain: Pain) -> &'static [String] {
    static TRACE: OnceLock<Vec<String>> = OnceLock::new();
    if pain != Pain::Security {
        return &[];
    }
    TRACE.get_or_init(kraft_authorizer_trace)
}

fn kraft_authorizer_trace() -> Vec<String> {
    let script = catalog::find("kraft_authorizer").expect("a catalog scenario");
    let Ok(blocks) = script::parse(script) else { return Vec::new() };
    let mut run = ScenarioRun::new(1, Detail::Notable);
    let mut lines = Vec::new();
    for block in &blocks {
        for line in run.execute(block).unwrap_or_default() {
            let text = line.trim_start().split_once(' ').map_or(line.as_str(), |(_, rest)| rest);
            let record = ["AccessControlEntryRecord", "RemoveTopicRecord"].iter().find(|r| text.contains(*r));
            if let Some(action) = text.strip_prefix("** ") {
                lines.push(action.to_string());
            } else if let Some(record) = record.filter(|r| !lines.iter().any(|l: &String| l.contains(*r))) {
                lines.push(format!("the active controller appends {record}; every broker fetches it"));
            }
        }
    }
    lines
}

impl PainsState {
    /// `pain` from its start, playing.
    pub(crate) fn new(pain: Pain) -> PainsState {
        let (key_at, ends_at) = pain.moments();
        PainsState {
            pain,
            zk: pain.cluster(),
            key_at,
            ends_at,
            playing: true,
            events: Vec::new(),
            key_told: false,
            kraft_trace: kraft_trace(pain),
            question: None,
        }
    }

    /// `pain` from its start as its tour step shows it: playing toward the step's question (its
    /// answer read from the pain's own trace, [`pain_predictions`]); `skipped` (kiosk mode),
    /// playing on past it.
    pub(crate) fn start_step(&mut self, pain: Pain, skipped: bool) {
        self.start(pain);
        self.question = pain_predictions::for_pain(pain)
            .and_then(|p| Some(Question::worded(p.story, p.question, p.played()?, p.why, skipped)));
    }

    /// Show `pain` from its start, playing.
    pub(crate) fn start(&mut self, pain: Pain) {
        *self = PainsState::new(pain);
    }

    /// Show `pain` paused `at` into it (its end at the latest), as a link to a moment opens it.
    pub(crate) fn paused_at(&mut self, pain: Pain, at: Micros) {
        *self = PainsState::new(pain);
        self.playing = false;
        self.run_to(at.min(self.ends_at));
        self.key_told = self.zk.now() >= self.key_at;
    }

    /// Run the cluster to `until`, keeping the latest events.
    fn run_to(&mut self, until: Micros) {
        self.events.extend(self.zk.run_until(until).into_iter().filter(|l| !l.kind.is_ping()));
        let excess = self.events.len().saturating_sub(EVENTS_SHOWN);
        self.events.drain(..excess);
    }

    /// The pain shown.
    pub fn pain(&self) -> Pain {
        self.pain
    }

    /// Whether it plays (animation frames are wanted).
    pub fn playing(&self) -> bool {
        self.playing
    }

    /// Whether it has played to its end.
    fn finished(&self) -> bool {
        self.zk.now() >= self.ends_at
    }

    /// The pace it plays at now.
    fn pace(&self) -> Pace {
        pains::pace(self.key_at, self.zk.now())
    }

    /// One action; returns the moment's time when this action reached it (to report to the tour).
    pub(crate) fn reduce(&mut self, action: PainsAction) -> Option<Micros> {
        match action {
            // Playing on from an open question is choosing to just watch.
            PainsAction::TogglePlay if self.asking() => {
                self.predict(None);
                None
            }
            PainsAction::Predict(answer) => {
                self.predict(answer);
                None
            }
            PainsAction::TogglePlay => {
                self.playing = !self.playing && !self.finished();
                None
            }
            PainsAction::Step => {
                self.playing = false;
                self.play(STEP_MS)
            }
            PainsAction::Replay => {
                match self.question {
                    Some(_) => self.start_step(self.pain, false),
                    None => self.start(self.pain),
                }
                None
            }
        }
    }

    /// An animation frame `real_ms` after the previous one: plays on while playing. Returns the
    /// moment's time when this frame reached it.
    pub(crate) fn frame(&mut self, real_ms: f64) -> Option<Micros> {
        if self.playing { self.play(real_ms) } else { None }
    }

    /// Play `real_ms` at the pain's pace, never past its end, holding at an open question.
    fn play(&mut self, real_ms: f64) -> Option<Micros> {
        let now = self.zk.now();
        let hold = self.question.as_ref().and_then(Question::hold_at).filter(|at| *at >= now);
        let to = (now + self.pace().step(now, real_ms)).min(self.ends_at);
        self.run_to(hold.map_or(to, |at| to.min(at)));
        if self.finished() || self.asking() {
            self.playing = false;
        }
        let reached = !self.key_told && self.zk.now() >= self.key_at;
        self.key_told |= reached;
        reached.then_some(self.key_at)
    }

    /// Answer the open question with option `answer`, or (`None`) just watch; either plays on.
    fn predict(&mut self, answer: Option<usize>) {
        let now = self.zk.now();
        if let Some(question) = self.question.as_mut() {
            self.playing |= question.respond(answer, now);
        }
    }

    /// Whether a tour step's question is open: the play holds there.
    pub fn asking(&self) -> bool {
        self.question.as_ref().is_some_and(|q| q.is_asking(self.zk.now()))
    }

    /// The tour step's question as the tour panel shows it now.
    pub fn question(&self) -> Option<QuestionView> {
        self.question.as_ref().map(|q| q.view(self.zk.now()))
    }

    /// What the view draws now.
    pub fn view(&self) -> PainsView {
        let copies = copies(&self.zk);
        PainsView {
            pain: self.pain,
            now: self.zk.now(),
            playing: self.playing,
            finished: self.finished(),
            pace: self.playing.then(|| speed_label(self.pace().speed)),
            seen: self.zk.now() >= self.key_at,
            picture: pains::picture(&self.zk, &copies),
            events: self.events.iter().map(|l| format!("{} {}", format::seconds(l.at), l.kind)).collect(),
            copies,
            liveness: (0..BROKERS).filter_map(|b| self.zk.liveness(b).ok()).collect(),
            authorizer: self.authorizer_rows(),
            kraft_trace: self.kraft_trace,
        }
    }

    /// Each broker's authorizer asked the pain's question, for the second door.
    fn authorizer_rows(&self) -> Vec<AuthorizerRow> {
        if self.pain != Pain::Security {
            return Vec::new();
        }
        (0..BROKERS)
            .filter_map(|broker| {
                let decision = self.zk.decide(broker, ROGUE, ASKED_OPERATION, ROGUE_TOPIC)?;
                let cache = self.zk.acl_cache(broker)?;
                let acl = cache.acls.iter().find(|(t, _)| *t == ROGUE_TOPIC);
                let acl = acl.map_or("none".to_string(), |(_, a)| a.summary());
                Some(AuthorizerRow { broker, acl, decision })
            })
            .collect()
    }
}

impl PainsView {
    /// The copies of the truth as rows: the holder and each partition's cell text, marked where
    /// it disagrees with ZooKeeper.
    pub fn copy_cells(&self) -> Vec<(&str, Vec<(String, bool)>)> {
        let zookeeper = self.copies.first().map_or(&[][..], |r| &r.states[..]);
        self.copies
            .iter()
            .map(|row| {
                let cells = row.states.iter().zip(&row.stale).zip(zookeeper);
                let cells =
                    cells.map(|((state, stale), zookeeper)| (cell_text(state, zookeeper, *stale), *stale));
                (row.holder.as_str(), cells.collect())
            })
            .collect()
    }

    /// Each broker's liveness row: its name (marked "split" where the controller counts it live
    /// but cannot reach it) and the four answers.
    pub fn liveness_cells(&self) -> Vec<(String, bool, [&'static str; 4])> {
        let yes = |b: bool| if b { "yes" } else { "no" };
        self.liveness
            .iter()
            .map(|l| {
                let split = l.in_controller_live_set && !l.reachable_from_controller;
                let reachable = if l.process_alive { yes(l.reachable_from_controller) } else { "–" };
                let name = format!("b{}{}", l.broker, if split { " (split)" } else { "" });
                let answers = [
                    yes(l.process_alive),
                    yes(l.registered_in_zookeeper),
                    yes(l.in_controller_live_set),
                    reachable,
                ];
                (name, split, answers)
            })
            .collect()
    }

    /// A still of the view (`Save picture`, `kraftscope render --view pains`), in `style`.
    pub fn still(&self, style: &StillStyle) -> El {
        let sheet = PainsSheet {
            pain: self.pain,
            now: self.now,
            seen: self.seen,
            picture: &self.picture,
            events: &self.events,
            copies: self.copy_cells(),
            liveness: self.liveness_cells(),
            authorizer: &self.authorizer,
            kraft_trace: self.kraft_trace,
        };
        pains_still(&sheet, style)
    }
}

/// A partition's leader as a cell shows it.
fn leader_text(state: &Option<PartitionState>) -> String {
    match state {
        Some(s) if s.leader >= 0 => format!("b{}", s.leader),
        Some(_) => "none".into(),
        None => "–".into(),
    }
}

/// What a copy's cell says: the leader it names; where it disagrees with ZooKeeper ("stale"),
/// "≠" and the leader it names if that differs, else that its in-sync replicas do.
fn cell_text(state: &Option<PartitionState>, zookeeper: &Option<PartitionState>, stale: bool) -> String {
    match (state, zookeeper) {
        _ if !stale => leader_text(state),
        (Some(s), Some(z)) if s.leader == z.leader => "≠isr".into(),
        _ => format!("≠{}", leader_text(state)),
    }
}

#[cfg(test)]
mod tests {
    use super::{EVENTS_SHOWN, PainsAction, PainsState, STEP_MS};
    use crate::harness::playback::WAIT_SPEED;
    use crate::zk::TraceKind;
    use crate::zk::costs::MILESTONE_SPEED;
    use crate::zk::pains::Pain;

    const FRAME_MS: f64 = 1_000.0 / 60.0;

    /// Frames until the state stops playing (or `limit` frames); what each reported.
    fn play_out(state: &mut PainsState, limit: usize) -> Vec<u64> {
        let mut reported = Vec::new();
        for _ in 0..limit {
            if !state.playing() {
                break;
            }
            reported.extend(state.frame(FRAME_MS));
        }
        reported
    }

    #[test]
    fn a_pain_starts_playing_from_its_start() {
        let state = PainsState::new(Pain::WatchStorm);
        assert_eq!((state.pain(), state.zk.now(), state.playing()), (Pain::WatchStorm, 0, true));
        assert!(state.events.is_empty() && !state.finished());
        let view = state.view();
        assert_eq!((view.copies.len(), view.liveness.len(), view.seen), (6, 4, false));
        assert_eq!(view.pace.as_deref(), Some("time-lapse 4\u{d7}"));
    }

    #[test]
    fn frames_play_only_while_playing_and_toggling_pauses_and_resumes() {
        let mut state = PainsState::new(Pain::StaleCache);
        state.frame(FRAME_MS);
        let now = state.zk.now();
        assert!(now > 0, "a frame plays on");
        assert_eq!(state.reduce(PainsAction::TogglePlay), None);
        assert!(!state.playing() && state.view().pace.is_none());
        state.frame(FRAME_MS);
        assert_eq!(state.zk.now(), now, "no time passes while paused");
        state.reduce(PainsAction::TogglePlay);
        state.frame(FRAME_MS);
        assert!(state.playing() && state.zk.now() > now);
    }

    #[test]
    fn a_step_pauses_and_plays_half_a_second_at_the_pace() {
        let mut state = PainsState::new(Pain::SplitLiveness);
        state.reduce(PainsAction::Step);
        assert!(!state.playing());
        assert_eq!(state.zk.now(), (STEP_MS * 1_000.0 * WAIT_SPEED) as u64, "two simulated seconds");
        state.reduce(PainsAction::Step);
        assert_eq!(state.zk.now(), 2 * (STEP_MS * 1_000.0 * WAIT_SPEED) as u64);
    }

    #[test]
    fn the_pace_slows_down_around_the_moment_and_speeds_up_after_it() {
        let mut state = PainsState::new(Pain::WatchStorm);
        let key = state.key_at;
        let mut speeds = vec![state.pace().speed];
        while state.playing() {
            state.frame(FRAME_MS);
            if speeds.last() != Some(&state.pace().speed) {
                speeds.push(state.pace().speed);
            }
            if state.pace().speed == MILESTONE_SPEED {
                let now = state.zk.now();
                assert!(now + 300 >= key && now < key + 2_500, "slow motion only around the moment");
                assert!(state.view().pace.is_some_and(|p| p.starts_with("slow motion")));
            }
        }
        assert_eq!(speeds, [WAIT_SPEED, MILESTONE_SPEED, WAIT_SPEED]);
    }

    #[test]
    fn the_moment_is_reported_once_and_the_play_stops_at_its_end() {
        let mut state = PainsState::new(Pain::WatchStorm);
        let reported = play_out(&mut state, 100_000);
        assert_eq!(reported, [state.key_at], "reported once, with its time");
        assert!(state.finished() && !state.playing() && state.view().seen);
        assert_eq!(state.reduce(PainsAction::TogglePlay), None);
        assert!(!state.playing(), "a finished pain does not play on");
        let events = &state.events;
        assert!(events.len() <= EVENTS_SHOWN && events.iter().all(|l| !l.kind.is_ping()));
        assert!(matches!(events.last().map(|l| &l.kind), Some(TraceKind::Applied { .. })), "{events:?}");
        assert_eq!(state.view().events.len(), events.len());
    }

    #[test]
    fn replay_starts_again_playing_and_reports_the_moment_again() {
        let mut state = PainsState::new(Pain::WatchStorm);
        play_out(&mut state, 100_000);
        state.reduce(PainsAction::Replay);
        assert_eq!((state.zk.now(), state.playing(), state.events.len()), (0, true, 0));
        assert_eq!(play_out(&mut state, 100_000), [state.key_at]);
        state.start(Pain::SplitLiveness);
        assert_eq!((state.pain(), state.zk.now()), (Pain::SplitLiveness, 0));
    }

    #[test]
    fn a_step_can_reach_the_moment_and_reports_it() {
        let mut state = PainsState::new(Pain::SplitLiveness);
        let reported: Vec<u64> = (0..100).filter_map(|_| state.reduce(PainsAction::Step)).collect();
        assert_eq!(reported, [state.key_at]);
    }

    #[test]
    fn a_pain_opened_at_a_moment_is_paused_there_with_the_events_it_played() {
        let mut played = PainsState::new(Pain::WatchStorm);
        play_out(&mut played, 100_000);
        let mut opened = PainsState::new(Pain::StaleCache);
        opened.paused_at(Pain::WatchStorm, 60_000 * crate::harness::MS);
        assert!(!opened.playing() && opened.finished(), "a moment past the end opens at the end");
        assert_eq!(opened.view().events, played.view().events, "the same latest events as played");
        assert_eq!(opened.view(), played.view());
        opened.paused_at(Pain::WatchStorm, opened.key_at);
        assert!(opened.view().seen && !opened.playing());
        opened.reduce(PainsAction::TogglePlay);
        assert!(opened.playing());
        assert_eq!(opened.frame(FRAME_MS), None, "a moment opened past is not reported again");
    }

    /// The second door: every broker's authorizer denies the rogue principal until the client's
    /// ZooKeeper write, then allows it; KRaft's side names Kafka's errors for the same intent and
    /// the records of the allowed one.
    #[test]
    fn the_second_door_turns_every_brokers_answer_and_kraft_refuses() {
        let mut state = PainsState::new(Pain::Security);
        let answers =
            |state: &PainsState| state.view().authorizer.iter().map(|r| r.allowed()).collect::<Vec<_>>();
        assert_eq!(answers(&state), [false; 4], "no ACL: every broker denies");
        assert!(
            state.view().copies.is_empty() || state.view().copies.iter().all(|r| !r.stale.contains(&true))
        );
        play_out(&mut state, 100_000);
        assert_eq!(answers(&state), [true; 4], "every broker obeys the znode");
        assert!(state.view().authorizer.iter().all(|r| r.acl == "User:mallory ALLOW ALL"));
        let kraft = state.view().kraft_trace;
        let said = |text: &str| kraft.iter().any(|l| l.contains(text));
        assert!(said("refused: TOPIC_AUTHORIZATION_FAILED"), "{kraft:#?}");
        assert!(said("refused: CLUSTER_AUTHORIZATION_FAILED"), "{kraft:#?}");
        assert!(said("AccessControlEntryRecord") && said("RemoveTopicRecord"), "{kraft:#?}");
        assert!(PainsState::new(Pain::WatchStorm).view().kraft_trace.is_empty());
    }

    /// The second door's tour step plays to the broker's first decision and holds there with its
    /// question; an answer plays on, and once the broker's next decision has played the verdict
    /// says whether it held. Replay asks again; kiosk mode never holds.
    #[test]
    fn the_second_door_step_holds_at_its_question_until_answered() {
        use crate::page::question::Stage;
        use crate::zk::acl::{ASKED_AFTER, ASKED_BEFORE};
        let mut state = PainsState::new(Pain::WatchStorm);
        state.start_step(Pain::Security, false);
        play_out(&mut state, 100_000);
        assert_eq!((state.zk.now(), state.playing(), state.asking()), (ASKED_BEFORE, false, true));
        let view = state.question().expect("the step asks");
        assert_eq!(view.stage, Stage::Asking);
        assert!(view.options[0].0.starts_with("ALLOWED") && view.options[1].0.starts_with("DENIED"));
        assert!(state.view().authorizer.iter().all(|r| !r.allowed()), "held before the write");
        state.frame(FRAME_MS);
        assert_eq!(state.zk.now(), ASKED_BEFORE, "no frame plays past an open question");
        state.reduce(PainsAction::Predict(Some(1)));
        assert!(state.playing() && !state.asking());
        play_out(&mut state, 100_000);
        assert!(state.zk.now() > ASKED_AFTER);
        match state.question().map(|q| q.stage) {
            Some(Stage::Verdict { held: Some(false), text }) => {
                assert!(text.contains("it was ALLOWED") && text.contains("AclAuthorizer"), "{text}")
            }
            other => panic!("a verdict, the answer given wrong: {other:?}"),
        }
        state.reduce(PainsAction::Replay);
        play_out(&mut state, 100_000);
        assert!(state.asking(), "Replay asks again");
        state.reduce(PainsAction::TogglePlay);
        assert!(state.playing() && !state.asking(), "Space just watches");
        let mut kiosk = PainsState::new(Pain::Security);
        kiosk.start_step(Pain::Security, true);
        play_out(&mut kiosk, 100_000);
        assert!(kiosk.finished() && !kiosk.asking(), "kiosk mode walks on");
        let mut other = PainsState::new(Pain::Security);
        other.start_step(Pain::WatchStorm, false);
        assert!(other.question().is_none(), "the other pains ask nothing");
    }

    #[test]
    fn space_s_and_r_are_the_pains_keys() {
        assert_eq!(PainsAction::for_key(" "), Some(PainsAction::TogglePlay));
        assert_eq!(PainsAction::for_key("S"), Some(PainsAction::Step));
        assert_eq!(PainsAction::for_key("r"), Some(PainsAction::Replay));
        assert_eq!(PainsAction::for_key("k"), None);
    }
}
