//! What a user can do to a live cluster, recorded with the moment it happened so that a session
//! replays exactly (time travel, shared links). Each action has a short text code for URLs.

use std::fmt;
use std::str::FromStr;

use crate::harness::Micros;
use crate::quorum::NodeId;
use crate::util::format::counted;

/// A user action on the cluster.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Action {
    /// Crash a node (it keeps its disk).
    Crash(NodeId),
    /// Restart a crashed node from its disk.
    Restart(NodeId),
    /// Cut a node's power: it stops, and its disk keeps only what was flushed.
    PowerLoss(NodeId),
    /// The node loses power in the middle of its next write to its log (a torn write).
    TornWrite(NodeId),
    /// Cut every link of a node.
    Isolate(NodeId),
    /// Cut the link between two nodes, both ways.
    Cut(NodeId, NodeId),
    /// Restore every link.
    Heal,
    /// Crash whichever controller is active.
    KillLeader,
    /// Cut every link of whichever controller is active.
    IsolateLeader,
    /// Ask the active controller to resign gracefully (EndQuorumEpoch).
    Resign,
    /// CreateTopics with this many partitions and this replication factor.
    CreateTopic { partitions: u32, replication: u32 },
    /// A broker's controlled shutdown.
    ShutDown(NodeId),
    /// Network latency range (ms), drop and duplicate rates (percent), and whether messages on
    /// one link may overtake each other.
    Network {
        latency_min_ms: u32,
        latency_max_ms: u32,
        drop_percent: u32,
        duplicate_percent: u32,
        reorder: bool,
    },
    /// Start a new controller process (`kafka-storage format --no-initial-controllers`): it
    /// joins the quorum as an observer.
    NewController,
    /// `kafka-metadata-quorum add-controller` run on controller n: AddRaftVoter.
    AddVoter(NodeId),
    /// `kafka-metadata-quorum remove-controller` of voter n: RemoveRaftVoter.
    RemoveVoter(NodeId),
    /// RemoveRaftVoter of whichever controller is active: it leads until the change commits.
    RemoveLeader,
    /// Wipe controller n's disk and format it again: it comes back as an observer.
    WipeDisk(NodeId),
    /// `kafka-features upgrade --feature kraft.version=1`: a static quorum becomes dynamic.
    UpgradeKRaftVersion,
}

impl Action {
    /// What the user asked for, as a request: how a refusal names it.
    pub(crate) fn request(&self) -> String {
        match self {
            Action::Crash(n) => format!("Crash n{n}"),
            Action::Restart(n) => format!("Restart n{n}"),
            Action::PowerLoss(n) => format!("Cut n{n}'s power"),
            Action::TornWrite(n) => format!("Tear n{n}'s next write"),
            Action::Isolate(n) => format!("Isolate n{n}"),
            Action::Cut(a, b) => format!("Cut n{a} from n{b}"),
            Action::Heal => "Heal all links".into(),
            Action::KillLeader => "Kill the active controller".into(),
            Action::IsolateLeader => "Isolate the active controller".into(),
            Action::Resign => "Make the leader resign".into(),
            Action::CreateTopic { .. } => "Create a topic".into(),
            Action::ShutDown(n) => format!("Shut n{n} down"),
            Action::Network { .. } => "Change the network".into(),
            Action::NewController => "Start a new controller".into(),
            Action::AddVoter(n) => format!("Add n{n} to the voters"),
            Action::RemoveVoter(n) => format!("Remove n{n} from the voters"),
            Action::RemoveLeader => "Remove the active controller from the voters".into(),
            Action::WipeDisk(n) => format!("Wipe n{n}'s disk"),
            Action::UpgradeKRaftVersion => "Upgrade kraft.version to 1".into(),
        }
    }

