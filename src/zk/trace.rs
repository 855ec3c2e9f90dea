//! What each simulated event did in ZooKeeper mode, typed: the faults injected, the brokers'
//! sessions and pings, the watches that fire, the race for `/controller`, the controller's work
//! (the cold load, the state znode writes, the UpdateMetadata and LeaderAndIsr pushes) and the
//! brokers applying them to their caches. Tests and views match on these; `Display` renders
//! the one-line text of `tests/zk_traces/`.

use std::fmt;
use std::ops::Range;

use super::acl::ZkAcl;
use super::controller::StateChange;
use super::partition::{BrokerId, BrokerSet};
use super::path::ZnodePath;
use super::store::{SessionId, WatchEvent, ZkError, ZnodeData};
use crate::harness::{MS, Micros, format_time};
use crate::metadata::acl::{AclOperation, Decision};

/// One line of ZooKeeper mode's trace.
pub type TraceLine = crate::harness::TraceLine<TraceKind>;

/// What happened.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TraceKind {
    /// A broker crashed; its ephemeral znodes live until its session expires.
    Crashed { broker: BrokerId, was_controller: bool, session: SessionId, expires_at: Micros },
    /// A crash was injected into a broker that was down already.
    AlreadyDown { broker: BrokerId },
    /// A controller kill was injected while there was no active controller.
    NoControllerToKill,
    /// From now on nothing the controller sends reaches `broker` (which still pings ZooKeeper).
    CutOffFromController { broker: BrokerId },
    /// The controller's requests reach `broker` again; `queued` of them go out at the
    /// controller's next retry, at `sent_at`.
    Reconnected { broker: BrokerId, queued: usize, sent_at: Micros },
    /// `broker`'s replica fetchers stalled; its process and ZooKeeper session carry on.
    FetchersStalled { broker: BrokerId },
    /// A leader's `isr-expiration` check found the `out` followers out of sync for longer than
    /// `replica.lag.time.max.ms`: it writes the shrunk ISR of `partitions` to their state znodes.
    ShrinkingIsr { leader: BrokerId, out: BrokerSet, partitions: Vec<u32> },
    /// The leader's writes landed: ZooKeeper holds the shrunk ISR of `partitions`.
    IsrShrunk { leader: BrokerId, partitions: Vec<u32> },
    /// A leader's `isr-change-propagation` task ran: it wrote `path` naming `partitions`
    /// partitions, or (`path` is `None`) waits for the blackout since the last change to pass.
    IsrChangePropagation { broker: BrokerId, partitions: usize, path: Option<ZnodePath> },

    /// Something reached (or was due at) a broker that is down.
    Down { broker: BrokerId, missed: Missed },
    /// A broker's session ping reached the ensemble, pushing the session's deadline out.
    Ping { broker: BrokerId, session: SessionId, expires_at: Micros },
    /// The ensemble refused a broker's ping.
    PingFailed { broker: BrokerId, error: ZkError },
    /// The ensemble checked a session at its old deadline: it was pinged since.
    SessionAlive { session: SessionId, expires_at: Micros },
    /// A session expired: its ephemeral znodes were deleted and the watches on them fired.
    SessionExpired { session: SessionId, deleted: Vec<ZnodePath>, watches_fired: usize },
    /// The ensemble checked a session that had already gone.
    SessionGone { session: SessionId },
    /// A one-shot watch fired on a running broker, and what the broker did about it.
    WatchFired { broker: BrokerId, event: WatchEvent, path: ZnodePath, reaction: Reaction },
    /// A controller watch (`/brokers/ids`, `/isr_change_notification`) fired on a broker that
    /// is no longer the controller.
    NotTheController { broker: BrokerId, path: ZnodePath },
    /// A broker won the race: one multi-op created its ephemeral `/controller` and set
    /// `/controller_epoch` to `epoch`.
    ClaimedController { broker: BrokerId, epoch: u32 },
    /// A broker's claim found `/controller` taken (NODEEXISTS); it watches it again.
    LostTheRace { broker: BrokerId, holder: Holder },
    /// The ensemble refused a broker's claim for another reason; nothing changed.
    ClaimFailed { broker: BrokerId, error: ZkError },
    /// The winner could not register the controller's watches.
    CannotActAsController { broker: BrokerId, error: ZkError },
    /// The new controller is in place (Kafka's `onControllerFailover`) and starts its work.
    BecameController { broker: BrokerId, epoch: u32, live: BrokerSet, steps: Vec<ControllerStep> },
    /// A chunk of the controller's work finished (`finished`), or a BrokerChange arrived, and the
    /// controller went on with `steps`.
    Controller { broker: BrokerId, finished: Option<Finished>, steps: Vec<ControllerStep> },
    /// Work finished for a controller epoch that has since gone.
    WorkDropped { epoch: u32 },
    /// A broker applied one UpdateMetadata+LeaderAndIsr request to its cache; `completes` when
    /// it was the last one of a push to the live brokers.
    Applied {
        broker: BrokerId,
        partitions: usize,
        leader_and_isr: bool,
        epoch: u32,
        completes: Option<PushDone>,
    },
    /// A broker rejected a request from an older controller epoch than one it accepted.
    StaleEpochRejected { broker: BrokerId, epoch: u32, known: u32 },
    /// A client wrote `acl` on `topic` and its change notification `change` straight into
    /// ZooKeeper; no Kafka request, no authorizer.
    RogueAclWrite { topic: u32, acl: ZkAcl, change: ZnodePath, watches_fired: usize },
    /// The ensemble refused the client's write.
    RogueWriteFailed { error: ZkError },
    /// A broker's `AclAuthorizer` could not read the ACL znodes.
    AclReadFailed { broker: BrokerId, error: ZkError },
    /// A broker's `AclAuthorizer` loaded each topic's ACL (`None`: the topic has none).
    AclsLoaded { broker: BrokerId, loaded: Vec<(u32, Option<ZkAcl>)> },
    /// A broker's authorizer decided whether `principal` may perform `operation` on `topic`.
    Authorized {
        broker: BrokerId,
        principal: &'static str,
        operation: AclOperation,
        topic: u32,
        decision: Decision,
    },
}

