//! The first screen's build of the page (`--no-default-features`): it draws the live cluster and
//! hands every other view to the full page at a link that carries the state. Run by `cargo xtask
//! test` as `cargo test --no-default-features --test first_screen_page`; the full build compiles
//! this file to nothing.
#![cfg(not(feature = "full"))]

use kraftscope::page::host::Command;
use kraftscope::page::params::PageParams;
use kraftscope::page::{Action, Effect, PageState, Tab};
use kraftscope::teaching::stories::{TOUR, View};

fn page(query: &str) -> PageState {
    PageState::new(query, "http://localhost:8080/", false)
}

/// The full page's query `outcome` asks for, and its parameters.
fn handed_over(effects: &[Effect]) -> (String, PageParams) {
    let [Effect::OpenFullPage(query)] = effects else { panic!("no hand-over: {effects:?}") };
    let (params, notices) = PageParams::parse(query);
    assert!(notices.is_empty(), "{query}: {notices:?}");
    assert!(params.full, "{query} asks for the full page");
    (query.clone(), params)
}

#[test]
fn opening_another_view_hands_the_live_session_to_the_full_page_exactly() {
    let mut page = page("?seed=5&speed=1&embed=1&origins=https://docs.example&partitions=5000");
    for _ in 0..480 {
        page.reduce(Action::Frame { elapsed: 1_000.0 / 60.0 });
    }
    page.reduce(Action::Key("k".into()));
    page.reduce(Action::TogglePlay);
    let share = PageParams::share_query(&page.session);
    for tab in Tab::ALL.into_iter().filter(|tab| !tab.on_first_screen()) {
        let (query, params) = handed_over(&page.reduce(Action::Tab(tab)).effects);
        assert!(query.starts_with(&format!("{share}&tab={}&", tab.name())), "{query}");
        assert_eq!(params.tab, Some(tab));
        assert!(params.embed && params.speed == 1.0 && params.partitions == 5_000, "{query}");
        assert!(query.contains("&origins=https://docs.example"), "{query}");
        page.reduce(Action::Tab(Tab::Cluster));
    }
    assert!(page.reduce(Action::Tab(Tab::Cluster)).effects.is_empty(), "the live cluster is drawn here");
}

#[test]
fn a_tour_step_or_scenario_of_another_view_opens_the_full_page_there() {
    let later = TOUR.iter().position(|story| story.view != View::Cluster).expect("a race or pain step");
    let kraft = TOUR.iter().position(|story| story.view == View::Cluster).expect("a KRaft step");
    let mut page = page(&format!("?tour={}&present=1", kraft + 1));
    assert!(page.opening_effects().iter().all(|e| !matches!(e, Effect::OpenFullPage(_))));
    let (query, params) = handed_over(
        &page
            .reduce(Action::Tour(Some(later)))
            .effects
            .into_iter()
            .filter(|e| !matches!(e, Effect::SetQuery(_) | Effect::ScrollToTop))
            .collect::<Vec<_>>(),
    );
    assert_eq!(params.tour, Some(later + 1), "{query}");
    assert!(params.present, "{query}");

    let mut opened = self::page("?scenario=failover&partitions=2000");
    let (query, params) = handed_over(&opened.opening_effects());
    assert_eq!((params.scenario, params.partitions), (Some("failover"), 2_000), "{query}");
}

#[test]
fn a_link_that_asked_for_the_full_page_is_not_handed_over_again() {
    let mut page = page("?tab=failover&full=1");
    assert!(page.opening_effects().is_empty(), "no reload loop");
    assert_eq!(page.tab, Tab::Cluster);
    assert_eq!(
        page.notices,
        [
            "tab: the failover view did not load (this page carries the live cluster only); reload to try again"
        ]
    );
}

/// Session files come with the full page (reading one back is about 8 KiB of the first screen
/// gzipped): the first screen's panel hands the exact session over, the panel open.
#[test]
fn session_files_hand_the_exact_session_to_the_full_page_with_the_panel_open() {
    let mut page = page("?seed=9&speed=1&controls=full");
    for _ in 0..300 {
        page.reduce(Action::Frame { elapsed: 1_000.0 / 60.0 });
    }
    page.reduce(Action::Key("k".into()));
    let share = PageParams::share_query(&page.session);
    let (query, params) = handed_over(&page.reduce(Action::SessionFiles).effects);
    assert!(query.starts_with(&format!("{share}&tab=cluster&")), "{query}");
    assert!(params.files && params.speed == 1.0, "{query}");
}

#[test]
fn a_host_page_loading_a_migration_hands_it_to_the_full_page_with_the_seed() {
    let mut page = page("?seed=9&embed=1&origins=https://docs.example");
    let outcome = page.reduce(Action::Host(Command::LoadScenario { scenario: "migration-zk-down".into() }));
    let (query, params) = handed_over(&outcome.effects);
    assert!(query.starts_with("scenario=migration-zk-down&seed=9&"), "{query}");
    assert_eq!((params.scenario, params.settings.seed), (Some("migration-zk-down"), 9));
    assert!(params.embed && query.contains("&origins=https://docs.example"), "{query}");
}
