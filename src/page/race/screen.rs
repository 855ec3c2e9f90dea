//! What the failover view draws, computed from [`RaceView`] without the DOM: the caption, the
//! controls' state, the stage line, the headline, and each side's stopwatch, wording, drawing,
//! chips and partition grid. The component (`web/failover_tab.rs`) only lays it out.

use super::RaceView;
use super::measured::nearest;
use crate::drawing::cluster::StillStyle;
use crate::drawing::race::{RaceSide, race_still};
use crate::drawing::svg::El;
use crate::experiments::failover::KraftRoles;
use crate::harness::MS;
use crate::page::chips::{Chip, kraft_chips, zk_chips};
use crate::quorum::{QuorumConfig, RoleKind};
use crate::race::{BUILDING, FailoverRace, RaceStage, kraft_phase, zk_phase};
use crate::session::picture::{ClusterPicture, picture};
use crate::util::format;
use crate::zk::{FailoverPhase, PartitionGrid, ZkPicture};

/// Most cells a partition grid has.
pub const GRID_CELLS: u32 = 2_000;

/// Where the race is shown: the page, a stage (presenter mode) or an embed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RaceFrame {
    Page,
    /// Presenter mode: the headline is the result alone, so the drawings stay in view.
    Stage,
    /// An iframe: a one-line caption, the nodes as chips, the headline the result alone.
    Embed,
}

/// The failover view as drawn.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceScreen {
    /// One line naming the race, for a compact (embedded) view.
    pub caption: String,
    pub controls: RaceControls,
    /// Where the race stands ("Building ... 40%", "3.2 s since the kill (simulated)").
    pub stage: String,
    /// Who was back first and by how much, once both are back.
    pub headline: Option<String>,
    /// On a page, with the headline: why, each of ZooKeeper mode's phases and how long partitions
    /// were leaderless. Apart from the headline so a phone can show the result and both
    /// stopwatches on its first screen and this after them.
    pub why: Option<String>,
    pub kraft: Option<KraftSide>,
    pub zk: Option<ZkSide>,
}

/// What the race's controls show and allow.
#[derive(Clone, Debug, PartialEq)]
pub struct RaceControls {
    pub partitions: u64,
    /// The partition slider's exponent.
    pub exp: f64,
    pub combined: bool,
    /// Ready or running: Play, Step and Kill act.
    pub prepared: bool,
    /// Running: Run again, Skip to the end and the scrubber act.
    pub running: bool,
    pub finished: bool,
    pub play_label: &'static str,
    /// What the G button shows next: the partitions (each side's grid in place of its
    /// drawing) or the clusters again.
    pub grids_label: &'static str,
    /// The fixed playback speed chosen (none: the sports replay).
    pub fixed: Option<f64>,
    /// The pace's label while not at real time ("time-lapse 40x").
    pub pace: Option<String>,
    /// Since the kill, and the scrubber's reach, in milliseconds.
    pub elapsed_ms: u64,
    pub horizon_ms: u64,
    /// `elapsed_ms` in words.
    pub elapsed: String,
}

/// The KRaft side.
#[derive(Clone, Debug, PartialEq)]
pub struct KraftSide {
    pub title: &'static str,
    /// The phase, announced to screen readers as it changes.
    pub phase: String,
    pub stopwatch: String,
    /// The active controller and its epoch, or that one is being elected.
    pub leader: String,
    /// The measured spread over seeds at this size, once measured.
    pub spread: Option<String>,
    /// What is happening, under the drawing.
    pub caption: String,
    pub picture: Option<ClusterPicture>,
    /// The nodes as chips (a compact view only).
    pub chips: Vec<Chip>,
    pub grid: PartitionGrid,
}

/// The ZooKeeper-mode side.
#[derive(Clone, Debug, PartialEq)]
pub struct ZkSide {
    pub phase: String,
    pub stopwatch: String,
    /// What the brokers' caches hold.
    pub summary: String,
    pub caption: String,
    pub picture: Option<ZkPicture>,
    pub chips: Vec<Chip>,
    pub grid: PartitionGrid,
}

