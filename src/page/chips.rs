//! The race, the pains and the migration in a frame too short for their drawings (a 480 x 320 docs embed): the
//! nodes as a row of chips, each its name and its state in words at the page's own type size.

use crate::migration::picture::MigrationPicture;
use crate::quorum::RoleKind;
use crate::session::picture::ClusterPicture;
use crate::zk::ZkPicture;

/// One node as a chip: its name, its state in a word or two, and the class it is drawn with
/// (the drawings' role classes).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Chip {
    pub name: String,
    pub state: String,
    pub class: &'static str,
}

/// The KRaft side: a chip per controller (role and epoch) and one for the brokers, which keep
/// serving through the failover (how many are up, fenced or down).
pub(crate) fn kraft_chips(picture: &ClusterPicture) -> Vec<Chip> {
    let controllers = picture.nodes.iter().filter(|n| n.voter || n.membership.is_some());
    let mut chips: Vec<Chip> = controllers
        .map(|n| {
            let (role, class) = n.role_text();
            let state = match n.role {
                Some(RoleKind::Leader) => format!("{role} epoch {}", n.epoch),
                Some(_) => format!("{} epoch {}", role.to_lowercase(), n.epoch),
                None => role.to_string(),
            };
            Chip { name: n.label.clone(), state, class }
        })
        .collect();
    let brokers: Vec<_> = picture.nodes.iter().filter(|n| !n.voter && n.membership.is_none()).collect();
    if let (Some(first), Some(last)) = (brokers.first(), brokers.last()) {
        let down = brokers.iter().filter(|n| n.role.is_none()).count();
        let fenced = brokers.iter().filter(|n| n.role.is_some() && n.fenced == Some(true)).count();
        let up = brokers.len() - down - fenced;
        let mut parts = vec![format!("{up} up")];
        if fenced > 0 {
            parts.push(format!("{fenced} fenced"));
        }
        if down > 0 {
            parts.push(format!("{down} down"));
        }
        let class = if up == brokers.len() { "role-follower" } else { "role-down" };
        chips.push(Chip { name: format!("{}-{}", first.label, last.label), state: parts.join(", "), class });
    }
    chips
}

/// The ZooKeeper side: who holds `/controller`, then a chip per broker (the controller, or how
/// fresh its metadata cache is).
pub(crate) fn zk_chips(picture: &ZkPicture) -> Vec<Chip> {
    let holder = match picture.znodes.controller {
        Some(id) => Chip { name: "/controller".into(), state: format!("b{id}"), class: "role-follower" },
        None => Chip { name: "/controller".into(), state: "gone".into(), class: "role-down" },
    };
    let brokers = picture.brokers.iter().map(|b| {
        let (state, class) = match (b.alive, b.controller, b.loading) {
            (false, _, _) => ("DOWN".to_string(), "role-down"),
            (true, true, true) => ("new controller, loading".to_string(), "role-leader"),
            (true, true, false) => ("CONTROLLER".to_string(), "role-leader"),
            (true, false, _) if b.fresh >= 1.0 => ("fresh".to_string(), "role-follower"),
            (true, false, _) if b.fresh <= 0.0 => ("stale".to_string(), "stale"),
            (true, false, _) => (format!("{:.0}% fresh", b.fresh * 100.0), "stale"),
        };
        Chip { name: format!("b{}", b.id), state, class }
    });
    std::iter::once(holder).chain(brokers).collect()
}

/// The migration: ZooKeeper (its controller epoch, or down), a chip per KRaft controller (the
/// leader with its epoch), and a chip per broker (its mode, and fenced or down).
pub(crate) fn migration_chips(picture: &MigrationPicture) -> Vec<Chip> {
    use crate::drawing::migration::{broker_state, mode_words};
    let zk = match picture.zk.down_until {
        Some(_) => Chip { name: "ZooKeeper".into(), state: "unreachable".into(), class: "role-down" },
        None => Chip {
            name: "ZooKeeper".into(),
            state: format!("controller epoch {}", picture.zk.controller_epoch),
            class: "role-follower",
        },
    };
    let controllers = picture.controllers.iter().map(|c| {
        let (state, class) = match (c.alive, c.leader) {
            (false, _) => ("down".to_string(), "role-down"),
            (true, true) => (format!("leader epoch {}", picture.kraft_epoch), "role-leader"),
            (true, false) => ("follower".to_string(), "role-follower"),
        };
        Chip { name: format!("c{}", c.id), state, class }
    });
    let brokers = picture.brokers.iter().map(|b| {
        let state = match broker_state(b) {
            "" => mode_words(b.mode).to_string(),
            doing => format!("{}, {doing}", mode_words(b.mode)),
        };
        let class = if b.alive { "role-follower" } else { "role-down" };
        Chip { name: format!("b{}", b.id), state, class }
    });
    std::iter::once(zk).chain(controllers).chain(brokers).collect()
}

#[cfg(test)]
mod tests {
    use super::{kraft_chips, zk_chips};
    use crate::race::{FailoverRace, RaceStage};
    use crate::session::picture::picture;

    /// Chips of both sides, some time after the kill of a 1,000-partition race.
    fn chips_after(ms: u64) -> (Vec<String>, Vec<String>) {
        let mut race =
            FailoverRace::with_roles(1_000, 2, crate::experiments::failover::KraftRoles::DEDICATED).unwrap();
        while let RaceStage::Preparing { .. } = race.stage() {
            race.prepare(500).unwrap();
        }
        race.kill().unwrap();
        race.advance(ms * 1_000);
        let sim = race.kraft_sim().unwrap();
        let kraft = kraft_chips(&picture(sim, &[], 0, None));
        let zk = zk_chips(&race.zk().unwrap().picture());
        let line = |c: &super::Chip| format!("{} {}", c.name, c.state);
        (kraft.iter().map(line).collect(), zk.iter().map(line).collect())
    }

    #[test]
    fn each_side_names_its_nodes_and_states_in_words() {
        let (kraft, zk) = chips_after(100);
        assert_eq!(kraft.len(), 4, "three controllers and the brokers: {kraft:?}");
        assert!(kraft.iter().any(|c| c.ends_with("DOWN")), "the killed controller: {kraft:?}");
        assert_eq!(kraft[3], "n101-n105 5 up", "{kraft:?}");
        assert_eq!(zk.len(), 6, "/controller and five brokers: {zk:?}");
        assert!(zk.iter().any(|c| c.ends_with("DOWN")), "{zk:?}");

        let (kraft, zk) = chips_after(30_000);
        assert!(kraft.iter().any(|c| c.contains("LEADER epoch")), "a new leader: {kraft:?}");
        assert!(zk.iter().any(|c| c.contains("CONTROLLER") || c.contains("new controller")), "{zk:?}");
        assert!(zk[0].starts_with("/controller b"), "a broker holds /controller again: {zk:?}");
    }
}
