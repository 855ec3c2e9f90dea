//! The settings a session starts from, with the page's defaults and their limits.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::harness::MS;
use crate::metadata::config::MetadataConfig;
use crate::quorum::QuorumConfig;
use crate::sim::simulation::QuorumFormat;
use crate::sim::{ClusterConfig, NetworkConfig};
use crate::sweep::sabotage::Sabotage;

/// Everything that, with the seed and the recorded actions, determines a session. A session file
/// holds them as they are named here, the seed as text and the sabotage as a list of names.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Settings {
    #[serde(with = "seed_text")]
    pub seed: u64,
    /// Controllers (voters), 1 to [`Settings::MAX_VOTERS`].
    pub voters: u32,
    /// Brokers (observers), 0 to [`Settings::MAX_BROKERS`].
    pub brokers: u32,
    pub pre_vote: bool,
    /// One-way latency range in milliseconds.
    pub latency_min_ms: u32,
    pub latency_max_ms: u32,
    /// Chance a message is lost, in percent.
    pub drop_percent: u32,
    /// Snapshot after this many bytes of records (0: Kafka's default of 20 MiB).
    pub snapshot_bytes: u64,
    #[serde(with = "sabotage_names", default)]
    pub sabotage: Sabotage,
    /// How the controllers were formatted: a dynamic quorum (`--initial-controllers`, the
    /// page's default, as Kafka 4.x formats one), `--standalone`, or a static one.
    #[serde(with = "quorum_name", default = "dynamic_quorum")]
    pub quorum: QuorumFormat,
    /// Combined nodes (`process.roles=broker,controller`): each controller also runs a broker.
    #[serde(default)]
    pub combined: bool,
}

/// The quorum a page (and a session file without the field) starts with.
fn dynamic_quorum() -> QuorumFormat {
    QuorumFormat::InitialControllers
}

impl Default for Settings {
    fn default() -> Self {
        Settings {
            seed: 1,
            voters: 3,
            brokers: 3,
            pre_vote: true,
            latency_min_ms: 10,
            latency_max_ms: 30,
            drop_percent: 0,
            snapshot_bytes: 0,
            sabotage: Sabotage::default(),
            quorum: dynamic_quorum(),
            combined: false,
        }
    }
}

impl Settings {
    pub const MAX_VOTERS: u32 = 7;
    pub const MAX_BROKERS: u32 = 12;
    pub const MAX_LATENCY_MS: u32 = 2_000;

    /// Check every field is within its limits.
    pub fn validate(&self) -> Result<(), SettingsError> {
        if !(1..=Self::MAX_VOTERS).contains(&self.voters) {
            return Err(SettingsError::Controllers);
        }
        if self.brokers > Self::MAX_BROKERS {
            return Err(SettingsError::Brokers);
        }
        if self.latency_min_ms > self.latency_max_ms || self.latency_max_ms > Self::MAX_LATENCY_MS {
            return Err(SettingsError::Latency);
        }
        if self.drop_percent > 100 {
            return Err(SettingsError::DropRate);
        }
        Ok(())
    }

    /// The network these settings describe (in order, no duplicates: the network controls
    /// switch those on during a session).
    pub(crate) fn network(&self) -> NetworkConfig {
        network(self.latency_min_ms, self.latency_max_ms, self.drop_percent, 0, false)
    }

    /// The simulated cluster. Kafka's snapshot and retention sizes (20 MiB, 100 MiB) would
    /// take hours to reach on the page, so a page-sized snapshot interval also shrinks the
    /// retention to a few snapshots and runs the log cleaner every second.
    pub fn cluster_config(&self) -> ClusterConfig {
        let defaults = QuorumConfig::default();
        let quorum = if self.snapshot_bytes == 0 {
            QuorumConfig { pre_vote: self.pre_vote, sabotage: self.sabotage.quorum, ..defaults }
        } else {
            QuorumConfig {
                pre_vote: self.pre_vote,
                sabotage: self.sabotage.quorum,
                max_record_bytes_between_snapshots: self.snapshot_bytes,
                max_retention_bytes: PAGE_RETENTION_SNAPSHOTS * self.snapshot_bytes,
                log_clean_interval: 1000 * MS,
                ..defaults
            }
        };
        ClusterConfig {
            voters: self.voters,
            observers: self.brokers,
            quorum,
            network: self.network(),
            metadata: MetadataConfig { sabotage: self.sabotage.metadata, ..MetadataConfig::default() },
            format: self.quorum,
            combined: self.combined,
        }
    }
}

