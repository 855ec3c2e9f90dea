//! The cost model of ZooKeeper mode: every latency and per-item processing cost the simulation
//! charges, with two presets calibrated against published Kafka measurements.

use crate::harness::{MS, Micros};

/// The slow-motion speed of the few milliseconds in which ZooKeeper mode's watches fire and its
/// writes and pushes go out (in the race and in the pains): a message of one network latency
/// (250 us in both presets) then takes 0.625 s of wall time to cross, so the watch can be seen
/// reaching each broker.
pub const MILESTONE_SPEED: f64 = 0.0004;

/// Cost parameters of a ZooKeeper-mode cluster, in virtual time.
///
/// Failover work is linear by construction: the cold load costs
/// `reads x read latency / in-flight + partitions x controller_load_per_partition`
/// (reads = one topic znode per topic plus one state znode per partition), and the full-state
/// push costs `partitions x live brokers x update_metadata_per_partition_per_broker`
/// plus `live replicas x leader_and_isr_per_replica` on the controller.
#[derive(Clone, Debug, PartialEq)]
pub struct ZkCosts {
    /// Round trip of one `getData`/`getChildren`/`exists` request (client to ensemble and back).
    pub zk_read_latency: Micros,
    /// Round trip of one `create`/`setData` request (the ensemble commits it through ZAB first).
    pub zk_write_latency: Micros,
    /// Requests the controller's ZooKeeper client keeps outstanding at once: 1 is the pre-1.1
    /// synchronous one-by-one client, more is the async pipelined client (Kafka 1.1+,
    /// `zookeeper.max.in.flight.requests`).
    pub zk_max_in_flight_requests: u32,
    /// Request-rate ceiling of the ensemble; beyond it requests queue.
    pub zk_max_requests_per_sec: u64,
    /// `zookeeper.session.timeout.ms`: a session not pinged for this long expires and its
    /// ephemeral znodes vanish. Clients ping every third of it.
    pub zk_session_timeout: Micros,
    /// One-way network latency: controller to broker, and ZooKeeper to a watching client.
    pub network_latency: Micros,
    /// Controller work per loaded partition: deserialising the assignment and state znodes and
    /// building the controller context (Kafka's `initializeControllerContext`).
    pub controller_load_per_partition: Micros,
    /// Controller work to build and send one partition's entry of one broker's UpdateMetadata.
    pub update_metadata_per_partition_per_broker: Micros,
    /// Controller work to build and send one partition's entry of a LeaderAndIsr to one of its
    /// replicas.
    pub leader_and_isr_per_replica: Micros,
    /// Broker work to apply one partition entry of an UpdateMetadata or LeaderAndIsr request.
    pub broker_apply_per_partition: Micros,
    /// `replica.lag.time.max.ms`: a follower that has not caught up for this long leaves the
    /// ISR at its leader's next `isr-expiration` check (every half of it).
    pub replica_lag_time_max: Micros,
}

impl ZkCosts {
    /// Kafka before 1.1: the controller reads every znode with a synchronous request, one after
    /// another (Kafka PR #3765, 2017, KAFKA-5642: 100,000 single-partition topics, 5 brokers,
    /// 5-node ensemble, ~58-61 s from `/controller` creation until the controller was ready).
    ///
    /// Calibrated by measuring [`measure_failover`](super::measure_failover) at that size:
    /// 200,000 reads x 290 us plus 100,000 x 8 us of processing gives ~59 s. The session
    /// timeout is Kafka's default of the time (6 s).
    pub fn sync_reads_2017() -> ZkCosts {
        ZkCosts { zk_max_in_flight_requests: 1, ..ZkCosts::async_reads() }
    }

    /// Kafka 1.1 and later: the controller pipelines asynchronous ZooKeeper requests, at most
    /// `zookeeper.max.in.flight.requests` = 10 outstanding (`KafkaConfig.ZkMaxInFlightRequests`,
    /// 1.1 and 2.4).
    ///
    /// Same ensemble and per-item costs as [`ZkCosts::sync_reads_2017`]; only the pipelining
    /// differs. The push costs are estimates fitted to Tencent Cloud's figures for 1,000,000
    /// partitions (Tencent Cloud Middleware, "Scaling Kafka to support millions of partitions":
    /// ~37 s to load them from ZooKeeper, then ~40 s for the brokers to apply them; Kafka
    /// version and layout not given), measured as 10,000 topics of 100 partitions on 5 brokers.
    pub fn async_reads() -> ZkCosts {
        ZkCosts {
            // Fitted: 200,000 synchronous reads of Kafka PR #3765's 100,000 topics at 290 us,
            // plus the processing below, give its ~59 s.
            zk_read_latency: 290,
            // Estimate: one ZAB commit on a LAN ensemble (no public Kafka figure).
            zk_write_latency: MS,
            // Kafka's default in 1.1 and 2.4 (`KafkaConfig.Defaults.ZkMaxInFlightRequests`).
            zk_max_in_flight_requests: 10,
            // Estimate of an ensemble's request ceiling (ZooKeeper's overview charts its
            // throughput falling as the share of writes grows); not reached by one controller.
            zk_max_requests_per_sec: 100_000,
            // Kafka's default before 2.5 (`zookeeper.session.timeout.ms`, 6 s; KIP-537 made it 18 s).
            zk_session_timeout: 6_000 * MS,
            // Estimate: one-way latency inside a data centre.
            network_latency: 250,
            // Fitted with the read latency to Kafka PR #3765's ~59 s.
            controller_load_per_partition: 8,
            // Estimates fitted to Tencent Cloud's ~40 s to apply 1,000,000 partitions (see above).
            update_metadata_per_partition_per_broker: 7,
            leader_and_isr_per_replica: 5,
            broker_apply_per_partition: 10,
            // Kafka's default in 1.1 and 2.4 (`KafkaConfig.Defaults.ReplicaLagTimeMaxMs`).
            replica_lag_time_max: 10_000 * MS,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{MILESTONE_SPEED, MS, ZkCosts};

    /// How long, in wall-clock milliseconds, a ZooKeeper-mode message shown in slow motion should
    /// take to cross its link: as long as the live view's messages take at least.
    const FOLLOWABLE_CROSSING_MS: f64 = 600.0;

    #[test]
    fn a_message_in_slow_motion_takes_a_followable_time_to_cross() {
        for costs in [ZkCosts::sync_reads_2017(), ZkCosts::async_reads()] {
            let wall_ms = costs.network_latency as f64 / MILESTONE_SPEED / MS as f64;
            assert!(wall_ms >= FOLLOWABLE_CROSSING_MS, "a crossing takes {wall_ms} ms of wall time");
        }
    }

    #[test]
    fn presets_differ_only_in_pipelining() {
        let sync = ZkCosts::sync_reads_2017();
        let pipelined = ZkCosts::async_reads();
        assert_eq!(sync.zk_max_in_flight_requests, 1);
        assert!(pipelined.zk_max_in_flight_requests > 1);
        assert_eq!(ZkCosts { zk_max_in_flight_requests: 1, ..pipelined }, sync);
    }
}
