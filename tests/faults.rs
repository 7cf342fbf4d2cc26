//! Faults in the environment, through the real binary: a stderr that
//! cannot be written, output onto devices, FIFOs and planted names, two
//! runs writing one file, signals during a run, displays that are not
//! X servers (issue 28).

mod common;

use common::TempDir;

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

fn bin() -> Command {
    let mut c = Command::new(env!("CARGO_BIN_EXE_catenary"));
    c.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY");
    c
}

fn scene(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(name)
}

fn stderr_to(file: &str) -> Stdio {
    std::fs::OpenOptions::new()
        .write(true)
        .open(file)
        .unwrap()
        .into()
}

#[test]
fn a_stderr_that_cannot_be_written_loses_the_message_not_the_exit_code() {
    let dir = TempDir::new("full-stderr");
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Scene(solver: (dt: 0.0))").unwrap();
    let rec = dir.join("bad.rec.ron");
    std::fs::write(&rec, "Recording(").unwrap();
    let good = scene("pendulum.ron");
    let csv = dir.join("sweep.csv");
    let cases: [(Vec<&str>, i32); 5] = [
        (vec!["check", "/nonexistent.ron"], 1),
        (vec!["check", bad.to_str().unwrap()], 1),
        (vec!["run", bad.to_str().unwrap()], 1),
        (vec!["replay", rec.to_str().unwrap()], 1),
        (
            vec![
                "sweep",
                good.to_str().unwrap(),
                "--budget",
                "4",
                "--frames",
                "2",
                "--out",
                csv.to_str().unwrap(),
            ],
            0,
        ),
    ];
    for (args, code) in &cases {
        let out = bin()
            .args(args)
            .stdout(Stdio::null())
            .stderr(stderr_to("/dev/full"))
            .status()
            .unwrap();
        assert_eq!(out.code(), Some(*code), "{args:?} with 2>/dev/full");
        // A closed pipe: the reader has gone before the first line.
        let mut child = bin()
            .args(args)
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stderr.take());
        assert_eq!(
            child.wait().unwrap().code(),
            Some(*code),
            "{args:?} with stderr closed"
        );
    }
}

/// `catenary run pendulum.ron --frames 3 --out TARGET`.
fn three_frames_of_the_pendulum_to(target: &Path) -> std::process::Output {
    bin()
        .args([
            "run",
            scene("pendulum.ron").to_str().unwrap(),
            "--frames",
            "3",
        ])
        .args(["--out", target.to_str().unwrap()])
        .output()
        .unwrap()
}

fn mkfifo(path: &Path) {
    assert!(
        Command::new("mkfifo").arg(path).status().unwrap().success(),
        "mkfifo"
    );
}

#[cfg(unix)]
#[test]
fn output_onto_a_fifo_is_written_into_it_not_replaced() {
    use std::os::unix::fs::FileTypeExt;
    let dir = TempDir::new("fifo-out");
    let fifo = dir.join("pipe");
    mkfifo(&fifo);
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    let out = three_frames_of_the_pendulum_to(&fifo);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = reader.join().unwrap();
    assert!(text.starts_with("frame,body,particle,x,y,z\n"), "{text}");
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());
    let names: Vec<_> = std::fs::read_dir(&*dir).unwrap().collect();
    assert_eq!(names.len(), 1, "a temp file was left");
}

#[cfg(unix)]
#[test]
fn a_planted_symlink_at_the_temp_name_is_not_followed() {
    let dir = TempDir::new("planted");
    let victim = dir.join("victim.txt");
    std::fs::write(&victim, "precious").unwrap();
    std::os::unix::fs::symlink(&victim, dir.join("x.csv.tmp")).unwrap();
    let out = three_frames_of_the_pendulum_to(&dir.join("x.csv"));
    assert!(out.status.success());
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "precious");
    assert!(
        dir.join("x.csv.tmp").symlink_metadata().is_ok(),
        "the user's file was removed"
    );
    let csv = std::fs::read_to_string(dir.join("x.csv")).unwrap();
    assert!(csv.starts_with("frame,"));
}

