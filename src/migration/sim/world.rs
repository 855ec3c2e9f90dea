//! The world a driver acts on: the brokers, ZooKeeper and its controller, the log, the RPCs and
//! fetches, the faults, and the invariants checked as they happen.

use super::*;

impl World {
    pub(super) fn note(&mut self, kind: TraceKind) {
        if let TraceKind::Violation { invariant, detail } = &kind {
            self.violations.push(Violation { at: self.now, invariant, detail: detail.clone() });
        }
        self.trace.push(TraceLine { at: self.now, kind });
    }

    pub(super) fn violation(&mut self, invariant: &'static str, detail: String) {
        self.note(TraceKind::Violation { invariant, detail });
    }

    pub(super) fn write_behind_lag(&self) -> Option<i64> {
        let node = self.zk.inspect(ZnodePath::Migration)?;
        match node.data {
            ZnodeData::Migration { kraft_metadata_offset, .. } if kraft_metadata_offset >= 0 => {
                Some(self.log.image().highest.offset - kraft_metadata_offset)
            }
            _ => None,
        }
    }

    /// Whether `action` can be taken now.
    pub(super) fn admissible(&self, action: Action) -> Result<(), ActionError> {
        let broker = |b: BrokerId| {
            self.brokers.get(b as usize).ok_or_else(|| {
                ActionError(format!("no broker {b}: brokers are 0 to {}", self.brokers.len() - 1))
            })
        };
        let refuse = |why: &str| Err(ActionError(why.to_string()));
        let after_rollback =
            matches!(action, Action::KillBroker(_) | Action::RestartBroker(_) | Action::BrokerToZkMode(_));
        if self.rolled_back && !after_rollback {
            return refuse("the cluster was rolled back to ZooKeeper mode");
        }
        let in_kraft_mode = self.brokers.iter().position(|b| b.mode == BrokerMode::Kraft);
        match action {
            Action::ProvisionControllers if self.epoch > 0 || !self.log.is_empty() => {
                refuse("the controllers are already provisioned")
            }
            Action::BrokerToMigrationMode(b) if broker(b)?.mode == BrokerMode::Migrating => {
                refuse("that broker is already in migration mode")
            }
            Action::BrokerToMigrationMode(_) if self.finalized => {
                refuse("the migration was finalized: a broker goes back to migration mode only before")
            }
            Action::BrokerToZkMode(_) if !self.rolled_back => {
                refuse("a broker leaves migration mode only after the rollback deleted /controller")
            }
            Action::BrokerToZkMode(b) if broker(b)?.mode == BrokerMode::Zk => {
                refuse("that broker is already in ZooKeeper mode")
            }
            Action::BrokerToKraft(b) if broker(b)?.mode != BrokerMode::Migrating => {
                refuse("only a broker in migration mode moves to KRaft mode")
            }
            Action::BrokerToKraft(_) if self.log.image().migration != ZkMigrationState::Migration => {
                refuse("the copy has not committed (the log does not say MIGRATION)")
            }
            Action::Finalize if self.finalized => refuse("already finalized"),
            Action::Finalize if self.log.image().migration != ZkMigrationState::Migration => {
                refuse("the copy has not committed (the log does not say MIGRATION)")
            }
            Action::RollBack if self.finalized => refuse(
                "the migration was finalized: ZooKeeper is no longer written, so it is behind the log for good",
            ),
            Action::RollBack if let Some(b) = in_kraft_mode => Err(ActionError(format!(
                "broker {b} runs in KRaft mode: restart it in migration mode first, while the controllers run"
            ))),
            Action::KillActiveController if self.leader.is_none() => refuse("no KRaft controller is active"),
            Action::ZkOutage { .. } if self.zk_down.is_some() => refuse("ZooKeeper is already unreachable"),
            Action::ZkOutage { lasting } if lasting == 0 || lasting > 3_600_000 * MS => {
                refuse("an outage lasts 1 ms to an hour")
            }
            Action::KillBroker(b) if !broker(b)?.alive => refuse("that broker is already down"),
            Action::CutFromZk(b) if !broker(b)?.alive => refuse("that broker is down"),
            Action::CutFromZk(b) if broker(b)?.cut_from_zk => {
                refuse("that broker is already cut off ZooKeeper")
            }
            Action::CutFromZk(b) if broker(b)?.session.is_none() => {
                refuse("that broker runs in KRaft mode: it holds no ZooKeeper session")
            }
            Action::RestartBroker(b) if broker(b)?.alive => refuse("that broker is running"),
            _ => Ok(()),
        }
    }

