//! The commands a host page sends an embed (`postMessage` or the JS export), one JSON object
//! each, named by its `command` field: `{"command": "crash", "node": 2}`.

use serde::Deserialize;

#[cfg(feature = "full")]
use crate::migration::sim::Action as MigrationStep;
use crate::page::params::{MAX_SPEED, MIN_SPEED, migration_scenario, scenario_ids};
use crate::quorum::NodeId;
use crate::session::{Action, LINK_LIMIT};
use crate::teaching::stories::{self, TOUR};

/// What a host page can ask the page to do.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    Play,
    Pause,
    /// One simulated event.
    Step,
    /// Move the timeline to this many simulated milliseconds (back by replaying).
    Seek {
        ms: u64,
    },
    KillLeader,
    Crash {
        node: NodeId,
    },
    Restart {
        node: NodeId,
    },
    /// Cut `node`'s power: its disk keeps only what was flushed.
    PowerLoss {
        node: NodeId,
    },
    /// `node` loses power in the middle of its next write to its log.
    TornWrite {
        node: NodeId,
    },
    Isolate {
        node: NodeId,
    },
    Heal,
    Resign,
    /// Start a new controller process, an observer of the quorum.
    NewController,
    /// AddRaftVoter of controller `node` (`kafka-metadata-quorum add-controller`).
    AddController {
        node: NodeId,
    },
    /// RemoveRaftVoter of voter `node` (`kafka-metadata-quorum remove-controller`).
    RemoveController {
        node: NodeId,
    },
    /// Wipe controller `node`'s disk and format it again.
    WipeDisk {
        node: NodeId,
    },
    /// `kafka-features upgrade --feature kraft.version=1`.
    UpgradeKRaftVersion,
    /// Playback speed factor, [`MIN_SPEED`] to [`MAX_SPEED`].
    SetSpeed {
        speed: f64,
    },
    /// A scenario id (`leader-crash`, `failover`, ... as `?scenario=` takes).
    LoadScenario {
        scenario: String,
    },
    /// A guided tour step, 1-based.
    TourStep {
        step: usize,
    },
    /// An operator's step or a fault in the migration shown, by its link name (`kraft-0`,
    /// `finalize`, `kill-controller`, ...: [`MigrationStep::code`]).
    #[cfg(feature = "full")]
    MigrationStep {
        action: MigrationStep,
    },
}

/// A command message as it arrives: its name and every field any command may carry. Read as a
/// plain struct (serde's tagged enums buffer the whole message first, which costs the page
/// about 20 KB of WebAssembly), then checked by [`Message::command`].
#[derive(Clone, Debug, Default, PartialEq, Deserialize)]
pub struct Message {
    pub command: String,
    pub ms: Option<u64>,
    pub node: Option<NodeId>,
    pub speed: Option<f64>,
    pub scenario: Option<String>,
    pub step: Option<usize>,
    /// A migration step's link name (`migration-step`).
    #[cfg(feature = "full")]
    pub action: Option<String>,
}

/// The commands the failover race takes, as an error names them.
pub const RACE_COMMANDS: &str = "play, pause, step, seek and kill-leader";
/// The commands the migration takes, as an error names them.
pub const MIGRATION_COMMANDS: &str = "play, pause, step, seek and migration-step";

/// Every command's name, as the `command` field gives it.
pub const NAMES: [&str; 21] = [
    "play",
    "pause",
    "step",
    "seek",
    "kill-leader",
    "crash",
    "restart",
    "power-loss",
    "torn-write",
    "isolate",
    "heal",
    "resign",
    "new-controller",
    "add-controller",
    "remove-controller",
    "wipe-disk",
    "upgrade-kraft-version",
    "set-speed",
    "load-scenario",
    "tour-step",
    "migration-step",
];