    /// How the action reads in the status line once done.
    pub(crate) fn describe(&self) -> String {
        match self {
            Action::Crash(n) => format!("Crashed n{n}"),
            Action::Restart(n) => format!("Restarted n{n}"),
            Action::PowerLoss(n) => format!("Cut n{n}'s power: its disk keeps only what was flushed"),
            Action::TornWrite(n) => format!("n{n} will lose power in the middle of its next write"),
            Action::Isolate(n) => format!("Isolated n{n}"),
            Action::Cut(a, b) => format!("Cut n{a} from n{b}"),
            Action::Heal => "Healed all links".into(),
            Action::KillLeader => "Killed the active controller".into(),
            Action::IsolateLeader => "Isolated the active controller".into(),
            Action::Resign => "The leader resigns (EndQuorumEpoch)".into(),
            Action::CreateTopic { partitions, replication } => {
                format!("Created a topic: {} x{replication}", counted(u64::from(*partitions), "partition"))
            }
            Action::ShutDown(n) => format!("Controlled shutdown of n{n}"),
            Action::Network { latency_min_ms, latency_max_ms, drop_percent, duplicate_percent, reorder } => {
                format!(
                    "Network: {latency_min_ms}-{latency_max_ms} ms, {drop_percent}% dropped, {duplicate_percent}% duplicated, {}",
                    if *reorder { "may overtake each other" } else { "kept in order per link" }
                )
            }
            Action::NewController => "Started a new controller (an observer until added)".into(),
            Action::AddVoter(n) => format!("Asked to add n{n} to the voters (AddRaftVoter)"),
            Action::RemoveVoter(n) => format!("Asked to remove n{n} from the voters (RemoveRaftVoter)"),
            Action::RemoveLeader => "Asked to remove the active controller from the voters".into(),
            Action::WipeDisk(n) => format!("Wiped n{n}'s disk and formatted it again"),
            Action::UpgradeKRaftVersion => "Asked to upgrade kraft.version to 1".into(),
        }
    }
}

/// What a crash, a power loss and a torn write each lose on node `name` (a controller or a
/// broker), in the words the node's menu shows beside them (Kafka 4.3.1's flushes:
/// `KafkaRaftClient.flushLeaderLog` and `appendAsFollower`, `LogSegment.recover`).
pub fn disk_faults(name: &str, controller: bool) -> String {
    let power = if controller {
        "a controller flushes its log before it counts or reports a record, so nothing"
    } else {
        "a broker flushes its metadata log only when it shuts down cleanly, so it loses what it fetched since and fetches it again"
    };
    format!(
        "A crash keeps what {name} wrote (the operating system still holds it). A power loss keeps only what was flushed: {power}. A torn write: the power fails during {name}'s next write; that batch, never acknowledged, fails its CRC at restart and is cut off."
    )
}

impl fmt::Display for Action {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Action::Crash(n) => write!(f, "c{n}"),
            Action::Restart(n) => write!(f, "r{n}"),
            Action::PowerLoss(n) => write!(f, "o{n}"),
            Action::TornWrite(n) => write!(f, "b{n}"),
            Action::Isolate(n) => write!(f, "i{n}"),
            Action::Cut(a, b) => write!(f, "x{a}-{b}"),
            Action::Heal => write!(f, "h"),
            Action::KillLeader => write!(f, "k"),
            Action::IsolateLeader => write!(f, "l"),
            Action::Resign => write!(f, "g"),
            Action::CreateTopic { partitions, replication } => write!(f, "t{partitions}-{replication}"),
            Action::ShutDown(n) => write!(f, "s{n}"),
            // Without duplication or reordering, the form links made before those existed.
            Action::Network {
                latency_min_ms,
                latency_max_ms,
                drop_percent,
                duplicate_percent: 0,
                reorder: false,
            } => {
                write!(f, "n{latency_min_ms}-{latency_max_ms}-{drop_percent}")
            }
            Action::Network { latency_min_ms, latency_max_ms, drop_percent, duplicate_percent, reorder } => {
                write!(
                    f,
                    "n{latency_min_ms}-{latency_max_ms}-{drop_percent}-{duplicate_percent}-{}",
                    u8::from(*reorder)
                )
            }
            Action::NewController => write!(f, "p"),
            Action::AddVoter(n) => write!(f, "a{n}"),
            Action::RemoveVoter(n) => write!(f, "d{n}"),
            Action::RemoveLeader => write!(f, "q"),
            Action::WipeDisk(n) => write!(f, "w{n}"),
            Action::UpgradeKRaftVersion => write!(f, "u"),
        }
    }
}

