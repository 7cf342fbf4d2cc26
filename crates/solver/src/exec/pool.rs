//! Worker threads that live as long as the world and meet at a barrier
//! between phases, so a frame costs one wake-up rather than a fork-join
//! per colour (a rayon fork-join per colour per substep cost ~17 µs here —
//! most of a frame at 12 colours × 20 substeps).
//!
//! [`Pool::run_or_alone`] calls a job on every thread of the team it
//! picks (the caller is thread 0) and returns when all have finished.
//! Inside the job, [`Team::sync`] is a barrier. While the team has no
//! more threads than the machine has cores, a waiting thread spins for up
//! to [`SPIN_FOR`] (a barrier then costs ~0.5 µs), then sleeps on a
//! condition variable: a thread still waiting after that is waiting for
//! one the OS is not running (another program holds its core), and
//! spinning on would take the core from it — with one core free, two
//! spinning threads took 2.2× as long as one. With more threads than
//! cores, waiters sleep at once. Idle workers park. Whether a team is
//! worth it at all is measured frame by frame ([`Pool::run_or_alone`]):
//! by frame times, except for a frame of pieces (below), which runs on
//! the pool up to one thread a core, or on one thread where the OS's
//! counts of each thread's share of a core say one is faster
//! (`exec/share.rs`).
//!
//! [`Team::pieces`] is a phase that ends when its work is done rather
//! than when every thread arrives: any thread may take any piece, so a
//! thread the OS is not running between pieces holds nobody up (with a
//! team of two on one core, a barrier per colour made a frame 2.4× as
//! long as one thread's; pieces 1.06–1.08×).
//!
//! A panic on any thread is caught: the others leave their barriers,
//! `run` waits until no thread still uses the job, then re-raises the
//! first panic on the caller. The pool stays usable.

use std::any::Any;
use std::cell::Cell;
use std::ops::Range;
use std::panic::{AssertUnwindSafe, catch_unwind, resume_unwind};
use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex, OnceLock};
use std::thread::JoinHandle;

use super::chooser::Chooser;
use super::share::Clock;

/// How long a waiting thread spins before it sleeps: far longer than a
/// barrier between balanced shares takes (~0.5–20 µs), far shorter than
/// the OS's time slice (~1–4 ms) that a descheduled partner waits out.
const SPIN_FOR: std::time::Duration = std::time::Duration::from_micros(50);

/// What a waiter unwinds with when another thread of the team panicked.
struct Poisoned;

/// Shared by the threads of a pool: the barrier, the job hand-over and
/// the panic record.
struct Shared {
    /// Threads in the current job's team (the first `active` of `threads`;
    /// the others finish at once).
    active: AtomicUsize,
    /// Cores this process may use: a team of no more threads spins before
    /// it sleeps, a larger one sleeps at once.
    cores: usize,
    /// Waiters asleep on `wake` (a notifier locks only when there are some).
    sleepers: AtomicUsize,
    arrived: AtomicUsize,
    round: AtomicUsize,
    /// The next item of a [`Team::chunks`] loop: 0 at a job's start and
    /// after every barrier.
    next: AtomicUsize,
    /// Bumped to start a job.
    generation: AtomicUsize,
    /// Workers that finished the current job.
    finished: AtomicUsize,
    quit: AtomicBool,
    /// Some thread of the current job panicked.
    poisoned: AtomicBool,
    /// The first panic of the current job.
    panic: Mutex<Option<Box<dyn Any + Send>>>,
    /// For sleeping waiters.
    lock: Mutex<()>,
    wake: Condvar,
    /// Points at `run`'s local `*const Job`, valid while `run` waits.
    job: AtomicPtr<*const Job>,
    /// [`Team::max_all`]'s values, as bits: two banks (calls alternate)
    /// of [`MAXIMA`] per thread.
    maxima: Box<[AtomicU32]>,
    /// Per thread, the pieces of its share of the current [`Team::pieces`]
    /// phase not yet taken (see [`Slot`]); each on a cache line of its own.
    slots: Box<[Padded<AtomicU64>]>,
    /// Pieces of the job's [`Team::pieces`] phases done so far.
    done: Padded<AtomicU64>,
    /// Each worker's scheduler counts (`clocks[i]`: thread i + 1's), set
    /// once it has started; read by the caller to choose a team size.
    clocks: Box<[OnceLock<Clock>]>,
}