    /// The active controller appends `record` for `write`, unless the PRE_MIGRATION gate refuses
    /// it (`QuorumController.ControllerWriteEvent.run`); its offset.
    pub(super) fn append(&mut self, write: ControllerWrite, record: MetaRecord) -> Option<usize> {
        let (_, epoch) = self.leader?;
        let gate = self.appended_migration;
        let sabotaged =
            self.config.sabotage.fence_in_premigration && write == ControllerWrite::MaybeFenceStaleBroker;
        if !admits(write, gate) && !sabotaged {
            self.note(TraceKind::WriteRefused { write, log: gate });
            return None;
        }
        if self.config.checked && !admits(write, gate) {
            self.violation(
                invariants::PREMIGRATION_WRITES,
                format!("{write:?} appended while the log says {}", gate.name()),
            );
        }
        if let MetaRecord::MigrationState(state) = record {
            self.appended_migration = state;
        }
        let commits_at = self.now.max(self.cursor) + self.config.commit_latency;
        let offset = self.log.append(epoch, record, commits_at);
        if self.commit_scheduled != Some(commits_at) {
            self.commit_scheduled = Some(commits_at);
            self.queue.push(commits_at, Event::Commit);
        }
        Some(offset)
    }

    pub(super) fn driver_image(&self) -> DriverImage {
        let image = self.log.image();
        DriverImage {
            zk_migration_state: image.migration,
            highest: image.highest,
            has_brokers: !image.brokers.is_empty(),
            migrating_zk_brokers: image
                .brokers
                .iter()
                .filter(|(_, b)| b.migrating_zk_broker)
                .map(|(id, _)| *id as i32)
                .collect(),
            quorum_ready: !image.ready_controllers.is_empty()
                && image.ready_controllers.len() == self.config.controllers as usize
                && image.ready_controllers.values().all(|ready| *ready),
        }
    }

    /// A driver call waits out a ZooKeeper outage (`retryRequestsUntilConnected`).
    pub(super) fn wait_for_zookeeper(&mut self) {
        if let Some((from, until)) = self.zk_down
            && self.cursor >= from
            && self.cursor < until
        {
            if let Some((id, _)) = self.leader {
                self.note(TraceKind::DriverBlocked { id, until });
            }
            self.cursor = until;
        }
    }

    /// `count` ZooKeeper requests from the driver, pipelined as Kafka's client pipelines them.
    pub(super) fn zk_requests(&mut self, kind: ZkRequestKind, count: u64) {
        self.wait_for_zookeeper();
        self.cursor = self.zk.submit(self.cursor, kind, count, self.config.costs.zk_max_in_flight_requests);
    }

    /// A roll: a clean shutdown (its ZooKeeper session closed at once), then a start in `mode`.
    pub(super) fn restart_broker(&mut self, b: BrokerId, mode: BrokerMode) {
        let broker = &mut self.brokers[b as usize];
        let was_alive = broker.alive;
        broker.alive = false;
        broker.mode = mode;
        broker.registered = false;
        broker.heartbeats += 1;
        if let Some(session) = broker.session.take() {
            let fired = self.zk.close_session(session);
            self.deliver_watches(fired);
            self.controller_gone(b, self.now);
        }
        if was_alive {
            self.note(TraceKind::BrokerDown { broker: b, clean: true });
        }
        let at = self.now + self.config.restart;
        self.queue.push(at, Event::BrokerUp { broker: b, mode });
    }

