//! URL parameters: good ones are read, every bad one falls back to its default and is named in
//! a notice, and a shared link reopens exactly the session it was made from.

use kraftscope::harness::MS;
use kraftscope::page::params::{Controls, PageParams};
use kraftscope::session::{Action, Session, Settings};

#[test]
fn an_embedding_url_is_read() {
    let (params, notices) = PageParams::parse(
        "?embed=1&scenario=failover&seed=7&autoplay=1&controls=min&partitions=20000&speed=2.5",
    );
    assert!(notices.is_empty(), "{notices:?}");
    assert!(params.embed && params.autoplay);
    assert_eq!(params.scenario, Some("failover"));
    assert_eq!(params.settings.seed, 7);
    assert_eq!(params.controls, Controls::Min);
    assert_eq!(params.partitions, 20_000);
    assert_eq!(params.speed, 2.5);
}

/// Parse `query` and return the single notice it produced, checking the value fell back.
fn one_notice(query: &str) -> (PageParams, String) {
    let (params, notices) = PageParams::parse(query);
    assert_eq!(notices.len(), 1, "{query}: {notices:?}");
    (params, notices[0].clone())
}

#[test]
fn a_bad_seed_is_named_and_replaced() {
    let (params, notice) = one_notice("seed=abc");
    assert!(notice.starts_with("seed:"), "{notice}");
    assert_eq!(params.settings.seed, Settings::default().seed);
    let (_, notice) = one_notice("seed=99999999999999999999999");
    assert!(notice.starts_with("seed:"), "{notice}");
}

#[test]
fn an_unknown_scenario_is_named() {
    let (params, notice) = one_notice("scenario=blackhole");
    assert!(notice.contains("blackhole") && notice.contains("leader-crash"), "{notice}");
    assert_eq!(params.scenario, None);
}

#[test]
fn huge_partition_counts_and_cluster_sizes_are_refused() {
    let (params, notice) = one_notice("partitions=999999999");
    assert!(notice.starts_with("partitions:"), "{notice}");
    assert_eq!(params.partitions, PageParams::default().partitions);
    let (params, notice) = one_notice("brokers=5000");
    assert!(notice.starts_with("brokers:"), "{notice}");
    assert_eq!(params.settings.brokers, Settings::default().brokers);
    let (_, notice) = one_notice("speed=1e9");
    assert!(notice.starts_with("speed:"), "{notice}");
    let (_, notice) = one_notice("speed=NaN");
    assert!(notice.starts_with("speed:"), "{notice}");
}

#[test]
fn truncated_share_strings_are_ignored_with_a_notice() {
    let (params, notice) = one_notice("seed=3&actions=4000000.120.k~6000000.3");
    assert!(notice.starts_with("actions:") && notice.contains("truncated"), "{notice}");
    assert!(params.actions.is_empty());
    assert_eq!(params.settings.seed, 3);
    let (_, notice) = one_notice("actions=4000000.120.c%");
    assert!(notice.starts_with("actions:"), "{notice}");
}

#[test]
fn unknown_parameters_are_named_and_several_problems_give_several_notices() {
    let (_, notices) = PageParams::parse("colour=red&seed=-1&tour=99&controls=some&latency=50-10");
    assert_eq!(notices.len(), 5, "{notices:?}");
    for (notice, key) in notices.iter().zip(["'colour'", "seed:", "tour:", "controls:", "latency:"]) {
        assert!(notice.contains(key), "{notice} should name {key}");
    }
}

#[test]
fn a_shared_link_reopens_the_same_leader_epoch_and_log() {
    let mut session = Session::new(Settings { seed: 11, ..Settings::default() });
    session.advance_to(4_000 * MS, usize::MAX);
    session.act(Action::KillLeader).unwrap();
    while !session.advance_to(8_000 * MS, 5) {}
    session.act(Action::CreateTopic { partitions: 3, replication: 2 }).unwrap();
    session.advance_to(9_000 * MS, usize::MAX);
    let (params, notices) = PageParams::parse(&PageParams::share_query(&session));
    assert!(notices.is_empty(), "{notices:?}");
    let (reopened, problem) = params.open_session(params.settings.clone());
    assert_eq!(problem, None);
    let view = |s: &Session| {
        let leader = s.sim().leader().map(|l| (l.id(), l.epoch(), l.log().end_offset(), l.high_watermark()));
        (leader, s.now(), s.log().iter().map(|l| l.to_string()).collect::<Vec<_>>())
    };
    assert_eq!(view(&reopened), view(&session));
}

