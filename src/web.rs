//! The browser's side of the app (wasm32 only): the few things the page
//! does for it through `web/catenary.js`, a miniquad plugin — a precise
//! clock, the page title, downloads, links.
//!
//! This is the one place outside `solver::exec` with `unsafe`: calls into
//! JavaScript are foreign functions. Strings cross as (pointer, length) of
//! UTF-8 in the wasm memory, which the JS side only reads during the call;
//! strings coming back are copied by JS into a buffer Rust allocated at the
//! length JS announced just before.
#![allow(unsafe_code)]

// SAFETY: every function here is defined by web/catenary.js with these
// exact signatures (numbers are i32/u32 in JS, pointers are offsets into
// the wasm memory); none keeps a pointer after it returns.
unsafe extern "C" {
    fn catenary_now() -> f64;
    fn catenary_set_title(ptr: *const u8, len: usize);
    fn catenary_download(name: *const u8, name_len: usize, text: *const u8, text_len: usize);
    fn catenary_share(text: *const u8, len: usize);
    fn catenary_fragment_len() -> usize;
    fn catenary_fragment_copy(ptr: *mut u8);
    fn catenary_test_mode() -> u32;
}

/// The plugin protocol's version check: web/catenary.js declares version 1.
#[unsafe(no_mangle)]
pub extern "C" fn catenary_crate_version() -> u32 {
    1
}

/// Seconds since the page opened, to microseconds (`performance.now()`;
/// miniquad's own clock is `Date.now()`, in whole milliseconds).
pub fn now() -> f64 {
    // SAFETY: no arguments, returns a number.
    unsafe { catenary_now() }
}

/// Sets the page title (the test hook reports through it).
pub fn set_title(text: &str) {
    // SAFETY: a valid UTF-8 slice, read by JS during the call only.
    unsafe { catenary_set_title(text.as_ptr(), text.len()) }
}

/// Offers `text` to the user as a downloaded file named `name`.
pub fn download(name: &str, text: &str) {
    // SAFETY: two valid UTF-8 slices, read by JS during the call only.
    unsafe { catenary_download(name.as_ptr(), name.len(), text.as_ptr(), text.len()) }
}

/// Puts `scene_text` in the address bar's fragment (`#scene=…`) and on the
/// clipboard, so the setup can be shared as a link.
pub fn share(scene_text: &str) {
    // SAFETY: a valid UTF-8 slice, read by JS during the call only.
    unsafe { catenary_share(scene_text.as_ptr(), scene_text.len()) }
}

/// The scene text of a shared link (`#scene=…`, decoded), if the page has one.
pub fn fragment_scene() -> Option<String> {
    // SAFETY: no arguments; JS measures the decoded fragment and keeps it
    // for the copy that follows.
    let len = unsafe { catenary_fragment_len() };
    if len == 0 {
        return None;
    }
    let mut bytes = vec![0u8; len];
    // SAFETY: `bytes` has exactly the `len` bytes JS announced and writes.
    unsafe { catenary_fragment_copy(bytes.as_mut_ptr()) };
    String::from_utf8(bytes).ok()
}

/// True when the page was opened with `?test` (the browser test's hook).
pub fn test_mode() -> bool {
    // SAFETY: no arguments, returns a number.
    unsafe { catenary_test_mode() != 0 }
}