impl RaceScreen {
    /// A still of the race as it stands (Save picture, `kraftscope render --view race`), in
    /// `style`; `None` before the race is prepared (nothing to draw yet).
    pub fn still(&self, style: &StillStyle) -> Option<El> {
        let (kraft, zk) = (self.kraft.as_ref()?, self.zk.as_ref()?);
        let kraft_side = RaceSide {
            title: kraft.title,
            stopwatch: &kraft.stopwatch,
            state: &kraft.leader,
            caption: &kraft.caption,
            picture: kraft.picture.as_ref(),
            grid: &kraft.grid,
        };
        let zk_side = RaceSide {
            title: "ZooKeeper mode",
            stopwatch: &zk.stopwatch,
            state: &zk.summary,
            caption: &zk.caption,
            picture: zk.picture.as_ref(),
            grid: &zk.grid,
        };
        Some(race_still(kraft_side, zk_side, &self.stage, self.headline.as_deref(), style))
    }
}

impl RaceView {
    /// What the view draws now in `frame`.
    pub fn screen(&self, frame: RaceFrame) -> RaceScreen {
        let race = self.race();
        let compact = frame == RaceFrame::Embed;
        RaceScreen {
            caption: caption(self),
            controls: controls(self),
            stage: stage(self),
            headline: race.and_then(|race| race.headline()).map(|headline| format!("{headline}.")),
            why: race.filter(|_| frame == RaceFrame::Page).and_then(why),
            kraft: race.map(|race| kraft_side(self, race, compact)),
            zk: race.map(|race| zk_side(race, compact)),
        }
    }
}

fn caption(view: &RaceView) -> String {
    let size = view.race().map_or(String::new(), |r| format::count(r.partitions()));
    // The panels below name their sides; an embed's one line is left for what differs.
    match view.roles() {
        KraftRoles::Combined => {
            format!("{size} partitions, KRaft on combined nodes: both active controllers killed")
        }
        KraftRoles::Dedicated { .. } => format!("{size} partitions: both active controllers killed"),
    }
}

fn controls(view: &RaceView) -> RaceControls {
    let stage = view.race().map(FailoverRace::stage);
    let elapsed = match stage {
        Some(RaceStage::Running { elapsed }) => elapsed,
        _ => 0,
    };
    RaceControls {
        partitions: view.partitions(),
        exp: view.exp(),
        combined: view.roles() == KraftRoles::Combined,
        prepared: matches!(stage, Some(RaceStage::Ready | RaceStage::Running { .. })),
        running: matches!(stage, Some(RaceStage::Running { .. })),
        finished: view.race().is_some_and(FailoverRace::finished),
        play_label: if view.playing() { "Pause" } else { "Play" },
        grids_label: if view.grids_first() { "Show the clusters" } else { "Show the partitions" },
        fixed: view.playback().fixed(),
        pace: view.shown_speed().filter(|s| *s != 1.0).map(crate::harness::playback::speed_label),
        elapsed_ms: elapsed / MS,
        horizon_ms: (view.horizon().max(elapsed) / MS).max(1),
        elapsed: format::seconds(elapsed),
    }
}

fn stage(view: &RaceView) -> String {
    match (view.race(), view.error()) {
        (_, Some(error)) => format!("Cannot prepare: {error}"),
        (None, None) => String::new(),
        (Some(race), None) => match race.stage() {
            RaceStage::Preparing { done, total } => format!(
                "Building and starting both {}-partition clusters: {}%",
                format::count(race.partitions()),
                done * 100 / total.max(1)
            ),
            RaceStage::Ready => {
                "Both clusters are healthy. Kill both active controllers to start the stopwatches."
                    .to_string()
            }
            RaceStage::Running { .. } if race.finished() => "Both sides recovered.".to_string(),
            RaceStage::Running { elapsed } => {
                format!("{} since the kill (simulated)", format::seconds(elapsed))
            }
        },
    }
}

