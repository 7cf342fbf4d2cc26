//! Recorded sessions (tests/replays/*.ron, made with the window's Record or
//! `record::Recorder`) replayed headless: their final positions must match
//! the stored hashes bit for bit (`edit_every_kind.ron` applies every kind
//! of panel edit, `catenary::edit::Edit`). An intended physics change updates them:
//! run with `--nocapture`, check the physics tests, paste the new hashes.

mod common;

use std::path::Path;

use catenary::record;
use common::position_hash;

const GOLDEN: [(&str, u64); 3] = [
    ("edit_every_kind.ron", 0xcfcf2277b3a11cc8),
    ("rope_throw_and_pin.ron", 0xf89244aef69b5e58),
    ("tear_a_flap.ron", 0x64f9a677f833f453),
];

#[test]
fn recorded_sessions_replay_to_their_stored_positions() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    let names: Vec<&str> = GOLDEN.iter().map(|g| g.0).collect();
    assert_eq!(files, names, "every recording has a stored hash");
    let mut wrong = Vec::new();
    for (name, golden) in GOLDEN {
        let rec = record::load(&dir.join(name)).unwrap_or_else(|e| panic!("{e}"));
        assert!(!rec.events.is_empty());
        let hash = position_hash(&record::replay(&rec));
        println!("(\"{name}\", {hash:#018x}),");
        // Replaying twice gives the same bits.
        assert_eq!(hash, position_hash(&record::replay(&rec)), "{name}");
        if hash != golden {
            wrong.push(name);
        }
    }
    assert!(wrong.is_empty(), "replays changed: {wrong:?}");
}

#[test]
fn a_recording_with_a_bad_event_is_refused_with_its_place() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/replays");
    let text = std::fs::read_to_string(dir.join("rope_throw_and_pin.ron")).unwrap();
    let bad = text.replacen("Grab(12)", "Grab(99)", 1);
    assert_ne!(bad, text);
    let tmp = std::env::temp_dir().join(format!("catenary-bad-rec-{}.ron", std::process::id()));
    std::fs::write(&tmp, bad).unwrap();
    let err = record::load(&tmp)
        .expect_err("particle 99 does not exist")
        .to_string();
    let _ = std::fs::remove_file(&tmp);
    assert!(
        err.contains("events[") && err.contains("particle 99"),
        "{err}"
    );
}