/// A value on cache lines of its own (128 bytes: adjacent-line prefetch
/// pairs them), so that threads writing different ones do not contend.
#[repr(align(128))]
#[derive(Debug, Default)]
struct Padded<T>(T);

impl<T> std::ops::Deref for Padded<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0
    }
}

/// One thread's share of a [`Team::pieces`] phase, packed in a u64 so one
/// compare-and-swap takes a piece: the phase's number (32 bits; a slot
/// of an earlier phase holds the whole share, not yet begun), the first
/// piece not taken and the end of those not taken (16 bits each). Its
/// owner takes pieces from the front, other threads from the back.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Slot {
    phase: u32,
    front: u16,
    back: u16,
}

impl Slot {
    fn pack(self) -> u64 {
        (self.phase as u64) << 32 | (self.front as u64) << 16 | self.back as u64
    }

    fn unpack(v: u64) -> Self {
        Self {
            phase: (v >> 32) as u32,
            front: (v >> 16) as u16,
            back: v as u16,
        }
    }
}

/// Values per thread in one [`Team::max_all`].
const MAXIMA: usize = 2;

impl Shared {
    /// Waits until `done()`, spinning for up to [`SPIN_FOR`], then
    /// sleeping (see the module doc).
    fn wait_until(&self, done: impl Fn() -> bool) {
        if self.active.load(Ordering::Relaxed) <= self.cores {
            let start = std::time::Instant::now();
            let mut spins = 0u32;
            while !done() {
                std::hint::spin_loop();
                spins = spins.wrapping_add(1);
                if spins.is_multiple_of(64) && start.elapsed() > SPIN_FOR {
                    break;
                }
            }
        }
        if done() {
            return;
        }
        let mut guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        // SeqCst with the notifier's store-then-load: either it sees this
        // sleeper and locks to notify, or this thread sees its change below.
        self.sleepers.fetch_add(1, Ordering::SeqCst);
        std::sync::atomic::fence(Ordering::SeqCst);
        while !done() {
            guard = self.wake.wait(guard).unwrap_or_else(|e| e.into_inner());
        }
        self.sleepers.fetch_sub(1, Ordering::SeqCst);
    }

    /// Wakes sleeping waiters after a state change they wait for (made
    /// with SeqCst, see `wait_until`).
    fn notify(&self) {
        if self.sleepers.load(Ordering::SeqCst) > 0 {
            let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
            self.wake.notify_all();
        }
    }

    fn barrier(&self) {
        let round = self.round.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.active.load(Ordering::Relaxed) {
            self.arrived.store(0, Ordering::Relaxed);
            // Every thread has left the last chunk loop; the round's store
            // below publishes this to the waiters.
            self.next.store(0, Ordering::Relaxed);
            self.round.store(round.wrapping_add(1), Ordering::SeqCst);
            self.notify();
        } else {
            self.wait_until(|| {
                self.round.load(Ordering::Acquire) != round || self.poisoned.load(Ordering::Acquire)
            });
        }
        if self.poisoned.load(Ordering::Acquire) {
            // Not a new panic: leave the job quietly, `run` re-raises the first.
            resume_unwind(Box::new(Poisoned));
        }
    }

    /// Records a caught panic and releases every waiter.
    fn poison(&self, payload: Box<dyn Any + Send>) {
        let mut first = self.panic.lock().unwrap_or_else(|e| e.into_inner());
        if first.is_none() && !payload.is::<Poisoned>() {
            *first = Some(payload);
        }
        drop(first);
        self.poisoned.store(true, Ordering::Release);
        // Wake sleeping waiters (spinning ones see the flag by themselves).
        let _guard = self.lock.lock().unwrap_or_else(|e| e.into_inner());
        self.wake.notify_all();
    }
}

/// What a job sees: its index, the team size and the barrier.
pub(crate) struct Team<'a> {
    /// This thread's index, 0 = the caller.
    pub index: usize,
    /// Number of threads in the team.
    pub size: usize,
    shared: Option<&'a Shared>,
    /// [`Team::max_all`] calls so far (their bank alternates).
    reductions: Cell<usize>,
    /// [`Team::pieces`] phases so far, and their pieces in all.
    phases: Cell<(u32, u64)>,
}

