//! The ZooKeeper-mode controller's work after it wins `/controller`, in Kafka 2.4's order
//! (`KafkaController.onControllerFailover`): cold-load every topic's assignment and then every
//! partition's state znode, push UpdateMetadata and LeaderAndIsr to every live broker (see
//! `push.rs`), take the dead brokers' replicas out of every ISR and elect leaders for the
//! offline partitions (reading and writing each state znode), then push what changed. Work runs
//! in chunks, one event each.

use super::cluster::{Event, ZkCluster};
use super::column::SharedColumn;
use super::failover::FailoverPhase;
use super::partition::{BrokerId, BrokerSet, PartitionState};
use super::path::{TopicLayout, ZnodePath};
use super::store::{SessionId, WatchFired, ZkRequestKind, ZnodeData};
use super::trace::{ControllerStep, Finished, Reading, TraceKind};
use crate::harness::Micros;

/// What the controller's event thread is busy with.
pub(super) enum ControllerTask {
    /// `initializeControllerContext`: every topic's assignment znode (`next_topic..` still to
    /// read, `topics_read` answered), then every partition's state znode; `loaded` partition
    /// states are in memory.
    Loading {
        pass: LoadPass,
        topics_read: u32,
        loaded: u64,
    },
    /// Reading the state znodes of `partitions` and writing back each one `change` alters, a
    /// chunk at a time: `issued` sent, `done` answered.
    Rewriting {
        change: StateChange,
        partitions: Vec<u32>,
        issued: usize,
        done: usize,
    },
    /// Sending UpdateMetadata + LeaderAndIsr for `partitions` (tracked by `pushes[push]`).
    Pushing {
        partitions: Vec<u32>,
        issued: usize,
        push: usize,
    },
    /// Reading ISR change notifications and the states they name (see `isr.rs`).
    ReadingIsrChanges,
    Idle,
}

/// The two passes of the cold load (`getFullReplicaAssignmentForTopics`, then
/// `getTopicPartitionStates` in `updateLeaderAndIsrCache`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum LoadPass {
    Assignments { next_topic: u32 },
    States { next_partition: u32 },
}

/// How the controller rewrites partition state znodes (Kafka 2.4's state machines).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateChange {
    /// `ReplicaStateMachine` to OfflineReplica (`doRemoveReplicasFromIsr`): each replica on a
    /// `dead` broker leaves its partition's ISR, and a dead leader becomes NoLeader.
    RemoveFromIsr { dead: BrokerSet },
    /// `PartitionStateMachine` to OnlinePartition (`doElectLeaderForPartitions`, offline
    /// strategy): the first live ISR replica in assignment order leads.
    ElectLeaders,
}

/// The controller's next stages, in order, after its current task.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Stage {
    /// UpdateMetadata of every partition to every live broker, and LeaderAndIsr to every
    /// online replica (`sendUpdateMetadataRequest`, then `replicaStateMachine.startup`'s
    /// OnlineReplica transitions).
    PushAll,
    Rewrite(StateChange),
    /// "Ready to serve as the new controller" (after `partitionStateMachine.startup`).
    Ready,
    /// UpdateMetadata (with LeaderAndIsr when `leader_and_isr`) for every partition changed
    /// since the last push; `ends_failover` when the failover is over once every live broker
    /// applied it.
    PushChanged {
        ends_failover: bool,
        leader_and_isr: bool,
    },
}

/// The result of a chunk of controller work, delivered when the work completes.
pub(super) enum ChunkDone {
    AssignmentsRead { topics: u32 },
    Loaded(Vec<(u32, PartitionState)>),
    Written { change: StateChange, states: Vec<(u32, PartitionState)>, processed: usize },
    Sent,
    IsrChangesRead { states: Vec<(u32, PartitionState)>, notifications: Vec<ZnodePath> },
}