    pub(super) fn kill_broker(&mut self, b: BrokerId) {
        let broker = &mut self.brokers[b as usize];
        broker.alive = false;
        broker.heartbeats += 1;
        self.note(TraceKind::BrokerDown { broker: b, clean: false });
        self.controller_gone(b, self.now + self.config.costs.zk_session_timeout + 1);
        // Its ZooKeeper session expires a session timeout after its last ping: its znodes go then.
        if let Some(session) = self.brokers[b as usize].session.take() {
            self.expire_unless_pinged(session);
        }
    }

    /// Until when ZooKeeper is unreachable, while it is.
    pub(super) fn zk_down_until(&self) -> Option<Micros> {
        self.zk_down.filter(|(from, until)| (*from..*until).contains(&self.now)).map(|(_, until)| until)
    }

    /// `session` gets no more pings (its client died or was cut off): the ensemble expires it a
    /// session timeout after the last one it heard, now or, while it is unreachable, when it is
    /// back (its next leader renews every session).
    fn expire_unless_pinged(&mut self, session: SessionId) {
        let heard = self.zk_down_until().unwrap_or(self.now);
        if let Ok(at) = self.zk.ping(session, heard) {
            self.queue.push(at, Event::SessionExpiry { session });
        }
    }

    /// [`Action::CutFromZk`]: no ping reaches the ensemble from now, so the session expires a
    /// session timeout later; the link returns [`ZK_CUT`] later.
    pub(super) fn cut_from_zk(&mut self, b: BrokerId) {
        let broker = &mut self.brokers[b as usize];
        let Some(session) = broker.session else { return };
        broker.cut_from_zk = true;
        self.expire_unless_pinged(session);
        self.queue.push(self.now + ZK_CUT, Event::ZkLinkBack { broker: b, session });
    }

    /// A session's deadline, when its client died or was cut off: the ensemble expires it, its
    /// ephemeral znodes deleted and the watches on them fired (a deleted `/controller` makes
    /// the brokers race for it). A client connected again pings it, so it lives; while the
    /// ensemble is unreachable nothing expires, and the deadline moves past the outage.
    pub(super) fn on_session_expiry(&mut self, session: SessionId) {
        let connected = |b: &Broker| b.session == Some(session) && b.alive && !b.cut_from_zk;
        if self.brokers.iter().any(connected) {
            return;
        }
        if self.zk_down_until().is_some() {
            self.expire_unless_pinged(session);
            return;
        }
        let SessionStatus::Expired { deleted, fired } = self.zk.check_session(session, self.now) else {
            return;
        };
        self.deliver_watches(fired);
        if deleted.contains(&ZnodePath::Controller) {
            self.queue.push(self.now + self.config.costs.network_latency, Event::ZkElection);
        }
        // A cut broker still holds the session it lost (a dead one's was taken when it died).
        if let Some(b) = self.brokers.iter().position(|b| b.session == Some(session)) {
            let b = b as BrokerId;
            self.brokers[b as usize].session = None;
            if self.zk_controller == Some(b) {
                self.zk_controller = None;
            }
            self.note(TraceKind::SessionExpired { broker: b, deleted });
        }
    }

    /// A cut broker reaches the ensemble again. Its session expired: its client opens a new one
    /// (`ZooKeeperClient.reinitialize`), the controller module resigns (`KafkaController`'s
    /// `Expire` event) and registers the broker again before running for controller
    /// (`RegisterBrokerAndReelect`). Its session lived (ZooKeeper was unreachable, so nothing
    /// expired it): it goes on pinging it.
    pub(super) fn on_zk_link_back(&mut self, b: BrokerId, session: SessionId) {
        let broker = &mut self.brokers[b as usize];
        if !broker.alive || !broker.cut_from_zk {
            return;
        }
        broker.cut_from_zk = false;
        let expired = broker.session != Some(session);
        self.note(TraceKind::ZkLinkBack { broker: b, expired });
        if !expired {
            return;
        }
        let session = self.zk.open_session(b, self.now);
        self.register_in_zookeeper(b, session);
    }