#[test]
fn two_runs_writing_one_file_leave_one_runs_whole_output() {
    let dir = TempDir::new("two-writers");
    let target = dir.join("x.csv");
    let run = |frames: &str| {
        bin()
            .args([
                "run",
                scene("curtain.ron").to_str().unwrap(),
                "--frames",
                frames,
            ])
            .args(["--every", "1", "--out", target.to_str().unwrap()])
            .stdout(Stdio::null())
            .spawn()
            .unwrap()
    };
    let (mut a, mut b) = (run("40"), run("41"));
    assert!(a.wait().unwrap().success() && b.wait().unwrap().success());
    let text = std::fs::read_to_string(&target).unwrap();
    let rows: Vec<&str> = text.lines().collect();
    assert!(
        rows.iter().skip(1).all(|r| r.split(',').count() == 6),
        "a malformed row"
    );
    // One run's frames 0..=F, whole: its last frame is 40 or 41, and every
    // frame has the same number of rows.
    let last: u64 = rows
        .last()
        .unwrap()
        .split(',')
        .next()
        .unwrap()
        .parse()
        .unwrap();
    assert!(last == 40 || last == 41, "last frame {last}");
    assert_eq!((rows.len() - 1) % (last as usize + 1), 0);
    let names: Vec<_> = std::fs::read_dir(&*dir).unwrap().collect();
    assert_eq!(names.len(), 1, "a temp file was left");
}

#[cfg(unix)]
#[test]
fn a_run_stopped_by_a_signal_leaves_no_temp_file() {
    for (signal, name) in [(2, "INT"), (15, "TERM"), (1, "HUP")] {
        let dir = TempDir::new(&format!("signal-{name}"));
        let mut child = bin()
            .args(["run", scene("curtain_128.ron").to_str().unwrap()])
            .args(["--frames", "1000000", "--every", "1"])
            .args(["--out", dir.join("x.csv").to_str().unwrap()])
            .stdout(Stdio::null())
            .spawn()
            .unwrap();
        // Wait until the temp file exists and has rows in it.
        let deadline = Instant::now() + Duration::from_secs(60);
        loop {
            let written = std::fs::read_dir(&*dir)
                .unwrap()
                .filter_map(|e| e.ok()?.metadata().ok())
                .any(|m| m.len() > 0);
            if written {
                break;
            }
            assert!(Instant::now() < deadline, "no temp file appeared");
            std::thread::sleep(Duration::from_millis(20));
        }
        let sent = Command::new("kill")
            .args([format!("-{name}"), child.id().to_string()])
            .status()
            .unwrap();
        assert!(sent.success());
        let status = child.wait().unwrap();
        assert_eq!(status.code(), Some(128 + signal), "SIG{name}");
        let left: Vec<_> = std::fs::read_dir(&*dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect();
        assert!(left.is_empty(), "SIG{name} left {left:?}");
    }
}

#[cfg(all(unix, feature = "window"))]
#[test]
fn a_socket_that_is_not_an_x_server_is_an_error_not_a_panic() {
    use std::io::{Read, Write};
    // A display number nobody uses, its socket where X clients look.
    std::fs::create_dir_all("/tmp/.X11-unix").unwrap();
    let number = (700..800)
        .find(|n| !Path::new(&format!("/tmp/.X11-unix/X{n}")).exists())
        .expect("a free display number");
    let path = PathBuf::from(format!("/tmp/.X11-unix/X{number}"));
    let listener = std::os::unix::net::UnixListener::bind(&path).unwrap();
    let server = std::thread::spawn(move || {
        // Reads the handshake, answers nonsense, hangs up.
        if let Ok((mut s, _)) = listener.accept() {
            let mut buf = [0u8; 64];
            let _ = s.read(&mut buf);
            let _ = s.write_all(b"HTTP/1.1 400 Bad Request\r\n\r\n");
        }
    });
    let out = Command::new(env!("CARGO_BIN_EXE_catenary"))
        .env("DISPLAY", format!(":{number}"))
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let _ = std::fs::remove_file(&path);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert!(err.starts_with("error: cannot open the display"), "{err}");
    server.join().unwrap();
}
