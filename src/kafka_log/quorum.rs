//! `kafka-metadata-quorum describe` read off nodes' directories: the lines of `--status` and
//! the table of `--replication` as Kafka 4.3.1's `MetadataQuorumCommand` prints them
//! (`handleDescribeStatus`, `handleDescribeReplication`, `ToolsUtils.prettyPrintTable`), from
//! what the files hold rather than from a live leader's `DescribeQuorum` answer. What only a
//! live leader keeps in memory (each replica's last fetch and last caught-up times) is printed as
//! Kafka prints an unknown, `-1`; what no file holds but the files imply (the high watermark)
//! is marked as derived.

use crate::harness::{MS, Micros};
use crate::quorum::leader::ReplicaState;
use crate::quorum::{Node, StateMachine};

use super::nodes::{NodeSummary, Nodes, voter_ids};
use super::simulation::dir_uuid;
use super::value::uuid_text;
use super::writer::simulated_cluster_id;

/// A static quorum's voters have no directory id: Kafka prints `Uuid.ZERO_UUID`.
pub const ZERO_UUID: &str = "AAAAAAAAAAAAAAAAAAAAAA";

/// The columns of `describe --replication` (`MetadataQuorumCommand.handleDescribeReplication`).
pub const REPLICATION_HEAD: [&str; 7] =
    ["NodeId", "DirectoryId", "LogEndOffset", "Lag", "LastFetchTimestamp", "LastCaughtUpTimestamp", "Status"];

/// One replica's row of `describe --replication`.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct ReplicaRow {
    pub node_id: i64,
    pub directory_id: String,
    pub log_end_offset: i64,
    /// The leader's log end offset less this one's.
    pub lag: i64,
    /// Milliseconds since the epoch, or -1: unknown.
    pub last_fetch_timestamp: i64,
    pub last_caught_up_timestamp: i64,
    /// `Leader`, `Follower` or `Observer`.
    pub status: &'static str,
}

impl ReplicaRow {
    /// Its cells under [`REPLICATION_HEAD`], as Kafka prints them.
    pub fn cells(&self) -> [String; 7] {
        [
            self.node_id.to_string(),
            self.directory_id.clone(),
            self.log_end_offset.to_string(),
            self.lag.to_string(),
            self.last_fetch_timestamp.to_string(),
            self.last_caught_up_timestamp.to_string(),
            self.status.to_string(),
        ]
    }
}

/// A voter or an observer as `CurrentVoters` and `CurrentObservers` name it.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct Member {
    pub id: i64,
    /// None when Kafka knows none (`Uuid.ZERO_UUID`, a static quorum's voters).
    pub directory_id: Option<String>,
    /// Its endpoints, where the voter set holds them.
    pub endpoints: Vec<String>,
}

impl Member {
    /// As `CurrentVoters` prints it (`MetadataQuorumCommand.Node.toString`): its id, its
    /// directory id unless zero, its endpoints when known.
    pub fn text(&self) -> String {
        let mut text = format!("{{\"id\": {}", self.id);
        if let Some(directory_id) = &self.directory_id {
            text.push_str(&format!(", \"directoryId\": \"{directory_id}\""));
        }
        if !self.endpoints.is_empty() {
            let quoted: Vec<String> = self.endpoints.iter().map(|e| format!("\"{e}\"")).collect();
            text.push_str(&format!(", \"endpoints\": [{}]", quoted.join(", ")));
        }
        text + "}"
    }
}

/// What `describe --status` and `--replication` print.
#[derive(Clone, Debug, PartialEq, Eq)]
#[cfg_attr(not(target_arch = "wasm32"), derive(serde::Serialize))]
pub struct QuorumDescription {
    pub cluster_id: String,
    pub leader_id: i64,
    pub leader_epoch: i64,
    pub high_watermark: i64,
    /// The high watermark was inferred (the offset a majority of the voters' logs reach), not
    /// read: a leader keeps it in memory only.
    pub high_watermark_derived: bool,
    pub max_follower_lag: i64,
    pub max_follower_lag_time_ms: i64,
    pub current_voters: Vec<Member>,
    pub current_observers: Vec<Member>,
    /// The leader first, then the followers, then the observers (Kafka's order).
    pub replicas: Vec<ReplicaRow>,
}