/// What a broker that is down missed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Missed {
    /// Its ping was due: it stops pinging, and its session runs out.
    Pings,
    /// A watch notification.
    Watch { event: WatchEvent, path: ZnodePath },
    /// Its own claim of `/controller` (the multi-op).
    ClaimController,
    /// The chance to act as the controller it was elected.
    ActingAsController,
    /// A controller request.
    Request,
    /// One of its own scheduled tasks (`isr-expiration`, `isr-change-propagation`).
    Task,
}

/// What a broker does when a watch fires.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reaction {
    /// `/controller` is gone: it races to create it.
    RacesToCreate,
    /// It watches `/controller` again and reads who holds it.
    ControllerIs(Holder),
    /// Its `AclAuthorizer` reads the `changes` new ACL change notifications and the ACLs they
    /// name.
    ReadsAclChanges {
        changes: usize,
    },
    NothingToDo,
}

/// Who holds `/controller`, as a broker reads it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Holder {
    Broker(BrokerId),
    /// The znode holds something else than a controller registration.
    Unreadable(ZnodeData),
    Nobody,
    /// The read failed.
    Unknown(ZkError),
}

/// A chunk of controller work that finished.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Finished {
    /// The cold load's first pass has read the assignments of topics `..topics`.
    AssignmentsRead { topics: u32 },
    /// `count` partition states read in the cold load, `loaded` so far.
    Loaded { count: usize, loaded: u64 },
    /// `count` state znodes written, `done` of the `total` partitions processed.
    Wrote { count: usize, done: usize, total: usize },
    /// The requests for `issued` of `total` partitions went out.
    Sent { issued: usize, total: usize },
    /// The ISR change notifications and the `partitions` they name were read into memory.
    IsrChangesRead { partitions: usize },
    /// The work of a task the controller has since left.
    Abandoned,
}