    /// `/controller` is free (its holder stopped, or a rollback deleted it): a live
    /// ZooKeeper-mode broker (the seed picks which wins the race) creates it at the next
    /// `/controller_epoch` (`KafkaController.elect`), loads the state znodes and pushes them in
    /// full. After a rollback, a state znode whose `controller_epoch` (the KRaft epoch dual-write
    /// stamped) exceeds the new epoch makes that partition's next election abort (KAFKA-20488).
    pub(super) fn on_zk_election(&mut self) {
        let reaches_zookeeper = |b: &Broker| b.alive && b.session.is_some() && !b.cut_from_zk;
        let live: Vec<BrokerId> =
            (0..self.config.brokers).filter(|b| reaches_zookeeper(&self.brokers[*b as usize])).collect();
        if live.is_empty() || self.zk.inspect(ZnodePath::Controller).is_some() {
            return;
        }
        let winner = live[self.rng.below(live.len() as u64) as usize];
        let epoch = self.zk_controller_epoch() + 1;
        let _ = self.zk.set_data(ZnodePath::ControllerEpoch, ZnodeData::ControllerEpoch(epoch), None);
        let data = ZnodeData::Controller { broker_id: winner, kraft_epoch: None };
        let session = self.brokers[winner as usize].session;
        let _ = self.zk.create(ZnodePath::Controller, data, session);
        let _ = self.zk.exists(ZnodePath::Controller, session);
        self.zk_controller = Some(winner);
        let above = (0..self.layout.partitions())
            .filter_map(|p| self.zk.inspect(self.layout.state_path(p)).and_then(|n| n.partition_state()))
            .filter(|s| s.controller_epoch > epoch)
            .count();
        self.note(TraceKind::ZkControllerElected { broker: winner, zk_epoch: epoch, above_epoch: above });
        let rpc = Rc::new(Rpc { full: true, zk_epoch: epoch, entries: self.zk_entries() });
        for b in live {
            self.send_rpc(b, rpc.clone(), self.now);
        }
    }

    pub(super) fn deliver_watches(&mut self, fired: Vec<WatchFired>) {
        let at = self.now.max(self.cursor) + self.config.costs.network_latency;
        for watch in fired {
            self.queue.push(at, Event::ZkWatch(watch));
        }
    }

    /// The ZooKeeper-mode controller's watch on `/controller`: a KRaft controller took it, so
    /// it resigns (`ControllerChangeHandler` → `maybeResign`).
    pub(super) fn on_zk_watch(&mut self, fired: WatchFired) {
        if fired.path == ZnodePath::Controller && self.zk_controller == Some(fired.watcher) {
            self.zk_controller = None;
            self.note(TraceKind::ZkControllerResigned { broker: fired.watcher });
        }
    }

    /// The ZooKeeper-mode controller's broker stopped: `/controller` goes with its session (at
    /// once on a clean shutdown, at the session's expiry on a crash), and the others race.
    pub(super) fn controller_gone(&mut self, b: BrokerId, at: Micros) {
        if self.zk_controller == Some(b) {
            self.zk_controller = None;
            self.queue.push(at + self.config.costs.network_latency, Event::ZkElection);
        }
    }

    pub(super) fn on_broker_up(&mut self, b: BrokerId, mode: BrokerMode) {
        let broker = &mut self.brokers[b as usize];
        if broker.alive {
            return;
        }
        broker.alive = true;
        broker.mode = mode;
        broker.registered = false;
        broker.zk_epoch = 0;
        broker.start_failed = false;
        broker.cut_from_zk = false;
        self.note(TraceKind::BrokerUp { broker: b, mode });
        if mode != BrokerMode::Kraft {
            let session = self.zk.open_session(b, self.now);
            if !self.register_in_zookeeper(b, session) {
                return;
            }
            // Before the claim, the ZooKeeper controller sends a starting broker the full state
            // from ZooKeeper (`onBrokerStartup`); after it, the KRaft controller's next push.
            if self.zk_controller.is_some() {
                let entries = self.zk_entries();
                let epoch = self.zk_controller_epoch();
                self.send_rpc(b, Rc::new(Rpc { full: true, zk_epoch: epoch, entries }), self.now);
            }
        }
        // With the quorum's address it fetches the whole log as an observer; a KRaft broker
        // loads its image from it.
        if mode != BrokerMode::Zk {
            let entries = if mode == BrokerMode::Kraft { self.image_entries() } else { Rc::from([]) };
            let at = self.now + self.config.costs.network_latency;
            let upto = self.log.image().highest.offset;
            self.queue.push(at, Event::Fetch { broker: b, entries, upto });
            self.heartbeat_now(b);
        }
    }

