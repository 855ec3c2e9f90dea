//! How long each phase of a migration takes at a given size, and how long no controller acts:
//! the whole migration ([`super::scenarios::to_dual_write`]) run without faults or checks, its
//! phases read off the trace.
//!
//! "No controller acts" runs from the moment the ZooKeeper-mode controller resigns (the KRaft
//! controller's claim of `/controller` fired its watch) until every ZooKeeper-mode broker has
//! applied the KRaft controller's first full push: the ZooKeeper-mode controller is gone, the
//! KRaft controller refuses ordinary writes until the copy commits and sends the brokers nothing
//! until the push, so no leader election, ISR change or topic creation is handled in between.
//!
//! Then one change in dual-write: a broker dies and is fenced, moving the leaders it held and
//! shrinking the ISRs it was in, and the change is written to ZooKeeper topic by topic (one
//! `updateTopicPartitions` batch per topic it touched, each waited on).

use crate::harness::{MS, Micros};

use super::driver::DriverNote;
use super::scenarios;
use super::sim::{Action, ActionError, MigrationConfig, MigrationSim, TraceKind};
use super::state::MigrationDriverState;

/// The phases of one migration, in simulated time. A driver's event is traced when it starts,
/// so each phase runs from one event's start to the next's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Phases {
    pub partitions: u32,
    pub topics: u32,
    /// The driver's last check of the brokers (every topic znode read for the brokers its
    /// assignments name), then its claim of `/controller` and its write of `/migration`.
    pub claim: Micros,
    /// The one-time copy: reading ZooKeeper, waiting for batches to commit, in all.
    pub copy_reading: Micros,
    pub copy_committing: Micros,
    pub copy: Micros,
    pub records: usize,
    pub batches: usize,
    /// SYNC_KRAFT_TO_ZK: ZooKeeper read again in full and reconciled.
    pub reconcile: Micros,
    /// From the first full push sent to every ZooKeeper-mode broker having applied it.
    pub first_push: Micros,
    /// From the ZooKeeper-mode controller's resignation to the first push applied everywhere.
    pub no_controller: Micros,
    /// A broker fenced in dual-write: its change's per-topic batches, and the time from the
    /// fence to the last batch written.
    pub fence_batches: usize,
    pub fence_written: Micros,
}

/// The cluster `kraftscope migration` measures: 5 brokers, 3 controllers, `partitions` in topics
/// of `per_topic` partitions, 3 replicas each, no checks.
pub fn config(partitions: u32, per_topic: u32) -> MigrationConfig {
    let per_topic = per_topic.clamp(1, partitions.max(1));
    MigrationConfig {
        brokers: 5,
        topics: partitions.div_ceil(per_topic),
        partitions_per_topic: per_topic,
        checked: false,
        ..MigrationConfig::small()
    }
}

/// Migrates a cluster of `config` to dual-write and reads its phases off the trace.
pub fn measure(config: MigrationConfig, seed: u64) -> Result<Phases, ActionError> {
    let (partitions, topics) = (config.partitions(), config.topics);
    let mut sim = scenarios::run_to_dual_write(config, seed)?;
    let limit = sim.now() + 3_600_000 * MS;
    if !sim.run_until_that(limit, |s| no_controller(s).is_some_and(|(_, until)| until.is_some())) {
        return Err(ActionError("the first push did not reach every broker within an hour".into()));
    }
    let Some((resigned, Some(applied))) = no_controller(&sim) else {
        return Err(ActionError("the trace has no resignation and applied push".into()));
    };
    let trace = sim.trace();
    let when = |found: &dyn Fn(&TraceKind) -> bool| trace.iter().find(|l| found(&l.kind)).map(|l| l.at);
    let transition = |to: MigrationDriverState| move |k: &TraceKind| matches!(k, TraceKind::Driver { note: DriverNote::Transition { to: t, .. }, .. } if *t == to);
    let missing = |what: &str| ActionError(format!("the trace has no {what}"));
    let become_controller =
        when(&transition(MigrationDriverState::BecomeController)).ok_or_else(|| missing("claim"))?;
    let sync = when(&transition(MigrationDriverState::SyncKraftToZk)).ok_or_else(|| missing("reconcile"))?;
    let pushed = when(&|k| matches!(k, TraceKind::Driver { note: DriverNote::PushedFullState { .. }, .. }))
        .ok_or_else(|| missing("push"))?;
    let copy_started = when(&|k| matches!(k, TraceKind::Driver { note: DriverNote::CopyStarted, .. }))
        .ok_or_else(|| missing("copy"))?;
    let report = sim.last_copy().ok_or_else(|| missing("copy"))?.clone();
    let (fenced, fence_batches, written) = fence_in_dual_write(&mut sim)?;
    Ok(Phases {
        partitions,
        topics,
        claim: copy_started - become_controller,
        copy_reading: report.reading,
        copy_committing: report.committing,
        copy: sync - copy_started,
        records: report.records,
        batches: report.batches.len(),
        reconcile: pushed - sync,
        first_push: applied - pushed,
        no_controller: applied - resigned,
        fence_batches,
        fence_written: written - fenced,
    })
}

