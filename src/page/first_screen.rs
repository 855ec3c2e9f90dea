//! The first screen's build (without the `full` feature) in place of `later.rs`: it carries the
//! live cluster only, and hands a later view, a migration's link or session files over to the
//! full page at the link that opens the same state there.

use crate::page::params::PageParams;
use crate::teaching::stories::{self, Story};

use super::{Action, Effect, PageState, Tab};

pub(super) fn takes_the_session_away(action: &Action) -> bool {
    matches!(action, Action::SessionFiles)
}

impl PageState {
    pub(super) fn later_view_animating(&self) -> bool {
        false
    }

    /// The first screen's build shares the live cluster only (another view hands over).
    pub(super) fn later_view_query(&self) -> Option<String> {
        None
    }

    /// The first screen's build shows the view's tab only (a host page's `load-scenario`): the
    /// full page takes over at the scenario's link.
    pub(super) fn load_migration(&mut self, _: &str) {
        self.tab = Tab::Migration;
    }

    /// The first screen's build hands a view it does not carry to the full page, at the link
    /// that opens this state there. A link that already asked for the full page (`full=1`) is not
    /// handed over again: index.html loaded this build for it, so the page says so and stays on
    /// the live cluster rather than reload forever.
    pub(super) fn opened_view(&mut self, shown_before: Option<Tab>) -> Option<Effect> {
        if self.tab.on_first_screen() || shown_before == Some(self.tab) {
            return None;
        }
        if self.params.full {
            self.notices.push(format!(
                "tab: the {} view did not load (this page carries the live cluster only); reload to try again",
                self.tab.name()
            ));
            self.tab = Tab::Cluster;
            return None;
        }
        Some(Effect::OpenFullPage(self.full_page_query()))
    }

    /// The link the full page opens at to show this state: the tour step or scenario shown, or
    /// else the live session exactly (settings, actions, moment) with the view asked for; with
    /// the parameters of how the page is shown as it was opened (embedding, controls, host
    /// origins, the race's size), and speed, presenter and kiosk mode as they are now.
    pub(super) fn full_page_query(&self) -> String {
        let later = |story: &&Story| !Tab::showing(story.view).on_first_screen();
        let scenario = self.params.scenario.and_then(stories::find).filter(later);
        let mut query = match (self.tour, self.story().filter(later), scenario) {
            (Some(step), Some(_), _) => format!("tour={}", step + 1),
            (None, _, Some(story)) => format!("scenario={}", story.id),
            // A migration a host page loaded: its scenario, with the page's seed.
            (None, _, None) if let Some(id) = self.params.scenario.filter(|_| self.tab == Tab::Migration) => {
                format!("scenario={id}&seed={}", self.params.settings.seed)
            }
            _ => format!("{}&tab={}", PageParams::share_query(&self.session), self.tab.name()),
        };
        const KEPT: [&str; 8] =
            ["embed", "controls", "skip", "partitions", "kraft-roles", "origins", "hold", "history-at"];
        for pair in self.search.trim_start_matches('?').split('&') {
            if KEPT.contains(&pair.split('=').next().unwrap_or_default()) {
                query.push('&');
                query.push_str(pair);
            }
        }
        if self.live.speed_exp != self.params.speed.log10() {
            query.push_str(&format!("&speed={}", 10f64.powf(self.live.speed_exp)));
        } else if let Some(speed) = PageParams::pairs(&self.search).find(|(key, _)| key == "speed") {
            query.push_str(&format!("&speed={}", speed.1));
        }
        for (on, flag) in [(self.present, "&present=1"), (self.kiosk, "&kiosk=1"), (true, "&full=1")] {
            if on {
                query.push_str(flag);
            }
        }
        query
    }
}
