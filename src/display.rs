//! Can a window be opened? Checked before macroquad is started, because
//! miniquad panics (exit 101) when it cannot open the X display.
//!
//! The check connects to the server and keeps that connection open (the
//! returned [`Probe`]) until the program ends: an X server with no other
//! client resets itself when its last client leaves (Xvfb's default), and
//! a window connecting during that reset fails with `XOpenDisplay()
//! failed` — closing the probe at once made the window fail now and then.

#[cfg(unix)]
use std::os::unix::net::UnixStream;
#[cfg(unix)]
use std::time::Duration;

/// The check's open connection to the display server; keep it while the
/// window opens (see the module doc).
#[must_use = "dropping the probe at once can reset a bare X server as the window connects"]
pub struct Probe {
    #[cfg(unix)]
    _connection: Option<Box<dyn std::io::Read>>,
}

/// Elsewhere the windowing layer reports its own errors.
#[cfg(not(unix))]
pub fn check() -> Result<Probe, String> {
    Ok(Probe {})
}

/// Ok when `DISPLAY` names an X server that accepts a connection (the
/// window uses X11; under Wayland that is Xwayland); else why not.
#[cfg(unix)]
pub fn check() -> Result<Probe, String> {
    let keep = |c: Box<dyn std::io::Read>| Probe {
        _connection: Some(c),
    };
    let display = std::env::var("DISPLAY").unwrap_or_default();
    if display.trim().is_empty() {
        return Err(if std::env::var_os("WAYLAND_DISPLAY").is_some() {
            "DISPLAY is unset: the window needs X11 (Xwayland under Wayland)".into()
        } else {
            "no display (DISPLAY and WAYLAND_DISPLAY are unset)".into()
        });
    }
    let cannot = |why: &str| format!("cannot open the display DISPLAY={display}: {why}");
    // [host]:number[.screen]; a path (macOS launchd) is a socket itself.
    if display.starts_with('/') {
        return UnixStream::connect(&display)
            .map(|c| keep(Box::new(c)))
            .map_err(|e| cannot(&e.to_string()));
    }
    let (host, rest) = display
        .rsplit_once(':')
        .ok_or_else(|| cannot("not of the form [host]:number"))?;
    let number: u16 = rest
        .split('.')
        .next()
        .and_then(|n| n.parse().ok())
        .filter(|&n| n < 1000)
        .ok_or_else(|| cannot("no display number"))?;
    if host.is_empty() || host == "unix" {
        let socket = format!("/tmp/.X11-unix/X{number}");
        UnixStream::connect(&socket)
            .map(|c| keep(Box::new(c)))
            .map_err(|e| cannot(&format!("{socket}: {e}")))
    } else {
        use std::net::ToSocketAddrs;
        let addr = (host, 6000 + number)
            .to_socket_addrs()
            .map_err(|e| cannot(&e.to_string()))?
            .next()
            .ok_or_else(|| cannot("the host has no address"))?;
        std::net::TcpStream::connect_timeout(&addr, Duration::from_secs(2))
            .map(|c| keep(Box::new(c)))
            .map_err(|e| cannot(&e.to_string()))
    }
}