/// The active controller's memory: the second copy of the truth.
pub(super) struct ActiveController {
    pub broker: BrokerId,
    pub epoch: u32,
    pub session: SessionId,
    /// Brokers it believes alive (registered in ZooKeeper when it last looked).
    pub live: BrokerSet,
    /// Leader/ISR per partition as the controller believes it.
    pub memory: SharedColumn<PartitionState>,
    pub task: ControllerTask,
    /// What it does once the current task is done, the next stage last.
    pub plan: Vec<Stage>,
    /// Partitions rewritten since the last push.
    pub changed: Vec<u32>,
    /// A `/brokers/ids` change arrived while busy; handle it when idle.
    pub broker_change_pending: bool,
    /// An `/isr_change_notification` change arrived while busy; handle it when idle.
    pub isr_change_pending: bool,
}

impl ActiveController {
    /// A controller that has been running for a while and holds `memory`.
    pub(crate) fn steady(
        broker: BrokerId,
        epoch: u32,
        session: SessionId,
        live: BrokerSet,
        memory: SharedColumn<PartitionState>,
    ) -> Self {
        ActiveController {
            broker,
            epoch,
            session,
            live,
            memory,
            task: ControllerTask::Idle,
            plan: Vec::new(),
            changed: Vec::new(),
            broker_change_pending: false,
            isr_change_pending: false,
        }
    }

    /// A new controller about to cold-load `partitions` partitions, then run Kafka 2.4's
    /// `onControllerFailover`: UpdateMetadata to every broker, the replica state machine (dead
    /// replicas out of every ISR), the partition state machine (leaders for offline
    /// partitions), ready, and the LeaderAndIsr/UpdateMetadata of what changed.
    pub(crate) fn loading(
        broker: BrokerId,
        epoch: u32,
        session: SessionId,
        live: BrokerSet,
        brokers: u32,
        partitions: usize,
    ) -> Self {
        let memory = SharedColumn::filled(partitions, PartitionState::UNKNOWN);
        let task = ControllerTask::Loading {
            pass: LoadPass::Assignments { next_topic: 0 },
            topics_read: 0,
            loaded: 0,
        };
        let dead = (0..brokers).filter(|b| !live.contains(*b)).collect();
        let plan = vec![
            Stage::PushChanged { ends_failover: true, leader_and_isr: true },
            Stage::Ready,
            Stage::Rewrite(StateChange::ElectLeaders),
            Stage::Rewrite(StateChange::RemoveFromIsr { dead }),
            Stage::PushAll,
        ];
        ActiveController { task, plan, ..ActiveController::steady(broker, epoch, session, live, memory) }
    }

    /// Whether its memory is complete (not in the middle of a cold load).
    pub(crate) fn loaded(&self) -> bool {
        !matches!(self.task, ControllerTask::Loading { .. })
    }

    fn commit(&mut self, chunk: ChunkDone) -> Finished {
        match (chunk, &mut self.task) {
            (ChunkDone::AssignmentsRead { topics }, ControllerTask::Loading { topics_read, .. }) => {
                *topics_read += topics;
                Finished::AssignmentsRead { topics: *topics_read }
            }
            (ChunkDone::Loaded(states), ControllerTask::Loading { loaded, .. }) => {
                *loaded += states.len() as u64;
                let finished = Finished::Loaded { count: states.len(), loaded: *loaded };
                self.apply(states);
                finished
            }
            (
                ChunkDone::Written { change, states, processed },
                ControllerTask::Rewriting { change: current, done, partitions, .. },
            ) if change == *current => {
                *done += processed;
                let finished = Finished::Wrote { count: states.len(), done: *done, total: partitions.len() };
                self.changed.extend(states.iter().map(|(p, _)| *p));
                self.apply(states);
                finished
            }
            (ChunkDone::Sent, ControllerTask::Pushing { issued, partitions, .. }) => {
                Finished::Sent { issued: *issued, total: partitions.len() }
            }
            (ChunkDone::IsrChangesRead { states, .. }, ControllerTask::ReadingIsrChanges) => {
                self.task = ControllerTask::Idle;
                let finished = Finished::IsrChangesRead { partitions: states.len() };
                self.changed.extend(states.iter().map(|(p, _)| *p));
                self.apply(states);
                finished
            }
            _ => Finished::Abandoned,
        }
    }

    fn apply(&mut self, states: Vec<(u32, PartitionState)>) {
        for (partition, state) in states {
            self.memory.set(partition as usize, state);
        }
    }

