//! Which nodes a frame draws afresh. Through a quiet stretch the live view fast-forwards
//! ([`QUIET_WARP`](super::pacing::QUIET_WARP) times the chosen speed) and every node's log strip
//! slides by several records a frame, faster than anyone can read them; redrawing every node
//! each frame was most of the page's work. So while fast-forwarding, a frame draws each node
//! afresh only every [`STRIDE`]-th frame, the nodes in turn, and at once any node whose role,
//! epoch or running state changed; at the chosen pace every node is drawn every frame.

use crate::session::picture::NodePicture;

/// While fast-forwarding, a node is drawn afresh every this many frames.
pub const STRIDE: u64 = 8;

/// Counts the frames, to take the nodes in turn.
#[derive(Debug, Default)]
pub struct Redraw {
    frame: u64,
}

impl Redraw {
    /// Bring `drawn`, the nodes as last drawn, up to this frame from the `fresh` pictures: all of
    /// them unless `fast_forwarding`, else the ones due this frame or changed in what the eye
    /// follows. Pictures move in place; nothing is copied.
    pub(crate) fn update(
        &mut self,
        drawn: &mut Vec<NodePicture>,
        fresh: Vec<NodePicture>,
        fast_forwarding: bool,
    ) {
        self.frame += 1;
        let same_nodes = drawn.len() == fresh.len() && drawn.iter().zip(&fresh).all(|(a, b)| a.id == b.id);
        if !fast_forwarding || !same_nodes {
            *drawn = fresh;
            return;
        }
        for (i, (old, node)) in drawn.iter_mut().zip(fresh).enumerate() {
            if self.due(i) || !same_state(old, &node) {
                *old = node;
            }
        }
    }

    /// Whether the node at `index` is drawn afresh this frame in any case.
    fn due(&self, index: usize) -> bool {
        (self.frame + index as u64).is_multiple_of(STRIDE)
    }
}

/// Whether a node is in the same role, epoch, vote and running state, with no records about to
/// be truncated (what a viewer follows between frames; strips and offsets may lag a few frames).
fn same_state(a: &NodePicture, b: &NodePicture) -> bool {
    let state = |n: &NodePicture| (n.role, n.epoch, n.voted_for, n.lifecycle, n.fenced, n.doomed_from);
    state(a) == state(b)
}

#[cfg(test)]
mod tests {
    use super::{Redraw, STRIDE};
    use crate::quorum::RoleKind;
    use crate::session::picture::NodePicture;

    fn node(id: u32, log_end: u64, role: RoleKind) -> NodePicture {
        NodePicture { role: Some(role), epoch: 1, log_end, ..NodePicture::blank(id, id < 100) }
    }

    /// Fourteen nodes whose logs all grow by one record a frame.
    fn frame(t: u64) -> Vec<NodePicture> {
        (1..=14).map(|id| node(id, t, RoleKind::Follower)).collect()
    }

    #[test]
    fn fast_forwarding_draws_each_node_afresh_in_turn() {
        let (mut redraw, mut drawn) = (Redraw::default(), Vec::new());
        let mut last_fresh = [0u64; 14];
        for t in 1..=40 {
            redraw.update(&mut drawn, frame(t), true);
            let fresh: Vec<usize> = (0..14).filter(|i| drawn[*i].log_end == t).collect();
            if t > 1 {
                let share = 14 / STRIDE as usize;
                assert!(
                    (share..=share + 1).contains(&fresh.len()),
                    "one node in {STRIDE} a frame: {fresh:?} at {t}"
                );
            }
            for i in fresh {
                last_fresh[i] = t;
            }
            assert!(
                last_fresh.iter().all(|f| t - f < STRIDE),
                "no node lags {STRIDE} frames: {last_fresh:?}"
            );
        }
    }

    #[test]
    fn a_change_of_role_is_drawn_at_once_and_the_chosen_pace_draws_everything() {
        let (mut redraw, mut drawn) = (Redraw::default(), Vec::new());
        redraw.update(&mut drawn, frame(1), true);
        let mut next = frame(2);
        next[5].role = Some(RoleKind::Candidate);
        next[5].epoch = 2;
        redraw.update(&mut drawn, next.clone(), true);
        assert_eq!(drawn[5], next[5], "the new candidate is drawn at once");
        assert!(drawn.iter().any(|n| n.log_end == 1), "others may lag while fast-forwarding");
        redraw.update(&mut drawn, frame(3), false);
        assert_eq!(drawn, frame(3), "at the chosen pace, every node is fresh");
    }
}
