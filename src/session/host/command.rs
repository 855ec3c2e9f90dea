//! The commands a host page sends an embed (`postMessage` or the JS export), one JSON object
//! each, named by its `command` field: `{"command": "crash", "node": 2}`.

use serde::Deserialize;

use crate::quorum::NodeId;
use crate::session::params::{MAX_SPEED, MIN_SPEED};
use crate::session::stories::{self, TOUR};
use crate::session::{Action, TIMELINE_LIMIT};

/// What a host page can ask the page to do.
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(tag = "command", rename_all = "kebab-case")]
pub enum Command {
    Play,
    Pause,
    /// One simulated event (the failover race: half a second of playback).
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
    Isolate {
        node: NodeId,
    },
    Heal,
    Resign,
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
}

impl Command {
    /// Check the values a well-formed command carries; the error names the command and what
    /// was wrong.
    pub fn validate(self) -> Result<Command, String> {
        match &self {
            Command::Seek { ms } if *ms > TIMELINE_LIMIT / crate::quorum::MS => Err(format!(
                "seek: ms {ms} is past the end of a timeline ({} ms)",
                TIMELINE_LIMIT / crate::quorum::MS
            )),
            Command::SetSpeed { speed } if !(MIN_SPEED..=MAX_SPEED).contains(speed) => {
                Err(format!("set-speed: speed {speed} is outside {MIN_SPEED} to {MAX_SPEED}"))
            }
            Command::LoadScenario { scenario } if stories::find(scenario).is_none() => Err(format!(
                "load-scenario: '{scenario}' is not a scenario (known: {})",
                stories::ids().join(", ")
            )),
            Command::TourStep { step } if !(1..=TOUR.len()).contains(step) => {
                Err(format!("tour-step: step {step} is outside 1 to {}", TOUR.len()))
            }
            _ => Ok(self),
        }
    }

    /// The action on the live cluster this command is, if it is one.
    pub fn action(&self) -> Option<Action> {
        Some(match self {
            Command::KillLeader => Action::KillLeader,
            Command::Crash { node } => Action::Crash(*node),
            Command::Restart { node } => Action::Restart(*node),
            Command::Isolate { node } => Action::Isolate(*node),
            Command::Heal => Action::Heal,
            Command::Resign => Action::Resign,
            _ => return None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::Command;

    fn read(json: &str) -> Result<Command, String> {
        serde_json::from_str::<Command>(json).map_err(|e| e.to_string()).and_then(Command::validate)
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
            (r#"{"command":"set-speed","speed":0.1}"#, Command::SetSpeed { speed: 0.1 }),
            (
                r#"{"command":"load-scenario","scenario":"failover"}"#,
                Command::LoadScenario { scenario: "failover".into() },
            ),
            (r#"{"command":"tour-step","step":12}"#, Command::TourStep { step: 12 }),
        ] {
            assert_eq!(read(json), Ok(command), "{json}");
        }
    }

    #[test]
    fn a_bad_message_is_refused_naming_what_was_wrong() {
        for (json, named) in [
            (r#""kill""#, "invalid type"),
            (r#"{"node":2}"#, "missing field `command`"),
            (r#"{"command":"explode"}"#, "unknown variant `explode`"),
            (r#"{"command":"crash"}"#, "missing field `node`"),
            (r#"{"command":"crash","node":"two"}"#, "invalid type: string \"two\""),
            (r#"{"command":"crash","node":-1}"#, "invalid value: integer `-1`"),
            (r#"{"command":"seek","ms":600001}"#, "seek: ms 600001 is past the end"),
            (r#"{"command":"set-speed","speed":5000}"#, "set-speed: speed 5000 is outside"),
            (
                r#"{"command":"load-scenario","scenario":"mars"}"#,
                "'mars' is not a scenario (known: zk-cold-load",
            ),
            (r#"{"command":"tour-step","step":0}"#, "tour-step: step 0 is outside 1 to 12"),
            (r#"{"command":"tour-step","step":13}"#, "step 13 is outside"),
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
        assert_eq!(Command::Play.action(), None);
        assert_eq!(Command::Seek { ms: 1 }.action(), None);
    }
}
