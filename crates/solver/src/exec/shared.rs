//! The one raw-pointer type of the step: a slice of the world that the
//! team's threads share for one frame.
//!
//! Every array a phase reads or writes by index — particles, a colour's
//! constraints, contacts — reaches the threads as a [`Shared`]. It is made
//! from `&mut [T]` only in `super::step_frame`, which holds `&mut World`
//! for the whole frame and has checked, once, that every index a kind
//! stores is within the particle tables; each access is then checked in
//! debug builds only, so release code is the raw pointer arithmetic it
//! replaced.

use std::marker::PhantomData;

/// A slice shared by the threads of one step, written by index.
///
/// Who may touch which element is the step's contract, not the type's:
/// between two barriers, an element is written by one thread at most,
/// and read by no other (see `super::step::Frame::run`).
#[derive(Debug)]
pub(crate) struct Shared<T> {
    ptr: *mut T,
    len: usize,
    _slice: PhantomData<*mut [T]>,
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for Shared<T> {}

// SAFETY: the one argument for every view of the step. A `Shared` is
// built from `&mut [T]` while the world is mutably borrowed, and used only
// until `Pool::run` returns, which it does only after every thread left
// the frame; the phases hand each element to one writer at a time, with a
// barrier before anyone else reads it. T: Send because threads move
// values of T in and out; T: Sync because they read them in place.
unsafe impl<T: Send + Sync> Send for Shared<T> {}
// SAFETY: as for Send: `&Shared` hands out only the same pointer.
unsafe impl<T: Send + Sync> Sync for Shared<T> {}

impl<T> Shared<T> {
    /// A view of `slice` for the frame being stepped.
    pub fn new(slice: &mut [T]) -> Self {
        Self {
            ptr: slice.as_mut_ptr(),
            len: slice.len(),
            _slice: PhantomData,
        }
    }

    /// The number of elements.
    pub fn len(self) -> usize {
        self.len
    }

    /// The first element's address, for the SIMD loads.
    #[cfg_attr(not(target_arch = "x86_64"), allow(dead_code))]
    pub fn ptr(self) -> *mut T {
        self.ptr
    }

    /// Element `i`, by value.
    ///
    /// # Safety
    /// `i < len`, and no other thread writes element `i` meanwhile.
    #[inline(always)]
    pub unsafe fn get(self, i: usize) -> T
    where
        T: Copy,
    {
        debug_assert!(i < self.len, "{i} of {}", self.len);
        // SAFETY: the caller's contract.
        unsafe { *self.ptr.add(i) }
    }

    /// Writes element `i`.
    ///
    /// # Safety
    /// `i < len`, and no other thread reads or writes element `i` meanwhile.
    #[inline(always)]
    pub unsafe fn set(self, i: usize, value: T) {
        debug_assert!(i < self.len, "{i} of {}", self.len);
        // SAFETY: the caller's contract.
        unsafe { *self.ptr.add(i) = value }
    }

    /// Element `i`, to read in place.
    ///
    /// # Safety
    /// `i < len`, and no thread writes element `i` while the reference lives.
    #[inline(always)]
    pub unsafe fn get_ref<'a>(self, i: usize) -> &'a T {
        debug_assert!(i < self.len, "{i} of {}", self.len);
        // SAFETY: the caller's contract.
        unsafe { &*self.ptr.add(i) }
    }

    /// Element `i`, to change in place.
    ///
    /// # Safety
    /// As for [`Shared::set`], for as long as the reference lives.
    #[inline(always)]
    pub unsafe fn at<'a>(self, i: usize) -> &'a mut T {
        debug_assert!(i < self.len, "{i} of {}", self.len);
        // SAFETY: the caller's contract.
        unsafe { &mut *self.ptr.add(i) }
    }

    /// Elements `range`, to read.
    ///
    /// # Safety
    /// `range` is within `len`; no thread writes them while the slice lives.
    pub unsafe fn part<'a>(self, range: std::ops::Range<usize>) -> &'a [T] {
        debug_assert!(range.start <= range.end && range.end <= self.len);
        // SAFETY: the caller's contract.
        unsafe { std::slice::from_raw_parts(self.ptr.add(range.start), range.len()) }
    }

    /// Elements `range`, to change in place.
    ///
    /// # Safety
    /// `range` is within `len`; no other thread reads or writes them
    /// while the slice lives.
    pub unsafe fn part_mut<'a>(self, range: std::ops::Range<usize>) -> &'a mut [T] {
        debug_assert!(range.start <= range.end && range.end <= self.len);
        // SAFETY: the caller's contract.
        unsafe { std::slice::from_raw_parts_mut(self.ptr.add(range.start), range.len()) }
    }

    /// The whole slice, to read.
    ///
    /// # Safety
    /// No thread writes any element while the slice lives.
    pub unsafe fn slice<'a>(self) -> &'a [T] {
        // SAFETY: the caller's contract; `ptr`, `len` came from a slice.
        unsafe { std::slice::from_raw_parts(self.ptr, self.len) }
    }
}
