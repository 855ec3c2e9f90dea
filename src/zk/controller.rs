//! The ZooKeeper-mode controller's work after it wins `/controller`: cold-load every topic and
//! partition state znode, elect leaders and write each changed state znode, then push
//! UpdateMetadata and LeaderAndIsr to every live broker (see `push.rs`). Work runs in
//! chunks, one event each.

use super::cluster::{Event, ZkCluster};
use super::column::SharedColumn;
use super::failover::FailoverPhase;
use super::partition::{BrokerId, BrokerSet, PartitionState};
use super::path::ZnodePath;
use super::store::{SessionId, WatchFired, ZkRequestKind, ZnodeData};
use super::trace::{ControllerStep, Finished, TraceKind};
use crate::harness::Micros;

/// What the controller's event thread is busy with.
pub(super) enum ControllerTask {
    /// Reading topics `next_topic..` from ZooKeeper; `loaded` partition states are in memory.
    Loading {
        next_topic: u32,
        loaded: u64,
    },
    /// Electing leaders for `partitions` and writing their state znodes one by one.
    ElectingLeaders {
        partitions: Vec<u32>,
        issued: usize,
        done: usize,
        then: PushScope,
    },
    /// Sending UpdateMetadata + LeaderAndIsr for `partitions` (tracked by `pushes[push]`).
    Pushing {
        partitions: Vec<u32>,
        issued: usize,
        push: usize,
    },
    Idle,
}

/// Which partitions the push after an election covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum PushScope {
    /// Full state, as after a controller failover.
    AllPartitions,
    /// Only the partitions just re-elected, as after a broker death.
    Elected,
}

/// The result of a chunk of controller work, delivered when the work completes.
pub(super) enum ChunkDone {
    Loaded(Vec<(u32, PartitionState)>),
    Written { states: Vec<(u32, PartitionState)>, processed: usize },
    Sent,
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
    /// A `/brokers/ids` change arrived while busy; handle it when idle.
    pub broker_change_pending: bool,
}

impl ActiveController {
    /// A controller that has been running for a while and holds `memory`.
    pub fn steady(
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
            broker_change_pending: false,
        }
    }

    /// A new controller about to cold-load `partitions` partitions.
    pub fn loading(
        broker: BrokerId,
        epoch: u32,
        session: SessionId,
        live: BrokerSet,
        partitions: usize,
    ) -> Self {
        let memory = SharedColumn::filled(partitions, PartitionState::UNKNOWN);
        let task = ControllerTask::Loading { next_topic: 0, loaded: 0 };
        ActiveController { task, ..ActiveController::steady(broker, epoch, session, live, memory) }
    }

    /// Whether its memory is complete (not in the middle of a cold load).
    pub fn loaded(&self) -> bool {
        !matches!(self.task, ControllerTask::Loading { .. })
    }

    fn commit(&mut self, chunk: ChunkDone) -> Finished {
        match (chunk, &mut self.task) {
            (ChunkDone::Loaded(states), ControllerTask::Loading { loaded, .. }) => {
                *loaded += states.len() as u64;
                let finished = Finished::Loaded { count: states.len(), loaded: *loaded };
                self.apply(states);
                finished
            }
            (
                ChunkDone::Written { states, processed },
                ControllerTask::ElectingLeaders { done, partitions, .. },
            ) => {
                *done += processed;
                let finished = Finished::Wrote { count: states.len(), done: *done, total: partitions.len() };
                self.apply(states);
                finished
            }
            (ChunkDone::Sent, ControllerTask::Pushing { issued, partitions, .. }) => {
                Finished::Sent { issued: *issued, total: partitions.len() }
            }
            _ => Finished::Abandoned,
        }
    }

    fn apply(&mut self, states: Vec<(u32, PartitionState)>) {
        for (partition, state) in states {
            self.memory.set(partition as usize, state);
        }
    }

    fn next_step(&self, topics: u32) -> Step {
        match &self.task {
            ControllerTask::Loading { next_topic, .. } if *next_topic < topics => Step::Load,
            ControllerTask::Loading { .. } => Step::FinishLoad,
            ControllerTask::ElectingLeaders { partitions, issued, .. } if *issued < partitions.len() => {
                Step::Write
            }
            ControllerTask::ElectingLeaders { .. } => Step::StartPush,
            ControllerTask::Pushing { partitions, issued, .. } if *issued < partitions.len() => Step::Push,
            ControllerTask::Pushing { .. } => Step::FinishPush,
            ControllerTask::Idle if self.broker_change_pending => Step::BrokerChange,
            ControllerTask::Idle => Step::Wait,
        }
    }
}