    fn next_step(&self, layout: TopicLayout) -> Step {
        match &self.task {
            ControllerTask::Loading { pass: LoadPass::Assignments { next_topic }, .. } => {
                if *next_topic < layout.topics() { Step::ReadAssignments } else { Step::StartReadingStates }
            }
            ControllerTask::Loading { pass: LoadPass::States { next_partition }, .. } => {
                if *next_partition < layout.partitions() { Step::ReadStates } else { Step::FinishLoad }
            }
            ControllerTask::Rewriting { partitions, issued, .. } if *issued < partitions.len() => {
                Step::Rewrite
            }
            ControllerTask::Pushing { partitions, issued, .. } if *issued < partitions.len() => Step::Push,
            ControllerTask::Rewriting { .. } | ControllerTask::Pushing { .. } => Step::NextStage,
            ControllerTask::Idle if !self.plan.is_empty() => Step::NextStage,
            ControllerTask::Idle if self.broker_change_pending => Step::BrokerChange,
            ControllerTask::Idle if self.isr_change_pending => Step::IsrChange,
            ControllerTask::Idle | ControllerTask::ReadingIsrChanges => Step::Wait,
        }
    }
}

enum Step {
    ReadAssignments,
    StartReadingStates,
    ReadStates,
    FinishLoad,
    Rewrite,
    Push,
    NextStage,
    BrokerChange,
    IsrChange,
    Wait,
}

impl ZkCluster {
    /// Starts the controller's next chunk of work at `start`, moving through its tasks.
    pub(super) fn advance_controller(&mut self, start: Micros) -> Vec<ControllerStep> {
        let mut start = start;
        let mut notes = Vec::new();
        loop {
            let layout = self.layout;
            let Some(step) = self.controller.as_ref().map(|c| c.next_step(layout)) else {
                break;
            };
            match step {
                Step::ReadAssignments => notes.extend(self.issue_assignment_chunk(start)),
                Step::StartReadingStates => self.start_reading_states(),
                Step::ReadStates => notes.extend(self.issue_state_chunk(start)),
                Step::FinishLoad => notes.extend(self.finish_loading()),
                Step::Rewrite => notes.extend(self.issue_rewrite_chunk(start)),
                Step::Push => notes.extend(self.issue_push_chunk(start)),
                Step::NextStage => notes.extend(self.next_stage()),
                Step::BrokerChange => {
                    let (note, read_at) = self.process_broker_change(start);
                    start = read_at;
                    notes.extend(note);
                }
                Step::IsrChange => notes.extend(self.process_isr_change(start)),
                Step::Wait => break,
            }
            if matches!(step, Step::ReadAssignments | Step::ReadStates | Step::Rewrite | Step::Push) {
                break;
            }
        }
        notes
    }

    pub(super) fn on_chunk_done(&mut self, epoch: u32, chunk: ChunkDone) -> TraceKind {
        let Some(ctrl) = self.controller.as_mut().filter(|c| c.epoch == epoch) else {
            return TraceKind::WorkDropped { epoch };
        };
        let broker = ctrl.broker;
        if let (ChunkDone::Written { change, states, .. }, Some(f)) = (&chunk, self.failover.as_mut()) {
            let ours = f.new_controller == Some(broker) && f.brokers_updated_at.is_none();
            let count = if ours { states.len() as u64 } else { 0 };
            match change {
                StateChange::RemoveFromIsr { .. } => f.isr_writes += count,
                StateChange::ElectLeaders => f.election_writes += count,
            }
        }
        if let ChunkDone::IsrChangesRead { notifications, .. } = &chunk {
            self.delete_isr_changes(notifications);
        }
        let Some(ctrl) = self.controller.as_mut() else {
            return TraceKind::WorkDropped { epoch };
        };
        let finished = Some(ctrl.commit(chunk));
        let steps = self.advance_controller(self.now);
        TraceKind::Controller { broker, finished, steps }
    }