impl Team<'_> {
    /// A team of one: `sync` does nothing.
    pub fn alone() -> Team<'static> {
        Team {
            index: 0,
            size: 1,
            shared: None,
            reductions: Cell::new(0),
            phases: Cell::new((0, 0)),
        }
    }

    /// Waits until every thread of the team got here.
    pub fn sync(&self) {
        if let Some(s) = self.shared {
            s.barrier();
        }
    }

    /// The largest of each value over the team's threads, as a fold with
    /// `f32::max` over all their items would give (a max does not depend
    /// on the order; NaN is passed over): every thread of the team makes
    /// the same calls in the same order. A barrier.
    pub fn max_all(&self, v: [f32; MAXIMA]) -> [f32; MAXIMA] {
        let Some(s) = self.shared else {
            return v;
        };
        let bank = self.reductions.replace(self.reductions.get() + 1) % 2;
        // A bank is written again two calls later, after a barrier every
        // thread reaches only once it has read this one.
        let threads = s.maxima.len() / (2 * MAXIMA);
        let slot = |t: usize, k: usize| &s.maxima[(bank * threads + t) * MAXIMA + k];
        for (k, x) in v.iter().enumerate() {
            slot(self.index, k).store(x.to_bits(), Ordering::Relaxed);
        }
        // The barrier orders the stores before every thread's loads.
        self.sync();
        std::array::from_fn(|k| {
            (0..self.size).fold(f32::NEG_INFINITY, |m, t| {
                m.max(f32::from_bits(slot(t, k).load(Ordering::Relaxed)))
            })
        })
    }

    /// This thread's share of `0..len`: contiguous, in index order.
    pub fn share(&self, len: usize) -> std::ops::Range<usize> {
        share(len, self.index, self.size)
    }

    /// One phase of work that any thread of the team may do, which ends
    /// when every piece of it is done — not when every thread got here: a
    /// thread the OS is not running holds nobody up unless it is inside a
    /// piece. Segment k of `segments` is `(len, whole)`: items `0..len`,
    /// each thread's share ([`Team::share`]) cut in pieces of a few
    /// hundred items, or with `whole` one piece that only one thread runs
    /// (thread 0 unless it is late). Each thread runs `f(k, range)` on
    /// the pieces of its own share in order, then on those still left of
    /// the others' shares, from their ends. Every thread of the team
    /// makes the same calls in the same order (barriers between them are
    /// allowed), and results must not depend on which thread ran a piece.
    pub fn pieces(&self, segments: &[(usize, bool)], mut f: impl FnMut(usize, Range<usize>)) {
        let Some(s) = self.shared else {
            for (k, &(len, _)) in segments.iter().enumerate().filter(|(_, g)| g.0 > 0) {
                f(k, 0..len);
            }
            return;
        };
        let size = self.size;
        let count = |t: usize| {
            segments
                .iter()
                .map(|&g| pieces_of(g, t, size))
                .sum::<usize>()
        };
        let (phase, before) = self.phases.get();
        let phase = phase + 1;
        let end = before + (0..size).map(|t| count(t) as u64).sum::<u64>();
        self.phases.set((phase, end));
        let mut did = 0;
        for t in (0..size).map(|o| (self.index + o) % size) {
            let n = count(t);
            while let Some(j) = take(&s.slots[t], phase, n, t != self.index) {
                let (k, range) = piece(segments, t, size, j);
                f(k, range);
                did += 1;
            }
        }
        // SeqCst with the waiters' sleep (see `Shared::wait_until`); a
        // waiter's Acquire load of the total orders every piece's writes
        // before what it does next (the adds form one release sequence).
        if did > 0 && s.done.fetch_add(did, Ordering::SeqCst) + did == end {
            s.notify();
        }
        s.wait_until(|| {
            s.done.load(Ordering::Acquire) >= end || s.poisoned.load(Ordering::Acquire)
        });
        if s.poisoned.load(Ordering::Acquire) {
            resume_unwind(Box::new(Poisoned));
        }
    }

    /// Runs `f` on pieces of `0..len`, `chunk` items each, which the
    /// threads take in turn as they finish the last: a thread that got the
    /// lighter items, or that the OS ran longer, takes more (a static share
    /// of a pile's contacts left one thread a third more work). Every
    /// thread of the team makes the same call, at most one between two
    /// barriers, and the results must not depend on which thread took a
    /// piece.
    pub fn chunks(&self, len: usize, chunk: usize, mut f: impl FnMut(std::ops::Range<usize>)) {
        let Some(s) = self.shared else {
            f(0..len);
            return;
        };
        let chunk = chunk.max(1);
        loop {
            let start = s.next.fetch_add(chunk, Ordering::Relaxed);
            if start >= len {
                return;
            }
            f(start..(start + chunk).min(len));
        }
    }
}