#[test]
fn at_the_default_pacing_every_message_takes_at_least_0_6_s_to_cross() {
    let (params, _) = PageParams::parse("");
    let shortest_ms = f64::from(params.settings.latency_min_ms) / params.speed;
    assert!(shortest_ms >= 600.0, "the quickest crossing takes {shortest_ms:.0} ms of wall time");
}

#[test]
fn the_host_api_and_kiosk_parameters_are_read() {
    let (params, notices) = PageParams::parse(
        "?embed=1&origins=https%3A%2F%2Fdocs.example.com,http://localhost:8000&kiosk=1&hold=500",
    );
    assert!(notices.is_empty(), "{notices:?}");
    assert!(
        params.origins.allows("https://docs.example.com") && params.origins.allows("http://localhost:8000")
    );
    assert!(params.kiosk);
    assert_eq!(params.hold_ms, Some(500));
    assert!(PageParams::parse("").0.origins.is_empty(), "the API is off unless origins are given");
}

#[test]
fn bad_host_api_and_kiosk_parameters_are_named() {
    let (params, notice) = one_notice("origins=docs.example.com");
    assert!(notice.starts_with("origins: 'docs.example.com' is not an origin"), "{notice}");
    assert!(notice.ends_with("the host-page API stays off"), "{notice}");
    assert!(params.origins.is_empty());
    let (params, notice) = one_notice("kiosk=maybe");
    assert!(notice.starts_with("kiosk:") && !params.kiosk, "{notice}");
    let (params, notice) = one_notice("hold=5");
    assert!(notice.starts_with("hold: 5 is outside 100 to 600000"), "{notice}");
    assert_eq!(params.hold_ms, None);
}

#[test]
fn the_session_file_panel_is_opened_by_its_link_and_a_bad_value_named() {
    assert!(PageParams::parse("?files=1").0.files);
    assert!(!PageParams::parse("").0.files);
    let (params, notice) = one_notice("files=later");
    assert_eq!(notice, "files: 'later' is not 0 or 1");
    assert!(!params.files);
}

#[test]
fn the_quorum_format_is_read_and_a_bad_one_named() {
    use kraftscope::sim::simulation::QuorumFormat;
    assert_eq!(PageParams::parse("").0.settings.quorum, QuorumFormat::InitialControllers);
    let (params, notices) = PageParams::parse("quorum=standalone");
    assert!(notices.is_empty(), "{notices:?}");
    assert_eq!(params.settings.quorum, QuorumFormat::Standalone);
    let (params, notices) = PageParams::parse("quorum=paxos");
    assert_eq!(params.settings.quorum, QuorumFormat::InitialControllers);
    assert_eq!(
        notices,
        ["quorum: 'paxos' is not static, standalone or initial-controllers; using initial-controllers"]
    );
}

#[test]
fn combined_nodes_are_read_kept_by_share_links_and_a_bad_value_named() {
    let (params, notices) = PageParams::parse("roles=combined");
    assert!(notices.is_empty() && params.settings.combined, "{notices:?}");
    let mut session = Session::new(params.settings.clone());
    session.advance_to(3_000 * MS, usize::MAX);
    assert!(session.sim().runs_broker(1), "controller n1 also runs a broker");
    assert!(PageParams::share_query(&session).contains("&roles=combined"));
    let (params, notices) = PageParams::parse("roles=both");
    assert!(!params.settings.combined);
    assert_eq!(notices, ["roles: 'both' is not dedicated or combined; using dedicated"]);
}
