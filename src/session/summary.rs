//! What the cluster drawing says, in one sentence for screen readers: who leads at which epoch,
//! who is down or fenced, and where the brokers' metadata images are ("n2 leads at epoch 3; n1
//! is down; brokers at offset 120, n103 two records behind."). Computed from the picture the
//! page draws, so the words and the drawing cannot disagree.

use std::fmt;

use crate::quorum::RoleKind;

use super::picture::ClusterPicture;

/// The cluster in words.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Summary {
    /// The leader and its epoch.
    leader: Option<(String, u32)>,
    /// The highest epoch any controller is in (while electing, the election's).
    epoch: u32,
    /// Controllers asking for (pre-)votes, while no one leads.
    campaigning: Vec<String>,
    down: Vec<String>,
    fenced: Vec<String>,
    /// Running brokers not (yet) RUNNING, with their lifecycle state.
    not_running: Vec<(String, &'static str)>,
    /// The highest offset a running broker's image is at, if any broker runs.
    offset: Option<u64>,
    /// Running brokers whose image is behind that offset, and by how many records.
    behind: Vec<(String, u64)>,
}

/// Sums up the cluster as drawn.
pub fn summary(picture: &ClusterPicture) -> Summary {
    let running = |voter: bool| picture.nodes.iter().filter(move |n| n.voter == voter && n.role.is_some());
    let leader = running(true).find(|n| n.role == Some(RoleKind::Leader)).map(|n| (n.label.clone(), n.epoch));
    let campaigning = running(true)
        .filter(|n| matches!(n.role, Some(RoleKind::Candidate | RoleKind::Prospective)))
        .map(|n| n.label.clone())
        .collect();
    let offset = running(false).map(|n| n.applied_offset).max();
    Summary {
        leader,
        epoch: running(true).map(|n| n.epoch).max().unwrap_or(0),
        campaigning,
        down: picture.nodes.iter().filter(|n| n.role.is_none()).map(|n| n.label.clone()).collect(),
        fenced: running(false).filter(|n| n.fenced == Some(true)).map(|n| n.label.clone()).collect(),
        not_running: running(false)
            .filter_map(|n| n.lifecycle.filter(|l| *l != "RUNNING").map(|l| (n.label.clone(), l)))
            .collect(),
        offset,
        behind: running(false)
            .filter_map(|n| {
                offset.filter(|o| *o > n.applied_offset).map(|o| (n.label.clone(), o - n.applied_offset))
            })
            .collect(),
    }
}

impl Summary {
    /// Whether `other` tells the same story: the same leadership, nodes down, fenced and
    /// starting, whatever the offsets. A live region announces a summary only when this
    /// changes, not at every record the brokers fetch.
    pub fn same_story(&self, other: &Summary) -> bool {
        (&self.leader, self.epoch, &self.campaigning, &self.down, &self.fenced, &self.not_running)
            == (
                &other.leader,
                other.epoch,
                &other.campaigning,
                &other.down,
                &other.fenced,
                &other.not_running,
            )
    }
}

/// "n1", "n1 and n2", "n1, n2 and n3".
fn list(names: &[String]) -> String {
    match names {
        [] => String::new(),
        [one] => one.clone(),
        [rest @ .., last] => format!("{} and {last}", rest.join(", ")),
    }
}

/// "is" or "are", for a list of `n` names.
fn is_are(n: usize) -> &'static str {
    if n == 1 { "is" } else { "are" }
}

/// "one record", "two records", ..., "12 records".
fn records(n: u64) -> String {
    const WORDS: [&str; 10] = ["no", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"];
    let number = WORDS.get(n as usize).map_or_else(|| n.to_string(), |w| (*w).to_string());
    format!("{number} record{}", if n == 1 { "" } else { "s" })
}

impl fmt::Display for Summary {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts = vec![match &self.leader {
            Some((name, epoch)) => format!("{name} leads at epoch {epoch}"),
            None if self.campaigning.is_empty() => format!("no leader at epoch {}", self.epoch),
            None => format!(
                "no leader at epoch {}: {} {} campaigning",
                self.epoch,
                list(&self.campaigning),
                is_are(self.campaigning.len())
            ),
        }];
        if !self.down.is_empty() {
            parts.push(format!("{} {} down", list(&self.down), is_are(self.down.len())));
        }
        if !self.fenced.is_empty() {
            parts.push(format!("{} {} fenced", list(&self.fenced), is_are(self.fenced.len())));
        }
        for (name, lifecycle) in &self.not_running {
            parts.push(format!("{name} in {lifecycle}"));
        }
        if let Some(offset) = self.offset {
            let behind = self.behind.iter().map(|(name, n)| format!(", {name} {} behind", records(*n)));
            parts.push(format!("brokers at offset {offset}{}", behind.collect::<String>()));
        }
        write!(f, "{}.", parts.join("; "))
    }
}
