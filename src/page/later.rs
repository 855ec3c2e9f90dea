//! The page's later views as the page state sees them, in the full page's build (the `full`
//! feature): the failover race, the pains, the migration and the opened metadata log: their
//! actions, whether they animate, their keys, their links, what they tell the tour, how the host
//! page's commands reach them, and session files. The first screen's build has
//! `first_screen.rs` in its place, which hands these views over to the full page.

use crate::experiments::failover::KraftRoles;
use crate::harness::{MS, Micros};
use crate::migration::scenarios::IDS as MIGRATIONS;
use crate::migration::sim::Action as MigrationStep;
use crate::page::host::Command;
use crate::page::session_file::SessionFile;
use crate::teaching::stories::{Story, View};

use super::metadata_log::MetadataLogAction;
use super::metadata_log::history::HistoryAction;
use super::migration::{MigrationAction, MigrationState, PreparingMigration};
use super::qr;
use super::{
    Action, CommandError, Effect, PageState, PainsAction, RaceAction, RaceEffect, RaceRequest, Tab,
    is_race_key, prediction_key,
};

/// Saving the session or its metadata log, or handing it to the full page, which would take it
/// as it is before it has reopened.
pub(super) fn takes_the_session_away(action: &Action) -> bool {
    matches!(action, Action::DownloadLog | Action::SaveFile { .. })
}

impl PageState {
    /// An action of a view only the full page has.
    pub(super) fn reduce_later(&mut self, action: Action, effects: &mut Vec<Effect>) {
        match action {
            Action::SaveFile { name, notes } => {
                let file = SessionFile::of(&self.session, self.tour, &name, &notes);
                self.status = format!("Saved {}", file.file_name());
                effects.push(Effect::Download(file));
            }
            Action::OpenFile(file) => self.open_file(file),
            Action::DownloadLog => effects.push(Effect::DownloadLog),
            Action::ViewKeySeen(at) => self.view_key_seen(at),
            Action::Pains(action) => {
                if let Some(at) = self.pains.reduce(action) {
                    self.view_key_seen(at);
                }
            }
            Action::Pain(pain) => {
                self.pains.start(pain);
                self.tab = Tab::Pains;
            }
            Action::Migration(id) => self.open_migration(id, &[], None, true),
            Action::Migrating(action) => self.migrating(action),
            Action::RaceFromLog(partitions) => {
                self.race.open(RaceRequest::idle(partitions));
                self.tab = Tab::Failover;
            }
            Action::Race(action) => {
                let told = self.race.reduce(action);
                self.race_told(told, effects);
            }
            Action::MetadataLog(action) => {
                let history_arrives =
                    matches!(&action, MetadataLogAction::Answered(Ok(o)) if o.history.is_some());
                effects.extend(self.metadata_log.reduce(action, self.clock).map(Effect::ReadLog));
                // A link to a moment of the history (`history-at=`) shows it once the files are opened.
                if history_arrives && let Some(at) = self.params.history_at {
                    self.metadata_log.reduce(MetadataLogAction::History(HistoryAction::At(at)), self.clock);
                }
            }
            // The page's own actions are reduced by `PageState::reduce`, which hands over only these.
            _ => {}
        }
    }

    /// Whether the pain or the migration shown plays, or the failover race has work to do.
    pub(super) fn later_view_animating(&self) -> bool {
        let migrating =
            self.recording.is_some() || self.migration.as_ref().is_some_and(MigrationState::playing);
        (self.pains.playing() && self.tab == Tab::Pains)
            || (migrating && self.tab == Tab::Migration)
            || (self.metadata_log.playing() && self.tab == Tab::Log)
            || self.race.busy()
    }

    /// The race or the pain shown by a tour step reached the step's key moment, `at` after the
    /// kill (or the pain's start).
    pub(super) fn view_key_seen(&mut self, at: Micros) {
        let shown = match self.story().map(|story| story.view) {
            Some(View::Failover) => self.tab == Tab::Failover,
            Some(View::Pain(pain)) => self.tab == Tab::Pains && self.pains.pain() == pain,
            Some(View::Migration) => self.tab == Tab::Migration,
            _ => false,
        };
        if shown && self.key_seen.is_none() {
            self.key_seen = Some(at);
        }
    }

    /// What the race told: its end goes to the host page, its key moment to the tour panel.
    pub(super) fn race_told(&mut self, told: Vec<RaceEffect>, effects: &mut Vec<Effect>) {
        for effect in told {
            match effect {
                RaceEffect::Post(event) => effects.push(Effect::Post(event)),
                RaceEffect::KeyMoment(at) => self.view_key_seen(at),
            }
        }
    }