/// Once both sides are back, why the result is what it is, and how long partitions were
/// leaderless.
fn why(race: &FailoverRace) -> Option<String> {
    race.headline()?;
    let why = "A standby controller already held the log; ZooKeeper mode had to read it all back and push it to every broker";
    let phases = race.zk_report().map(|r| {
        format!(
            " ZooKeeper mode's time: {} until a broker won /controller, {} reading every znode back, then {} to ZooKeeper moving the killed broker's leaders and its replicas out of the ISRs; every broker had the new state after {}.",
            format::seconds(r.controller_elected_after),
            format::seconds(r.cold_load),
            format::counted(r.znode_writes, "write"),
            format::seconds(r.brokers_updated_after)
        )
    });
    let lead = race.zk_report().map(|r| {
        let kraft = race.kraft_leaderless_partitions();
        let kraft_for = race
            .kraft_leaders_back_after()
            .filter(|_| kraft > 0)
            .map_or(String::new(), |t| format!(" for {}", format::seconds(t)));
        format!(
            " Partitions without a leader meanwhile: {} on the ZooKeeper side for {}, {}{kraft_for} on the KRaft side.",
            format::count(r.leaderless_partitions),
            r.leaders_back_after.map_or("good".to_string(), format::seconds),
            format::count(kraft)
        )
    });
    Some(format!("{why}.{}{}", phases.unwrap_or_default(), lead.unwrap_or_default()))
}

fn kraft_side(view: &RaceView, race: &FailoverRace, compact: bool) -> KraftSide {
    let combined = race.roles() == KraftRoles::Combined;
    let shown = race.kraft_recovered_after().unwrap_or(race.elapsed().unwrap_or(0));
    let picture = race.kraft_sim().map(|sim| picture(sim, &[], QuorumConfig::default().fetch_timeout, None));
    let leader = match race.kraft_leader() {
        _ if race.preparing() => BUILDING.to_string(),
        Some((id, epoch)) => format!("active controller n{id}, epoch {epoch}"),
        None => "no active controller: electing".to_string(),
    };
    let spread = nearest(view.measured(), race.partitions()).map(|p| {
        let size = match p.0 == race.partitions() {
            true => format!("at {}", format::counted(p.0, "partition")),
            false => format!(
                "not measured at {}; at {}, the nearest size measured,",
                format::count(race.partitions()),
                format::counted(p.0, "partition")
            ),
        };
        format!(
            "One seed's run. Over 21 seeds {size} (kraftscope failover{}): p50 {:.2} s, p99 {:.2} s.",
            if combined { ", dedicated controllers" } else { "" },
            p.1,
            p.3
        )
    });
    KraftSide {
        title: if combined { "KRaft, combined nodes" } else { "KRaft" },
        phase: kraft_phase(race),
        stopwatch: format::seconds(shown),
        leader,
        spread,
        caption: picture.as_ref().and_then(fetch_caption).unwrap_or_else(|| kraft_status(race)),
        chips: picture.as_ref().filter(|_| compact).map_or_else(Vec::new, kraft_chips),
        picture,
        grid: race.kraft_grid(GRID_CELLS),
    }
}

/// What the KRaft side is doing, in words, when no broker follows a new leader yet.
fn kraft_status(race: &FailoverRace) -> String {
    let waiting = race.kraft_leaderless_partitions();
    match (race.kraft_recovered_after(), race.elapsed()) {
        (Some(t), _) if waiting > 0 => match race.kraft_leaders_back_after() {
            None => format!(
                "Back after {}: a new controller committed a metadata change. The killed node's {} partitions wait for its broker session to expire (broker.session.timeout.ms, 9 s from the new controller's start), then it is fenced and they move.",
                format::seconds(t),
                format::count(waiting)
            ),
            Some(back) => format!(
                "Back after {}; the killed node's broker was fenced and its {} partitions led again after {}.",
                format::seconds(t),
                format::count(waiting),
                format::seconds(back)
            ),
        },
        (Some(t), _) => format!("Back after {}: a new controller committed a metadata change.", format::seconds(t)),
        (None, Some(_)) => {
            "The leader is gone: followers wait out controller.quorum.fetch.timeout.ms, then pre-vote and vote."
                .to_string()
        }
        (None, None) if race.roles() == KraftRoles::Combined => "Three combined nodes, each a controller and a broker, and two brokers; the standbys have already replayed the whole log into their images.".to_string(),
        (None, None) => {
            "Three controllers; the standbys have already replayed the whole log into their images.".to_string()
        }
    }
}

