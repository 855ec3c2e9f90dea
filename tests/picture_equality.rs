//! The picture is a function of the state: a live page, played frame by frame with actions,
//! draws at every paused moment exactly what a page reopened at that moment from its share
//! link draws (a replay from the seed): the same nodes, messages in flight, falling lost
//! messages and links.

use kraftscope::page::params::PageParams;
use kraftscope::page::{Action, PageState};
use kraftscope::util::rng::Rng;

const FRAME_MS: f64 = 1_000.0 / 60.0;
const BASE: &str = "http://localhost:8080/";

/// A live page at `query`, played in frames with seeded random actions; at `moments` random
/// pauses, its picture is compared with that of the page its share link opens.
fn compare(query: &str, seed: u64, moments: usize) {
    let mut rng = Rng::new(seed);
    let mut live = PageState::new(&format!("?seed={seed}&{query}"), BASE, false);
    for moment in 0..moments {
        for _ in 0..rng.range(5, 90) {
            live.reduce(Action::Frame { elapsed: FRAME_MS });
        }
        let key = match rng.range(0, 8) {
            0 => "k",
            1 => "x",
            2 => "h",
            3 => "g",
            _ => "",
        };
        if !key.is_empty() {
            live.reduce(Action::Key(key.into()));
        }
        for _ in 0..rng.range(1, 30) {
            live.reduce(Action::Frame { elapsed: FRAME_MS });
        }
        if live.live.playing {
            live.reduce(Action::TogglePlay);
        }
        let link = format!("?{}", PageParams::share_query(&live.session));
        let reopened = PageState::new(&link, BASE, false);
        assert!(reopened.live.reopening.is_none(), "the runs stay short enough to reopen at once");
        assert_eq!(
            live.live.picture,
            reopened.live.picture,
            "{query}, seed {seed}, moment {moment} at {} us: the live picture differs from the one its link draws \
             (reproduce: cargo test --release --test suite picture_equality::)",
            live.session.now()
        );
        live.reduce(Action::TogglePlay);
    }
}

#[test]
fn the_default_pace_draws_what_a_replay_draws() {
    for seed in [1, 2] {
        compare("", seed, 40);
    }
}

#[test]
fn real_time_with_losses_draws_what_a_replay_draws() {
    for seed in [3, 4] {
        compare("speed=1&drop=20", seed, 30);
    }
}

#[test]
fn a_larger_cluster_at_10x_draws_what_a_replay_draws() {
    for seed in [5, 6] {
        compare("speed=10&voters=5&brokers=6", seed, 30);
    }
}