    /// The migration takes the commands that apply to it, through its own controls' paths; a
    /// step Kafka refuses is an error with its words.
    pub(super) fn command_migration(&mut self, command: Command) -> Result<(), CommandError> {
        if self.recording.is_some() {
            return Err(CommandError::MigrationRecording);
        }
        let migration = self.migration.as_mut().ok_or(CommandError::MigrationShown)?;
        let action = match command {
            Command::Play | Command::Pause => {
                if migration.playing() != (command == Command::Play) {
                    migration.reduce(MigrationAction::TogglePlay);
                }
                return Ok(());
            }
            Command::Step => MigrationAction::Step,
            Command::Seek { ms } if ms * MS > migration.end() => {
                return Err(CommandError::MigrationEnds { asked: ms * MS, end: migration.end() });
            }
            Command::Seek { ms } => MigrationAction::Seek(ms * MS),
            Command::MigrationStep { action } => MigrationAction::Operator(action),
            _ => return Err(CommandError::MigrationShown),
        };
        migration.reduce(action);
        migration.refused().map_or(Ok(()), |why| Err(CommandError::MigrationRefused(why.to_string())))
    }

    /// The failover race takes the commands that apply to it, through its own controls' paths.
    pub(super) fn command_race(
        &mut self,
        command: Command,
        effects: &mut Vec<Effect>,
    ) -> Result<(), CommandError> {
        if !command.applies_to_race() {
            return Err(CommandError::RaceShown);
        }
        let told = self.race.obey(&command);
        self.race_told(told, effects);
        Ok(())
    }

    /// A link to the race's moment (its size; the time since the kill), to the pain shown, or to
    /// the migration's moment.
    pub(super) fn later_view_query(&self) -> Option<String> {
        Some(match self.tab {
            Tab::Cluster => return None,
            Tab::Log => format!("tab=log&history-at={}", self.metadata_log.history()?.at()),
            Tab::Failover => {
                let roles = match self.race.roles() {
                    KraftRoles::DEDICATED => String::new(),
                    roles => format!("&kraft-roles={}", roles.name()),
                };
                // The moment since the kill as a still; before the kill, the healthy clusters.
                let moment = match self.race.elapsed() {
                    Some(elapsed) => format!("&t={}", elapsed / MS),
                    None => "&autoplay=0".to_string(),
                };
                format!(
                    "scenario=failover&partitions={}&seed={}{roles}{moment}",
                    self.race.request().partitions,
                    self.params.settings.seed
                )
            }
            Tab::Migration => return self.migration.as_ref().map(MigrationState::share_query),
            Tab::Pains => {
                let pains = self.pains.view();
                match pains.playing {
                    true => format!("scenario={}", pains.pain.id()),
                    false => format!("scenario={}&t={}", pains.pain.id(), pains.now / MS),
                }
            }
        })
    }

    /// The keys of the race, the pains and the migration while one is shown: `Some(whether the
    /// key was used)`, or `None` for the page's keys.
    pub(super) fn later_view_key(&mut self, key: &str, effects: &mut Vec<Effect>) -> Option<bool> {
        let watch = matches!(key, "w" | "W") && self.race.asking();
        if self.tab == Tab::Failover && (is_race_key(key) || watch) {
            let action = match key {
                " " => RaceAction::TogglePlay,
                "s" | "S" => RaceAction::Step,
                "k" | "K" => RaceAction::Kill,
                "w" | "W" => RaceAction::Predict(false),
                "g" | "G" => RaceAction::ToggleGrids,
                _ => RaceAction::RunAgain,
            };
            let told = self.race.reduce(action);
            self.race_told(told, effects);
            return Some(true);
        }
        let answer = prediction_key(key).filter(|_| self.tab == Tab::Pains && self.pains.asking());
        if self.tab == Tab::Pains
            && let Some(action) = answer.map(PainsAction::Predict).or_else(|| PainsAction::for_key(key))
        {
            if let Some(at) = self.pains.reduce(action) {
                self.view_key_seen(at);
            }
            return Some(true);
        }
        if self.tab == Tab::Migration {
            let asking = self.migration.as_ref().is_some_and(MigrationState::asking);
            if let Some(answer) = prediction_key(key).filter(|_| asking) {
                self.migrating(MigrationAction::Predict(answer));
                return Some(true);
            }
            if let Some(action) = MigrationAction::for_key(key) {
                self.migrating(action);
                return Some(true);
            }
            if matches!(key, "r" | "R") {
                self.replay_migration();
                return Some(true);
            }
            // The live cluster's other keys would act on a cluster not shown.
            return matches!(key, "g" | "G" | "h" | "H" | "x" | "X").then_some(false);
        }
        (self.tab == Tab::Pains && is_race_key(key)).then_some(false)
    }

