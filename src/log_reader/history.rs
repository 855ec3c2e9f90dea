//! An opened log's history as the page plays it: the reader turns [`History`]'s events into a
//! track of plain data (each event's time, what it changes and its line of text, with the
//! partition counts after it) sent to the page once, when the files open; the page then finds
//! the cluster at any moment of it ([`HistoryTrack::moment`]) without asking the worker again.

use serde::{Deserialize, Serialize};

use crate::kafka_log::history::{History, What, describe};
use crate::util::format::{span_ms, utc};

/// What an event changes in the drawing.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Change {
    /// An election: this node leads this epoch.
    Leads {
        node: i32,
        epoch: i32,
    },
    /// A broker registered (fenced until it catches up, or not).
    Registered {
        node: i32,
        fenced: bool,
    },
    Fenced {
        node: i32,
    },
    Unfenced {
        node: i32,
    },
    ShuttingDown {
        node: i32,
    },
    Unregistered {
        node: i32,
    },
    /// A controller registered (a node seen as a controller from here on).
    Controller {
        node: i32,
    },
    /// Topics, features, partition leadership: the counts change, no node does.
    Counts,
}

/// One event on the track.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct TrackEvent {
    /// Milliseconds since the Unix epoch.
    pub at: i64,
    pub change: Change,
    pub line: String,
    pub partitions: u64,
    pub leaderless: u64,
}

/// An election on the track.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ElectionMark {
    pub at: i64,
    pub epoch: i32,
    pub leader: i32,
    pub voters: Vec<i32>,
    /// When no controller wrote any more before it (its gap's start), and for how long.
    pub quiet_from: Option<i64>,
    pub gap_ms: Option<i64>,
}

/// The history the page plays.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct HistoryTrack {
    /// Whose log, in words.
    pub source: String,
    pub start: i64,
    pub end: i64,
    pub events: Vec<TrackEvent>,
    pub elections: Vec<ElectionMark>,
    /// The nodes the history names, ascending.
    pub nodes: Vec<i32>,
}

/// A broker's state at a moment.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BrokerState {
    Fenced,
    Active,
    ShuttingDown,
    Unregistered,
}

impl BrokerState {
    /// Its name on the drawing.
    pub fn name(self) -> &'static str {
        match self {
            BrokerState::Fenced => "fenced",
            BrokerState::Active => "active",
            BrokerState::ShuttingDown => "shutting down",
            BrokerState::Unregistered => "unregistered",
        }
    }
}

/// One node at a moment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NodeMoment {
    pub id: i32,
    /// Named a voter by an election, or registered as a controller, by then.
    pub controller: bool,
    /// The active controller then.
    pub leads: bool,
    pub broker: Option<BrokerState>,
}

/// The cluster at one moment of the track.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Moment {
    pub at: i64,
    /// The active controller and its epoch (none before the first election and while no
    /// controller wrote before the next).
    pub active: Option<(i32, i32)>,
    /// Elections up to now.
    pub elections: usize,
    pub nodes: Vec<NodeMoment>,
    pub partitions: u64,
    pub leaderless: u64,
    /// Events up to now.
    pub events: usize,
}