/// How long no controller acts in `sim`: from the ZooKeeper-mode controller's resignation (the
/// KRaft claim fired its watch) until every ZooKeeper-mode broker applied the KRaft controller's
/// first full push after it (`None` for the end until then; nothing before the resignation).
pub(crate) fn no_controller(sim: &MigrationSim) -> Option<(Micros, Option<Micros>)> {
    let trace = sim.trace();
    let resigned = trace.iter().position(|l| matches!(l.kind, TraceKind::ZkControllerResigned { .. }))?;
    let pushed = trace[resigned..]
        .iter()
        .position(|l| matches!(l.kind, TraceKind::Driver { note: DriverNote::PushedFullState { .. }, .. }))
        .map(|at| resigned + at);
    let applied: Vec<Micros> = pushed.map_or(Vec::new(), |at| {
        let full = |l: &&crate::migration::sim::TraceLine| {
            matches!(l.kind, TraceKind::RpcApplied { full: true, .. })
        };
        trace[at..].iter().filter(full).map(|l| l.at).collect()
    });
    let until =
        (applied.len() >= sim.config().brokers as usize).then(|| applied.iter().copied().max()).flatten();
    Some((trace[resigned].at, until))
}

/// Kills broker 0 and waits until its fence is written to ZooKeeper: when it was fenced, in how
/// many batches its change was written, and when the last was done.
fn fence_in_dual_write(sim: &mut MigrationSim) -> Result<(Micros, usize, Micros), ActionError> {
    let lines = sim.trace().len();
    sim.act(Action::KillBroker(0))?;
    let written = |s: &MigrationSim| {
        s.trace()[lines..].iter().any(|l| matches!(l.kind, TraceKind::ZkStatesWritten { .. }))
    };
    let limit = sim.now() + 3_600_000 * MS;
    if !sim.run_until_that(limit, written) {
        return Err(ActionError(
            "a fenced broker's change was not written to ZooKeeper within an hour".into(),
        ));
    }
    let after = &sim.trace()[lines..];
    let fenced = after.iter().find(|l| matches!(l.kind, TraceKind::BrokerFenced { .. })).map(|l| l.at);
    let batches = after.iter().find_map(|l| match l.kind {
        TraceKind::ZkStatesWritten { batches, done, .. } => Some((batches, done)),
        _ => None,
    });
    match (fenced, batches) {
        (Some(fenced), Some((batches, done))) => Ok((fenced, batches, done)),
        _ => Err(ActionError("the trace has no fence written to ZooKeeper".into())),
    }
}

impl Phases {
    /// The table's head, column for column with [`Phases::row`].
    pub const HEAD: &str = "partitions   topics    claim  copy: reads copy: commits       copy  reconcile  first push  no controller  fence: batches  written";

    /// Its row of `kraftscope migration`'s table, in simulated seconds.
    pub fn row(&self) -> String {
        format!(
            "{:>10} {:>8} {:>8} {:>12} {:>13} {:>10} {:>10} {:>11} {:>14} {:>15} {:>8}",
            self.partitions,
            self.topics,
            seconds(self.claim),
            seconds(self.copy_reading),
            seconds(self.copy_committing),
            seconds(self.copy),
            seconds(self.reconcile),
            seconds(self.first_push),
            seconds(self.no_controller),
            self.fence_batches,
            seconds(self.fence_written),
        )
    }
}

/// Seconds with three decimals.
pub(crate) fn seconds(t: Micros) -> String {
    format!("{}.{:03}", t / (1_000 * MS), t % (1_000 * MS) / MS)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_copy_reads_topic_by_topic_so_many_small_topics_cost_more_than_few_large_ones() {
        let single = measure(config(2_000, 1), 1).expect("migrates");
        let wide = measure(config(2_000, 100), 1).expect("migrates");
        assert_eq!((single.partitions, wide.partitions), (2_000, 2_000));
        assert!(single.copy_reading > 10 * wide.copy_reading, "{single:?} against {wide:?}");
        assert!(single.no_controller >= single.copy + single.reconcile + single.first_push);
        assert_eq!(single.records, 4_000, "a TopicRecord and a PartitionRecord each");
        assert_eq!(single.batches, 20, "in batches of 200");
        // Dual-write goes topic by topic too: the fence of one broker of five touches most
        // single-partition topics, and at most 20 topics of 100.
        assert!(single.fence_batches > 1_000 && wide.fence_batches <= 20, "{single:?} against {wide:?}");
        assert!(single.fence_written > 5 * wide.fence_written, "{single:?} against {wide:?}");
    }
}