    /// Show migration scenario `id` as a link asks for it (the viewer's `ops` taken, paused
    /// `at`), with the page's seed; what the link asked that cannot be is said in the notices.
    pub(super) fn open_migration(
        &mut self,
        id: &str,
        ops: &[(Micros, MigrationStep)],
        at: Option<Micros>,
        autoplay: bool,
    ) {
        let (seed, partitions) =
            (self.params.settings.seed, self.params.sized.then_some(self.params.partitions));
        match PreparingMigration::new(id, seed, partitions, ops, at, autoplay) {
            Ok((preparing, notices)) => {
                self.notices.extend(notices);
                self.recording = Some(preparing);
                self.record_migration();
            }
            Err(error) => self.status = format!("Cannot open the migration: {error}"),
        }
        self.tab = Tab::Migration;
    }

    /// Records a frame's slice more of the migration being recorded; once it is done, it is
    /// shown.
    pub(super) fn record_migration(&mut self) {
        let Some(preparing) = self.recording.as_mut() else { return };
        let done = preparing.advance(preparing.slice());
        if done == Ok(false) {
            return;
        }
        let Some(preparing) = self.recording.take() else { return };
        match done.and_then(|_| preparing.finish()) {
            Ok((state, notices)) => {
                self.migration = Some(state);
                self.notices.extend(notices);
            }
            Err(error) => self.status = format!("Cannot open the migration: {error}"),
        }
    }

    /// Tour step `story`'s migration, paused at its question with the page's seed (in kiosk
    /// mode, playing on from there); as a scenario link, its migration scenario as that link
    /// opens it.
    pub(super) fn open_migration_step(&mut self, story: &Story) {
        if let Some(script) = story.migration.filter(|_| self.tour.is_none()) {
            return self.load_migration(script.scenario);
        }
        self.recording = None;
        match MigrationState::for_step(story, self.params.settings.seed, self.kiosk) {
            Ok(state) => self.migration = Some(state),
            Err(error) => self.status = format!("Cannot open the migration: {error}"),
        }
        self.tab = Tab::Migration;
    }

    /// Open the migration scenario `id` the page's link asks for.
    pub(super) fn load_migration(&mut self, id: &str) {
        let (ops, at, autoplay) = (self.params.ops.clone(), self.params.at, self.params.autoplay);
        self.open_migration(id, &ops, at, autoplay);
    }

    /// The migration shown from its start as recorded (the viewer's own steps forgotten).
    pub(super) fn replay_migration(&mut self) {
        let id = self.migration.as_ref().map_or(MIGRATIONS[0], |m| m.scenario().0);
        self.open_migration(id, &[], None, true);
    }

    /// One of the viewer's actions on the migration shown.
    pub(super) fn migrating(&mut self, action: MigrationAction) {
        if let Some(migration) = self.migration.as_mut() {
            migration.reduce(action);
        }
    }

    /// What showing the view asks of the browser, once it was shown after `shown_before`: the
    /// race fetches its measured curve when it first opens.
    pub(super) fn opened_view(&mut self, shown_before: Option<Tab>) -> Option<Effect> {
        self.race.show(self.tab == Tab::Failover);
        (self.tab == Tab::Failover && shown_before != Some(Tab::Failover)).then_some(Effect::FetchMeasured)
    }

    /// Class mode's code: the link a phone opens the step's question with, and its QR code.
    pub fn class_code(&self) -> Option<&(String, qr::Qr)> {
        self.class_code.as_ref()
    }

    /// Open a session file: it replaces the session like a shared link.
    pub(super) fn open_file(&mut self, file: Result<SessionFile, String>) {
        let mut params = self.params.clone();
        match file.and_then(|file| file.apply_to(&mut params).map(|tour| (file, tour))) {
            Ok((file, tour)) => {
                self.live.form = params.settings.clone();
                (self.params, self.tour, self.live.playing) = (params, None, false);
                self.start_over();
                (self.tour, self.key_seen) = (tour, None);
                self.status = match file.name.as_str() {
                    "" => "Opened the session file".into(),
                    name => format!("Opened the session file '{name}'"),
                };
            }
            Err(error) => self.status = format!("Cannot open the session file: {error}"),
        }
    }
}