    /// A chunk of `getFullReplicaAssignmentForTopics`: `getData` of topic znodes, pipelined.
    fn issue_assignment_chunk(&mut self, start: Micros) -> Option<ControllerStep> {
        let ctrl = self.controller.as_ref()?;
        let ControllerTask::Loading { pass: LoadPass::Assignments { next_topic: first }, .. } = ctrl.task
        else {
            return None;
        };
        let epoch = ctrl.epoch;
        let per_topic = self.layout.partitions_per_topic();
        let chunk_topics = (self.config.chunk_partitions / per_topic).max(1);
        let end = first.saturating_add(chunk_topics).min(self.layout.topics());
        for topic in first..end {
            // The topic's partition count comes from the layout; the read is for its cost.
            let _ = self.store.get_data(ZnodePath::Topic(topic), None);
        }
        let reads = u64::from(end - first);
        let partitions = (first..end).map(|topic| u64::from(self.layout.partitions_in(topic))).sum();
        let chunk = ChunkDone::AssignmentsRead { topics: end - first };
        self.load_chunk(start, epoch, reads, partitions, chunk);
        if let Some(ControllerTask::Loading { pass: LoadPass::Assignments { next_topic }, .. }) =
            self.controller.as_mut().map(|c| &mut c.task)
        {
            *next_topic = end;
        }
        Some(ControllerStep::Reading { znodes: reads, what: Reading::Assignments { topics: first..end } })
    }

    /// Issues `reads` pipelined `getData` of the cold load at `start`; `chunk` is done once
    /// they are answered and the controller has processed half the work of `partitions`
    /// partitions (the assignment pass and the state pass each charge half).
    fn load_chunk(&mut self, start: Micros, epoch: u32, reads: u64, partitions: u64, chunk: ChunkDone) {
        let costs = &self.config.costs;
        let processing = partitions * costs.controller_load_per_partition / 2;
        let in_flight = costs.zk_max_in_flight_requests;
        let read = self.store.submit(start, ZkRequestKind::Read, reads, in_flight);
        self.schedule(read.saturating_add(processing), Event::ChunkDone { epoch, chunk });
    }

    fn start_reading_states(&mut self) {
        if let Some(ControllerTask::Loading { pass, .. }) = self.controller.as_mut().map(|c| &mut c.task) {
            *pass = LoadPass::States { next_partition: 0 };
        }
    }

    /// A chunk of `getTopicPartitionStates`: `getData` of partition state znodes, pipelined.
    fn issue_state_chunk(&mut self, start: Micros) -> Option<ControllerStep> {
        let ctrl = self.controller.as_ref()?;
        let ControllerTask::Loading { pass: LoadPass::States { next_partition: first }, .. } = ctrl.task
        else {
            return None;
        };
        let epoch = ctrl.epoch;
        let end = first.saturating_add(self.config.chunk_partitions).min(self.layout.partitions());
        let states: Vec<(u32, PartitionState)> = (first..end).filter_map(|p| self.read_state(p)).collect();
        let reads = u64::from(end - first);
        self.load_chunk(start, epoch, reads, reads, ChunkDone::Loaded(states));
        if let Some(ControllerTask::Loading { pass: LoadPass::States { next_partition }, .. }) =
            self.controller.as_mut().map(|c| &mut c.task)
        {
            *next_partition = end;
        }
        Some(ControllerStep::Reading { znodes: reads, what: Reading::States { partitions: first..end } })
    }

    /// `getData` of one partition's state znode (by partition index).
    pub(super) fn read_state(&mut self, partition: u32) -> Option<(u32, PartitionState)> {
        let path = self.layout.state_path(partition);
        let state = self.store.get_data(path, None).ok()?.partition_state()?;
        Some((partition, state))
    }

    fn finish_loading(&mut self) -> Option<ControllerStep> {
        let now = self.now;
        if let Some(f) = self.failover.as_mut() {
            f.loaded_at.get_or_insert(now);
        }
        let ctrl = self.controller.as_mut()?;
        ctrl.task = ControllerTask::Idle;
        Some(ControllerStep::Loaded { partitions: ctrl.memory.len() })
    }

