//! What a driver's calls do to ZooKeeper, the log and the brokers (`MigrationClient`), and the
//! writes and pushes they make.

use super::*;

impl MigrationClient for World {
    fn recover_migration_state(&mut self, state: ZkMigrationLeadershipState) -> ZkMigrationLeadershipState {
        self.zk_requests(ZkRequestKind::Read, 1);
        zk_client::get_or_create_migration_state(&mut self.zk, state).unwrap_or(state)
    }

    fn claim_controller_leadership(
        &mut self,
        state: ZkMigrationLeadershipState,
    ) -> ZkMigrationLeadershipState {
        self.zk_requests(ZkRequestKind::Read, 2);
        self.zk_requests(ZkRequestKind::Write, 1);
        match zk_client::claim_controller_leadership(&mut self.zk, state) {
            Ok(claimed) => {
                self.deliver_watches(claimed.fired);
                claimed.state
            }
            Err(_) => state,
        }
    }

    fn set_migration_state(&mut self, state: ZkMigrationLeadershipState) -> ZkMigrationLeadershipState {
        self.zk_requests(ZkRequestKind::Write, 1);
        zk_client::set_migration_state(&mut self.zk, state).unwrap_or(state)
    }

    fn read_broker_ids(&mut self) -> BTreeSet<i32> {
        self.zk_requests(ZkRequestKind::Read, 1);
        let children = self.zk.get_children(ZnodePath::BrokerIds, None).unwrap_or_default();
        children
            .iter()
            .filter_map(|path| match path {
                ZnodePath::BrokerId(id) => Some(*id as i32),
                _ => None,
            })
            .collect()
    }

    fn brokers_in_assignments(&mut self) -> BTreeSet<i32> {
        self.zk_requests(ZkRequestKind::Read, u64::from(self.layout.topics()));
        let mut named = BrokerSet::EMPTY;
        for p in 0..self.layout.partitions() {
            named = named.union(self.assignment.replica_set(p));
            if named.len() == self.config.brokers {
                break;
            }
        }
        named.iter().map(|b| b as i32).collect()
    }

    /// `beginMigration` (BeginTransaction, waited on), then the reads of `iterateTopics`, each
    /// batch appended when read and waited on, then `completeMigration` at [`Event::CopyEnd`].
    fn start_copy(&mut self, _: &ZkMigrationLeadershipState) {
        let Some((leader, _)) = self.leader else { return };
        let id = self.next_copy;
        self.next_copy += 1;
        self.copying = Some(Copying { id, leader });
        self.append(ControllerWrite::MigrationRecords, MetaRecord::BeginTransaction { name: "ZK Migration" });
        self.cursor += self.config.commit_latency;
        let latency = self.config.commit_latency;
        let (layout, resets) = (self.layout, self.config.sabotage.copy_resets_leader_epochs);
        let mut batches: Vec<(Micros, Rc<[MetaRecord]>)> = Vec::new();
        let report = self.read_topics(|records, at| {
            batches.push((at, records.into_iter().filter_map(|r| copied(r, layout, resets)).collect()));
            at + latency
        });
        self.last_copy = Some(report);
        for (at, records) in batches {
            self.queue.push(at, Event::CopyBatch { copy: id, records });
        }
        self.queue.push(self.cursor, Event::CopyEnd { copy: id });
    }

    fn abort_migration(&mut self) {
        if let Some((id, _)) = self.leader {
            self.queue.push(self.cursor, Event::Fatal { id });
        }
    }

    /// `handleTopicsSnapshot`: ZooKeeper read again in full (`iterateTopics`), and each
    /// partition whose registration differs from the image's written: the whole registration
    /// compared (`PartitionRegistration.equals`), the partition epoch (in ZooKeeper, the state
    /// znode's version) included, so a partition whose changes were written fewer times than
    /// KRaft made them is written again.
    fn write_image(&mut self, state: ZkMigrationLeadershipState) -> ZkMigrationLeadershipState {
        let layout = self.layout;
        let mut in_zk: Vec<(u32, PartitionImage)> = Vec::new();
        self.read_topics(|records, at| {
            for record in records {
                if let Some(MetaRecord::Partition { index, state }) = copied(record, layout, false) {
                    in_zk.push((index, state));
                }
            }
            at
        });
        let image = self.log.image();
        let writes: Vec<StateWrite> = in_zk
            .iter()
            .filter_map(|&(p, zk)| {
                let kraft = image.partitions[p as usize]?;
                (kraft != zk).then(|| state_write(layout, p, kraft))
            })
            .collect();
        self.write_states(state, &writes)
    }

    /// `handleDelta`: each partition the change touched written as the image now holds it.
    fn write_delta(&mut self, state: ZkMigrationLeadershipState) -> ZkMigrationLeadershipState {
        let layout = self.layout;
        let mut writes: Vec<StateWrite> =
            self.last_delta.partitions.iter().map(|(p, kraft)| state_write(layout, p, kraft)).collect();
        if self.config.sabotage.dual_write_drops_a_partition {
            writes.pop();
        }
        self.write_states(state, &writes)
    }

