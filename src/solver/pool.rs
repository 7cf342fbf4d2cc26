//! Worker threads that live as long as the world and meet at a spinning
//! barrier between phases, so a frame costs one wake-up rather than a
//! fork-join per colour (a rayon fork-join per colour per substep cost
//! ~17 µs here — most of a frame at 12 colours × 20 substeps).
//!
//! [`Pool::run`] calls a job on every thread (the caller is thread 0) and
//! returns when all have finished. Inside the job, [`Team::sync`] is a
//! barrier. Idle workers spin briefly, then park until the next job.

use std::sync::atomic::{AtomicBool, AtomicPtr, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;

/// A sense-reversing barrier for a fixed number of threads.
pub(crate) struct Barrier {
    threads: usize,
    arrived: AtomicUsize,
    round: AtomicUsize,
}

impl Barrier {
    fn new(threads: usize) -> Self {
        Self {
            threads,
            arrived: AtomicUsize::new(0),
            round: AtomicUsize::new(0),
        }
    }

    fn wait(&self) {
        let round = self.round.load(Ordering::Acquire);
        if self.arrived.fetch_add(1, Ordering::AcqRel) + 1 == self.threads {
            self.arrived.store(0, Ordering::Relaxed);
            self.round.store(round.wrapping_add(1), Ordering::Release);
        } else {
            spin_until(|| self.round.load(Ordering::Acquire) != round);
        }
    }
}

/// Spins on `done`, yielding the core after a while: with more threads
/// than cores a pure spin would starve the thread everyone waits for.
fn spin_until(done: impl Fn() -> bool) {
    let mut spins = 0u32;
    while !done() {
        if spins < 4096 {
            std::hint::spin_loop();
            spins += 1;
        } else {
            std::thread::yield_now();
        }
    }
}

/// What a job sees: its index, the team size and the barrier.
pub(crate) struct Team<'a> {
    /// This thread's index, 0 = the caller.
    pub index: usize,
    /// Number of threads in the team.
    pub size: usize,
    barrier: Option<&'a Barrier>,
}

impl Team<'_> {
    /// A team of one: `sync` does nothing.
    pub fn alone() -> Team<'static> {
        Team {
            index: 0,
            size: 1,
            barrier: None,
        }
    }

    /// Waits until every thread of the team got here.
    pub fn sync(&self) {
        if let Some(b) = self.barrier {
            b.wait();
        }
    }

    /// This thread's share of `0..len`: contiguous, in index order.
    pub fn share(&self, len: usize) -> std::ops::Range<usize> {
        len * self.index / self.size..len * (self.index + 1) / self.size
    }
}

type Job = dyn Fn(&Team) + Sync;

struct Shared {
    barrier: Barrier,
    /// Bumped to start a job.
    generation: AtomicUsize,
    /// Workers that finished the current job.
    finished: AtomicUsize,
    quit: AtomicBool,
    /// Points at `run`'s local `*const Job`, valid while `run` waits.
    job: AtomicPtr<*const Job>,
}

/// Persistent worker threads; see the module doc.
pub(crate) struct Pool {
    shared: Arc<Shared>,
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
    /// A pool of `threads` threads in all: the caller plus `threads − 1` workers.
    pub fn new(threads: usize) -> Self {
        let threads = threads.max(1);
        let shared = Arc::new(Shared {
            barrier: Barrier::new(threads),
            generation: AtomicUsize::new(0),
            finished: AtomicUsize::new(0),
            quit: AtomicBool::new(false),
            job: AtomicPtr::new(std::ptr::null_mut()),
        });
        let workers = (1..threads)
            .map(|index| {
                let shared = Arc::clone(&shared);
                std::thread::Builder::new()
                    .name(format!("catenary-solver-{index}"))
                    .spawn(move || worker(&shared, index, threads))
                    .expect("the OS starts a solver thread")
            })
            .collect();
        Self {
            shared,
            workers,
            running: Mutex::new(()),
        }
    }

    /// Threads in the team, the caller included.
    pub fn size(&self) -> usize {
        self.workers.len() + 1
    }

    /// Runs `job` on every thread of the pool and waits for all of them.
    pub fn run(&self, job: &(dyn Fn(&Team) + Sync + '_)) {
        let _one_at_a_time = self.running.lock().unwrap_or_else(|e| e.into_inner());
        let s = &*self.shared;
        // Workers see the job after the new generation (Release/Acquire)
        // and use it only until they bump `finished`, which this call waits
        // for: the borrow outlives every use, so erasing its lifetime is sound.
        let mut slot: *const Job =
            unsafe { std::mem::transmute::<&(dyn Fn(&Team) + Sync + '_), &'static Job>(job) };
        s.job.store(&mut slot, Ordering::Relaxed);
        s.finished.store(0, Ordering::Relaxed);
        s.generation.fetch_add(1, Ordering::Release);
        for w in &self.workers {
            w.thread().unpark();
        }
        job(&Team {
            index: 0,
            size: self.size(),
            barrier: Some(&s.barrier),
        });
        spin_until(|| s.finished.load(Ordering::Acquire) == self.workers.len());
    }
}

fn worker(s: &Shared, index: usize, size: usize) {
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
            if spins < 20_000 {
                std::hint::spin_loop();
                spins += 1;
            } else {
                std::thread::park_timeout(std::time::Duration::from_millis(5));
            }
        }
        seen = s.generation.load(Ordering::Acquire);
        // SAFETY: `run` published the slot before bumping the generation
        // and keeps it and the job alive until every worker has bumped
        // `finished`, which happens after this call.
        let job: &Job = unsafe { &**s.job.load(Ordering::Relaxed) };
        job(&Team {
            index,
            size,
            barrier: Some(&s.barrier),
        });
        s.finished.fetch_add(1, Ordering::Release);
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
            let pool = Pool::new(threads);
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
}