/// A code that is no action (a damaged link or file).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotAnAction(pub String);

impl fmt::Display for NotAnAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "'{}' is not an action", self.0)
    }
}

impl std::error::Error for NotAnAction {}

impl FromStr for Action {
    type Err = NotAnAction;

    fn from_str(code: &str) -> Result<Action, NotAnAction> {
        let bad = || NotAnAction(code.to_string());
        let mut chars = code.chars();
        let kind = chars.next().ok_or_else(bad)?;
        let rest = chars.as_str();
        let numbers =
            || rest.split('-').map(|n| n.parse::<u32>().map_err(|_| bad())).collect::<Result<Vec<u32>, _>>();
        let one = || match numbers()?.as_slice() {
            [n] => Ok(*n),
            _ => Err(bad()),
        };
        let two = || match numbers()?.as_slice() {
            [a, b] => Ok((*a, *b)),
            _ => Err(bad()),
        };
        Ok(match kind {
            'c' => Action::Crash(one()?),
            'r' => Action::Restart(one()?),
            'o' => Action::PowerLoss(one()?),
            'b' => Action::TornWrite(one()?),
            'i' => Action::Isolate(one()?),
            's' => Action::ShutDown(one()?),
            'a' => Action::AddVoter(one()?),
            'd' => Action::RemoveVoter(one()?),
            'w' => Action::WipeDisk(one()?),
            'x' => {
                let (a, b) = two()?;
                Action::Cut(a, b)
            }
            't' => {
                let (partitions, replication) = two()?;
                Action::CreateTopic { partitions, replication }
            }
            'n' => match numbers()?.as_slice() {
                [latency_min_ms, latency_max_ms, drop_percent] => Action::Network {
                    latency_min_ms: *latency_min_ms,
                    latency_max_ms: *latency_max_ms,
                    drop_percent: *drop_percent,
                    duplicate_percent: 0,
                    reorder: false,
                },
                [latency_min_ms, latency_max_ms, drop_percent, duplicate_percent, reorder @ (0 | 1)] => {
                    Action::Network {
                        latency_min_ms: *latency_min_ms,
                        latency_max_ms: *latency_max_ms,
                        drop_percent: *drop_percent,
                        duplicate_percent: *duplicate_percent,
                        reorder: *reorder == 1,
                    }
                }
                _ => return Err(bad()),
            },
            'h' if rest.is_empty() => Action::Heal,
            'k' if rest.is_empty() => Action::KillLeader,
            'l' if rest.is_empty() => Action::IsolateLeader,
            'g' if rest.is_empty() => Action::Resign,
            'p' if rest.is_empty() => Action::NewController,
            'q' if rest.is_empty() => Action::RemoveLeader,
            'u' if rest.is_empty() => Action::UpgradeKRaftVersion,
            _ => return Err(bad()),
        })
    }
}

/// An action and the exact point it happened: the simulated time and how many events had been
/// processed, so a replay applies it between the same two events.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedAction {
    pub at: Micros,
    pub events: u64,
    pub action: Action,
}

impl fmt::Display for RecordedAction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}.{}.{}", self.at, self.events, self.action)
    }
}

/// Why a text is no recorded action.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RecordedActionError {
    /// Not three dot-separated parts (time.events.action).
    Shape(String),
    /// The time or the event count of `text` is not a number.
    NotANumber { text: String, part: String },
    /// The action code is no action.
    Action(NotAnAction),
}

impl fmt::Display for RecordedActionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RecordedActionError::Shape(text) => {
                write!(f, "'{text}' is not a recorded action (time.events.action)")
            }
            RecordedActionError::NotANumber { text, part } => write!(f, "'{text}': '{part}' is not a number"),
            RecordedActionError::Action(error) => fmt::Display::fmt(error, f),
        }
    }
}