    /// A starting broker's `/brokers/ids/b` with its new session (`KafkaZkClient.registerBroker`),
    /// then its run for controller when `/controller` is free (`KafkaController.elect`). While
    /// the session of its previous process (one that died) still holds the znode, the create
    /// fails with NODEEXISTS (`CheckedEphemeral.getAfterNodeExists`: the owner is not this
    /// process's session) and the startup with it: the process exits, and the operator must
    /// start it again once that session has expired.
    fn register_in_zookeeper(&mut self, b: BrokerId, session: SessionId) -> bool {
        let data = ZnodeData::BrokerRegistration { broker_id: b };
        if self.zk.create(ZnodePath::BrokerId(b), data, Some(session)).is_err() {
            let held_until = (self.zk.inspect(ZnodePath::BrokerId(b)))
                .and_then(|node| self.zk.session_expires_at(node.ephemeral_owner?));
            let fired = self.zk.close_session(session);
            self.deliver_watches(fired);
            let broker = &mut self.brokers[b as usize];
            broker.alive = false;
            broker.start_failed = true;
            broker.heartbeats += 1;
            self.note(TraceKind::BrokerStartFailed { broker: b, held_until });
            return false;
        }
        self.brokers[b as usize].session = Some(session);
        if self.zk.inspect(ZnodePath::Controller).is_none() {
            self.queue.push(self.now, Event::ZkElection);
        }
        true
    }

    /// `/controller_epoch` as it stands.
    pub(super) fn zk_controller_epoch(&self) -> u32 {
        match self.zk.inspect(ZnodePath::ControllerEpoch).map(|n| n.data) {
            Some(ZnodeData::ControllerEpoch(epoch)) => epoch,
            _ => FIRST_ZK_EPOCH,
        }
    }

    /// Every partition as ZooKeeper's state znodes hold it.
    pub(super) fn zk_entries(&self) -> Rc<[(u32, i32, u32)]> {
        (0..self.layout.partitions())
            .filter_map(|p| {
                let state = self.zk.inspect(self.layout.state_path(p))?.partition_state()?;
                Some((p, state.leader, state.leader_epoch))
            })
            .collect()
    }

    /// Every partition as the log's image holds it.
    pub(super) fn image_entries(&self) -> Rc<[(u32, i32, u32)]> {
        let image = self.log.image();
        (0..self.layout.partitions())
            .filter_map(|p| image.partitions[p as usize].map(|s| (p, s.leader, s.leader_epoch)))
            .collect()
    }

    pub(super) fn heartbeat_now(&mut self, b: BrokerId) {
        let broker = &mut self.brokers[b as usize];
        broker.heartbeats += 1;
        let generation = broker.heartbeats;
        self.queue.push(self.now, Event::Heartbeat { broker: b, generation });
    }