/// After the election: the brokers fetch from the new leader from their own offsets.
fn fetch_caption(view: &ClusterPicture) -> Option<String> {
    let leader = view.nodes.iter().find(|n| n.role == Some(RoleKind::Leader))?;
    let brokers: Vec<_> = view.nodes.iter().filter(|n| !n.voter && n.role.is_some()).collect();
    let following = brokers.iter().filter(|b| b.leader == Some(leader.id)).count();
    if leader.epoch <= 1 || following == 0 {
        return None;
    }
    let lag = brokers.iter().filter_map(|b| b.lag).max().unwrap_or(0);
    Some(format!(
        "New leader {} (epoch {}). {following} brokers fetch from it from their own offsets (image @ {}): {} record{} to catch up, not the whole image.",
        leader.label,
        leader.epoch,
        format::count(brokers.iter().map(|b| b.applied_offset).min().unwrap_or(0)),
        lag,
        if lag == 1 { "" } else { "s" }
    ))
}

fn zk_side(race: &FailoverRace, compact: bool) -> ZkSide {
    let elapsed = race.elapsed();
    let shown = race.zk_report().map_or(elapsed.unwrap_or(0), |r| r.brokers_updated_after);
    let picture = race.zk().map(|zk| zk.picture());
    ZkSide {
        phase: zk_phase(race),
        stopwatch: format::seconds(shown),
        summary: race.zk_summary(),
        caption: picture.as_ref().map_or(String::new(), |p| phase_text(p.phase, elapsed.is_some())),
        chips: picture.as_ref().filter(|_| compact).map_or_else(Vec::new, zk_chips),
        picture,
        grid: race.zk_grid(GRID_CELLS),
    }
}

/// One line saying what ZooKeeper mode is doing, for the caption under the drawing.
fn phase_text(phase: FailoverPhase, killed: bool) -> String {
    match phase {
        _ if !killed => "Healthy: broker sessions pinged, one broker is the controller.".to_string(),
        FailoverPhase::AwaitingSessionExpiry { .. } => {
            "The dead controller's ZooKeeper session is still alive: nobody notices yet.".to_string()
        }
        FailoverPhase::Electing => {
            "Session expired, /controller vanished: the watch fires on every broker, they race to create /controller."
                .to_string()
        }
        FailoverPhase::LoadingFromZk { topics_read, topics, read: 0, .. } if topics_read < topics => format!(
            "Cold load, first pass: every topic's replica assignment from ZooKeeper, {} of {}.",
            format::count(topics_read),
            format::count(topics)
        ),
        FailoverPhase::LoadingFromZk { read, total, .. } => format!(
            "Cold load: the new controller reads every partition's state back from ZooKeeper, {} of {}.",
            format::count(read),
            format::count(total)
        ),
        FailoverPhase::RemovingFromIsr { written, total } => format!(
            "Dead replicas leave the ISRs, znode by znode: {} of {}.",
            format::count(written),
            format::count(total)
        ),
        FailoverPhase::ElectingLeaders { written, total } => format!(
            "New leaders for the dead broker's partitions, znode by znode: {} of {}.",
            format::count(written),
            format::count(total)
        ),
        FailoverPhase::PushingToBrokers { full_state: true, brokers_done, total } => {
            format!("UpdateMetadata + LeaderAndIsr of the loaded state: {brokers_done} of {total} brokers.")
        }
        FailoverPhase::PushingToBrokers { full_state: false, brokers_done, total } => {
            format!("LeaderAndIsr + UpdateMetadata of the changes: {brokers_done} of {total} brokers.")
        }
        FailoverPhase::Ready => "Back: every live broker holds the new controller's state.".to_string(),
    }
}