impl std::error::Error for RecordedActionError {}

impl From<NotAnAction> for RecordedActionError {
    fn from(error: NotAnAction) -> Self {
        RecordedActionError::Action(error)
    }
}

impl FromStr for RecordedAction {
    type Err = RecordedActionError;

    fn from_str(text: &str) -> Result<RecordedAction, RecordedActionError> {
        let mut parts = text.splitn(3, '.');
        let (Some(at), Some(events), Some(action)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(RecordedActionError::Shape(text.to_string()));
        };
        let number = |t: &str| {
            t.parse::<u64>()
                .map_err(|_| RecordedActionError::NotANumber { text: text.to_string(), part: t.to_string() })
        };
        Ok(RecordedAction { at: number(at)?, events: number(events)?, action: action.parse()? })
    }
}

#[cfg(test)]
mod tests {
    use super::{Action, NotAnAction, RecordedAction, RecordedActionError, disk_faults};

    #[test]
    fn the_menu_says_what_a_power_loss_takes_from_a_controller_and_from_a_broker() {
        let (controller, broker) = (disk_faults("n1", true), disk_faults("n101", false));
        assert!(controller.contains("flushes its log before it counts or reports a record, so nothing"));
        assert!(broker.contains("loses what it fetched since and fetches it again"), "{broker}");
        for words in [&controller, &broker] {
            assert!(words.contains("A crash keeps") && words.contains("A torn write"), "{words}");
        }
    }

    #[test]
    fn every_action_round_trips_through_its_code() {
        let actions = [
            Action::Crash(2),
            Action::Restart(101),
            Action::PowerLoss(101),
            Action::TornWrite(2),
            Action::Isolate(3),
            Action::Cut(1, 102),
            Action::Heal,
            Action::KillLeader,
            Action::IsolateLeader,
            Action::Resign,
            Action::CreateTopic { partitions: 12, replication: 3 },
            Action::ShutDown(103),
            Action::Network {
                latency_min_ms: 5,
                latency_max_ms: 40,
                drop_percent: 10,
                duplicate_percent: 0,
                reorder: false,
            },
            Action::Network {
                latency_min_ms: 5,
                latency_max_ms: 40,
                drop_percent: 0,
                duplicate_percent: 20,
                reorder: true,
            },
            Action::NewController,
            Action::AddVoter(4),
            Action::RemoveVoter(2),
            Action::RemoveLeader,
            Action::WipeDisk(3),
            Action::UpgradeKRaftVersion,
        ];
        for action in actions {
            let recorded = RecordedAction { at: 1_234_567, events: 89, action };
            assert_eq!(recorded.to_string().parse::<RecordedAction>(), Ok(recorded));
        }
    }

    #[test]
    fn garbage_is_refused() {
        for text in [
            "",
            "q1",
            "u1",
            "p2",
            "a",
            "w1-2",
            "c",
            "cx",
            "x1",
            "t5",
            "h1",
            "12.3",
            "a.b.c1",
            "1.2.n1-2",
            "n1-2-3-4",
            "n1-2-3-4-2",
        ] {
            assert!(text.parse::<RecordedAction>().is_err() || text.parse::<Action>().is_err(), "{text}");
        }
        assert!("1.2.c3".parse::<RecordedAction>().is_ok());
        let before_duplication = "n5-40-10".parse::<Action>().expect("a link from before duplication");
        assert_eq!(before_duplication.to_string(), "n5-40-10", "its code unchanged");
        assert_eq!("q1".parse::<Action>(), Err(NotAnAction("q1".into())));
        let not_a_number = RecordedActionError::NotANumber { text: "a.b.c1".into(), part: "a".into() };
        assert_eq!("a.b.c1".parse::<RecordedAction>(), Err(not_a_number));
        assert_eq!("12.3".parse::<RecordedAction>(), Err(RecordedActionError::Shape("12.3".into())));
        let action = RecordedActionError::Action(NotAnAction("n1-2".into()));
        assert_eq!("1.2.n1-2".parse::<RecordedAction>(), Err(action));
    }
}