/// Which znodes a chunk of the cold load reads.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reading {
    /// Topic znodes (their replica assignments), by topic index.
    Assignments { topics: Range<u32> },
    /// Partition state znodes, by partition index.
    States { partitions: Range<u32> },
}

/// What the controller started next.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ControllerStep {
    /// A chunk of the cold load: `getData` of `znodes` znodes, pipelined.
    Reading { znodes: u64, what: Reading },
    /// The cold load is over: every partition's state is in memory.
    Loaded { partitions: usize },
    /// A state change begins over `partitions` partitions (each state znode read, and written
    /// when the change alters it).
    Rewriting { change: StateChange, partitions: usize },
    /// A chunk of a state change: `read` state znodes read, `written` written back.
    Writing { change: StateChange, read: u64, written: u64 },
    /// "Ready to serve as the new controller": `offline` partitions are left without a live
    /// leader (no live ISR replica).
    Ready { partitions: usize, offline: usize },
    /// A push of UpdateMetadata+LeaderAndIsr for `partitions` partitions to `targets`.
    Sending { partitions: usize, targets: BrokerSet },
    /// A push of UpdateMetadata alone (no LeaderAndIsr) for `partitions` partitions to `targets`.
    SendingMetadata { partitions: usize, targets: BrokerSet },
    /// One chunk of the push built and sent; the requests to `queued` brokers wait in their
    /// queues (the broker is down or cut off), retried every 100 ms.
    Building { partitions: usize, targets: BrokerSet, queued: BrokerSet },
    /// `processIsrChangeNotification`: `notifications` znodes read, naming `partitions`.
    IsrChangeNotification { notifications: usize, partitions: usize },
    /// An ISR change notification waits until the current work is done.
    IsrChangeQueued,
    /// Kafka's BrokerChange: the live set read again, and the brokers that died.
    /// Kafka's BrokerChange: the live set read again, the brokers that died, and how many
    /// requests queued for them were dropped (`removeBroker`).
    BrokerChange { live: BrokerSet, dead: BrokerSet, dropped: usize },
    /// `/brokers/ids` could not be read.
    BrokerIdsUnreadable(ZkError),
    /// A BrokerChange waits until the current work is done.
    BrokerChangeQueued,
}

/// What a completed push reached.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PushDone {
    /// The partitions just rewritten, after a broker death.
    Change,
    /// The new controller's full state, after a controller failover's load.
    FullState,
    /// The last push of a controller failover: every live broker holds the new state.
    Failover,
}

impl TraceKind {
    /// Whether this is a broker's session ping (they come every third of the session timeout, so
    /// listings count them rather than show them).
    pub fn is_ping(&self) -> bool {
        matches!(self, TraceKind::Ping { .. } | TraceKind::PingFailed { .. })
    }
}

impl fmt::Display for TraceLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "t={} {}", format_time(self.at), self.kind)
    }
}

/// `items` separated by "; ".
fn joined<T: fmt::Display>(f: &mut fmt::Formatter<'_>, items: &[T]) -> fmt::Result {
    for (i, item) in items.iter().enumerate() {
        if i > 0 {
            f.write_str("; ")?;
        }
        write!(f, "{item}")?;
    }
    Ok(())
}

/// What the controller finished, if anything, then the steps it took.
fn finished_then(
    f: &mut fmt::Formatter<'_>,
    finished: Option<&Finished>,
    steps: &[ControllerStep],
) -> fmt::Result {
    if let Some(finished) = finished {
        write!(f, "{finished}")?;
        if !steps.is_empty() {
            f.write_str("; ")?;
        }
    }
    joined(f, steps)
}