/// The first field of [`Settings`] outside its limits.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SettingsError {
    /// Controllers must be 1 to [`Settings::MAX_VOTERS`].
    Controllers,
    /// Brokers must be 0 to [`Settings::MAX_BROKERS`].
    Brokers,
    /// The latency must be a range within 0 to [`Settings::MAX_LATENCY_MS`].
    Latency,
    /// The drop rate must be 0 to 100 percent.
    DropRate,
}

impl fmt::Display for SettingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SettingsError::Controllers => write!(f, "controllers must be 1 to {}", Settings::MAX_VOTERS),
            SettingsError::Brokers => write!(f, "brokers must be 0 to {}", Settings::MAX_BROKERS),
            SettingsError::Latency => {
                write!(f, "latency must be a range within 0 to {} ms", Settings::MAX_LATENCY_MS)
            }
            SettingsError::DropRate => write!(f, "drop rate must be 0 to 100 percent"),
        }
    }
}

impl std::error::Error for SettingsError {}

/// The seed as a decimal string: JavaScript numbers lose whole numbers above 2^53.
mod seed_text {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    pub(crate) fn serialize<S: Serializer>(seed: &u64, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&seed.to_string())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<u64, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse()
            .map_err(|_| D::Error::custom(format!("seed: '{text}' is not a whole number (in quotes)")))
    }
}

/// The deliberate bugs switched on, by their `--sabotage` names.
mod sabotage_names {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::sweep::sabotage::Sabotage;

    pub(crate) fn serialize<S: Serializer>(sabotage: &Sabotage, serializer: S) -> Result<S::Ok, S::Error> {
        serializer
            .collect_seq(Sabotage::NAMES.iter().map(|(name, _)| *name).filter(|n| sabotage.is_enabled(n)))
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Sabotage, D::Error> {
        let mut sabotage = Sabotage::default();
        for name in Vec::<String>::deserialize(deserializer)? {
            sabotage.enable(&name).map_err(|e| D::Error::custom(format!("sabotage: {e}")))?;
        }
        Ok(sabotage)
    }
}

/// The quorum format by its name (`static`, `standalone`, `initial-controllers`).
mod quorum_name {
    use serde::de::Error;
    use serde::{Deserialize, Deserializer, Serializer};

    use crate::sim::simulation::QuorumFormat;

    pub(crate) fn serialize<S: Serializer>(format: &QuorumFormat, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(format.name())
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<QuorumFormat, D::Error> {
        let name = String::deserialize(deserializer)?;
        QuorumFormat::from_name(&name).ok_or_else(|| {
            D::Error::custom(format!("quorum: '{name}' is not static, standalone or initial-controllers"))
        })
    }
}

/// With a page-sized snapshot interval, the retention in snapshot intervals.
const PAGE_RETENTION_SNAPSHOTS: u64 = 4;

/// A network from the page's units (milliseconds, percent) and whether messages on a link may
/// overtake each other.
pub(crate) fn network(
    latency_min_ms: u32,
    latency_max_ms: u32,
    drop_percent: u32,
    duplicate_percent: u32,
    reorder: bool,
) -> NetworkConfig {
    let rate = |percent: u32| f64::from(percent.min(100)) / 100.0;
    NetworkConfig {
        latency_min: u64::from(latency_min_ms) * MS,
        latency_max: u64::from(latency_max_ms) * MS,
        drop_rate: rate(drop_percent),
        reorder,
        duplicate_rate: rate(duplicate_percent),
    }
}
