//! Can a window be opened? Checked before macroquad is started, because
//! miniquad panics (exit 101) when it cannot open the X display.
//!
//! The check makes the X11 handshake the window will make (x11rb parses
//! `DISPLAY` and reads the `XAUTHORITY` cookie as Xlib does): a socket
//! that is not an X server, a screen the server does not have (`:0.7`)
//! and a server that refuses the cookie are errors here, not panics later.
//! It keeps that connection open (the returned [`Probe`]) until the
//! program ends: an X server with no other client resets itself when its
//! last client leaves (Xvfb's default), and a window connecting during
//! that reset fails with `XOpenDisplay() failed` — closing the probe at
//! once made the window fail now and then.

#[cfg(all(unix, not(target_os = "macos")))]
use std::time::Duration;

/// The check's open connection to the display server; keep it while the
/// window opens (see the module doc).
#[must_use = "dropping the probe at once can reset a bare X server as the window connects"]
pub struct Probe {
    #[cfg(all(unix, not(target_os = "macos")))]
    _connection: x11rb::rust_connection::RustConnection,
}

/// Elsewhere (macOS, Windows) the window does not use X11 and the
/// windowing layer reports its own errors.
#[cfg(not(all(unix, not(target_os = "macos"))))]
pub fn check() -> Result<Probe, String> {
    Ok(Probe {})
}

#[cfg(all(unix, not(target_os = "macos")))]
/// How long the server has to answer the handshake: a socket that accepts
/// and never answers would otherwise hang the window's start for ever.
const ANSWER_WITHIN: Duration = Duration::from_secs(5);

#[cfg(all(unix, not(target_os = "macos")))]
/// Ok when `DISPLAY` names an X server that accepts this client and has
/// the screen named (the window uses X11; under Wayland that is
/// Xwayland); else why not.
pub fn check() -> Result<Probe, String> {
    let display = std::env::var("DISPLAY").unwrap_or_default();
    if display.trim().is_empty() {
        return Err(if std::env::var_os("WAYLAND_DISPLAY").is_some() {
            "DISPLAY is unset: the window needs X11 (Xwayland under Wayland)".into()
        } else {
            "no display (DISPLAY and WAYLAND_DISPLAY are unset)".into()
        });
    }
    let cannot = |why: String| format!("cannot open the display DISPLAY={display}: {why}");
    let (tell, answer) = std::sync::mpsc::channel();
    // A thread, so that a server that never answers costs ANSWER_WITHIN;
    // on that error the program ends and the thread with it.
    std::thread::spawn(move || {
        let _ = tell.send(x11rb::connect(None));
    });
    match answer.recv_timeout(ANSWER_WITHIN) {
        Ok(Ok((connection, _screen))) => Ok(Probe {
            _connection: connection,
        }),
        Ok(Err(e)) => Err(cannot(why(&e))),
        Err(_) => Err(cannot(format!(
            "no X11 answer within {} s (is it an X server?)",
            ANSWER_WITHIN.as_secs()
        ))),
    }
}

#[cfg(all(unix, not(target_os = "macos")))]
/// A connection error as a person reads it.
fn why(e: &x11rb::errors::ConnectError) -> String {
    use x11rb::errors::ConnectError as E;
    match e {
        E::InvalidScreen => "the server has no such screen (the number after the dot)".into(),
        E::SetupAuthenticate(_) | E::SetupFailed(_) => {
            format!("the X server refused this client (check XAUTHORITY): {e}")
        }
        E::DisplayParsingError(_) => format!("not of the form [host]:number[.screen]: {e}"),
        E::IoError(io) => io.to_string(),
        other => other.to_string(),
    }
}