impl QuorumDescription {
    /// The quorum the nodes' files describe: the leader of the latest epoch their
    /// `quorum-state` files name, the voters of the latest voter set (else the quorum-states'
    /// `currentVoters`, else the last LeaderChange's), each replica's log end offset from its
    /// log. An error when no file names a leader, or the leader's files are not among them.
    pub fn of(nodes: &Nodes) -> Result<QuorumDescription, String> {
        let states = nodes.nodes.iter().filter_map(|n| n.quorum_state.as_ref());
        let latest = states.max_by_key(|s| s.leader_epoch).ok_or("no node's quorum-state was read")?;
        let (leader_epoch, leader_id) = (latest.leader_epoch, latest.leader_id);
        let leader_id = leader_id.ok_or(format!("no leader is named for epoch {leader_epoch}"))?;
        let node = |id: i64| nodes.nodes.iter().find(|n| n.node_id() == Some(id));
        let leader =
            node(leader_id).ok_or(format!("the leader, node {leader_id}, is not among the directories"))?;
        let leader_end = leader.log_end.unwrap_or(0);
        let mut voters = voter_ids(&nodes.nodes);
        crate::util::sort::sort(&mut voters);
        voters.dedup();
        let voter_set =
            nodes.nodes.iter().filter_map(|n| n.voters.as_ref()).max_by_key(|(offset, _)| *offset);
        let directory = |id: i64, n: Option<&NodeSummary>| match voter_set {
            // A static quorum (no voter set in the log) knows its voters without directory ids.
            None if voters.contains(&id) => ZERO_UUID.to_string(),
            Some((_, set)) if let Some(v) = set.iter().find(|v| i64::from(v.id) == id) => {
                v.directory_id.clone()
            }
            _ => {
                n.and_then(|n| n.meta.as_ref()?.directory_id.clone()).unwrap_or_else(|| ZERO_UUID.to_string())
            }
        };
        let row = |id: i64, status: &'static str| {
            let end = node(id).and_then(|n| n.log_end).unwrap_or(-1);
            ReplicaRow {
                node_id: id,
                directory_id: directory(id, node(id)),
                log_end_offset: end,
                lag: leader_end - end,
                last_fetch_timestamp: -1,
                last_caught_up_timestamp: -1,
                status,
            }
        };
        let observers: Vec<i64> =
            nodes.nodes.iter().filter_map(NodeSummary::node_id).filter(|id| !voters.contains(id)).collect();
        let mut replicas = vec![row(leader_id, "Leader")];
        replicas.extend(voters.iter().filter(|&&id| id != leader_id).map(|&id| row(id, "Follower")));
        replicas.extend(observers.iter().map(|&id| row(id, "Observer")));
        let member = |&id: &i64| {
            let in_set = voter_set.and_then(|(_, set)| set.iter().find(|v| i64::from(v.id) == id));
            Member {
                id,
                directory_id: Some(directory(id, node(id))).filter(|d| d != ZERO_UUID),
                endpoints: in_set.map_or_else(Vec::new, |v| v.endpoints.clone()),
            }
        };
        let (max_follower_lag, max_follower_lag_time_ms) = follower_lag(&replicas);
        Ok(QuorumDescription {
            cluster_id: leader.meta.as_ref().and_then(|m| m.cluster_id.clone()).unwrap_or_default(),
            leader_id,
            leader_epoch,
            high_watermark: majority_offset(
                &replicas
                    .iter()
                    .filter(|r| r.status != "Observer")
                    .map(|r| r.log_end_offset)
                    .collect::<Vec<_>>(),
            ),
            high_watermark_derived: true,
            max_follower_lag,
            max_follower_lag_time_ms,
            current_voters: voters.iter().map(member).collect(),
            current_observers: observers.iter().map(member).collect(),
            replicas,
        })
    }

    /// What a simulated leader answers `DescribeQuorum` with at `now` (`RaftUtil.toReplicaState`:
    /// the leader's own fetch and caught-up times are now; another replica's what the leader
    /// holds, -1 when it never fetched). Times are simulated milliseconds since the run began
    /// (Kafka's are since the Unix epoch). `None` unless `node` leads.
    pub fn of_leader<S: StateMachine>(node: &Node<S>, now: Micros) -> Option<QuorumDescription> {
        let (voters, observers) = node.replica_states()?;
        let leader_end = node.log().end_offset() as i64;
        let ms = |t: Option<Micros>| t.map_or(-1, |t| (t / MS) as i64);
        let row = |r: &ReplicaState, status: &'static str| {
            let leads = r.key.id == node.id();
            let end = if leads { leader_end } else { r.end_offset.map_or(-1, |o| o as i64) };
            ReplicaRow {
                node_id: i64::from(r.key.id),
                directory_id: uuid_text(&dir_uuid(r.key.dir)),
                log_end_offset: end,
                lag: leader_end - end,
                last_fetch_timestamp: if leads { (now / MS) as i64 } else { ms(r.last_fetch) },
                last_caught_up_timestamp: if leads { (now / MS) as i64 } else { ms(r.last_caught_up) },
                status,
            }
        };
        let leader = voters.iter().find(|r| r.key.id == node.id())?;
        let mut replicas = vec![row(leader, "Leader")];
        replicas.extend(voters.iter().filter(|r| r.key.id != node.id()).map(|r| row(r, "Follower")));
        replicas.extend(observers.iter().map(|r| row(r, "Observer")));
        let (max_follower_lag, max_follower_lag_time_ms) = follower_lag(&replicas);
        let member = |r: &ReplicaState| Member {
            id: i64::from(r.key.id),
            directory_id: r.key.dir.map(|dir| uuid_text(&dir_uuid(Some(dir)))),
            endpoints: Vec::new(),
        };
        Some(QuorumDescription {
            cluster_id: simulated_cluster_id(),
            leader_id: i64::from(node.id()),
            leader_epoch: i64::from(node.epoch()),
            high_watermark: node.high_watermark().map_or(-1, |hw| hw as i64),
            high_watermark_derived: false,
            max_follower_lag,
            max_follower_lag_time_ms,
            current_voters: voters.iter().map(member).collect(),
            current_observers: observers.iter().map(member).collect(),
            replicas,
        })
    }

    /// `describe --status`'s eight lines.
    pub fn status_text(&self) -> String {
        let list = |members: &[Member]| {
            format!("[{}]", members.iter().map(Member::text).collect::<Vec<_>>().join(", "))
        };
        let derived = if self.high_watermark_derived { " *" } else { "" };
        format!(
            "ClusterId:              {}\nLeaderId:               {}\nLeaderEpoch:            {}\nHighWatermark:          {}{derived}\nMaxFollowerLag:         {}\nMaxFollowerLagTimeMs:   {}\nCurrentVoters:          {}\nCurrentObservers:       {}\n",
            self.cluster_id,
            self.leader_id,
            self.leader_epoch,
            self.high_watermark,
            self.max_follower_lag,
            self.max_follower_lag_time_ms,
            list(&self.current_voters),
            list(&self.current_observers),
        )
    }

    /// `describe --replication`'s table: each column as wide as its widest cell, each cell
    /// followed by a tab (`ToolsUtils.prettyPrintTable`).
    pub fn replication_text(&self) -> String {
        let rows: Vec<[String; 7]> = self.replicas.iter().map(ReplicaRow::cells).collect();
        let widths: Vec<usize> = (0..7)
            .map(|i| rows.iter().map(|r| r[i].len()).chain([REPLICATION_HEAD[i].len()]).max().unwrap_or(0))
            .collect();
        let line = |cells: &[String]| {
            cells.iter().zip(&widths).map(|(cell, width)| format!("{cell:width$}\t")).collect::<String>()
                + "\n"
        };
        let mut text = line(&REPLICATION_HEAD.map(str::to_string));
        for row in &rows {
            text.push_str(&line(row));
        }
        text
    }
}

