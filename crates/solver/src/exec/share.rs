//! Which team size a frame of pieces runs on, by how much of a core the
//! OS gives each solver thread (see [`Shares`]).
//!
//! A frame of pieces (`Team::pieces`) never waits at a barrier for a
//! thread the OS is not running, so its speed is the work its threads get
//! through: for each thread, the share of the time it could run that the
//! OS let it run, times what a thread of a team gets done per core
//! ([`TEAM_EFFICIENCY`]). Linux counts both times per thread
//! (`/proc/thread-self/schedstat`: nanoseconds on a core, nanoseconds
//! runnable on a queue waiting for one), so the estimate needs no frame
//! times, which swing 2× with the OS's placement on a busy machine.
//! Beside two busy programs on two cores, one thread alone got 0.63–0.77
//! of a core over seconds, while each of two threads got 0.50; two
//! threads then got more frames done (by mean, 11 of 11 runs on an AVX2
//! machine, 5 of 5 on an AVX-512 one). Where the OS gives one thread a
//! core of its own (both programs pinned to one core) the counts say so
//! and one thread runs. What the counts do not see is how a share is
//! spread: on the AVX-512 machine one thread at 0.67–0.75 had a core for
//! most of its frames, so its median frame (its idle time) beat two
//! threads' in 4 of 5 runs while its mean lost (`docs/performance.md`).

use std::fs::File;
use std::sync::{Mutex, OnceLock};
use std::time::Instant;

use super::chooser::Recent;

/// What a thread of a team gets through per core it is given, against one
/// thread alone: `bench --size 128` on two idle cores took 4.98 ms on two
/// threads and 8.65 on one in the quietest of three alternated pairs
/// (1.74×: 0.87 of two cores), 6.0–7.1 against 8.6–8.7 in the others,
/// while the two used 1.16–1.44× one thread's CPU time (perf stat, 2-core
/// AMD EPYC, AVX2).
pub(super) const TEAM_EFFICIENCY: f64 = 0.85;

/// How long (s) a measurement lasts: long enough that the OS's balancing
/// of its run queues (every few ms) averages out, short enough that a
/// busy machine is noticed within a fraction of a second.
const WINDOW: f64 = 0.1;

/// The first gap (s) before a trial of the size not chosen; it doubles
/// after each trial that loses, up to [`LONGEST_GAP`]. A trial that
/// loses costs a window on the slower size and the frames that wake and
/// leave threads: beside two busy loops 21–95 of 400 frames of
/// `bench --size 128 --threads 2` ran on one thread, most in the first
/// seconds, when the gaps are short.
const FIRST_GAP: f64 = 0.5;
const LONGEST_GAP: f64 = 4.0;

/// How far (a fraction) the chosen size's speed may move from its value
/// when the last trial ended before the other size is tried at once: the
/// machine got busier or idler.
const MOVED: f64 = 0.2;

/// A thread's scheduler counts (ns): on a core, and runnable but waiting.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(super) struct Counts {
    pub ran: u64,
    pub waited: u64,
}

impl Counts {
    /// The share of the time between `self` and `later` that the thread
    /// could run in which it ran, or None if it could run for less than
    /// a hundredth of `span` (ns) and less than 1 ms — asleep, or another
    /// thread's counts. (A window that spans a pause of the window's
    /// stepping holds one frame's work: 1 ms of it counts.)
    fn share_until(self, later: Counts, span: u64) -> Option<f64> {
        let ran = later.ran.checked_sub(self.ran)?;
        let runnable = ran + later.waited.checked_sub(self.waited)?;
        let enough = (span / 100).min(1_000_000);
        (runnable > 0 && runnable >= enough).then(|| ran as f64 / runnable as f64)
    }
}

/// One thread's scheduler counts, opened by that thread; readable by any.
#[derive(Debug)]
pub(super) struct Clock(Option<File>);

impl Clock {
    /// The calling thread's counts (none where the OS keeps none).
    pub fn this_thread() -> Self {
        #[cfg(target_os = "linux")]
        return Self(File::open("/proc/thread-self/schedstat").ok());
        #[cfg(not(target_os = "linux"))]
        Self(None)
    }