enum Step {
    Load,
    FinishLoad,
    Write,
    StartPush,
    Push,
    FinishPush,
    BrokerChange,
    Wait,
}

impl ZkCluster {
    /// Starts the controller's next chunk of work at `start`, moving through its tasks.
    pub(super) fn advance_controller(&mut self, start: Micros) -> Vec<ControllerStep> {
        let mut start = start;
        let mut notes = Vec::new();
        loop {
            let topics = self.layout.topics();
            let Some(step) = self.controller.as_ref().map(|c| c.next_step(topics)) else {
                break;
            };
            match step {
                Step::Load => notes.extend(self.issue_load_chunk(start)),
                Step::FinishLoad => notes.extend(self.finish_loading()),
                Step::Write => notes.extend(self.issue_write_chunk(start)),
                Step::StartPush => notes.extend(self.start_push()),
                Step::Push => notes.extend(self.issue_push_chunk(start)),
                Step::FinishPush => notes.push(self.finish_push()),
                Step::BrokerChange => {
                    let (note, read_at) = self.process_broker_change(start);
                    start = read_at;
                    notes.extend(note);
                }
                Step::Wait => break,
            }
            if matches!(step, Step::Load | Step::Write | Step::Push) {
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
        let finished = Some(ctrl.commit(chunk));
        let steps = self.advance_controller(self.now);
        TraceKind::Controller { broker, finished, steps }
    }

    fn issue_load_chunk(&mut self, start: Micros) -> Option<ControllerStep> {
        let ctrl = self.controller.as_ref()?;
        let ControllerTask::Loading { next_topic: first, .. } = ctrl.task else {
            return None;
        };
        let epoch = ctrl.epoch;
        let per_topic = self.layout.partitions_per_topic();
        let chunk_topics = (self.config.chunk_partitions / per_topic).max(1);
        let end = first.saturating_add(chunk_topics).min(self.layout.topics());
        let mut states = Vec::new();
        let mut reads = 0;
        for topic in first..end {
            let partitions = self.read_topic_assignment(topic);
            reads += 1 + u64::from(partitions);
            for partition in 0..partitions {
                states.extend(self.read_partition_state(topic, partition));
            }
        }
        let costs = &self.config.costs;
        let processing = states.len() as u64 * costs.controller_load_per_partition;
        let in_flight = costs.zk_max_in_flight_requests;
        let read = self.store.submit(start, ZkRequestKind::Read, reads, in_flight);
        let chunk = ChunkDone::Loaded(states);
        self.schedule(read.saturating_add(processing), Event::ChunkDone { epoch, chunk });
        if let Some(ControllerTask::Loading { next_topic, .. }) =
            self.controller.as_mut().map(|c| &mut c.task)
        {
            *next_topic = end;
        }
        Some(ControllerStep::Reading { znodes: reads, topics: first..end })
    }

    /// `getData("/brokers/topics/<t>")`: the topic's partition count (0 if unreadable).
    fn read_topic_assignment(&mut self, topic: u32) -> u32 {
        match self.store.get_data(ZnodePath::Topic(topic), None).map(|n| n.data) {
            Ok(ZnodeData::TopicAssignment { partitions }) => partitions,
            _ => 0,
        }
    }

    fn read_partition_state(&mut self, topic: u32, partition: u32) -> Option<(u32, PartitionState)> {
        let index = self.layout.index(topic, partition)?;
        let path = ZnodePath::PartitionState { topic, partition };
        let state = self.store.get_data(path, None).ok()?.partition_state()?;
        Some((index as u32, state))
    }

    fn finish_loading(&mut self) -> Option<ControllerStep> {
        let now = self.now;
        if let Some(f) = self.failover.as_mut() {
            f.ready_at.get_or_insert(now);
        }
        let ctrl = self.controller.as_mut()?;
        let live = ctrl.live;
        let leaderless: Vec<u32> = ctrl
            .memory
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.leader_broker().is_some_and(|l| live.contains(l)))
            .map(|(i, _)| i as u32)
            .collect();
        let note = ControllerStep::Ready { partitions: ctrl.memory.len(), leaderless: leaderless.len() };
        ctrl.task = ControllerTask::ElectingLeaders {
            partitions: leaderless,
            issued: 0,
            done: 0,
            then: PushScope::AllPartitions,
        };
        Some(note)
    }

    fn issue_write_chunk(&mut self, start: Micros) -> Option<ControllerStep> {
        let chunk = self.config.chunk_partitions as usize;
        let ctrl = self.controller.as_mut()?;
        let ControllerTask::ElectingLeaders { partitions, issued, .. } = &mut ctrl.task else {
            return None;
        };
        let first = *issued;
        let end = (first + chunk).min(partitions.len());
        *issued = end;
        let batch: Vec<u32> = partitions[first..end].to_vec();
        let (epoch, live) = (ctrl.epoch, ctrl.live);
        let mut states = Vec::new();
        let mut fired = Vec::new();
        for partition in &batch {
            states.extend(self.elect_and_write(*partition, epoch, live, &mut fired));
        }
        self.deliver_watches(fired);
        let costs = &self.config.costs;
        let writes = states.len() as u64;
        let in_flight = costs.zk_max_in_flight_requests;
        let written = self.store.submit(start, ZkRequestKind::Write, writes, in_flight);
        let chunk = ChunkDone::Written { states, processed: batch.len() };
        self.schedule(written, Event::ChunkDone { epoch, chunk });
        Some(ControllerStep::Writing { znodes: writes })
    }

    /// Elects a leader for one partition and writes its state znode if anything changed.
    fn elect_and_write(
        &mut self,
        partition: u32,
        epoch: u32,
        live: BrokerSet,
        fired: &mut Vec<WatchFired>,
    ) -> Option<(u32, PartitionState)> {
        let old = self.controller.as_ref()?.memory[partition as usize];
        let new = self.assignment.elect(partition, old, live, epoch);
        if new.leader == old.leader && new.isr == old.isr {
            return None;
        }
        let path = self.layout.state_path(partition);
        let (_, watches) = self.store.set_data(path, ZnodeData::PartitionState(new), None).ok()?;
        fired.extend(watches);
        Some((partition, new))
    }

    pub(super) fn on_broker_change(&mut self, id: BrokerId) -> TraceKind {
        let Some(ctrl) = self.controller.as_mut().filter(|c| c.broker == id) else {
            return TraceKind::BrokerChangeNotForUs { broker: id };
        };
        ctrl.broker_change_pending = true;
        let steps = if matches!(ctrl.task, ControllerTask::Idle) {
            self.advance_controller(self.now)
        } else {
            vec![ControllerStep::BrokerChangeQueued]
        };
        TraceKind::Controller { broker: id, finished: None, steps }
    }

    /// Kafka's BrokerChange handling: re-read `/brokers/ids` (re-registering the one-shot
    /// watch), then re-elect every partition with a dead broker in its ISR. Returns what it
    /// started and when the read completes.
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
        let affected: Vec<u32> = ctrl
            .memory
            .iter()
            .enumerate()
            .filter(|(_, s)| !s.isr.intersection(dead).is_empty())
            .map(|(i, _)| i as u32)
            .collect();
        let note = ControllerStep::BrokerChange { live, dead, affected: affected.len() };
        ctrl.task = ControllerTask::ElectingLeaders {
            partitions: affected,
            issued: 0,
            done: 0,
            then: PushScope::Elected,
        };
        (Some(note), read_at)
    }

    /// Where the failover the controller is working through stands.
    pub(super) fn controller_phase(&self) -> Option<FailoverPhase> {
        let ctrl = self.controller.as_ref()?;
        let running: BrokerSet = self.brokers.iter().filter(|b| b.alive).map(|b| b.id).collect();
        Some(match &ctrl.task {
            ControllerTask::Loading { loaded, .. } => {
                FailoverPhase::LoadingFromZk { read: *loaded, total: u64::from(self.layout.partitions()) }
            }
            ControllerTask::ElectingLeaders { partitions, done, .. } => {
                FailoverPhase::ElectingLeaders { written: *done as u64, total: partitions.len() as u64 }
            }
            ControllerTask::Pushing { .. } | ControllerTask::Idle => {
                let tracker = self.pushes.iter().rev().find(|t| t.full_state)?;
                FailoverPhase::PushingToBrokers {
                    brokers_done: tracker.brokers_done(running),
                    total: tracker.targets.intersection(running).len(),
                }
            }
        })
    }
}
