//! Which team size a frame runs on, by measurement (see [`Chooser`]).
//!
//! Results are bit-identical for any team size, so the choice is free to
//! follow the machine: the sizes tried are the whole pool, the cores this
//! process may use, and 1. On two idle cores two threads win; with
//! another program holding one of them, a barrier waits for a thread the
//! OS is not running and one thread wins (two took 1.7× as long); four
//! threads on two cores lose to two.

use std::sync::{Mutex, OnceLock};
use std::time::Duration;

use super::share::{Clock, Shares};

/// How often, at most, a frame tries a team size other than the fastest
/// lately.
pub(super) const TRIAL_EVERY: u64 = 32;

/// Frames between the choice's first trials: a choice made on the first
/// few frames is checked soon (their times can be off by 5× while the
/// process starts, which left a run on one thread of two idle cores for
/// 26 of its 60 frames), and the gap doubles up to [`TRIAL_EVERY`].
const FIRST_TRIAL_AFTER: u64 = 4;

/// Frames not measured at the start.
const WARM_UP: u64 = 2;

/// Frame times kept per team size; the estimate is their mean, what the
/// frames cost on average. (Their least or median chose two threads next
/// to two busy programs: half its frames took 2.8 ms, the others 13.5 ms
/// while the OS ran a busy program instead of one of them, against 5.5 ms
/// on one thread.)
const SAMPLES: usize = 8;

/// Frames measured on each team size before the choice starts.
const FIRST_SAMPLES: usize = 2;

/// The last `N` values recorded (a ring), and how many were in all.
#[derive(Clone, Copy, Debug)]
pub(super) struct Recent<const N: usize> {
    values: [f64; N],
    count: usize,
}

impl<const N: usize> Default for Recent<N> {
    fn default() -> Self {
        Self {
            values: [f64::NAN; N],
            count: 0,
        }
    }
}

impl<const N: usize> Recent<N> {
    pub fn push(&mut self, v: f64) {
        self.values[self.count % N] = v;
        self.count += 1;
    }

    /// Records `v` in place of every value kept (they are stale).
    pub fn refill(&mut self, v: f64) {
        self.values = [v; N];
        self.count += 1;
    }

    /// Values recorded in all.
    pub fn count(&self) -> usize {
        self.count
    }

    /// The mean of the values kept; NaN before the first.
    pub fn mean(&self) -> f64 {
        let n = self.count.min(N);
        self.values[..n].iter().sum::<f64>() / n as f64
    }
}

/// One team size and its last frame times (s).
#[derive(Debug)]
struct Measured {
    size: usize,
    times: Recent<SAMPLES>,
}

#[derive(Debug)]
struct State {
    /// Frames picked.
    frame: u64,
    /// The size of the last frame recorded, and whether none of it was
    /// measured since the change.
    last: usize,
    fresh: bool,
    sizes: Vec<Measured>,
    /// The frame of the next trial (0 until the first samples are in),
    /// the gap after it, and how many trials have run.
    next_trial: u64,
    gap: u64,
    trials: u64,
    /// The chosen size and its mean when it was chosen or the last trial
    /// began: once its frames cost [`CHANGED`] times more or less, the
    /// others' samples are stale (the scene got heavier or lighter) and a
    /// trial comes at once.
    reference: (usize, f64),
}

/// How far the chosen size's mean may move from its value at the last
/// trial before the other sizes are measured again: a pile of two sheets
/// whose two-thread frames were last measured while they landed (40 ms)
/// stayed on one thread (22 ms) for 15 frames of the rest that followed
/// (13 ms on two), until the next trial.
const CHANGED: f64 = 1.5;