    /// The counts now (no allocation: one read into a buffer).
    pub fn read(&self) -> Option<Counts> {
        #[cfg(target_os = "linux")]
        {
            use std::os::unix::fs::FileExt;
            let mut buf = [0u8; 96];
            let n = self.0.as_ref()?.read_at(&mut buf, 0).ok()?;
            parse(&buf[..n])
        }
        #[cfg(not(target_os = "linux"))]
        None
    }
}

/// `/proc/…/schedstat`: "ran waited timeslices\n".
#[cfg(any(target_os = "linux", test))]
fn parse(text: &[u8]) -> Option<Counts> {
    let mut words = std::str::from_utf8(text).ok()?.split_ascii_whitespace();
    let mut next = || words.next()?.parse::<u64>().ok();
    Some(Counts {
        ran: next()?,
        waited: next()?,
    })
}

/// The choice between one thread and `big` (the pool up to the cores),
/// fed with each measurement's summed shares: pure, so tests can give it
/// the shares of any machine.
#[derive(Debug)]
pub(super) struct ShareChoice {
    big: usize,
    size: usize,
    /// The last measurements' speeds of one thread and of `big` (cores'
    /// worth of one thread's work).
    speed: [Recent<RECENT>; 2],
    /// Whether the measurement under way is a trial, when the next trial
    /// may start (s), the gap after it, and the chosen size's speed when
    /// the last trial ended.
    trial: bool,
    reference: f64,
    next_trial: f64,
    gap: f64,
}

impl ShareChoice {
    pub fn new(big: usize) -> Self {
        Self {
            big,
            size: big,
            speed: [Recent::default(); 2],
            trial: false,
            reference: f64::NAN,
            next_trial: 0.0,
            gap: FIRST_GAP,
        }
    }

    /// The team size for the next frames.
    pub fn size(&self) -> usize {
        self.size
    }

    /// The fastest a size can be: all its threads on cores of their own.
    fn at_best(&self, size: usize) -> f64 {
        match size {
            1 => 1.0,
            n => n as f64 * TEAM_EFFICIENCY,
        }
    }

    /// A measurement on the current size ended at `now` (s): its threads'
    /// shares of a core summed. Chooses the size of the next frames.
    pub fn measured(&mut self, now: f64, shares: f64) {
        let (here, there) = match self.size {
            1 => (0, 1),
            _ => (1, 0),
        };
        let other = [1, self.big][there];
        self.speed[here].push(shares * self.at_best(self.size) / self.size as f64);
        let speed = self.speed[here].mean();
        if std::mem::take(&mut self.trial) {
            // The faster on their last measurements stays.
            let from = self.speed[there].mean();
            if speed > from {
                self.gap = FIRST_GAP;
                self.reference = speed;
            } else {
                self.size = other;
                self.gap = (2.0 * self.gap).min(LONGEST_GAP);
                self.reference = from;
            }
            self.next_trial = now + self.gap;
            return;
        }
        // NaN before the first trial: not moved.
        let moved = (speed - self.reference).abs() > MOVED * self.reference;
        if speed < self.at_best(other) && (now >= self.next_trial || moved) {
            // The other size could be faster: try it.
            self.size = other;
            self.trial = true;
        }
    }
}

/// Measurements a size's speed is the mean of: one thread beside two busy
/// loops got either about half a core or nearly all of one in a window
/// (the OS moves threads between its run queues less often), 0.7 over
/// seconds, so one window that caught a whole core must not decide.
const RECENT: usize = 4;

/// What [`Shares`] keeps between frames.
#[derive(Debug)]
struct State {
    choice: ShareChoice,
    /// Seconds are counted from here.
    origin: Instant,
    /// The measurement under way: its size, when it began, the caller's
    /// clock and every team thread's counts at its start. None until the
    /// frame after a change of size ends (that frame wakes threads or
    /// leaves them).
    begun: Option<(usize, Instant)>,
    caller: Clock,
    counts: Box<[Option<Counts>]>,
}