impl Message {
    /// The command this message names, with the fields it needs, each in range; the error
    /// names the command and what was wrong.
    pub fn command(self) -> Result<Command, String> {
        let name = self.command.as_str();
        let missing = |field: &str| format!("{name}: missing field `{field}`");
        let node = || self.node.ok_or_else(|| missing("node"));
        let command = match name {
            "play" => Command::Play,
            "pause" => Command::Pause,
            "step" => Command::Step,
            "seek" => Command::Seek { ms: self.ms.ok_or_else(|| missing("ms"))? },
            "kill-leader" => Command::KillLeader,
            "crash" => Command::Crash { node: node()? },
            "restart" => Command::Restart { node: node()? },
            "power-loss" => Command::PowerLoss { node: node()? },
            "torn-write" => Command::TornWrite { node: node()? },
            "isolate" => Command::Isolate { node: node()? },
            "heal" => Command::Heal,
            "resign" => Command::Resign,
            "new-controller" => Command::NewController,
            "add-controller" => Command::AddController { node: node()? },
            "remove-controller" => Command::RemoveController { node: node()? },
            "wipe-disk" => Command::WipeDisk { node: node()? },
            "upgrade-kraft-version" => Command::UpgradeKRaftVersion,
            "set-speed" => Command::SetSpeed { speed: self.speed.ok_or_else(|| missing("speed"))? },
            "load-scenario" => {
                Command::LoadScenario { scenario: self.scenario.clone().ok_or_else(|| missing("scenario"))? }
            }
            "tour-step" => Command::TourStep { step: self.step.ok_or_else(|| missing("step"))? },
            #[cfg(feature = "full")]
            "migration-step" => {
                let code = self.action.as_deref().ok_or_else(|| missing("action"))?;
                let action = MigrationStep::from_code(code).ok_or_else(|| {
                    format!("migration-step: '{code}' is not a step (provision, migrate-N, kraft-N, finalize, rollback, zk-mode-N, kill-controller, zk-outage-MS, kill-N, restart-N)")
                })?;
                Command::MigrationStep { action }
            }
            #[cfg(not(feature = "full"))]
            "migration-step" => return Err("migration-step: load a migration scenario first".into()),
            _ => return Err(format!("'{name}' is not a command (known: {})", NAMES.join(", "))),
        };
        command.validate()
    }
}

impl Command {
    /// Check the values a command carries.
    fn validate(self) -> Result<Command, String> {
        match &self {
            Command::Seek { ms } if *ms > LINK_LIMIT / crate::harness::MS => Err(format!(
                "seek: ms {ms} is past the latest moment a timeline can be opened at ({} ms, a simulated day)",
                LINK_LIMIT / crate::harness::MS
            )),
            Command::SetSpeed { speed } if !(MIN_SPEED..=MAX_SPEED).contains(speed) => {
                Err(format!("set-speed: speed {speed} is outside {MIN_SPEED} to {MAX_SPEED}"))
            }
            Command::LoadScenario { scenario }
                if stories::find(scenario).is_none() && migration_scenario(scenario).is_none() =>
            {
                Err(format!(
                    "load-scenario: '{scenario}' is not a scenario (known: {})",
                    scenario_ids().join(", ")
                ))
            }
            Command::TourStep { step } if !(1..=TOUR.len()).contains(step) => {
                Err(format!("tour-step: step {step} is outside 1 to {}", TOUR.len()))
            }
            _ => Ok(self),
        }
    }

    /// Whether the migration takes this command (its own steps, and playback).
    #[cfg(feature = "full")]
    pub fn applies_to_migration(&self) -> bool {
        matches!(
            self,
            Command::Play
                | Command::Pause
                | Command::Step
                | Command::Seek { .. }
                | Command::MigrationStep { .. }
        )
    }

    /// Whether the failover race takes this command (it has no single nodes to act on).
    pub fn applies_to_race(&self) -> bool {
        matches!(
            self,
            Command::Play | Command::Pause | Command::Step | Command::Seek { .. } | Command::KillLeader
        )
    }

