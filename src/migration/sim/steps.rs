//! The operator's steps and faults as they are carried out: provisioning, rolls, finalizing
//! and rolling back, and a controller's stop.

use super::*;

impl MigrationSim {
    pub(super) fn on_action(&mut self, action: Action) {
        if let Err(ActionError(why)) = self.world.admissible(action) {
            self.world.note(TraceKind::Refused { action, why });
            return;
        }
        self.world.note(TraceKind::Operator(action));
        let now = self.world.now;
        match action {
            Action::ProvisionControllers => {
                for c in &mut self.controllers {
                    c.alive = true;
                    c.driver = Some(MigrationDriver::new(c.id, self.world.rng.fork()));
                }
                let ids = self.controllers.iter().map(|c| c.id).collect();
                self.world.note(TraceKind::ControllersStarted { ids });
                let backoff = self.world.rng.below(ELECTION_BACKOFF_MAX);
                self.world.queue.push(now + ELECTION_TIMEOUT + backoff, Event::Elect { after_epoch: 0 });
            }
            Action::BrokerToMigrationMode(b) => self.world.restart_broker(b, BrokerMode::Migrating),
            Action::BrokerToZkMode(b) => self.world.restart_broker(b, BrokerMode::Zk),
            Action::BrokerToKraft(b) => self.world.restart_broker(b, BrokerMode::Kraft),
            Action::RestartBroker(b) => {
                let mode = self.world.brokers[b as usize].mode;
                self.world.queue.push(now, Event::BrokerUp { broker: b, mode });
            }
            Action::KillBroker(b) => self.world.kill_broker(b),
            Action::CutFromZk(b) => self.world.cut_from_zk(b),
            Action::ZkOutage { lasting } => {
                let until = now + lasting;
                self.world.zk_down = Some((now, until));
                self.world.note(TraceKind::ZkDown { until });
                self.world.queue.push(until, Event::ZkBack);
            }
            Action::KillActiveController => {
                if let Some((id, _)) = self.world.leader {
                    self.stop_controller(id);
                    let restart = self.world.config.restart;
                    self.world.queue.push(now + restart, Event::ControllerUp { id });
                }
            }
            Action::Finalize => self.finalize(),
            Action::RollBack => self.roll_back(),
        }
    }

    /// A controller's process stops: its driver with it; a leader leaves the quorum leaderless
    /// until the others' fetch timeout and an election.
    pub(super) fn stop_controller(&mut self, id: i32) {
        let Some(i) = self.controller_index(id) else { return };
        let c = &mut self.controllers[i];
        c.alive = false;
        c.driver = None;
        c.inbox.clear();
        c.poll_generation += 1;
        c.free_at = 0;
        c.turn_scheduled = false;
        self.world.note(TraceKind::ControllerDown { id });
        if self.world.leader.is_some_and(|(leader, _)| leader == id) {
            self.world.leader = None;
            if let Some(copying) = self.world.copying.take() {
                self.world.note(TraceKind::CopyLost { with_leader: copying.leader });
            }
            let backoff = self.world.rng.below(ELECTION_BACKOFF_MAX);
            let at = self.world.now + FETCH_TIMEOUT + backoff;
            self.world.queue.push(at, Event::Elect { after_epoch: self.world.epoch });
        }
    }

    /// Each controller restarted without the flag, the leader last: its successor, activated
    /// without the flag on a log saying MIGRATION, writes POST_MIGRATION.
    pub(super) fn finalize(&mut self) {
        for c in &mut self.controllers {
            c.migration.enabled = false;
            c.driver = None;
            c.inbox.clear();
            c.poll_generation += 1;
        }
        if let Some((id, _)) = self.world.leader {
            self.stop_controller(id);
            let now = self.world.now;
            self.world.queue.push(now + self.world.config.restart, Event::ControllerUp { id });
        }
    }

    /// Kafka's rollback before finalizing (ops.html): brokers back in ZooKeeper mode, the
    /// controllers deprovisioned, `/controller` and `/migration` deleted; then the brokers race
    /// for `/controller` and the winner loads the state znodes, which dual-write kept.
    pub(super) fn roll_back(&mut self) {
        for id in self.controllers.iter().map(|c| c.id).collect::<Vec<_>>() {
            if self.controller(id).is_some_and(|c| c.alive) {
                self.stop_controller(id);
            }
        }
        let w = &mut self.world;
        w.rolled_back = true;
        w.leader = None;
        w.copying = None;
        for znode in [ZnodePath::Controller, ZnodePath::Migration] {
            let _ = w.zk.delete(znode, None);
        }
        // Every broker in migration mode runs Kafka's ZooKeeper controller code (`KafkaServer`
        // starts `KafkaController` whatever the flag) and watches `/controller`: its deletion
        // fires `ControllerChangeHandler.handleDeletion`, `Reelect`, and `elect()` races to
        // create it, one watch delivery later.
        let at = w.now + w.config.costs.network_latency;
        w.queue.push(at, Event::ZkElection);
    }
}