/// The team size of frames of pieces by the threads' shares of a core
/// (see the module doc), measured over [`WINDOW`]s; a size not chosen is
/// tried for one window now and then ([`FIRST_GAP`]–[`LONGEST_GAP`]
/// apart) when it could be faster. None where the OS keeps no counts.
#[derive(Debug)]
pub(super) struct Shares(Mutex<State>);

impl Shares {
    /// For frames on up to `big` threads (≥ 2) of a pool of `threads`.
    pub fn new(big: usize, threads: usize) -> Option<Self> {
        Clock::this_thread().read()?;
        Some(Self(Mutex::new(State {
            choice: ShareChoice::new(big),
            origin: Instant::now(),
            begun: None,
            caller: Clock(None),
            counts: vec![None; threads].into_boxed_slice(),
        })))
    }

    fn state(&self) -> std::sync::MutexGuard<'_, State> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The team size of the next frame of pieces.
    pub fn pick(&self) -> usize {
        self.state().choice.size()
    }

    /// A frame of pieces on `size` threads ended; `workers[i]` is the
    /// clock of thread i + 1 (set once it started).
    pub fn took(&self, size: usize, workers: &[OnceLock<Clock>]) {
        let mut guard = self.state();
        let st = &mut *guard;
        let now = Instant::now();
        let read = |st: &State, t: usize| match t {
            0 => st.caller.read(),
            _ => workers.get(t - 1)?.get()?.read(),
        };
        if let Some((was, start)) = st.begun {
            let span = now.duration_since(start);
            if was == size && span.as_secs_f64() < WINDOW {
                return;
            }
            if was == size {
                let ns = span.as_nanos() as u64;
                let shares: f64 = (0..size)
                    .filter_map(|t| st.counts[t]?.share_until(read(st, t)?, ns))
                    .sum();
                let at = now.duration_since(st.origin).as_secs_f64();
                st.choice.measured(at, shares);
            }
            st.begun = None;
            if st.choice.size() != size {
                // The next frame wakes threads or leaves them.
                return;
            }
        }
        st.caller = Clock::this_thread();
        for t in 0..size.min(st.counts.len()) {
            st.counts[t] = read(st, t);
        }
        st.begun = Some((size, now));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_counts_are_read_from_the_os_where_it_keeps_them() {
        assert_eq!(
            parse(b"339758 1204 2\n"),
            Some(Counts {
                ran: 339758,
                waited: 1204
            })
        );
        assert_eq!(parse(b"12"), None);
        // A worker that ran 5 ms of a minute (the window spanned a pause)
        // counts; one that ran 50 µs of 0.1 s does not.
        let at = |ran, waited| Counts { ran, waited };
        let minute = 60_000_000_000;
        assert_eq!(
            at(0, 0).share_until(at(4_000_000, 1_000_000), minute),
            Some(0.8)
        );
        assert_eq!(at(0, 0).share_until(at(50_000, 0), 100_000_000), None);
        #[cfg(target_os = "linux")]
        {
            // Spinning, the thread's time on a core grows (by its CPU
            // time, not the wall's: a busy test machine may share it).
            let clock = Clock::this_thread();
            let before = clock.read().expect("Linux keeps schedstat");
            let t = Instant::now();
            let mut now = before;
            while now.ran < before.ran + 5_000_000 && t.elapsed().as_secs() < 20 {
                std::hint::spin_loop();
                now = clock.read().unwrap();
            }
            assert!(now.ran >= before.ran + 5_000_000, "{before:?} {now:?}");
        }
    }

    /// Runs `choice` for `seconds` of windows whose summed shares are
    /// `shares(size)`; the sizes of its windows.
    fn run(
        choice: &mut ShareChoice,
        from: f64,
        seconds: f64,
        shares: impl Fn(usize) -> f64,
    ) -> Vec<usize> {
        let mut sizes = Vec::new();
        let mut now = from;
        while now < from + seconds {
            now += WINDOW;
            sizes.push(choice.size());
            choice.measured(now, shares(choice.size()));
        }
        sizes
    }

    /// At most an eighth of `sizes` are `size` (its trials).
    fn rarely(sizes: &[usize], size: usize) {
        let n = sizes.iter().filter(|&&s| s == size).count();
        assert!(
            n * 8 <= sizes.len(),
            "{n} on {size} of {}: {sizes:?}",
            sizes.len()
        );
    }

    #[test]
    fn two_idle_cores_run_two_threads_without_trials() {
        let mut choice = ShareChoice::new(2);
        let sizes = run(&mut choice, 0.0, 10.0, |size| size as f64 * 0.99);
        assert!(sizes.iter().all(|&s| s == 2), "{sizes:?}");
    }

    #[test]
    fn one_thread_when_it_gets_a_core_that_two_would_share() {
        // Two busy programs beside: each of two threads gets half a core;
        // one thread alone gets a whole one (the programs share the other).
        let mut choice = ShareChoice::new(2);
        let sizes = run(&mut choice, 0.0, 20.0, |size| match size {
            1 => 1.0,
            _ => 2.0 * 0.5,
        });
        // Trials of two come at most every LONGEST_GAP once they lose.
        rarely(&sizes, 2);
        // The machine gets idle: two threads again within a trial's gap.
        let sizes = run(&mut choice, 20.0, 10.0, |size| size as f64);
        let mut late = sizes
            .iter()
            .skip(((LONGEST_GAP + WINDOW) / WINDOW).ceil() as usize + 1);
        assert!(late.all(|&s| s == 2), "{sizes:?}");
    }

    #[test]
    fn two_threads_when_one_alone_would_share_a_core() {
        // The OS shares both cores fairly among four runnable threads, and
        // gives one thread of ours two thirds of a core among three.
        let mut choice = ShareChoice::new(2);
        let sizes = run(&mut choice, 0.0, 20.0, |size| match size {
            1 => 0.67,
            _ => 2.0 * 0.5,
        });
        // One trial of one thread after each gap, the gaps doubling.
        rarely(&sizes, 1);
    }

    #[test]
    fn a_machine_that_gets_busier_is_tried_again_at_once() {
        // Fairly shared cores: two threads win, trials of one lose and
        // their gaps grow to the longest.
        let mut choice = ShareChoice::new(2);
        run(&mut choice, 0.0, 10.0, |size| match size {
            1 => 0.67,
            _ => 1.0,
        });
        // More programs start: two threads get 0.6 of a core between
        // them, one alone would get a whole core.
        let sizes = run(&mut choice, 10.0, 2.0, |size| match size {
            1 => 1.0,
            _ => 0.6,
        });
        // Once the mean of two's last windows has moved (the second), one
        // is tried and wins; two is tried again after FIRST_GAP, then
        // after twice that.
        let first = sizes.iter().position(|&s| s == 1);
        assert!(first.is_some_and(|i| i <= 2), "{sizes:?}");
        let on_two = sizes[3..].iter().filter(|&&s| s == 2).count();
        assert!(on_two <= 2, "{sizes:?}");
    }

    #[test]
    fn one_core_runs_one_thread() {
        // `taskset -c 0`: two threads share the core (0.5 each), one has
        // it whole: a core's worth either way.
        let mut choice = ShareChoice::new(2);
        let sizes = run(&mut choice, 0.0, 20.0, |_| 1.0);
        rarely(&sizes, 2);
    }

    #[test]
    fn frames_measure_the_threads_that_ran_them() {
        // A pool of two on this machine: every window yields an estimate
        // of at most the team's size, and the chosen size is a team size.
        let Some(shares) = Shares::new(2, 2) else {
            return; // no counts on this OS: frames run on the cores.
        };
        let workers: Vec<OnceLock<Clock>> = vec![OnceLock::new()];
        let start = Instant::now();
        while start.elapsed().as_secs_f64() < 3.0 * WINDOW {
            let size = shares.pick();
            assert!(size == 1 || size == 2);
            shares.took(size, &workers);
        }
        let st = shares.state();
        let speed = st.choice.speed[1].mean();
        assert!(speed > 0.0 && speed <= TEAM_EFFICIENCY, "{speed}");
    }
}
