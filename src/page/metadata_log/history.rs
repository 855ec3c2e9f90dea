//! Playing an opened log's history: the moment shown (milliseconds on the cluster's own clock),
//! playing or paused, the speed (1x to 1000x the cluster's time), and whether quiet stretches
//! are skipped, as the live view skips them: a stretch with no event longer than a second of
//! the viewer's time is jumped over to a quarter second before its end.

use crate::log_reader::history::{HistoryTrack, Moment};

/// The speeds offered, as multiples of the cluster's time.
pub const SPEEDS: [u32; 4] = [1, 10, 100, 1000];
/// A quiet stretch longer than this much of the viewer's time (ms) is skipped...
const QUIET_MS: f64 = 1_000.0;
/// ...to this much of the viewer's time before the next event.
const LEAD_MS: f64 = 250.0;

/// What the viewer does to the history.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HistoryAction {
    TogglePlay,
    /// One of [`SPEEDS`].
    Speed(u32),
    SkipQuiet(bool),
    /// Go to this moment (ms since the Unix epoch), clamped to the history.
    At(i64),
    /// Go to the election of this index.
    Election(usize),
    Previous,
    Next,
}

/// The history's player.
#[derive(Clone, Debug, PartialEq)]
pub struct HistoryPlayer {
    track: HistoryTrack,
    at: i64,
    playing: bool,
    speed: u32,
    skip_quiet: bool,
    /// Cluster time owed to the clock below a millisecond.
    carry: f64,
}

impl HistoryPlayer {
    /// A player of `track`, paused at its first record, at 100x, skipping quiet stretches.
    pub fn new(track: HistoryTrack) -> HistoryPlayer {
        HistoryPlayer { at: track.start, track, playing: false, speed: 100, skip_quiet: true, carry: 0.0 }
    }

    pub fn track(&self) -> &HistoryTrack {
        &self.track
    }

    /// The moment shown (ms since the Unix epoch).
    pub fn at(&self) -> i64 {
        self.at
    }

    pub fn playing(&self) -> bool {
        self.playing
    }

    pub fn speed(&self) -> u32 {
        self.speed
    }

    pub fn skip_quiet(&self) -> bool {
        self.skip_quiet
    }

    /// The cluster at the moment shown.
    pub fn moment(&self) -> Moment {
        self.track.moment(self.at)
    }

    /// The index of the election shown last, if one was.
    pub fn election(&self) -> Option<usize> {
        self.track.elections.partition_point(|e| e.at <= self.at).checked_sub(1)
    }

    pub(crate) fn reduce(&mut self, action: HistoryAction) {
        let (start, end) = (self.track.start, self.track.end);
        match action {
            HistoryAction::TogglePlay => {
                if !self.playing && self.at >= end {
                    self.at = start;
                }
                self.playing = !self.playing;
            }
            HistoryAction::Speed(speed) if SPEEDS.contains(&speed) => self.speed = speed,
            HistoryAction::Speed(_) => {}
            HistoryAction::SkipQuiet(skip) => self.skip_quiet = skip,
            HistoryAction::At(at) => self.at = at.clamp(start, end),
            HistoryAction::Election(index) => {
                if let Some(election) = self.track.elections.get(index) {
                    self.at = election.at;
                }
            }
            HistoryAction::Previous => {
                let index = self.track.elections.partition_point(|e| e.at < self.at);
                self.at = index.checked_sub(1).map_or(start, |i| self.track.elections[i].at);
            }
            HistoryAction::Next => {
                let index = self.track.elections.partition_point(|e| e.at <= self.at);
                self.at = self.track.elections.get(index).map_or(end, |e| e.at);
            }
        }
        self.carry = 0.0;
    }