    /// Starts the controller's next stage, or leaves it idle when its plan is done.
    fn next_stage(&mut self) -> Option<ControllerStep> {
        let ctrl = self.controller.as_mut()?;
        ctrl.task = ControllerTask::Idle;
        match ctrl.plan.pop()? {
            Stage::PushAll => self.start_push((0..self.layout.partitions()).collect(), (true, true), false),
            Stage::Rewrite(change) => {
                let partitions = self.partitions_to_rewrite(change);
                let ctrl = self.controller.as_mut()?;
                let note = ControllerStep::Rewriting { change, partitions: partitions.len() };
                ctrl.task = ControllerTask::Rewriting { change, partitions, issued: 0, done: 0 };
                Some(note)
            }
            Stage::Ready => {
                let now = self.now;
                if let Some(f) = self.failover.as_mut() {
                    f.ready_at.get_or_insert(now);
                }
                let ctrl = self.controller.as_ref()?;
                let live = ctrl.live;
                let offline =
                    ctrl.memory.iter().filter(|s| !s.leader_broker().is_some_and(|l| live.contains(l)));
                Some(ControllerStep::Ready { partitions: ctrl.memory.len(), offline: offline.count() })
            }
            Stage::PushChanged { ends_failover, leader_and_isr } => {
                let mut partitions = std::mem::take(&mut ctrl.changed);
                partitions.sort_unstable();
                partitions.dedup();
                self.start_push(partitions, (false, leader_and_isr), ends_failover)
            }
        }
    }

    /// The partitions a state change reads: for RemoveFromIsr every partition with a replica
    /// on a dead broker (`replicasWithLeadershipInfo`), for ElectLeaders every partition without
    /// a live leader (OfflinePartition).
    fn partitions_to_rewrite(&self, change: StateChange) -> Vec<u32> {
        let Some(ctrl) = self.controller.as_ref() else {
            return Vec::new();
        };
        let live = ctrl.live;
        let assignment = &self.assignment;
        let memory = &ctrl.memory;
        (0..self.layout.partitions())
            .filter(|p| match change {
                StateChange::RemoveFromIsr { dead } => {
                    !assignment.replica_set(*p).intersection(dead).is_empty()
                }
                StateChange::ElectLeaders => {
                    !memory[*p as usize].leader_broker().is_some_and(|l| live.contains(l))
                }
            })
            .collect()
    }

    /// One chunk of a state change: `getTopicPartitionStatesRaw` of its partitions, then
    /// `updateLeaderAndIsr` of the ones it alters (both pipelined).
    fn issue_rewrite_chunk(&mut self, start: Micros) -> Option<ControllerStep> {
        let chunk = self.config.chunk_partitions as usize;
        let ctrl = self.controller.as_mut()?;
        let ControllerTask::Rewriting { change, partitions, issued, .. } = &mut ctrl.task else {
            return None;
        };
        let change = *change;
        let first = *issued;
        let end = (first + chunk).min(partitions.len());
        *issued = end;
        let batch: Vec<u32> = partitions[first..end].to_vec();
        let (epoch, live) = (ctrl.epoch, ctrl.live);
        let mut states = Vec::new();
        let mut fired = Vec::new();
        for partition in &batch {
            states.extend(self.rewrite(*partition, change, epoch, live, &mut fired));
        }
        self.deliver_watches(fired);
        let in_flight = self.config.costs.zk_max_in_flight_requests;
        let (reads, writes) = (batch.len() as u64, states.len() as u64);
        let read = self.store.submit(start, ZkRequestKind::Read, reads, in_flight);
        let written = self.store.submit(read, ZkRequestKind::Write, writes, in_flight);
        let chunk = ChunkDone::Written { change, states, processed: batch.len() };
        self.schedule(written, Event::ChunkDone { epoch, chunk });
        Some(ControllerStep::Writing { change, read: reads, written: writes })
    }

    /// Reads one partition's state znode and writes it back if `change` alters it.
    fn rewrite(
        &mut self,
        partition: u32,
        change: StateChange,
        epoch: u32,
        live: BrokerSet,
        fired: &mut Vec<WatchFired>,
    ) -> Option<(u32, PartitionState)> {
        let (_, old) = self.read_state(partition)?;
        let new = match change {
            StateChange::RemoveFromIsr { dead } => old.without_replicas(dead, epoch)?,
            StateChange::ElectLeaders => self.assignment.elect(partition, old, live, epoch)?,
        };
        let path = self.layout.state_path(partition);
        let (_, watches) = self.store.set_data(path, ZnodeData::PartitionState(new), None).ok()?;
        fired.extend(watches);
        Some((partition, new))
    }

