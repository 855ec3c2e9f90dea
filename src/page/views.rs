//! The page's views, listed once: the header's tabs in their order, each one's name in a URL
//! (`tab=`), its labels, and whether the first screen's wasm draws it (the others come with the
//! full page). The web front end draws each with an exhaustive `match` on [`Tab`], so a view
//! added here without its page does not compile.

use crate::teaching::stories::View;

/// Declares [`Tab`] and [`Tab::ALL`] from one list: `Variant: "url-name", "header label",
/// "phone label", on the first screen;` in the header's order.
macro_rules! views {
    ($($(#[$doc:meta])* $tab:ident: $name:literal, $label:literal, $short:literal, $first:literal;)*) => {
        /// The page's views (`tab=`).
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub enum Tab {
            $($(#[$doc])* $tab,)*
        }

        impl Tab {
            /// The views in the header's order.
            pub const ALL: [Tab; [$(Tab::$tab),*].len()] = [$(Tab::$tab),*];

            /// Its name in a URL.
            pub fn name(self) -> &'static str {
                match self {
                    $(Tab::$tab => $name,)*
                }
            }

            /// Its tab's label in the header, and the short one a phone shows.
            pub fn label(self) -> (&'static str, &'static str) {
                match self {
                    $(Tab::$tab => ($label, $short),)*
                }
            }

            /// Whether the first screen's wasm draws it; the other views come with the full page.
            pub fn on_first_screen(self) -> bool {
                match self {
                    $(Tab::$tab => $first,)*
                }
            }
        }
    };
}

views! {
    Cluster: "cluster", "Live cluster", "Live", true;
    Failover: "failover", "Failover: KRaft vs ZooKeeper", "Failover", false;
    /// ZooKeeper mode's other pains, beside what KRaft does.
    Pains: "pains", "ZooKeeper's other pains", "Pains", false;
    /// A ZooKeeper-mode cluster migrated to KRaft (Kafka 3.9).
    Migration: "migration", "Migration", "Migration", false;
    /// A real cluster's `__cluster_metadata` log, opened from a file.
    Log: "log", "Open a metadata log", "Log", false;
}

impl Tab {
    /// The view named `name` in a URL.
    pub fn named(name: &str) -> Option<Tab> {
        Tab::ALL.into_iter().find(|tab| tab.name() == name)
    }

    /// The view a tour step opens.
    pub fn showing(view: View) -> Tab {
        match view {
            View::Cluster => Tab::Cluster,
            View::Failover => Tab::Failover,
            View::Pain(_) => Tab::Pains,
            View::Migration => Tab::Migration,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Tab;

    #[test]
    fn every_view_has_its_own_name_and_only_the_live_cluster_is_on_the_first_screen() {
        for (i, tab) in Tab::ALL.into_iter().enumerate() {
            assert_eq!(Tab::named(tab.name()), Some(tab));
            assert!(
                Tab::ALL[..i].iter().all(|other| other.name() != tab.name() && other.label() != tab.label())
            );
        }
        let first: Vec<Tab> = Tab::ALL.into_iter().filter(|tab| tab.on_first_screen()).collect();
        assert_eq!(first, [Tab::Cluster]);
    }
}