    /// A broker's heartbeat to the active controller (`BrokerLifecycleManager`): it registers
    /// first (`registerBroker`), then heartbeats, and is unfenced once registered and heard from
    /// (`processBrokerHeartbeat`); every `broker.heartbeat.interval.ms`.
    pub(super) fn on_heartbeat(&mut self, b: BrokerId, generation: u64) {
        let broker = &self.brokers[b as usize];
        if !broker.alive || broker.heartbeats != generation {
            return;
        }
        let now = self.now;
        self.queue.push(now + HEARTBEAT_INTERVAL, Event::Heartbeat { broker: b, generation });
        if self.leader.is_none() || self.rolled_back {
            return;
        }
        let migrating = broker.mode == BrokerMode::Migrating;
        if !broker.registered {
            // `ClusterControlManager.zkRegistrationAllowed`: the controllers' migration flag, gone
            // once they are rolled without it to finalize.
            let rules = ControllerMigration {
                enabled: !self.finalized,
                version_migrates: true,
                version_has_transactions: true,
            };
            if let Err(why) = rules.admits_registration(migrating, self.appended_migration) {
                self.note(TraceKind::RegistrationRefused { broker: b, why: why.to_string() });
                return;
            }
            let record = MetaRecord::RegisterBroker { id: b, migrating_zk_broker: migrating };
            if self.append(ControllerWrite::RegisterBroker, record).is_some() {
                self.brokers[b as usize].registered = true;
                self.note(TraceKind::BrokerRegistered { broker: b, migrating });
            }
            return;
        }
        self.brokers[b as usize].last_heartbeat = now;
        self.queue.push(now + BROKER_SESSION_TIMEOUT, Event::StaleCheck { broker: b, heartbeat: now });
        if self.log.image().brokers.get(&b).is_some_and(|r| r.fenced)
            && self
                .append(
                    ControllerWrite::ProcessBrokerHeartbeat,
                    MetaRecord::BrokerFencing { id: b, fenced: false },
                )
                .is_some()
        {
            let leaders_elected = self.elect_leaderless(b);
            self.note(TraceKind::BrokerUnfenced { broker: b, leaders_elected });
        }
    }

    /// With `unfenced`'s unfence, a leader for every partition without one
    /// (`ReplicationControlManager.handleBrokerUnfenced`: `generateLeaderAndIsrUpdates` over
    /// `partitionsWithNoLeader`): a clean election, the first replica in sync and active, which
    /// bumps the leader and partition epochs. The unfenced broker counts as active, as
    /// `brokerToAdd` does there, the image still showing it fenced. Returns how many got one.
    pub(super) fn elect_leaderless(&mut self, unfenced: BrokerId) -> u32 {
        let active: BrokerSet = self
            .log
            .image()
            .brokers
            .iter()
            .filter(|(id, r)| !r.fenced || **id == unfenced)
            .map(|(id, _)| *id)
            .collect();
        let mut elected = 0;
        for p in 0..self.layout.partitions() {
            let Some(state) = self.log.image().partitions[p as usize] else { continue };
            if state.leader != NO_LEADER {
                continue;
            }
            let Some(leader) =
                self.assignment.replicas(p).find(|r| state.isr.contains(*r) && active.contains(*r))
            else {
                continue;
            };
            let next = PartitionImage {
                leader: leader as i32,
                leader_epoch: state.leader_epoch + 1,
                partition_epoch: state.partition_epoch + 1,
                ..state
            };
            if self
                .append(
                    ControllerWrite::ProcessBrokerHeartbeat,
                    MetaRecord::Partition { index: p, state: next },
                )
                .is_some()
            {
                elected += 1;
            }
        }
        elected
    }

    /// `maybeFenceStaleBroker`: no heartbeat for `broker.session.timeout.ms`, so the broker is
    /// fenced and its partitions' leadership moves (`ReplicationControlManager.handleBrokerFenced`).
    pub(super) fn on_stale_check(&mut self, b: BrokerId, heartbeat: Micros) {
        if self.brokers[b as usize].last_heartbeat != heartbeat
            || self.brokers[b as usize].alive && self.brokers[b as usize].registered
            || self.leader.is_none()
            || self.rolled_back
            || self.log.image().brokers.get(&b).is_none_or(|r| r.fenced)
        {
            return;
        }
        let fence = MetaRecord::BrokerFencing { id: b, fenced: true };
        if self.append(ControllerWrite::MaybeFenceStaleBroker, fence).is_none() {
            return;
        }
        let active: BrokerSet = self
            .log
            .image()
            .brokers
            .iter()
            .filter(|(id, r)| !r.fenced && **id != b)
            .map(|(id, _)| *id)
            .collect();
        // `ClusterControlManager.zkRegistrationAllowed`: the controllers' migration flag (and a
        // metadata.version that migrates), until they are rolled without it to finalize.
        let zk_registration_allowed = !self.finalized;
        let (mut moved, mut leaderless, mut isr_bumps) = (0, 0, 0);
        let keeps_epoch = self.config.sabotage.isr_shrink_keeps_leader_epoch;
        for p in 0..self.layout.partitions() {
            let Some(state) = self.log.image().partitions[p as usize] else { continue };
            if !state.isr.contains(b) {
                continue;
            }
            let isr = if state.isr.len() > 1 { state.isr.without(b) } else { state.isr };
            let mut next = PartitionImage { isr, partition_epoch: state.partition_epoch + 1, ..state };
            if state.leader == b as i32 {
                let leader = self.assignment.replicas(p).find(|r| isr.contains(*r) && active.contains(*r));
                next.leader = leader.map_or(NO_LEADER, |r| r as i32);
                next.leader_epoch = state.leader_epoch + 1;
                moved += 1;
                leaderless += usize::from(leader.is_none());
            } else if zk_registration_allowed && isr != state.isr && !keeps_epoch {
                // `PartitionChangeBuilder.triggerLeaderEpochBumpForIsrShrinkIfNeeded`: while
                // ZooKeeper-mode brokers may still register, an ISR shrink bumps the leader epoch
                // too, for their sake (their replica managers need it).
                next.leader_epoch = state.leader_epoch + 1;
                isr_bumps += 1;
            }
            self.append(
                ControllerWrite::MaybeFenceStaleBroker,
                MetaRecord::Partition { index: p, state: next },
            );
        }
        self.note(TraceKind::BrokerFenced { broker: b, leaders_moved: moved, leaderless, isr_bumps });
    }

