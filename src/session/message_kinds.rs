//! Every kind of message the drawing can show, with its label, colour and meaning: one table
//! that the drawing, its hover titles, the legend and the screen-reader names all read, so no
//! label goes unexplained.

use super::picture::MessagePicture;

/// How one message kind is drawn and explained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MessageKind {
    /// The kind as the core names it (`Message::kind`, `ControllerRpc::kind`).
    pub kind: &'static str,
    /// The short label drawn beside the dot.
    pub label: &'static str,
    pub colour: &'static str,
    /// A response is drawn as a ring, a request as a filled dot.
    pub response: bool,
    pub meaning: &'static str,
}

const fn kind(
    kind: &'static str,
    label: &'static str,
    colour: &'static str,
    response: bool,
    meaning: &'static str,
) -> MessageKind {
    MessageKind { kind, label, colour, response, meaning }
}

const PRE_VOTE: &str = "#CC79A7";
const VOTE: &str = "#882255";
const EPOCH: &str = "#E69F00";
const FETCH: &str = "#0072B2";
const DIVERGING: &str = "#D55E00";
const SNAPSHOT: &str = "#009E73";
const BROKER: &str = "#555555";
const ALTER: &str = "#56B4E9";
const VOTERS: &str = "#117733";

/// Every drawable kind, in legend order.
pub const MESSAGE_KINDS: [MessageKind; 28] = [
    kind(
        "PreVote",
        "PV",
        PRE_VOTE,
        false,
        "PreVote request: would you vote for me? (KIP-996, no epoch bump)",
    ),
    kind("PreVoteResponse", "PVR", PRE_VOTE, true, "PreVote response: yes or no"),
    kind("Vote", "V", VOTE, false, "Vote request from a candidate, in its new epoch"),
    kind("VoteResponse", "VR", VOTE, true, "Vote response: granted or not"),
    kind("BeginQuorumEpoch", "BQE", EPOCH, false, "BeginQuorumEpoch: the new leader announces itself"),
    kind("BeginQuorumEpochResponse", "BQR", EPOCH, true, "BeginQuorumEpoch response"),
    kind("EndQuorumEpoch", "EQE", EPOCH, false, "EndQuorumEpoch: the leader resigns; elect another now"),
    kind(
        "EndQuorumEpochResponse",
        "EQR",
        EPOCH,
        true,
        "EndQuorumEpoch response: the resignation is acknowledged",
    ),
    kind("Fetch", "F", FETCH, false, "Fetch: a follower or broker pulls the log from this offset"),
    kind(
        "FetchResponse",
        "FR",
        FETCH,
        true,
        "Fetch response: the records after that offset and the high watermark",
    ),
    kind(
        "DivergingEpoch",
        "DE",
        DIVERGING,
        true,
        "Fetch response DivergingEpoch: your log differs; truncate to this offset",
    ),
    kind(
        "SnapshotId",
        "SID",
        SNAPSHOT,
        true,
        "Fetch response SnapshotId: that offset is gone; fetch this snapshot instead",
    ),
    kind("FetchSnapshot", "FS", SNAPSHOT, false, "FetchSnapshot: ask for a chunk of the snapshot"),
    kind("FetchSnapshotResponse", "FSR", SNAPSHOT, true, "FetchSnapshot response: a snapshot chunk"),
    kind("BrokerRegistration", "REG", BROKER, false, "BrokerRegistration: a broker joins the cluster"),
    kind(
        "BrokerRegistrationResponse",
        "REGR",
        BROKER,
        true,
        "BrokerRegistration response: the broker's epoch",
    ),
    kind("BrokerHeartbeat", "HB", BROKER, false, "BrokerHeartbeat: I am alive, at this metadata offset"),
    kind(
        "BrokerHeartbeatResponse",
        "HBR",
        BROKER,
        true,
        "BrokerHeartbeat response: fenced or not, shut down or not",
    ),
    kind("AlterPartition", "AP", ALTER, false, "AlterPartition: a partition leader changes its ISR"),
    kind("AlterPartitionResponse", "APR", ALTER, true, "AlterPartition response"),
    kind(
        "ApiVersions",
        "AV",
        VOTERS,
        false,
        "ApiVersions: the leader asks a controller it is adding which kraft.version it supports",
    ),
    kind("ApiVersionsResponse", "AVR", VOTERS, true, "ApiVersions response: the kraft.version range"),
    kind(
        "UpdateRaftVoter",
        "UV",
        VOTERS,
        false,
        "UpdateRaftVoter: a voter tells a new leader its directory id and kraft.version range",
    ),
    kind("UpdateRaftVoterResponse", "UVR", VOTERS, true, "UpdateRaftVoter response: NONE or an error"),
    kind(
        "AddRaftVoter",
        "AV+",
        VOTERS,
        false,
        "AddRaftVoter: an auto-joining controller asks to become a voter",
    ),
    kind(
        "AddRaftVoterResponse",
        "AV+R",
        VOTERS,
        true,
        "AddRaftVoter response: NONE once appended, or an error",
    ),
    kind(
        "RemoveRaftVoter",
        "RV-",
        VOTERS,
        false,
        "RemoveRaftVoter: an auto-joining controller removes its old directory's voter entry",
    ),
    kind(
        "RemoveRaftVoterResponse",
        "RV-R",
        VOTERS,
        true,
        "RemoveRaftVoter response: NONE once committed, or an error",
    ),
];

