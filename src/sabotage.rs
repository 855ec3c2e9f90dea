//! Deliberate bugs, each switched on by name (`--sabotage NAME`, `?sabotage=NAME`), to show
//! that the invariant checkers are able to fail. Each bug lives in the layer it breaks; this
//! module only names them.

use crate::metadata::config::MetadataSabotage;
use crate::quorum::QuorumSabotage;

/// The bugs switched on, by layer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Sabotage {
    pub quorum: QuorumSabotage,
    pub metadata: MetadataSabotage,
}

impl Sabotage {
    /// The names accepted by `--sabotage`, each with what it breaks.
    pub const NAMES: [(&'static str, &'static str); 6] = [
        ("vote-without-log-check", "grant votes without the log comparison"),
        ("hw-on-minority", "advance the high watermark on a minority"),
        ("forget-vote", "do not persist the vote before answering"),
        ("fence-keeps-leaders", "fence a broker but leave it leading its partitions"),
        ("leader-outside-isr", "elect partition leaders outside the ISR"),
        ("restart-skips-local-log", "restart without replaying the local log"),
    ];

    /// Whether the bug with this `--sabotage` name is on.
    pub fn is_enabled(&self, name: &str) -> bool {
        let mut with = *self;
        with.enable(name).is_ok() && with == *self
    }

    /// Switch on the bug with this `--sabotage` name.
    pub fn enable(&mut self, name: &str) -> Result<(), String> {
        let (quorum, metadata) = (&mut self.quorum, &mut self.metadata);
        match name {
            "vote-without-log-check" => quorum.vote_without_log_check = true,
            "hw-on-minority" => quorum.high_watermark_on_minority = true,
            "forget-vote" => quorum.forget_vote_on_restart = true,
            "fence-keeps-leaders" => metadata.fence_keeps_leaders = true,
            "leader-outside-isr" => metadata.leader_outside_isr = true,
            "restart-skips-local-log" => quorum.restart_skips_local_log = true,
            other => {
                let known: Vec<&str> = Self::NAMES.iter().map(|(n, _)| *n).collect();
                return Err(format!("unknown sabotage '{other}' (known: {})", known.join(", ")));
            }
        }
        Ok(())
    }
}