    /// The action on the live cluster this command is, if it is one.
    pub(crate) fn action(&self) -> Option<Action> {
        Some(match self {
            Command::KillLeader => Action::KillLeader,
            Command::Crash { node } => Action::Crash(*node),
            Command::Restart { node } => Action::Restart(*node),
            Command::PowerLoss { node } => Action::PowerLoss(*node),
            Command::TornWrite { node } => Action::TornWrite(*node),
            Command::Isolate { node } => Action::Isolate(*node),
            Command::Heal => Action::Heal,
            Command::Resign => Action::Resign,
            Command::NewController => Action::NewController,
            Command::AddController { node } => Action::AddVoter(*node),
            Command::RemoveController { node } => Action::RemoveVoter(*node),
            Command::WipeDisk { node } => Action::WipeDisk(*node),
            Command::UpgradeKRaftVersion => Action::UpgradeKRaftVersion,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::{Command, Message};

    fn read(json: &str) -> Result<Command, String> {
        serde_json::from_str::<Message>(json).map_err(|e| e.to_string()).and_then(Message::command)
    }

    #[test]
    fn every_command_reads_from_its_json() {
        for (json, command) in [
            (r#"{"command":"play"}"#, Command::Play),
            (r#"{"command":"pause"}"#, Command::Pause),
            (r#"{"command":"step"}"#, Command::Step),
            (r#"{"command":"seek","ms":4000}"#, Command::Seek { ms: 4000 }),
            (r#"{"command":"kill-leader"}"#, Command::KillLeader),
            (r#"{"command":"crash","node":2}"#, Command::Crash { node: 2 }),
            (r#"{"command":"restart","node":101}"#, Command::Restart { node: 101 }),
            (r#"{"command":"isolate","node":3}"#, Command::Isolate { node: 3 }),
            (r#"{"command":"heal"}"#, Command::Heal),
            (r#"{"command":"resign"}"#, Command::Resign),
            (r#"{"command":"new-controller"}"#, Command::NewController),
            (r#"{"command":"add-controller","node":4}"#, Command::AddController { node: 4 }),
            (r#"{"command":"remove-controller","node":2}"#, Command::RemoveController { node: 2 }),
            (r#"{"command":"wipe-disk","node":3}"#, Command::WipeDisk { node: 3 }),
            (r#"{"command":"power-loss","node":101}"#, Command::PowerLoss { node: 101 }),
            (r#"{"command":"torn-write","node":2}"#, Command::TornWrite { node: 2 }),
            (r#"{"command":"upgrade-kraft-version"}"#, Command::UpgradeKRaftVersion),
            (r#"{"command":"set-speed","speed":0.1}"#, Command::SetSpeed { speed: 0.1 }),
            (
                r#"{"command":"load-scenario","scenario":"failover"}"#,
                Command::LoadScenario { scenario: "failover".into() },
            ),
            (r#"{"command":"tour-step","step":12}"#, Command::TourStep { step: 12 }),
            (
                r#"{"command":"load-scenario","scenario":"migration-stranded"}"#,
                Command::LoadScenario { scenario: "migration-stranded".into() },
            ),
            (
                r#"{"command":"migration-step","action":"kraft-2"}"#,
                Command::MigrationStep { action: crate::migration::sim::Action::BrokerToKraft(2) },
            ),
        ] {
            assert_eq!(read(json), Ok(command), "{json}");
        }
    }

    #[test]
    fn a_bad_message_is_refused_naming_what_was_wrong() {
        for (json, named) in [
            (r#""kill""#, "invalid type"),
            (r#"{"node":2}"#, "missing field `command`"),
            (r#"{"command":"explode"}"#, "'explode' is not a command (known: play, pause, step"),
            (r#"{"command":"crash"}"#, "crash: missing field `node`"),
            (r#"{"command":"seek"}"#, "seek: missing field `ms`"),
            (r#"{"command":"add-controller"}"#, "add-controller: missing field `node`"),
            (r#"{"command":"wipe-disk"}"#, "wipe-disk: missing field `node`"),
            (r#"{"command":"set-speed","speed":"fast"}"#, "invalid type: string \"fast\", expected f64"),
            (r#"{"command":"crash","node":"two"}"#, "invalid type: string \"two\""),
            (r#"{"command":"crash","node":-1}"#, "invalid value: integer `-1`"),
            (r#"{"command":"seek","ms":86400001}"#, "seek: ms 86400001 is past the latest moment"),
            (r#"{"command":"set-speed","speed":5000}"#, "set-speed: speed 5000 is outside"),
            (
                r#"{"command":"load-scenario","scenario":"mars"}"#,
                "'mars' is not a scenario (known: zk-cold-load",
            ),
            (r#"{"command":"tour-step","step":0}"#, "tour-step: step 0 is outside 1 to 26"),
            (r#"{"command":"tour-step","step":27}"#, "step 27 is outside"),
        ] {
            let error = read(json).expect_err(json);
            assert!(error.contains(named), "{json}: {error}");
        }
    }

    #[test]
    fn only_cluster_actions_map_to_actions() {
        use crate::session::Action;
        assert_eq!(Command::Isolate { node: 3 }.action(), Some(Action::Isolate(3)));
        assert_eq!(Command::KillLeader.action(), Some(Action::KillLeader));
        assert_eq!(Command::AddController { node: 4 }.action(), Some(Action::AddVoter(4)));
        assert_eq!(Command::RemoveController { node: 2 }.action(), Some(Action::RemoveVoter(2)));
        assert_eq!(Command::UpgradeKRaftVersion.action(), Some(Action::UpgradeKRaftVersion));
        assert_eq!(Command::Play.action(), None);
        assert_eq!(Command::Seek { ms: 1 }.action(), None);
        assert!(Command::KillLeader.applies_to_race() && Command::Seek { ms: 1 }.applies_to_race());
        assert!(!Command::Crash { node: 1 }.applies_to_race() && !Command::Heal.applies_to_race());
    }
}
