//! Record and replay in the window (see `crate::record`): Record watches
//! the world before every step; Stop writes the recording beside the save
//! path (downloads it in the browser); Replay plays a recording from its
//! first frame: the `.rec.ron` named in the Open… field, else the last one
//! recorded in this window (in the browser, in this tab), else the one
//! beside the save path.

use std::path::Path;

use super::platform;
use crate::app::App;
use crate::record::{self, Recorder, Recording};

/// A recording being played back.
pub(in crate::app) struct Replay {
    recording: Recording,
    /// Index of the next event to apply.
    next: usize,
    /// Frames stepped so far.
    frame: u64,
}

/// The window's recorder, its last recording, and a replay in progress.
#[derive(Default)]
pub(in crate::app) struct Tape {
    /// Recording the user's inputs.
    pub recorder: Option<Recorder>,
    /// The last recording stopped in this window.
    recorded: Option<Recording>,
    /// Playing a recording back.
    replaying: Option<Replay>,
}

impl App {
    /// Called just before every step: feeds a replay's events and shows
    /// the world to the recorder.
    pub(in crate::app) fn before_step(&mut self) {
        if let Some(r) = self.tape.replaying.as_mut() {
            while let Some((_, e)) = r
                .recording
                .events
                .get(r.next)
                .filter(|(f, _)| *f == r.frame)
            {
                record::apply(&mut self.world, e);
                r.next += 1;
            }
            r.frame += 1;
            if r.frame >= r.recording.frames {
                self.status = format!("replay finished after {} frames", r.frame);
                self.tape.replaying = None;
            }
        }
        if let Some(rec) = self.tape.recorder.as_mut() {
            rec.before_step(&self.world);
        }
    }

    /// Starts recording from the world as it is now.
    pub(in crate::app) fn start_recording(&mut self) {
        let mut scene = self.scene.clone();
        scene.capture(&self.world);
        scene.capture_state(&self.world);
        self.tape.recorder = Some(Recorder::new(scene, &self.world));
        self.status = "recording…".into();
    }

    /// Stops recording and writes it to `path`.
    pub(in crate::app) fn stop_recording(&mut self, path: &Path) {
        if let Some(rec) = self.tape.recorder.take() {
            let rec = rec.recording();
            let text = record::to_text(rec);
            self.status = match platform::deliver(path, &text) {
                Ok(done) => format!(
                    "recorded {} frames, {} events: {done}",
                    rec.frames,
                    rec.events.len()
                ),
                Err(e) => e,
            };
            self.tape.recorded = Some(rec.clone());
        }
    }

    /// Plays a recording from its first frame: the `.rec.ron` file `open`
    /// names, else the last one recorded here, else the file `beside`.
    pub(in crate::app) fn start_replay(&mut self, open: &Path, beside: &Path) {
        let named = !platform::WEB && open.to_string_lossy().ends_with(".rec.ron");
        let (loaded, path) = match &self.tape.recorded {
            _ if named => (record::load(open), open.to_path_buf()),
            Some(rec) => (Ok(rec.clone()), beside.to_path_buf()),
            None if !platform::WEB && beside.is_file() => {
                (record::load(beside), beside.to_path_buf())
            }
            None => {
                self.status = "record something first: Record, drag, Stop recording".into();
                return;
            }
        };
        match loaded {
            Ok(recording) => {
                self.errors.clear(); // a banner about another file no longer applies
                self.mouse.cancel(&mut self.world);
                self.scene = recording.scene.clone();
                let threads = self.world.thread_choice();
                self.world = crate::app::solver_world_from(self.scene.build(), threads);
                // The recording's frame-0 events set the hand and settings.
                self.world.set_hand(Default::default());
                self.rebuild_twin();
                self.paused = false;
                self.accumulator = 0.0;
                self.stale_stats = true;
                self.status = format!("replaying {}", path.display());
                self.tape.replaying = Some(Replay {
                    recording,
                    next: 0,
                    frame: 0,
                });
            }
            Err(e) => self.errors = e.0.iter().map(|e| e.to_string()).collect(),
        }
    }
}