/// The team size of each frame: the one whose last [`SAMPLES`] frames
/// were fastest on average. Every [`TRIAL_EVERY`] frames (sooner at the
/// start, [`FIRST_TRIAL_AFTER`]), two frames try another size (the first
/// wakes its threads and is not measured), so a machine that gets busy
/// or idle again is noticed within a second. The others' samples go stale
/// when the scene's load changes, so a trial also comes at once when the
/// chosen size's frames cost [`CHANGED`] times more or less than at the
/// last trial, and [`FIRST_TRIAL_AFTER`] frames after a new choice.
///
/// A frame whose phases are pieces (`Team::pieces`) is not timed: it
/// runs on the pool up to one thread a core, or on one thread where the
/// OS's counts of each thread's share of a core say one is faster
/// ([`Shares`], [`Chooser::pick`]).
#[derive(Debug)]
pub(super) struct Chooser {
    state: Mutex<State>,
    /// The team of a frame of pieces: the pool, no more than the cores
    /// (or the whole pool when fixed) — or one thread, as [`Shares`]
    /// chooses where the OS counts each thread's share of a core.
    loose: usize,
    shares: Option<Shares>,
}

impl Chooser {
    /// For a pool of `threads` threads: chooses among the pool, the
    /// cores and one thread, or (`fixed`) always the pool.
    pub(super) fn new(threads: usize, fixed: bool) -> Self {
        let cores = threads.min(crate::available_threads());
        let mut sizes = vec![threads, cores, 1];
        if fixed {
            sizes.truncate(1);
        }
        let loose = if fixed { threads } else { cores };
        sizes.dedup();
        let sizes = (sizes.into_iter())
            .map(|size| Measured {
                size,
                times: Recent::default(),
            })
            .collect();
        Self {
            state: Mutex::new(State {
                frame: 0,
                last: 0,
                fresh: false,
                sizes,
                next_trial: 0,
                gap: FIRST_TRIAL_AFTER,
                trials: 0,
                reference: (0, 0.0),
            }),
            loose,
            shares: (!fixed && loose > 1)
                .then(|| Shares::new(loose, threads))
                .flatten(),
        }
    }

    /// Whether it always picks the whole pool.
    pub(super) fn is_fixed(&self) -> bool {
        self.state
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .sizes
            .len()
            == 1
    }

    /// The team size of the last frame recorded (0 before the first).
    pub(super) fn last(&self) -> usize {
        self.state.lock().unwrap_or_else(|e| e.into_inner()).last
    }

    /// The team size for the next frame.
    ///
    /// A frame of pieces is not timed. It runs on the pool up to the
    /// cores, where no thread waits for one the OS is not running (a team
    /// of two on one core took 1.06–1.08× one thread's time), or on one
    /// thread when the threads' shares of a core say so ([`Shares`]):
    /// timed, the measurements' one-thread trials took 15–19 of 120 frames
    /// of an idle machine, and their frame times swing 2× with the OS's
    /// placement on a busy one. More threads than cores still lose (four
    /// on two: 2.0–2.4× two's time) and are not used. See
    /// docs/performance.md, "A thread the OS is not running".
    pub(super) fn pick(&self, loose: bool) -> usize {
        if loose {
            return self.shares.as_ref().map_or(self.loose, Shares::pick);
        }
        let mut guard = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let st = &mut *guard;
        st.frame += 1;
        // The first frames measure every size FIRST_SAMPLES times, largest
        // first (the very first frames are not measured, see `took`).
        if let Some(m) = st.sizes.iter().find(|m| m.times.count() < FIRST_SAMPLES) {
            return m.size;
        }
        let best = (0..st.sizes.len())
            .min_by(|&a, &b| {
                st.sizes[a]
                    .times
                    .mean()
                    .total_cmp(&st.sizes[b].times.mean())
            })
            .unwrap_or(0);
        if st.sizes.len() == 1 {
            return st.sizes[0].size;
        }
        if st.next_trial == 0 {
            st.next_trial = st.frame + st.gap;
        }
        let (size, mean) = (st.sizes[best].size, st.sizes[best].times.mean());
        let moved = mean > CHANGED * st.reference.1 || CHANGED * mean < st.reference.1;
        if size != st.reference.0 {
            // A new choice: the size it left is tried again soon, in case
            // the trial that won fell on a change of load (a pile's
            // landing ending: one thread measured at rest against two
            // threads' frames of the landing).
            st.reference = (size, mean);
            st.next_trial = st.next_trial.min(st.frame + FIRST_TRIAL_AFTER);
        } else if moved && mean.is_finite() && st.frame < st.next_trial {
            // The others were measured on another load: again, now (the
            // trial takes the new reference).
            st.next_trial = st.frame;
        }
        // A trial is two frames: the first wakes the threads (up to 15 ms
        // here for a parked worker), the second is measured.
        if st.frame >= st.next_trial {
            if st.frame == st.next_trial {
                st.reference.1 = mean;
            }
            let k = (st.trials % (st.sizes.len() as u64 - 1)) as usize;
            if st.frame > st.next_trial {
                st.trials += 1;
                st.next_trial = st.frame + st.gap;
                st.gap = (2 * st.gap).min(TRIAL_EVERY);
            }
            return st.sizes[if k >= best { k + 1 } else { k }].size;
        }
        st.sizes[best].size
    }

