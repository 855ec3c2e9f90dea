//! The metadata layer's invariants (KIP-631): a node's image equals the replay of the committed
//! log whenever it has applied up to the committed tip (whether it got there record by record or
//! through a snapshot; at other offsets the record-by-record state digest is compared), and every
//! image is well formed: no partition led by a fenced broker, leaders in their ISR, ISRs within
//! the replicas.

use super::names;
use super::{CommittedLog, Violation, violation};
use crate::metadata::image::MetadataImage;
use crate::metadata::record::broker_bit;
use crate::quorum::Offset;
use crate::sim::Simulation;

/// The applied offset at which each node's image was last checked, by the node's slot.
#[derive(Clone, Default)]
pub struct ImageChecks {
    checked: Vec<Option<Offset>>,
}

impl ImageChecks {
    pub(crate) fn check(&mut self, sim: &Simulation, committed: &CommittedLog) -> Result<(), Violation> {
        self.checked.resize(sim.slot_count(), None);
        for (slot, node) in sim.running_nodes_in_slots() {
            let applied = node.applied();
            if let Some((offset, fault)) = &applied.fault {
                return violation(names::RECORDS_APPLY, format!("n{}: offset {offset}: {fault}", node.id()));
            }
            if self.checked[slot].replace(applied.applied_offset) == Some(applied.applied_offset) {
                continue;
            }
            if let Some(expected) = committed.image_at(applied.applied_offset)
                && *expected != applied.state.image
            {
                return violation(
                    names::IMAGE_EQUALS_REPLAY,
                    format!(
                        "n{}'s image at offset {} differs from replaying the committed log",
                        node.id(),
                        applied.applied_offset
                    ),
                );
            }
            well_formed(&applied.state.image).map_err(|(invariant, detail)| Violation {
                invariant,
                detail: format!("n{} at offset {}: {detail}", node.id(), applied.applied_offset),
            })?;
        }
        Ok(())
    }
}

/// Structural checks of one image.
pub(crate) fn well_formed(image: &MetadataImage) -> Result<(), (&'static str, String)> {
    let brokers = image.brokers();
    for (topic, index, p) in image.partitions() {
        let name = format!("partition {topic}-{index}");
        if p.isr.difference(p.replicas.set()).bits() != 0 {
            return Err((names::ISR_WITHIN_REPLICAS, format!("{name} has ISR outside its replicas")));
        }
        if p.leader < 0 {
            continue;
        }
        let leader = p.leader as u32;
        if brokers.get(&leader).is_none_or(|b| b.fenced) {
            return Err((names::FENCED_NOT_LEADER, format!("{name} is led by fenced broker {leader}")));
        }
        if !p.isr.contains(broker_bit(leader)) {
            return Err((names::LEADER_IN_ISR, format!("{name} is led by {leader}, outside its ISR")));
        }
    }
    Ok(())
}