/// How a kind is drawn; unknown kinds get a neutral "?" that the tests rule out.
pub fn message_kind(name: &str) -> MessageKind {
    MESSAGE_KINDS.iter().find(|k| k.kind == name).copied().unwrap_or(MessageKind {
        kind: "?",
        label: "?",
        colour: BROKER,
        response: false,
        meaning: "unknown message",
    })
}

/// What a screen reader says for a message drawn: its label, where it goes, what it means
/// ("PV from n1 to n2: PreVote request: would you vote for me? ...").
pub fn spoken(m: &MessagePicture) -> String {
    let kind = message_kind(m.kind);
    let note = m.note.as_ref().map_or(String::new(), |n| format!(" {n}"));
    let how = if m.lost { "lost on its way from" } else { "from" };
    format!("{}{note} {how} n{} to n{}: {}", kind.label, m.from, m.to, kind.meaning)
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeSet;

    use super::{MESSAGE_KINDS, message_kind, spoken};
    use crate::harness::MS;
    use crate::session::picture::MessagePicture;
    use crate::session::{Action, Session, Settings};
    use crate::sim::TraceKind;
    use crate::sim::simulation::QuorumFormat;

    #[test]
    fn labels_are_distinct_and_explained() {
        let labels: BTreeSet<&str> = MESSAGE_KINDS.iter().map(|k| k.label).collect();
        assert_eq!(labels.len(), MESSAGE_KINDS.len(), "two kinds share a label");
        let kinds: BTreeSet<&str> = MESSAGE_KINDS.iter().map(|k| k.kind).collect();
        assert_eq!(kinds.len(), MESSAGE_KINDS.len());
        assert!(MESSAGE_KINDS.iter().all(|k| k.meaning.len() > 10));
        assert_ne!(message_kind("PreVoteResponse").label, message_kind("VoteResponse").label);
    }

    #[test]
    fn every_kind_has_a_spoken_name_with_its_label_route_and_meaning() {
        for k in MESSAGE_KINDS {
            let m = MessagePicture {
                from: 101,
                to: 2,
                kind: k.kind,
                text: String::new(),
                note: Some("@7".into()),
                progress: 0.5,
                lost: false,
            };
            assert_eq!(spoken(&m), format!("{} @7 from n101 to n2: {}", k.label, k.meaning));
            let lost = spoken(&MessagePicture { lost: true, note: None, ..m });
            assert!(lost.starts_with(&format!("{} lost on its way from n101 to n2", k.label)), "{lost}");
        }
    }

    /// A busy dynamic quorum (a wiped disk re-added: ApiVersions), then a static one (its
    /// voters send each new leader UpdateRaftVoter).
    #[test]
    fn every_kind_a_busy_cluster_sends_is_in_the_table() {
        let mut seen = BTreeSet::new();
        busy(Settings { voters: 5, brokers: 3, snapshot_bytes: 2_000, ..Settings::default() }, &mut seen);
        let dynamic = seen.len();
        busy(
            Settings { voters: 3, brokers: 1, quorum: QuorumFormat::Static, ..Settings::default() },
            &mut seen,
        );
        assert!(dynamic >= 10, "a busy cluster sends many kinds: {seen:?}");
        for kind in ["ApiVersions", "UpdateRaftVoter", "UpdateRaftVoterResponse"] {
            assert!(seen.contains(kind), "{kind} never sent: {seen:?}");
        }
        for kind in seen {
            assert_ne!(message_kind(kind).label, "?", "{kind} has no label");
        }
    }

    fn busy(settings: Settings, seen: &mut BTreeSet<&'static str>) {
        let mut session = Session::new(settings);
        let collect = |session: &Session, seen: &mut BTreeSet<&'static str>| {
            for line in session.log() {
                if let TraceKind::Deliver(p, _) | TraceKind::Lost { packet: p, .. } = &line.kind {
                    seen.insert(p.payload.kind());
                }
            }
        };
        let script = [
            Action::CreateTopic { partitions: 6, replication: 2 },
            Action::Isolate(1),
            Action::KillLeader,
            Action::Heal,
            Action::Resign,
            Action::ShutDown(101),
            Action::CreateTopic { partitions: 30, replication: 3 },
            Action::WipeDisk(2),
            Action::RemoveVoter(2),
            Action::AddVoter(2),
        ];
        for (i, action) in script.into_iter().enumerate() {
            session.advance_to((i as u64 + 1) * 3_000 * MS, usize::MAX);
            collect(&session, seen);
            let _ = session.act(action);
        }
        session.advance_to(40_000 * MS, usize::MAX);
        collect(&session, seen);
    }
}