/// `MaxFollowerLag` and `MaxFollowerLagTimeMs` of `replicas` (the leader's row first), as
/// `handleDescribeStatus` derives them: the voter with the lowest log end offset lags the most
/// (the leader itself on a tie, 0 ms); its lag in time is the leader's last caught-up time less
/// its own, -1 when either is unknown.
fn follower_lag(replicas: &[ReplicaRow]) -> (i64, i64) {
    let leader = &replicas[0];
    let voters = replicas.iter().filter(|r| r.status != "Observer");
    let laggard = voters.min_by_key(|r| r.log_end_offset).unwrap_or(leader);
    let time = match (leader.last_caught_up_timestamp, laggard.last_caught_up_timestamp) {
        _ if laggard.node_id == leader.node_id => 0,
        (lead, lag) if lead >= 0 && lag >= 0 => lead - lag,
        _ => -1,
    };
    (leader.log_end_offset - laggard.log_end_offset, time)
}

/// The highest offset a majority of `ends` reach: what the leader's high watermark would be once
/// every voter had fetched as far as its log reaches (`LeaderState.maybeUpdateHighWatermark`
/// takes the voters' fetched offsets, sorted, at the majority's index).
fn majority_offset(ends: &[i64]) -> i64 {
    let mut sorted = ends.to_vec();
    crate::util::sort::sort(&mut sorted);
    sorted.reverse();
    sorted.get(ends.len() / 2).copied().unwrap_or(0)
}