/// Pieces a thread's share of a segment is cut into, at most.
const PIECES: usize = 8;

/// Items of a piece of a segment of `len` items split over `size` threads:
/// an eighth of a share, at least 64, in whole runs of 16 (SIMD lanes).
fn piece_len(len: usize, size: usize) -> usize {
    len.div_ceil(size * PIECES).max(64).next_multiple_of(16)
}

/// Thread `t`'s share of `0..len` on a team of `size` ([`Team::share`]).
fn share(len: usize, t: usize, size: usize) -> Range<usize> {
    len * t / size..len * (t + 1) / size
}

/// Thread `t`'s share of segment `(len, whole)` on a team of `size`.
fn share_of((len, whole): (usize, bool), t: usize, size: usize) -> Range<usize> {
    match whole {
        true if t == 0 => 0..len,
        true => 0..0,
        false => share(len, t, size),
    }
}

/// The number of pieces of thread `t`'s share of a segment (at most
/// `PIECES` + 1, so a slot's 16 bits hold it).
fn pieces_of(segment: (usize, bool), t: usize, size: usize) -> usize {
    let share = share_of(segment, t, size);
    match segment.1 {
        true => usize::from(!share.is_empty()),
        false => share.len().div_ceil(piece_len(segment.0, size)),
    }
}

/// Piece `j` of thread `t`'s shares of `segments`, counted over them in
/// order: (segment, items).
fn piece(segments: &[(usize, bool)], t: usize, size: usize, mut j: usize) -> (usize, Range<usize>) {
    for (k, &segment) in segments.iter().enumerate() {
        let n = pieces_of(segment, t, size);
        if j < n {
            let share = share_of(segment, t, size);
            if segment.1 {
                return (k, share);
            }
            let len = piece_len(segment.0, size);
            let start = share.start + j * len;
            return (k, start..(start + len).min(share.end));
        }
        j -= n;
    }
    unreachable!("piece {j} is past thread {t}'s pieces")
}

/// Takes a piece of a share of `n` pieces in `slot` for phase `phase`:
/// the first one left (its owner) or the last (`thief`). None when none
/// is left — or when the slot holds a later phase, which begins only
/// once every piece of this one is done.
fn take(slot: &AtomicU64, phase: u32, n: usize, thief: bool) -> Option<usize> {
    let mut v = slot.load(Ordering::Acquire);
    loop {
        let mut now = Slot::unpack(v);
        if now.phase > phase {
            return None;
        }
        if now.phase < phase {
            // Nobody has taken a piece of this share in this phase yet.
            now = Slot {
                phase,
                front: 0,
                back: n as u16,
            };
        }
        if now.front >= now.back {
            return None;
        }
        let (next, j) = match thief {
            true => (
                Slot {
                    back: now.back - 1,
                    ..now
                },
                now.back - 1,
            ),
            false => (
                Slot {
                    front: now.front + 1,
                    ..now
                },
                now.front,
            ),
        };
        match slot.compare_exchange_weak(v, next.pack(), Ordering::AcqRel, Ordering::Acquire) {
            Ok(_) => return Some(j as usize),
            Err(seen) => v = seen,
        }
    }
}

type Job = dyn Fn(&Team) + Sync;

/// Persistent worker threads; see the module doc.
pub(crate) struct Pool {
    shared: Arc<Shared>,
    chooser: Chooser,
    workers: Vec<JoinHandle<()>>,
    /// One job at a time, even if a world (and so its pool) is cloned.
    running: Mutex<()>,
}

impl std::fmt::Debug for Pool {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Pool({} threads)", self.size())
    }
}

