//! Who a broken invariant is about: the nodes and the record offset its explanation names. The
//! checkers name nodes as Kafka's logs do (`n2`, `n101`) and records by `offset N`, so the
//! drawing can point at them without the checkers knowing about drawings.

use crate::invariants::Violation;
use crate::quorum::NodeId;

/// The nodes and record a violation concerns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Culprits {
    /// Nodes named, in order of first mention, among `known`.
    pub nodes: Vec<NodeId>,
    /// The first record offset named, if any.
    pub offset: Option<u64>,
}

/// Read the culprits out of a violation's explanation, keeping only nodes in `known`.
pub(crate) fn culprits(violation: &Violation, known: &[NodeId]) -> Culprits {
    let mut found = Culprits::default();
    let words: Vec<&str> =
        violation.detail.split(|c: char| !c.is_ascii_alphanumeric()).filter(|w| !w.is_empty()).collect();
    for (i, word) in words.iter().enumerate() {
        if let Some(id) = word.strip_prefix('n').and_then(|rest| rest.parse::<NodeId>().ok())
            && known.contains(&id)
            && !found.nodes.contains(&id)
        {
            found.nodes.push(id);
        }
        if *word == "offset" && found.offset.is_none() {
            found.offset = words.get(i + 1).and_then(|w| w.parse().ok());
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::{Culprits, culprits};
    use crate::harness::MS;
    use crate::invariants::Violation;
    use crate::session::{Session, Settings};

    fn violation(detail: &str) -> Violation {
        Violation { invariant: "test", detail: detail.into() }
    }

    #[test]
    fn nodes_and_the_offset_named_are_found_unknown_names_are_not() {
        let found = culprits(
            &violation("n2 has high watermark 5 but only 1 of 3 voters hold offset 4; n9 n2"),
            &[1, 2, 3],
        );
        assert_eq!(found, Culprits { nodes: vec![2], offset: Some(4) });
        let found = culprits(&violation("n1 and n3 both led epoch 2"), &[1, 2, 3]);
        assert_eq!(found.nodes, vec![1, 3]);
        assert_eq!(found.offset, None);
        assert_eq!(culprits(&violation("no node here"), &[1]), Culprits::default());
    }

    #[test]
    fn a_sabotaged_run_names_nodes_of_the_cluster() {
        let mut settings = Settings::default();
        settings.sabotage.enable("hw-on-minority").unwrap();
        let mut session = Session::new(settings);
        assert!(!session.play_to(60_000 * MS, usize::MAX, &|_| false), "play stops at the violation");
        let seen = session.violation().expect("the sabotage is caught").clone();
        assert_eq!(session.now(), seen.at, "stopped at the moment it broke");
        let known: Vec<_> = session.sim().node_ids().collect();
        let found = culprits(&seen.violation, &known);
        assert!(!found.nodes.is_empty(), "{}", seen.violation);
    }
}