impl fmt::Display for TraceKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            TraceKind::Crashed { broker, was_controller, session, expires_at } => {
                let (role, at) = (if *was_controller { " (the controller)" } else { "" }, expires_at / MS);
                write!(f, "fault: broker {broker}{role} crashed; its session {session} expires at {at}ms")
            }
            TraceKind::AlreadyDown { broker } => write!(f, "fault: broker {broker} is already down"),
            TraceKind::NoControllerToKill => {
                write!(f, "fault: kill controller, but there is no active controller")
            }
            TraceKind::CutOffFromController { broker } => {
                write!(f, "fault: broker {broker} cut off from the controller (still pinging zk)")
            }
            TraceKind::Reconnected { broker, queued, sent_at } => write!(
                f,
                "fault: broker {broker} reachable from the controller again; {queued} queued requests retried at {}",
                format_time(*sent_at)
            ),
            TraceKind::FetchersStalled { broker } => {
                write!(f, "fault: broker {broker}'s replica fetchers stall (still pinging zk)")
            }
            TraceKind::ShrinkingIsr { leader, out, partitions } => write!(
                f,
                "broker {leader}: isr-expiration: {out} behind for over replica.lag.time.max.ms; writing the ISR of partitions {partitions:?} without it"
            ),
            TraceKind::IsrShrunk { leader, partitions } => {
                write!(f, "zk: broker {leader} wrote the shrunk ISR of partitions {partitions:?}")
            }
            TraceKind::IsrChangePropagation { broker, partitions, path: Some(path) } => {
                write!(
                    f,
                    "broker {broker}: isr-change-propagation: created {path} naming {partitions} partitions"
                )
            }
            TraceKind::IsrChangePropagation { broker, partitions, path: None } => write!(
                f,
                "broker {broker}: isr-change-propagation: {partitions} ISR changes wait for 5 s without another"
            ),

            TraceKind::Down { broker, missed } => write!(f, "broker {broker}: {missed}"),
            TraceKind::Ping { broker, session, expires_at } => {
                write!(f, "broker {broker} -> zk: ping {session} (expires {}ms)", expires_at / MS)
            }
            TraceKind::PingFailed { broker, error } => {
                write!(f, "broker {broker} -> zk: ping failed: {error}")
            }
            TraceKind::SessionAlive { session, expires_at } => {
                write!(f, "zk: session {session} was pinged; expires {}ms", expires_at / MS)
            }
            TraceKind::SessionExpired { session, deleted, watches_fired } => {
                let paths: Vec<String> = deleted.iter().map(ToString::to_string).collect();
                let paths = paths.join(", ");
                write!(f, "zk: session {session} expired; deleted {paths}; {watches_fired} watches fired")
            }
            TraceKind::SessionGone { session } => write!(f, "zk: session {session} is already gone"),
            TraceKind::WatchFired { broker, event, path, reaction } => {
                write!(f, "broker {broker}: watch fired, {event} {path}; {reaction}")
            }
            TraceKind::NotTheController { broker, path } => {
                write!(f, "broker {broker}: {path} changed but it is not the controller")
            }
            TraceKind::ClaimedController { broker, epoch } => write!(
                f,
                "zk: broker {broker} created /controller and set /controller_epoch = {epoch} in one multi-op"
            ),
            TraceKind::LostTheRace { broker, holder } => {
                write!(f, "zk: broker {broker} lost the race, /controller is held by {holder}; watching it")
            }
            TraceKind::ClaimFailed { broker, error } => {
                write!(f, "zk: broker {broker} could not claim /controller: {error}")
            }
            TraceKind::CannotActAsController { broker, error } => {
                write!(f, "broker {broker}: cannot act as controller: {error}")
            }
            TraceKind::BecameController { broker, epoch, live, steps } => {
                write!(f, "zk: broker {broker} is controller (epoch {epoch}), live brokers {live}; ")?;
                joined(f, steps)
            }
            TraceKind::Controller { broker, finished, steps } => {
                write!(f, "controller {broker}: ")?;
                finished_then(f, finished.as_ref(), steps)
            }
            TraceKind::WorkDropped { epoch } => {
                write!(f, "controller epoch {epoch} is gone; its finished work is dropped")
            }
            TraceKind::Applied { broker, partitions, leader_and_isr, epoch, completes } => {
                let both = if *leader_and_isr { "+LeaderAndIsr" } else { "" };
                write!(
                    f,
                    "broker {broker}: applied UpdateMetadata{both} for {partitions} partitions (controller epoch {epoch})"
                )?;
                completes.map_or(Ok(()), |done| write!(f, "; {done}"))
            }
            TraceKind::StaleEpochRejected { broker, epoch, known } => {
                write!(f, "broker {broker}: rejected request from stale controller epoch {epoch} < {known}")
            }
            TraceKind::RogueAclWrite { topic, acl, change, watches_fired } => write!(
                f,
                "client with ZooKeeper access, no Kafka credentials: create /kafka-acl/Topic/topic-{topic} {acl}, then {change} (world-writable: zookeeper.set.acl=false); no Kafka request, no authorizer asked; {watches_fired} watches fired"
            ),
            TraceKind::RogueWriteFailed { error } => write!(f, "client's ZooKeeper write failed: {error}"),
            TraceKind::AclReadFailed { broker, error } => {
                write!(f, "broker {broker}: AclAuthorizer could not read the ACLs: {error}")
            }
            TraceKind::AclsLoaded { broker, loaded } => {
                write!(f, "broker {broker}: AclAuthorizer cache updated: ")?;
                let each: Vec<String> = loaded
                    .iter()
                    .map(|(topic, acl)| match acl {
                        Some(acl) => format!("topic-{topic} {}", acl.summary()),
                        None => format!("topic-{topic} no ACLs"),
                    })
                    .collect();
                joined(f, &each)
            }
            TraceKind::Authorized { broker, principal, operation, topic, decision } => {
                write!(
                    f,
                    "broker {broker}: may {principal} {} topic-{topic}? {}, {decision}",
                    operation.name(),
                    decision.verdict()
                )
            }
        }
    }
}