impl Pool {
    /// A pool of `threads` threads in all: the caller plus `threads − 1`
    /// workers; they spin only when the machine has that many cores. Each
    /// frame runs on the team size [`Chooser`] measured fastest lately, or
    /// (`fixed`) always on the whole pool.
    pub fn new(threads: usize, fixed: bool) -> Self {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            active: AtomicUsize::new(threads),
            cores: crate::available_threads(),
            sleepers: AtomicUsize::new(0),
            arrived: AtomicUsize::new(0),
            round: AtomicUsize::new(0),
            generation: AtomicUsize::new(0),
            finished: AtomicUsize::new(0),
            next: AtomicUsize::new(0),
            quit: AtomicBool::new(false),
            poisoned: AtomicBool::new(false),
            panic: Mutex::new(None),
            lock: Mutex::new(()),
            wake: Condvar::new(),
            job: AtomicPtr::new(std::ptr::null_mut()),
            maxima: (0..2 * threads * MAXIMA)
                .map(|_| AtomicU32::new(0))
                .collect(),
            slots: (0..threads).map(|_| Padded::default()).collect(),
            done: Padded::default(),
            clocks: (1..threads).map(|_| OnceLock::new()).collect(),
        });
        let workers = (1..threads)
            .map(|index| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("catenary-solver-{index}"))
                    .spawn(move || worker(&shared, index))
                    .expect("the OS starts a solver thread")
            })
            .collect();
        Self {
            chooser: Chooser::new(threads, fixed),
            shared,
            workers,
            running: Mutex::new(()),
        }
    }

    /// Threads in the team, the caller included.
    pub fn size(&self) -> usize {
        self.workers.len() + 1
    }

    /// Whether every frame runs on the whole pool (see [`Pool::new`]).
    pub fn is_fixed(&self) -> bool {
        self.chooser.is_fixed()
    }

    /// How many threads ran the last frame (0 before the first).
    pub fn last_team(&self) -> usize {
        self.chooser.last()
    }

    /// Whether `other` is this pool or a handle to its threads.
    #[cfg(test)]
    pub fn shares_threads_with(&self, other: &Pool) -> bool {
        Arc::ptr_eq(&self.shared, &other.shared)
    }

    /// Runs `job` on every thread of the pool and waits for all of them;
    /// re-raises the first panic of any thread once none runs the job.
    #[cfg(test)]
    pub fn run(&self, job: &(dyn Fn(&Team) + Sync + '_)) {
        self.run_on(self.size(), job);
    }

    /// Runs `job` on a team of `size` threads, or on as many as the
    /// measurements of [`Chooser`] found fastest lately; results are the
    /// same for any team size (see the module doc).
    pub fn run_or_alone(&self, loose: bool, job: &(dyn Fn(&Team) + Sync + '_)) {
        let size = self.chooser.pick(loose);
        let start = std::time::Instant::now();
        if size == 1 {
            job(&Team::alone());
        } else {
            self.run_on(size, job);
        }
        (self.chooser).took(size, loose, start.elapsed(), &self.shared.clocks);
    }

    /// Runs `job` on the first `size` threads (2 ≤ size ≤ the pool's)
    /// and waits for them.
    fn run_on(&self, size: usize, job: &(dyn Fn(&Team) + Sync + '_)) {
        let _one_at_a_time = self.running.lock().unwrap_or_else(|e| e.into_inner());
        let s = &*self.shared;
        s.active.store(size, Ordering::Relaxed);
        // No worker runs a job here: a loop left by a panic starts afresh.
        s.next.store(0, Ordering::Relaxed);
        // Every thread's phases count from 1 again.
        for slot in s.slots.iter() {
            slot.store(0, Ordering::Relaxed);
        }
        s.done.store(0, Ordering::Relaxed);
        // SAFETY: workers see the job only after the new generation
        // (Release/Acquire) and use it only until they bump `finished`,
        // which this call waits for — also when a thread panics — so the
        // borrow outlives every use and erasing its lifetime is sound.
        let mut slot: *const Job =
            unsafe { std::mem::transmute::<&(dyn Fn(&Team) + Sync + '_), &'static Job>(job) };
        s.job.store(&mut slot, Ordering::Relaxed);
        s.finished.store(0, Ordering::Relaxed);
        s.generation.fetch_add(1, Ordering::Release);
        for w in &self.workers {
            w.thread().unpark();
        }
        let team = Team {
            index: 0,
            size,
            shared: Some(s),
            reductions: Cell::new(0),
            phases: Cell::new((0, 0)),
        };
        if let Err(payload) = catch_unwind(AssertUnwindSafe(|| job(&team))) {
            s.poison(payload);
        }
        s.wait_until(|| s.finished.load(Ordering::Acquire) == self.workers.len());
        s.job.store(std::ptr::null_mut(), Ordering::Relaxed);
        if s.poisoned.swap(false, Ordering::AcqRel) {
            s.arrived.store(0, Ordering::Relaxed);
            let payload = s.panic.lock().unwrap_or_else(|e| e.into_inner()).take();
            resume_unwind(payload.unwrap_or_else(|| Box::new("a solver thread panicked")));
        }
    }
}

fn worker(s: &Shared, index: usize) {
    let _ = s.clocks[index - 1].set(Clock::this_thread());
    let mut seen = 0;
    loop {
        let mut spins = 0u32;
        loop {
            if s.quit.load(Ordering::Acquire) {
                return;
            }
            if s.generation.load(Ordering::Acquire) != seen {
                break;
            }
            // Only a member of the last team that fits the cores spins for
            // the next job; the others would take a core from it.
            let active = s.active.load(Ordering::Relaxed);
            if index < active && active <= s.cores && spins < 20_000 {
                std::hint::spin_loop();
                spins += 1;
            } else {
                // `run` unparks after bumping the generation; an unpark
                // that comes first makes this return at once.
                std::thread::park();
            }
        }
        seen = s.generation.load(Ordering::Acquire);
        // Published with the generation (Release/Acquire).
        let size = s.active.load(Ordering::Relaxed);
        if index < size {
            // SAFETY: `run` published the slot before bumping the generation
            // and keeps it and the job alive until every worker has bumped
            // `finished`, which happens after this call.
            let job: &Job = unsafe { &**s.job.load(Ordering::Relaxed) };
            let team = Team {
                index,
                size,
                shared: Some(s),
                reductions: Cell::new(0),
                phases: Cell::new((0, 0)),
            };
            if let Err(payload) = catch_unwind(AssertUnwindSafe(|| job(&team))) {
                s.poison(payload);
            }
        }
        s.finished.fetch_add(1, Ordering::SeqCst);
        s.notify();
    }
}

impl Drop for Pool {
    fn drop(&mut self) {
        self.shared.quit.store(true, Ordering::Release);
        for w in self.workers.drain(..) {
            w.thread().unpark();
            let _ = w.join();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::atomic::AtomicU64;

    #[test]
    fn every_thread_runs_the_job_and_the_barrier_orders_phases() {
        for threads in [1, 2, 4] {
            let pool = Pool::new(threads, false);
            let counter = AtomicU64::new(0);
            let seen_after_sync = AtomicU64::new(0);
            for _ in 0..100 {
                counter.store(0, Ordering::SeqCst);
                pool.run(&|team: &Team| {
                    counter.fetch_add(1, Ordering::SeqCst);
                    team.sync();
                    seen_after_sync.fetch_max(counter.load(Ordering::SeqCst), Ordering::SeqCst);
                    assert_eq!(counter.load(Ordering::SeqCst), threads as u64);
                });
            }
            assert_eq!(seen_after_sync.load(Ordering::SeqCst), threads as u64);
        }
    }

    #[test]
    fn max_all_gives_every_thread_the_largest_of_every_threads_values() {
        for threads in [1, 2, 3, 4] {
            let pool = Pool::new(threads, false);
            pool.run(&|team: &Team| {
                // Back to back, so that a bank is rewritten while a slow
                // thread could still be reading the last; a NaN is passed
                // over, as a fold with f32::max passes it.
                for call in 0..200 {
                    let own = (team.index * 7 + call) % 11;
                    let nan = if team.index == 1 { f32::NAN } else { 0.0 };
                    let got = team.max_all([own as f32, nan]);
                    let most = (0..team.size).map(|t| (t * 7 + call) % 11).max();
                    assert_eq!(
                        got,
                        [most.unwrap_or(0) as f32, 0.0],
                        "{threads} threads, call {call}"
                    );
                }
            });
        }
    }

    #[test]
    fn chunk_loops_give_every_item_to_one_thread_and_more_to_the_one_that_runs() {
        // Three loops in a job, barriers between: each item once. Thread 1
        // is slow on the first piece it takes, so thread 0 takes most of
        // the rest of that loop.
        for threads in [1, 2, 4] {
            let pool = Pool::new(threads, false);
            let taken: Vec<AtomicU64> = (0..3 * 1000).map(|_| AtomicU64::new(0)).collect();
            let by = [AtomicU64::new(0), AtomicU64::new(0)];
            pool.run(&|team: &Team| {
                let mut first = true;
                for round in 0..3 {
                    team.chunks(1000, 10, |piece| {
                        if team.index == 1 && std::mem::take(&mut first) {
                            std::thread::sleep(std::time::Duration::from_millis(20));
                        }
                        if round == 0 && team.index < 2 {
                            by[team.index].fetch_add(piece.len() as u64, Ordering::SeqCst);
                        }
                        for i in piece {
                            taken[round * 1000 + i].fetch_add(1, Ordering::SeqCst);
                        }
                    });
                    team.sync();
                }
            });
            assert!(taken.iter().all(|t| t.load(Ordering::SeqCst) == 1));
            if threads == 2 {
                let (zero, one) = (by[0].load(Ordering::SeqCst), by[1].load(Ordering::SeqCst));
                assert!(zero > 9 * one, "thread 0 took {zero}, the slow one {one}");
            }
        }
    }

    #[test]
    fn a_pieces_phase_runs_every_item_once_and_a_whole_segment_in_one_call() {
        // Segments of several sizes, one whole; four phases back to back
        // and a barrier among them.
        let segments = [(1000, false), (37, true), (0, false), (70, false)];
        for threads in [1, 2, 3, 4] {
            let pool = Pool::new(threads, false);
            let taken: Vec<AtomicU64> = (0..4 * 4 * 1000).map(|_| AtomicU64::new(0)).collect();
            let whole_calls = AtomicU64::new(0);
            pool.run(&|team: &Team| {
                for phase in 0..4 {
                    team.pieces(&segments, |k, r| {
                        if k == 1 {
                            assert_eq!(r, 0..37);
                            whole_calls.fetch_add(1, Ordering::SeqCst);
                        }
                        for i in r {
                            taken[(phase * 4 + k) * 1000 + i].fetch_add(1, Ordering::SeqCst);
                        }
                    });
                    // Every piece of the phase is done when it returns.
                    let done = |k: usize, len: usize| {
                        (0..len)
                            .all(|i| taken[(phase * 4 + k) * 1000 + i].load(Ordering::SeqCst) == 1)
                    };
                    assert!(
                        segments.iter().enumerate().all(|(k, g)| done(k, g.0)),
                        "{threads} threads, phase {phase}"
                    );
                    if phase == 1 {
                        team.sync();
                    }
                }
            });
            for (j, t) in taken.iter().enumerate() {
                let (phase_k, i) = (j / 1000, j % 1000);
                let want = u64::from(i < segments[phase_k % 4].0);
                assert_eq!(
                    t.load(Ordering::SeqCst),
                    want,
                    "{threads} threads, item {j}"
                );
            }
            assert_eq!(whole_calls.load(Ordering::SeqCst), 4);
        }
    }

    #[test]
    fn a_pieces_phase_does_not_wait_for_a_thread_that_is_not_running() {
        // Thread 1 is held off (as when the OS runs another program on
        // its core) before its first phase. Thread 0 does every piece of
        // three phases meanwhile and is done before thread 1 wakes; a
        // barrier between the phases (spinning or sleeping) would have
        // held it until then.
        let pool = Pool::new(2, true);
        let caller_done = AtomicBool::new(false);
        let late_saw_done = AtomicBool::new(false);
        let by_late = AtomicU64::new(0);
        pool.run(&|team: &Team| {
            if team.index == 1 {
                std::thread::sleep(std::time::Duration::from_millis(300));
                late_saw_done.store(caller_done.load(Ordering::SeqCst), Ordering::SeqCst);
            }
            for _ in 0..3 {
                team.pieces(&[(4096, false)], |_, r| {
                    if team.index == 1 {
                        by_late.fetch_add(r.len() as u64, Ordering::SeqCst);
                    }
                });
            }
            if team.index == 0 {
                caller_done.store(true, Ordering::SeqCst);
            }
        });
        assert!(
            late_saw_done.load(Ordering::SeqCst),
            "thread 0 waited for the late one"
        );
        assert_eq!(by_late.load(Ordering::SeqCst), 0, "nothing was left for it");
    }

    #[test]
    fn a_panic_on_any_thread_reaches_the_caller_and_the_pool_still_works() {
        for threads in [2, 4] {
            let pool = Pool::new(threads, false);
            for culprit in [0, threads - 1] {
                let result = catch_unwind(AssertUnwindSafe(|| {
                    pool.run(&|team: &Team| {
                        team.sync();
                        if team.index == culprit {
                            panic!("share {culprit} fails");
                        }
                        team.sync();
                        team.sync();
                    })
                }));
                let payload = result.expect_err("the panic must reach the caller");
                let text = payload
                    .downcast_ref::<String>()
                    .cloned()
                    .unwrap_or_default();
                assert_eq!(text, format!("share {culprit} fails"));
                let ran = AtomicU64::new(0);
                pool.run(&|team: &Team| {
                    team.sync();
                    ran.fetch_add(1, Ordering::SeqCst);
                });
                assert_eq!(ran.load(Ordering::SeqCst), threads as u64);
            }
        }
    }

    /// Pins the calling thread to the first CPU it may use; returns the
    /// mask it had.
    #[cfg(target_os = "linux")]
    fn pin_to_one_cpu() -> libc::cpu_set_t {
        // SAFETY: plain calls on the calling thread (pid 0) with a set of
        // the size passed.
        unsafe {
            let size = std::mem::size_of::<libc::cpu_set_t>();
            let mut had: libc::cpu_set_t = std::mem::zeroed();
            assert_eq!(libc::sched_getaffinity(0, size, &mut had), 0);
            let first = (0..libc::CPU_SETSIZE as usize)
                .find(|&c| libc::CPU_ISSET(c, &had))
                .expect("a CPU to run on");
            let mut one: libc::cpu_set_t = std::mem::zeroed();
            libc::CPU_SET(first, &mut one);
            assert_eq!(libc::sched_setaffinity(0, size, &one), 0);
            had
        }
    }

    /// The calling thread's voluntary context switches so far.
    #[cfg(target_os = "linux")]
    fn voluntary_switches() -> i64 {
        // SAFETY: getrusage fills the struct it is given.
        unsafe {
            let mut usage: libc::rusage = std::mem::zeroed();
            assert_eq!(libc::getrusage(libc::RUSAGE_THREAD, &mut usage), 0);
            usage.ru_nvcsw as i64
        }
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_waiter_gives_its_core_up_to_a_partner_the_os_is_not_running() {
        // Both threads of a team on one CPU, as when another program holds
        // the other core: whoever reaches a barrier first waits for a
        // partner that cannot run until the CPU is given up. A spinning
        // barrier gives it up only when the OS preempts it, a time slice
        // (~3 ms) a barrier, and never voluntarily; this one sleeps after
        // SPIN_FOR, a voluntary switch, and the partner runs at once.
        // Measured: about one voluntary switch a barrier (none spinning).
        let pool = Pool::new(2, true);
        let rounds = 200;
        let switches = AtomicU64::new(0);
        pool.run(&|team: &Team| {
            let had = pin_to_one_cpu();
            // Both are pinned before anyone counts.
            team.sync();
            let before = voluntary_switches();
            for _ in 0..rounds {
                team.sync();
            }
            let after = voluntary_switches();
            switches.fetch_add((after - before) as u64, Ordering::SeqCst);
            // SAFETY: as in `pin_to_one_cpu`.
            unsafe {
                let size = std::mem::size_of::<libc::cpu_set_t>();
                libc::sched_setaffinity(0, size, &had);
            }
        });
        let switches = switches.load(Ordering::SeqCst);
        println!("{switches} voluntary switches in {rounds} barriers on one CPU");
        assert!(switches >= rounds / 2, "{switches} voluntary switches");
    }
}