    pub(super) fn send_rpc(&mut self, b: BrokerId, rpc: Rc<Rpc>, sent_at: Micros) {
        let costs = &self.config.costs;
        let build = rpc.entries.len() as u64 * costs.update_metadata_per_partition_per_broker;
        let apply = rpc.entries.len() as u64 * costs.broker_apply_per_partition;
        let broker = &mut self.brokers[b as usize];
        let arrives = sent_at + build + costs.network_latency;
        let applied = broker.busy_until.max(arrives) + apply;
        broker.busy_until = applied;
        self.queue.push(applied, Event::Rpc { broker: b, rpc });
    }

    /// A ZooKeeper-mode broker applies UpdateMetadata/LeaderAndIsr, fenced by the controller epoch
    /// (`KafkaApis`: STALE_CONTROLLER_EPOCH).
    pub(super) fn on_rpc(&mut self, b: BrokerId, rpc: &Rpc) {
        let broker = &self.brokers[b as usize];
        if !broker.alive || broker.mode == BrokerMode::Kraft {
            return;
        }
        if rpc.zk_epoch < broker.zk_epoch {
            let known = broker.zk_epoch;
            self.note(TraceKind::RpcRejected { broker: b, zk_epoch: rpc.zk_epoch, known });
            return;
        }
        self.brokers[b as usize].zk_epoch = rpc.zk_epoch;
        self.apply_to_cache(b, &rpc.entries);
        let (full, partitions, zk_epoch) = (rpc.full, rpc.entries.len(), rpc.zk_epoch);
        self.note(TraceKind::RpcApplied { broker: b, full, partitions, zk_epoch });
    }

    /// A KRaft broker applies what it fetched.
    pub(super) fn on_fetch(&mut self, b: BrokerId, entries: &[(u32, i32, u32)], upto: i64) {
        let broker = &mut self.brokers[b as usize];
        if !broker.alive || broker.mode == BrokerMode::Zk {
            return;
        }
        broker.replicated = broker.replicated.max(upto);
        if broker.mode == BrokerMode::Kraft && !entries.is_empty() {
            self.apply_to_cache(b, entries);
            self.note(TraceKind::Fetched { broker: b, partitions: entries.len() });
        }
    }

    pub(super) fn apply_to_cache(&mut self, b: BrokerId, entries: &[(u32, i32, u32)]) {
        let checked = self.config.checked;
        let broker = &mut self.brokers[b as usize];
        let mut back = None;
        for &(p, leader, epoch) in entries {
            let seen = broker.seen.get(p as usize).copied().unwrap_or(0);
            if checked && epoch < seen && back.is_none() {
                back = Some((p, seen, epoch));
            }
            broker.cache.set(p as usize, (leader, epoch));
            broker.seen.set(p as usize, seen.max(epoch));
        }
        if let Some((p, seen, epoch)) = back {
            let mode = broker.mode;
            self.violation(
                invariants::LEADER_EPOCHS_NEVER_GO_BACK,
                format!(
                    "broker {b} ({mode}) saw partition {p}'s leader epoch go from {seen} back to {epoch}"
                ),
            );
        }
    }

