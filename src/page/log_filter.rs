//! Which trace lines the event log shows: by node, by message kind, or state changes only.

use crate::quorum::NodeId;
use crate::sim::{TraceKind, TraceLine};

/// How many lines the log shows.
const SHOWN: usize = 120;

/// What the log shows.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LogFilter {
    pub node: Option<NodeId>,
    pub kind: Option<String>,
    pub notable_only: bool,
}

impl LogFilter {
    /// The newest lines this filter keeps, newest first, each with whether it is a state change.
    pub(crate) fn shown<'a>(
        &self,
        lines: impl DoubleEndedIterator<Item = &'a TraceLine>,
    ) -> Vec<(String, bool)> {
        lines.rev().filter(|l| self.keeps(l)).take(SHOWN).map(|l| (l.to_string(), l.is_notable())).collect()
    }

    fn keeps(&self, line: &TraceLine) -> bool {
        let (a, b) = line.nodes();
        let node_ok = self.node.is_none_or(|n| a == Some(n) || b == Some(n));
        let kind = match &line.kind {
            TraceKind::Deliver(p, _) | TraceKind::Lost { packet: p, .. } => Some(p.payload.kind()),
            _ => None,
        };
        let kind_ok = self.kind.as_deref().is_none_or(|k| kind == Some(k));
        node_ok && kind_ok && (!self.notable_only || line.is_notable())
    }
}