impl fmt::Display for Missed {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Missed::Pings => write!(f, "down, stops pinging zk"),
            Missed::Watch { event, path } => write!(f, "down, misses {event} on {path}"),
            Missed::ClaimController => write!(f, "down, its claim of /controller is lost"),
            Missed::ActingAsController => write!(f, "down before it could act as controller"),
            Missed::Request => write!(f, "down, request lost"),
            Missed::Task => write!(f, "down, its scheduled task does not run"),
        }
    }
}

impl fmt::Display for Reaction {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reaction::RacesToCreate => write!(f, "racing to create it"),
            Reaction::ControllerIs(holder) => write!(f, "controller is {holder}"),
            Reaction::NothingToDo => write!(f, "nothing to do"),
            Reaction::ReadsAclChanges { changes } => write!(
                f,
                "its AclAuthorizer reads {changes} new change notification(s) and the ACLs they name"
            ),
        }
    }
}

impl fmt::Display for PushDone {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PushDone::Change => write!(f, "every live broker has the change"),
            PushDone::FullState => write!(f, "every live broker holds the loaded state"),
            PushDone::Failover => write!(f, "every live broker holds the new state"),
        }
    }
}

impl fmt::Display for Holder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Holder::Broker(id) => write!(f, "broker {id}"),
            Holder::Unreadable(data) => write!(f, "unreadable ({data})"),
            Holder::Nobody => write!(f, "nobody"),
            Holder::Unknown(error) => write!(f, "unknown ({error})"),
        }
    }
}

impl fmt::Display for Finished {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Finished::AssignmentsRead { topics } => write!(f, "read the assignments of {topics} topics"),
            Finished::Loaded { count, loaded } => write!(f, "loaded {count} partition states ({loaded})"),
            Finished::Wrote { count, done, total } => {
                write!(f, "wrote {count} state znodes ({done}/{total})")
            }
            Finished::Sent { issued, total } => write!(f, "sent requests for {issued}/{total} partitions"),
            Finished::IsrChangesRead { partitions } => {
                write!(f, "read the ISR changes of {partitions} partitions")
            }
            Finished::Abandoned => write!(f, "finished work of an abandoned task"),
        }
    }
}

impl fmt::Display for StateChange {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            StateChange::RemoveFromIsr { dead } => write!(f, "removing {dead} from the ISRs"),
            StateChange::ElectLeaders => write!(f, "electing leaders"),
        }
    }
}