    /// Before dual-write writes partition states, while brokers may register in ZooKeeper mode:
    /// none changes a partition's ISR in ZooKeeper without raising its leader epoch.
    pub(super) fn check_isr_changes_raise_leader_epochs(&mut self, writes: &[StateWrite]) {
        if !self.config.checked || self.finalized {
            return;
        }
        let lags = writes.iter().find_map(|w| {
            let path = ZnodePath::PartitionState { topic: w.topic, partition: w.partition };
            let zk = self.zk.inspect(path)?.partition_state()?;
            (w.isr != zk.isr && w.leader_epoch <= zk.leader_epoch).then(|| {
                format!(
                    "topic {} partition {}: ISR {} -> {} written at leader epoch {} (ZooKeeper had {})",
                    w.topic, w.partition, zk.isr, w.isr, w.leader_epoch, zk.leader_epoch
                )
            })
        });
        if let Some(detail) = lags {
            self.violation(invariants::ISR_CHANGES_RAISE_LEADER_EPOCHS, detail);
        }
    }

    /// After a dual-write or a reconcile: ZooKeeper's partition states hold the image's leader,
    /// leader epoch and ISR.
    pub(super) fn check_zk_equals_image(&mut self) {
        if !self.config.checked {
            return;
        }
        let image = self.log.image();
        let differs = (0..self.layout.partitions()).find_map(|p| {
            let kraft = image.partitions[p as usize]?;
            let zk = self.zk.inspect(self.layout.state_path(p))?.partition_state()?;
            let same = (zk.leader, zk.leader_epoch, zk.isr) == (kraft.leader, kraft.leader_epoch, kraft.isr);
            (!same).then(|| {
                format!(
                    "partition {p}: ZooKeeper has {zk}, the log leader {} epoch {}",
                    kraft.leader, kraft.leader_epoch
                )
            })
        });
        if let Some(detail) = differs {
            self.violation(invariants::ZK_EQUALS_IMAGE, detail);
        }
    }

    pub(super) fn on_copy_batch(&mut self, copy: u64, records: &[MetaRecord]) {
        if self.copying.as_ref().is_none_or(|c| c.id != copy) {
            return;
        }
        let committed_by = self.now + self.config.commit_latency;
        for record in records {
            self.append(ControllerWrite::MigrationRecords, record.clone());
        }
        self.note(TraceKind::CopyBatch { records: records.len(), committed_by });
    }

    /// `completeMigration`: `ZkMigrationStateRecord(MIGRATION)` and EndTransaction, waited on.
    pub(super) fn on_copy_end(&mut self, copy: u64) {
        if self.copying.as_ref().is_none_or(|c| c.id != copy) {
            return;
        }
        self.append(
            ControllerWrite::MigrationRecords,
            MetaRecord::MigrationState(ZkMigrationState::Migration),
        );
        if let Some(offset) = self.append(ControllerWrite::MigrationRecords, MetaRecord::EndTransaction) {
            let epoch = self.epoch;
            let at = self.now + self.config.commit_latency;
            let to = OffsetAndEpoch { offset: offset as i64, epoch };
            self.queue.push(at, Event::CopyCommitted { copy, to });
        }
    }

    /// ZooKeeper's partition states, read as the copy and the reconcile read them
    /// (`iterateTopics`), from `start`; each batch handed to `batch` with when it was read.
    pub(super) fn read_topics(
        &mut self,
        mut batch: impl FnMut(Vec<CopiedRecord>, Micros) -> Micros,
    ) -> CopyReport {
        self.wait_for_zookeeper();
        let start = self.cursor;
        let report = copy::migrate_topics(&mut self.zk, &self.assignment, start, &mut batch);
        self.cursor = report.done_at;
        report
    }
}