    /// An animation frame `elapsed` real ms after the last: the clock moves on at the speed,
    /// over quiet stretches when they are skipped, and stops at the history's end.
    pub(crate) fn frame(&mut self, elapsed: f64) {
        if !self.playing {
            return;
        }
        let speed = f64::from(self.speed);
        if self.skip_quiet
            && let Some(next) = self.track.next_event(self.at)
            && (next - self.at) as f64 > QUIET_MS * speed
        {
            self.at = next - (LEAD_MS * speed) as i64;
        }
        let step = elapsed.max(0.0) * speed + self.carry;
        self.at += step as i64;
        self.carry = step.fract();
        if self.at >= self.track.end {
            self.at = self.track.end;
            self.playing = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::{HistoryAction, HistoryPlayer};
    use crate::log_reader::history::{Change, ElectionMark, HistoryTrack, TrackEvent};

    fn event(at: i64, change: Change) -> TrackEvent {
        TrackEvent { at, change, line: String::new(), partitions: 0, leaderless: 0 }
    }

    fn election(at: i64, epoch: i32, leader: i32, quiet_from: Option<i64>) -> ElectionMark {
        ElectionMark {
            at,
            epoch,
            leader,
            voters: vec![1, 2, 3],
            quiet_from,
            gap_ms: quiet_from.map(|q| at - q),
        }
    }

    /// Two elections: n1 at 0, n2 at 60 s after n1 went quiet at 40 s; broker 4 fenced at 50 s.
    fn track() -> HistoryTrack {
        HistoryTrack {
            source: "test".into(),
            start: 0,
            end: 100_000,
            events: vec![
                event(0, Change::Leads { node: 1, epoch: 1 }),
                event(10, Change::Registered { node: 4, fenced: false }),
                event(40_000, Change::Counts),
                event(50_000, Change::Fenced { node: 4 }),
                event(60_000, Change::Leads { node: 2, epoch: 3 }),
                event(100_000, Change::Counts),
            ],
            elections: vec![election(0, 1, 1, None), election(60_000, 3, 2, Some(40_000))],
            nodes: vec![1, 2, 3, 4],
        }
    }

    #[test]
    fn the_moment_crowns_the_active_controller_and_none_in_a_gap() {
        let player = HistoryPlayer::new(track());
        let at = |ms| player.track().moment(ms);
        assert_eq!(at(20_000).active, Some((1, 1)));
        assert_eq!(at(45_000).active, None, "after the old leader's last record, before the election");
        assert_eq!(at(60_000).active, Some((2, 3)));
        assert!(at(60_000).nodes.iter().find(|n| n.id == 2).unwrap().leads);
        let broker = |ms| at(ms).nodes.iter().find(|n| n.id == 4).unwrap().broker.map(|b| b.name());
        assert_eq!(broker(30_000), Some("active"));
        assert_eq!(broker(55_000), Some("fenced"));
        assert_eq!(broker(5), None, "not registered yet");
        assert!(at(1).nodes.iter().filter(|n| n.id <= 3).all(|n| n.controller), "the voters of epoch 1");
    }

    #[test]
    fn elections_step_back_and_forth_and_playing_skips_quiet_stretches() {
        let mut player = HistoryPlayer::new(track());
        player.reduce(HistoryAction::Next);
        assert_eq!(player.at(), 60_000);
        assert_eq!(player.election(), Some(1));
        player.reduce(HistoryAction::Previous);
        assert_eq!(player.at(), 0);
        player.reduce(HistoryAction::Speed(7));
        assert_eq!(player.speed(), 100, "only the offered speeds");
        player.reduce(HistoryAction::At(10));
        player.reduce(HistoryAction::TogglePlay);
        player.frame(16.0);
        assert_eq!(player.at(), 10 + 1_600, "39,990 ms to the next event is 0.4 s at 100x: played");
        player.reduce(HistoryAction::Speed(10));
        player.reduce(HistoryAction::At(10));
        player.frame(16.0);
        // 39,990 ms is 4 s at 10x: jump to a quarter second (2.5 s of the cluster's) before it.
        assert_eq!(player.at(), 40_000 - 2_500 + 160);
        player.reduce(HistoryAction::At(10));
        player.reduce(HistoryAction::SkipQuiet(false));
        player.frame(10.0);
        assert_eq!(player.at(), 10 + 100, "no skip: the clock moves at 10x");
        for _ in 0..1_000 {
            player.frame(100.0);
        }
        assert_eq!((player.at(), player.playing()), (100_000, false), "stopped at the end");
        player.reduce(HistoryAction::TogglePlay);
        assert_eq!((player.at(), player.playing()), (0, true), "playing again from the start");
    }
}