    /// A child watch of the controller's fired (`/brokers/ids`: BrokerChange;
    /// `/isr_change_notification`: IsrChangeNotification): the event is handled at once when the
    /// controller is idle, else queued behind its work, as on 2.4's single event thread.
    pub(super) fn on_controller_watch(&mut self, id: BrokerId, path: ZnodePath) -> TraceKind {
        let Some(ctrl) = self.controller.as_mut().filter(|c| c.broker == id) else {
            return TraceKind::NotTheController { broker: id, path };
        };
        let queued = if path == ZnodePath::IsrChangeNotifications {
            ctrl.isr_change_pending = true;
            ControllerStep::IsrChangeQueued
        } else {
            ctrl.broker_change_pending = true;
            ControllerStep::BrokerChangeQueued
        };
        let steps = if matches!(ctrl.task, ControllerTask::Idle) && ctrl.plan.is_empty() {
            self.advance_controller(self.now)
        } else {
            vec![queued]
        };
        TraceKind::Controller { broker: id, finished: None, steps }
    }

    /// Kafka 2.4's BrokerChange (`processBrokerChange`, then `onBrokerFailure` and
    /// `onReplicasBecomeOffline`): re-read `/brokers/ids` (re-registering the one-shot watch),
    /// elect leaders for the partitions the dead brokers led, take their replicas out of every
    /// ISR, then send what changed. Returns what it started and when the read completes.
    fn process_broker_change(&mut self, start: Micros) -> (Option<ControllerStep>, Micros) {
        let Some(ctrl) = self.controller.as_mut() else {
            return (None, start);
        };
        ctrl.broker_change_pending = false;
        let session = ctrl.session;
        let live = match self.live_brokers_in_zookeeper(session) {
            Ok(live) => live,
            Err(error) => return (Some(ControllerStep::BrokerIdsUnreadable(error)), start),
        };
        let read_at = self.store.submit(start, ZkRequestKind::Read, 1, 1);
        let Some(ctrl) = self.controller.as_mut() else {
            return (None, read_at);
        };
        let dead = ctrl.live.difference(live);
        ctrl.live = live;
        ctrl.plan = vec![
            Stage::PushChanged { ends_failover: false, leader_and_isr: true },
            Stage::Rewrite(StateChange::RemoveFromIsr { dead }),
            Stage::Rewrite(StateChange::ElectLeaders),
        ];
        let dropped = dead.iter().map(|b| self.drop_queue(b)).sum();
        (Some(ControllerStep::BrokerChange { live, dead, dropped }), read_at)
    }

    /// Where the failover the controller is working through stands.
    pub(super) fn controller_phase(&self) -> Option<FailoverPhase> {
        let ctrl = self.controller.as_ref()?;
        let running: BrokerSet = self.brokers.iter().filter(|b| b.alive).map(|b| b.id).collect();
        Some(match &ctrl.task {
            ControllerTask::Loading { topics_read, loaded, .. } => FailoverPhase::LoadingFromZk {
                topics_read: u64::from(*topics_read),
                topics: u64::from(self.layout.topics()),
                read: *loaded,
                total: u64::from(self.layout.partitions()),
            },
            ControllerTask::Rewriting { change, partitions, done, .. } => {
                let (written, total) = (*done as u64, partitions.len() as u64);
                match change {
                    StateChange::RemoveFromIsr { .. } => FailoverPhase::RemovingFromIsr { written, total },
                    StateChange::ElectLeaders => FailoverPhase::ElectingLeaders { written, total },
                }
            }
            ControllerTask::Pushing { .. } | ControllerTask::ReadingIsrChanges | ControllerTask::Idle => {
                let tracker = self.pushes.last()?;
                FailoverPhase::PushingToBrokers {
                    full_state: tracker.full_state,
                    brokers_done: tracker.brokers_done(running),
                    total: tracker.targets.intersection(running).len(),
                }
            }
        })
    }
}