    fn send_full_rpcs(&mut self, zk_controller_epoch: i32) {
        let entries = self.image_entries();
        self.propagate(true, entries, zk_controller_epoch);
    }

    fn send_delta_rpcs(&mut self, zk_controller_epoch: i32) {
        // A broker newly among the targets (registered, unfenced: after a restart too) gets the
        // full state first (`MigrationPropagator.publishMetadata`, `calculateBrokerChanges`).
        let targets = self.rpc_targets();
        self.pushed_to = self.pushed_to.intersection(targets.iter().copied().collect());
        let fresh: Vec<BrokerId> = targets.into_iter().filter(|b| !self.pushed_to.contains(*b)).collect();
        if !fresh.is_empty() {
            let rpc = Rc::new(Rpc {
                full: true,
                zk_epoch: zk_controller_epoch.max(0) as u32,
                entries: self.image_entries(),
            });
            for b in fresh {
                self.pushed_to = self.pushed_to.with(b);
                self.send_rpc(b, rpc.clone(), self.cursor);
            }
        }
        let entries = entries_of(&self.last_delta);
        if !entries.is_empty() {
            self.propagate(false, entries, zk_controller_epoch);
        }
    }
}

impl World {
    /// Fenced writes of partition states, topic by topic: `KRaftMigrationZkWriter` hands each
    /// topic's changed partitions to its own `updateTopicPartitions` (`handleTopicsDelta`,
    /// `handleTopicsSnapshot`), a batch whose last write advances `/migration`, waited on before
    /// the next. The state with `/migration`'s new version; a fenced driver writes nothing more.
    pub(super) fn write_states(
        &mut self,
        mut state: ZkMigrationLeadershipState,
        writes: &[StateWrite],
    ) -> ZkMigrationLeadershipState {
        self.check_isr_changes_raise_leader_epochs(writes);
        let (mut partitions, mut batches) = (0, 0);
        for topic in writes.chunk_by(|a, b| a.topic == b.topic) {
            self.wait_for_zookeeper();
            match zk_client::update_partition_states(&mut self.zk, state, topic, self.cursor) {
                Ok((next, done)) => {
                    (self.cursor, state) = (done, next);
                    (partitions, batches) = (partitions + topic.len(), batches + 1);
                }
                Err(_) => break,
            }
        }
        if batches > 0 {
            self.note(TraceKind::ZkStatesWritten { partitions, batches, done: self.cursor });
        }
        state
    }

    /// `MigrationPropagator`: to each ZooKeeper-mode broker registered with KRaft and unfenced.
    pub(super) fn propagate(&mut self, full: bool, entries: Rc<[(u32, i32, u32)]>, zk_epoch: i32) {
        let rpc = Rc::new(Rpc { full, zk_epoch: zk_epoch.max(0) as u32, entries });
        let targets = self.rpc_targets();
        if full {
            self.pushed_to = targets.iter().copied().collect();
        }
        let (sent_at, pushed_to) = (self.cursor, self.pushed_to);
        for b in targets.into_iter().filter(|b| pushed_to.contains(*b)) {
            self.send_rpc(b, rpc.clone(), sent_at);
        }
    }

    /// The ZooKeeper-mode brokers registered with KRaft as migrating and unfenced.
    pub(super) fn rpc_targets(&self) -> Vec<BrokerId> {
        let image = self.log.image();
        image
            .brokers
            .iter()
            .filter(|(id, r)| {
                r.migrating_zk_broker
                    && !r.fenced
                    && self.brokers[**id as usize].mode == BrokerMode::Migrating
            })
            .map(|(id, _)| *id)
            .collect()
    }
}

/// A change's partitions as UpdateMetadata and a fetch carry them: leader and leader epoch.
pub(super) fn entries_of(delta: &Delta) -> Rc<[(u32, i32, u32)]> {
    delta.partitions.iter().map(|(p, s)| (p, s.leader, s.leader_epoch)).collect()
}

/// A record the copy read, as the log holds it.
pub(super) fn copied(record: CopiedRecord, layout: TopicLayout, resets_epochs: bool) -> Option<MetaRecord> {
    match record {
        CopiedRecord::Topic { topic, .. } => Some(MetaRecord::Topic { topic }),
        CopiedRecord::Partition { topic, partition, isr, leader, leader_epoch, partition_epoch, .. } => {
            let index = layout.index(topic, partition)? as u32;
            let leader_epoch = if resets_epochs { 0 } else { leader_epoch };
            Some(MetaRecord::Partition {
                index,
                state: PartitionImage { leader, leader_epoch, isr, partition_epoch },
            })
        }
    }
}

pub(super) fn state_write(layout: TopicLayout, index: u32, state: PartitionImage) -> StateWrite {
    let (topic, partition) = layout.locate(index);
    StateWrite { topic, partition, leader: state.leader, leader_epoch: state.leader_epoch, isr: state.isr }
}
