//! "Save picture" in the page's reducer: E and the button open the form on the live cluster
//! only, its choices name the file and size the image, and Save hands the browser the still of
//! the session as it is now: the drawing `kraftscope render` writes for the same moment.

use kraftscope::drawing::cluster::{StillStyle, still};
use kraftscope::harness::MS;
use kraftscope::page::{Action, Effect, PageState, Still, StillAction, StillFormat, Tab};
use kraftscope::session::picture::session_picture;
use kraftscope::teaching::stories;

fn page(query: &str) -> PageState {
    PageState::new(query, "http://localhost:8080/", false)
}

fn key(page: &mut PageState, key: &str) -> bool {
    page.reduce(Action::Key(key.into())).handled
}

/// Save, and the still handed to the browser.
fn save(page: &mut PageState) -> Option<Still> {
    let effects = page.reduce(Action::Still(StillAction::Save)).effects;
    effects.into_iter().find_map(|e| match e {
        Effect::SaveStill(still) => Some(still),
        _ => None,
    })
}

#[test]
fn e_opens_and_closes_the_form_on_the_live_cluster_only() {
    let mut page = page("?scenario=leader-crash&seed=3&autoplay=0");
    assert!(!page.still_open);
    assert!(key(&mut page, "e"));
    assert!(page.still_open);
    assert!(key(&mut page, "Escape"));
    assert!(!page.still_open);
    page.reduce(Action::Still(StillAction::Open));
    assert!(page.still_open);
    assert!(key(&mut page, "E"));
    assert!(!page.still_open, "E again closes it");
    page.reduce(Action::Still(StillAction::Open));
    page.reduce(Action::Tab(Tab::Log));
    assert!(!page.still_open, "another view closes it");
    assert!(
        !key(&mut page, "e"),
        "no picture of the log view before a log is opened: E is no shortcut there"
    );
    page.reduce(Action::Still(StillAction::Open));
    assert!(!page.still_open);
    assert_eq!(save(&mut page), None, "nothing saved with the form closed");
}

#[test]
fn save_hands_over_the_still_render_draws_for_the_same_moment() {
    let mut page = page("?scenario=leader-crash&seed=3&autoplay=0");
    page.reduce(Action::Still(StillAction::Open));
    let saved = save(&mut page).expect("a still");
    let session = stories::find("leader-crash").unwrap().opening(3);
    let expected = still(&session_picture(&session, false), false, &StillStyle::default());
    assert_eq!(saved.drawing, expected);
    let at = session.now() / MS;
    assert_eq!(saved.name, format!("kraftscope-leader-crash-seed3-{at}ms.svg"));
    assert_eq!((saved.size, saved.background), (None, "#ffffff"));
    assert!(page.status.starts_with("Saving kraftscope-leader-crash-seed3-"), "{}", page.status);

    page.reduce(Action::Still(StillAction::Format(StillFormat::Png2160)));
    page.reduce(Action::Still(StillAction::Dark(true)));
    page.reduce(Action::Still(StillAction::Caption("After the crash".into())));
    let dark = save(&mut page).unwrap();
    assert_eq!(dark.name, format!("kraftscope-leader-crash-seed3-{at}ms-dark.png"));
    assert_eq!((dark.size, dark.background), (Some((3840, 2160)), "#0d1117"));
    let style = StillStyle { dark: true, caption: "After the crash".into() };
    assert_eq!(dark.drawing, still(&session_picture(&session, false), false, &style));
    assert_eq!(StillFormat::Png1080.size(), Some((1920, 1080)));
}

#[test]
fn a_still_is_of_the_moment_shown_and_the_live_cluster_is_named_so() {
    let mut page = page("?seed=9&speed=1");
    page.reduce(Action::Frame { elapsed: 16.0 });
    for _ in 0..300 {
        page.reduce(Action::Frame { elapsed: 1_000.0 / 60.0 });
    }
    page.reduce(Action::TogglePlay);
    page.reduce(Action::Still(StillAction::Open));
    let saved = save(&mut page).unwrap();
    let now = page.session.now();
    assert!(now > 0);
    assert_eq!(saved.name, format!("kraftscope-cluster-seed9-{}ms.svg", now / MS));
    assert_eq!(saved.drawing, still(&session_picture(&page.session, false), false, &StillStyle::default()));
}

#[test]
fn on_the_race_e_saves_the_race_as_render_draws_it() {
    let mut page = page("?scenario=failover&partitions=100000&seed=4&t=20000&autoplay=0");
    assert_eq!(page.tab, Tab::Failover);
    while page.race.busy() {
        page.reduce(Action::Frame { elapsed: 1_000.0 / 60.0 });
    }
    assert!(key(&mut page, "e"), "E opens the form on the race too");
    let saved = save(&mut page).expect("a still of the race");
    assert_eq!(saved.name, "kraftscope-failover-100000p-seed4-20000ms.svg");
    let expected =
        page.race.screen(kraftscope::page::race::RaceFrame::Page).still(&StillStyle::default()).unwrap();
    assert_eq!(saved.drawing, expected);
    page.reduce(Action::Tab(Tab::Cluster));
    assert!(!page.still_open, "another view closes the form");
}

#[test]
fn on_the_pains_e_saves_the_pain_as_render_draws_it_and_a_link_keeps_its_moment() {
    let mut page = page("?scenario=zk-watch-storm&t=7000");
    assert_eq!(page.tab, Tab::Pains);
    let view = page.pains.view();
    assert_eq!((view.now, view.playing), (7_000 * MS, false), "t= opens the pain paused that far in");
    assert!(key(&mut page, "e"), "E opens the form on the pains");
    page.reduce(Action::Still(StillAction::Dark(true)));
    let saved = save(&mut page).expect("a still of the pain");
    assert_eq!(saved.name, "kraftscope-zk-watch-storm-7000ms-dark.svg");
    assert_eq!(saved.drawing, view.still(&StillStyle { dark: true, caption: String::new() }));
    let effects = page.reduce(Action::Share).effects;
    let link = effects.iter().find_map(|e| match e {
        Effect::Copy(link) => Some(link.clone()),
        _ => None,
    });
    assert_eq!(
        link.as_deref(),
        Some("http://localhost:8080/?scenario=zk-watch-storm&t=7000"),
        "a paused pain's link keeps its moment"
    );
    page.reduce(Action::Pains(kraftscope::page::PainsAction::TogglePlay));
    let link = page.reduce(Action::Share).effects.into_iter().find_map(|e| match e {
        Effect::Copy(link) => Some(link),
        _ => None,
    });
    assert_eq!(
        link.as_deref(),
        Some("http://localhost:8080/?scenario=zk-watch-storm"),
        "a playing one's plays from the start"
    );
    let paused = self::page("?scenario=zk-liveness&autoplay=0").pains.view();
    assert_eq!((paused.now, paused.playing), (0, false), "autoplay=0 opens it paused at its start");
    assert!(self::page("?scenario=zk-liveness").pains.view().playing, "a plain link plays it");
}