impl HistoryTrack {
    /// The track of `history`.
    pub fn of(history: &History) -> HistoryTrack {
        let mut events = Vec::new();
        let mut elections = Vec::new();
        let mut nodes: Vec<i32> = Vec::new();
        for event in &history.events {
            let change = match &event.what {
                What::Election(election) => {
                    nodes.extend(&election.voters);
                    elections.push(ElectionMark {
                        at: event.timestamp,
                        epoch: election.epoch,
                        leader: election.leader,
                        voters: election.voters.clone(),
                        quiet_from: election.gap.as_ref().map(|g| event.timestamp - g.ms),
                        gap_ms: election.gap.as_ref().map(|g| g.ms),
                    });
                    Change::Leads { node: election.leader, epoch: election.epoch }
                }
                What::BrokerRegistered { broker, fenced, .. } => {
                    Change::Registered { node: *broker, fenced: *fenced }
                }
                What::BrokerFenced { broker } => Change::Fenced { node: *broker },
                What::BrokerUnfenced { broker } => Change::Unfenced { node: *broker },
                What::ControlledShutdown { broker } => Change::ShuttingDown { node: *broker },
                What::BrokerUnregistered { broker } => Change::Unregistered { node: *broker },
                What::ControllerRegistered { controller, .. } => Change::Controller { node: *controller },
                _ => Change::Counts,
            };
            if let Change::Registered { node, .. } | Change::Controller { node } = change {
                nodes.push(node);
            }
            events.push(TrackEvent {
                at: event.timestamp,
                change,
                line: describe(&event.what),
                partitions: event.partitions,
                leaderless: event.leaderless,
            });
        }
        nodes.sort_unstable();
        nodes.dedup();
        HistoryTrack {
            source: history.source.clone(),
            start: history.first_timestamp.unwrap_or(0),
            end: history.last_timestamp.unwrap_or(0),
            events,
            elections,
            nodes,
        }
    }

    /// The cluster at `at` (milliseconds since the Unix epoch): every event up to it applied.
    pub fn moment(&self, at: i64) -> Moment {
        let count = self.events.partition_point(|e| e.at <= at);
        let mut nodes: Vec<NodeMoment> = self
            .nodes
            .iter()
            .map(|&id| NodeMoment { id, controller: false, leads: false, broker: None })
            .collect();
        let mut active = None;
        let mut elections = self.elections.iter();
        for event in &self.events[..count] {
            match event.change {
                Change::Leads { node: leader, epoch } => {
                    active = Some((leader, epoch));
                    for &voter in elections.next().map_or(&[][..], |e| &e.voters) {
                        if let Some(n) = node(&mut nodes, voter) {
                            n.controller = true;
                        }
                    }
                }
                Change::Controller { node: id } => {
                    if let Some(n) = node(&mut nodes, id) {
                        n.controller = true;
                    }
                }
                Change::Registered { node: id, fenced } => {
                    set(node(&mut nodes, id), if fenced { BrokerState::Fenced } else { BrokerState::Active })
                }
                Change::Fenced { node: id } => set(node(&mut nodes, id), BrokerState::Fenced),
                Change::Unfenced { node: id } => set(node(&mut nodes, id), BrokerState::Active),
                Change::ShuttingDown { node: id } => set(node(&mut nodes, id), BrokerState::ShuttingDown),
                Change::Unregistered { node: id } => set(node(&mut nodes, id), BrokerState::Unregistered),
                Change::Counts => {}
            }
        }
        let elections = self.elections.partition_point(|e| e.at <= at);
        // From the last record before the next election, no controller acted.
        if self.elections.get(elections).and_then(|next| next.quiet_from).is_some_and(|quiet| at > quiet) {
            active = None;
        }
        if let Some((leader, _)) = active
            && let Some(n) = nodes.iter_mut().find(|n| n.id == leader)
        {
            n.leads = true;
        }
        let last = count.checked_sub(1).map(|i| &self.events[i]);
        Moment {
            at,
            active,
            elections,
            nodes,
            partitions: last.map_or(0, |e| e.partitions),
            leaderless: last.map_or(0, |e| e.leaderless),
            events: count,
        }
    }

    /// The time of the next event after `at`, if any.
    pub fn next_event(&self, at: i64) -> Option<i64> {
        self.events.get(self.events.partition_point(|e| e.at <= at)).map(|e| e.at)
    }

    /// The clock at `at`: UTC and the time since the first record.
    pub fn clock(&self, at: i64) -> String {
        format!("{} UTC (+{} since the first record)", utc(at), span_ms(at - self.start))
    }
}

/// Node `id` among `nodes`.
fn node(nodes: &mut [NodeMoment], id: i32) -> Option<&mut NodeMoment> {
    nodes.iter_mut().find(|n| n.id == id)
}

fn set(node: Option<&mut NodeMoment>, state: BrokerState) {
    if let Some(node) = node {
        node.broker = Some(state);
    }
}