impl fmt::Display for ControllerStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ControllerStep::Reading { znodes, what: Reading::Assignments { topics } } => {
                write!(f, "reading {znodes} topic znodes (topics {}..{})", topics.start, topics.end)
            }
            ControllerStep::Reading { znodes, what: Reading::States { partitions } } => {
                write!(
                    f,
                    "reading {znodes} partition state znodes ({}..{})",
                    partitions.start, partitions.end
                )
            }
            ControllerStep::Loaded { partitions } => {
                write!(f, "loaded the state of all {partitions} partitions")
            }
            ControllerStep::Rewriting { change, partitions } => {
                write!(f, "{change}: {partitions} partitions")
            }
            ControllerStep::Writing { change, read, written } => {
                write!(f, "{change}: reading {read} state znodes, writing {written}")
            }
            ControllerStep::Ready { partitions, offline } => {
                write!(f, "controller ready with {partitions} partitions; {offline} have no live leader")
            }
            ControllerStep::Sending { partitions, targets } => {
                write!(
                    f,
                    "sending UpdateMetadata+LeaderAndIsr for {partitions} partitions to brokers {targets}"
                )
            }
            ControllerStep::SendingMetadata { partitions, targets } => {
                write!(f, "sending UpdateMetadata for {partitions} partitions to brokers {targets}")
            }
            ControllerStep::Building { partitions, targets, queued } => {
                write!(f, "building requests for {partitions} partitions to {targets}")?;
                if !queued.is_empty() {
                    write!(f, ", queued for {queued} (unreachable, retried every 100 ms)")?;
                }
                Ok(())
            }
            ControllerStep::IsrChangeNotification { notifications, partitions } => {
                write!(
                    f,
                    "IsrChangeNotification: {notifications} notifications naming {partitions} partitions"
                )
            }
            ControllerStep::IsrChangeQueued => write!(f, "IsrChangeNotification queued behind current work"),
            ControllerStep::BrokerChange { live, dead, dropped } => {
                write!(f, "BrokerChange: live {live}, dead {dead}")?;
                if *dropped > 0 {
                    write!(f, "; dropped {dropped} requests queued for them")?;
                }
                Ok(())
            }
            ControllerStep::BrokerIdsUnreadable(error) => write!(f, "cannot read /brokers/ids: {error}"),
            ControllerStep::BrokerChangeQueued => write!(f, "BrokerChange queued behind current work"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{ControllerStep, Finished, TraceKind, TraceLine};
    use crate::harness::MS;
    use crate::zk::{BrokerSet, SessionId};

    #[test]
    fn shows_milliseconds_with_three_decimals() {
        let line = TraceLine { at: 1_234 * MS + 567, kind: TraceKind::NoControllerToKill };
        assert_eq!(
            line.to_string(),
            "t=1234.567ms fault: kill controller, but there is no active controller"
        );
    }

    #[test]
    fn a_controller_line_joins_what_finished_and_what_it_started() {
        let targets: BrokerSet = [1, 2].into_iter().collect();
        let kind = TraceKind::Controller {
            broker: 1,
            finished: Some(Finished::Sent { issued: 9, total: 9 }),
            steps: vec![ControllerStep::Building {
                partitions: 9,
                targets,
                queued: BrokerSet::EMPTY.with(2),
            }],
        };
        assert_eq!(
            kind.to_string(),
            "controller 1: sent requests for 9/9 partitions; building requests for 9 partitions to [1,2], queued for [2] (unreachable, retried every 100 ms)"
        );
        let queued = TraceKind::Controller {
            broker: 1,
            finished: None,
            steps: vec![ControllerStep::BrokerChangeQueued],
        };
        assert_eq!(queued.to_string(), "controller 1: BrokerChange queued behind current work");
    }

    #[test]
    fn pings_are_told_apart_from_the_rest() {
        let ping = TraceKind::Ping { broker: 0, session: SessionId(1), expires_at: 6_000 * MS };
        assert!(ping.is_ping());
        assert_eq!(ping.to_string(), "broker 0 -> zk: ping 0x1 (expires 6000ms)");
        assert!(!TraceKind::SessionGone { session: SessionId(1) }.is_ping());
    }
}