    /// Records that a frame on `size` threads took `elapsed` (`loose`: a
    /// frame of pieces, measured by [`Shares`] with the workers' clocks,
    /// `workers[i]` thread i + 1's).
    pub(super) fn took(
        &self,
        size: usize,
        loose: bool,
        elapsed: Duration,
        workers: &[OnceLock<Clock>],
    ) {
        if let (true, Some(shares)) = (loose, &self.shares) {
            shares.took(size, workers);
        }
        let mut guard = self.state.lock().unwrap_or_else(|e| e.into_inner());
        let st = &mut *guard;
        if loose {
            // The next measured frame, if its size differs, is not measured.
            st.last = size;
            return;
        }
        if st.frame <= WARM_UP {
            // The first frames start the workers and warm the caches (a
            // team's first frames took 9–15 ms against 0.8 ms after).
            return;
        }
        if st.last != size {
            // A change of size: this frame woke parked threads or left
            // them, and is not measured.
            st.last = size;
            st.fresh = true;
            return;
        }
        let fresh = std::mem::take(&mut st.fresh);
        if let Some(m) = st.sizes.iter_mut().find(|m| m.size == size) {
            let t = elapsed.as_secs_f64();
            if fresh && m.times.count() >= FIRST_SAMPLES {
                // A trial (or a change back): the old times are stale; if
                // this one beats the others it is chosen from the next frame.
                m.times.refill(t);
            } else {
                m.times.push(t);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The team-size choice with the machine's timings replaced by given
    /// ones: deterministic, unlike a run beside busy programs.
    #[test]
    fn frames_run_on_the_team_size_that_was_fastest_and_follow_a_change() {
        let chooser = Chooser::new(2, false);
        let ms = std::time::Duration::from_micros;
        let run = |frames: usize, two: u64, one: u64| {
            let mut on_two = 0;
            for _ in 0..frames {
                let size = chooser.pick(false);
                on_two += usize::from(size == 2);
                chooser.took(size, false, ms(if size == 2 { two } else { one }), &[]);
            }
            on_two
        };
        // Another program holds a core: two threads take 2.2× as long.
        let on_two = run(320, 3000, 1360);
        // Two of every TRIAL_EVERY frames try the other size.
        assert!(on_two <= 320 / 10, "{on_two} of 320 frames on two threads");
        // It ends: two threads take 0.6× as long, chosen from the next trial on.
        run(2 * TRIAL_EVERY as usize, 820, 1360);
        let on_two = run(320, 820, 1360);
        assert!(
            on_two >= 320 - 320 / 10,
            "{on_two} of 320 frames on two threads"
        );
    }

    #[test]
    fn a_choice_misled_by_the_first_frames_is_corrected_within_a_few_frames() {
        // Two idle cores, but the first measured frame on two threads took
        // 3.35 ms while the process started (0.62 after), against 1.16 on
        // one: one thread is chosen first.
        let chooser = Chooser::new(2, false);
        let mut two_frames = 0;
        let mut sizes = Vec::new();
        for _ in 0..60 {
            let size = chooser.pick(false);
            sizes.push(size);
            let ms = match size {
                // Its 4th frame: the first measured on two threads.
                2 if two_frames == 3 => 3.35,
                2 => 0.62,
                _ => 1.16,
            };
            two_frames += usize::from(size == 2);
            chooser.took(size, false, Duration::from_secs_f64(ms * 1e-3), &[]);
        }
        // With trials every TRIAL_EVERY frames from the start, 25 of 60.
        let on_two = sizes.iter().filter(|&&s| s == 2).count();
        assert!(
            on_two >= 42,
            "{on_two} of 60 frames on two threads: {sizes:?}"
        );
    }

    #[test]
    fn a_scene_that_gets_heavier_or_lighter_is_measured_again_at_once() {
        // The landing ends in the frame a trial of one thread is measured.
        const RESTS: usize = 27;
        // The pile of two sheets (ms on two threads, on one): the top one
        // falls, lands, then both rest.
        let phase = |frame: usize| match frame {
            0..19 => (8.0, 12.0),
            19..RESTS => (40.0, 55.0),
            _ => (13.0, 22.0),
        };
        let chooser = Chooser::new(2, false);
        let mut sizes = Vec::new();
        for frame in 0..120 {
            let size = chooser.pick(false);
            sizes.push(size);
            let (two, one) = phase(frame);
            let ms = if size == 2 { two } else { one };
            chooser.took(size, false, Duration::from_secs_f64(ms * 1e-3), &[]);
        }
        // At rest, one thread only for the trials: two frames of every
        // TRIAL_EVERY, and those until the lighter load is noticed.
        let on_one = sizes[RESTS..].iter().filter(|&&s| s == 1).count();
        assert!(
            on_one <= 8,
            "{on_one} frames at rest on one thread: {sizes:?}"
        );
    }

    #[test]
    fn a_scene_that_gets_lighter_is_measured_again_on_the_size_it_left() {
        // A heavy scene on a busy machine runs best on one thread (30 ms
        // against 40 on two); from frame LIGHT on, most of it is gone and
        // two threads win (5 ms against 8).
        const LIGHT: usize = 80;
        let chooser = Chooser::new(2, false);
        let mut sizes = Vec::new();
        for frame in 0..140 {
            let size = chooser.pick(false);
            sizes.push(size);
            let (two, one) = if frame < LIGHT {
                (40.0, 30.0)
            } else {
                (5.0, 8.0)
            };
            let ms = if size == 2 { two } else { one };
            chooser.took(size, false, Duration::from_secs_f64(ms * 1e-3), &[]);
        }
        // Within a few frames, not at the next of the trials 32 frames
        // apart (two threads' samples are all from the heavy scene).
        let late = sizes[LIGHT + 5..].iter().filter(|&&s| s == 1).count();
        assert!(late <= 4, "{late} light frames on one thread: {sizes:?}");
    }

    #[test]
    fn a_frame_of_pieces_runs_on_the_pool_up_to_the_cores_and_leaves_the_measurements_alone() {
        // Two threads' frames of pieces are slow (a busy machine), which
        // would make a measured choice one thread; they are not measured.
        let cores = crate::available_threads();
        let mut chooser = Chooser::new(4, false);
        // Whether one thread would be faster by the shares of a core is
        // share.rs's to test: a slow moment of a busy test machine must
        // not change the size here.
        chooser.shares = None;
        for _ in 0..3 * TRIAL_EVERY {
            let size = chooser.pick(true);
            assert_eq!(size, cores.min(4));
            chooser.took(size, true, Duration::from_millis(50), &[]);
            assert_eq!(chooser.last(), size);
        }
        // Measured frames start where they would have: every size first.
        let fixed = Chooser::new(4, true);
        assert_eq!(fixed.pick(true), 4, "a fixed team is the user's choice");
        let first = chooser.pick(false);
        assert_eq!(first, 4, "measured frames start on the pool");
        let state = chooser.state.lock().unwrap();
        assert_eq!(state.frame, 1);
        assert!(state.sizes.iter().all(|m| m.times.count() == 0));
    }

    #[test]
    fn a_fixed_team_runs_every_frame_on_its_size_however_slow() {
        // The panel's "threads 2": the user's choice, not the measurements'.
        let chooser = Chooser::new(2, true);
        assert!(chooser.is_fixed());
        for _ in 0..3 * TRIAL_EVERY {
            let size = chooser.pick(false);
            assert_eq!(size, 2);
            chooser.took(size, false, Duration::from_millis(50), &[]);
        }
        assert_eq!(chooser.last(), 2);
    }
}
