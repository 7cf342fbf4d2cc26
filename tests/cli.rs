//! The command line and the scene files, through the real binary (DESIGN §3–4).

mod common;

use common::{TempDir, shipped_scenes};

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use catenary::scene;
use catenary::scene::BodyDef;

fn catenary(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_catenary"))
        .args(args)
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .expect("the binary runs")
}

fn scenes() -> Vec<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    shipped_scenes().iter().map(|name| dir.join(name)).collect()
}

#[test]
fn every_scene_passes_check_and_runs_without_a_display() {
    let files = scenes();
    assert!(files.len() >= 10, "{files:?}");
    let paths: Vec<&str> = files.iter().map(|p| p.to_str().unwrap()).collect();
    let mut args = vec!["check"];
    args.extend(&paths);
    let out = catenary(&args);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for path in paths {
        let out = catenary(&["run", path, "--frames", "30"]);
        let stdout = String::from_utf8_lossy(&out.stdout);
        assert!(
            out.status.success(),
            "{path}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        for word in [
            "particles:",
            "constraints:",
            "frames: 30",
            "wall time:",
            "ms/frame:",
            "projections/s:",
        ] {
            assert!(stdout.contains(word), "{path}: no `{word}` in {stdout}");
        }
    }
}

#[test]
fn bad_inputs_exit_1_with_a_message_naming_the_problem() {
    let dir = TempDir::new("bad");
    let rope = |extra: &str| {
        format!(
            "Scene(bodies: [Rope(start: (0.0, 2.0, 0.0), end: (1.0, 2.0, 0.0), segments: 10{extra})])"
        )
    };
    let cases: Vec<(String, &str)> = vec![
        ("Scene(bodies: [Rope(start: (0.0, 2.0, 0.0), end: (1.0, 2.0, 0.0), segments: 0)])".into(), "bodies[0].segments"),
        (rope(", mass: -1.0"), "bodies[0].mass"),
        (rope(", compliance: -0.1"), "bodies[0].compliance"),
        (rope(", compliance: NaN"), "bodies[0].compliance"),
        (rope(", mass: inf"), "bodies[0].mass"),
        (rope(", pins: [11]"), "bodies[0].pins[0]"),
        (rope(", pins: [-12]"), "-11 ..= 10"),
        (rope(", colour: 3"), "1:"),
        ("Scene(bodies: [Rope(start: (0.0, 2.0, 0.0), segments: 3)])".into(), "end"),
        ("Scene(bodies: [Rope(start: (0.0, 2.0, 0.0), end: (0.0, 2.0, 0.0), segments: 3)])".into(), "bodies[0].length"),
        ("Scene(bodies: [Cloth(origin: (0.0, 0.0, 0.0), size: (0.0, 1.0), resolution: (10, 10))])".into(), "bodies[0].size.0"),
        ("Scene(bodies: [Cloth(origin: (0.0, 0.0, 0.0), size: (1.0, 1.0), resolution: (1, 10))])".into(), "bodies[0].resolution.0"),
        ("Scene(bodies: [Cloth(origin: (0.0, 0.0, 0.0), size: (1.0, 1.0), resolution: (3000, 3000))])".into(), "at most 2000000"),
        ("Scene(bodies: [Cloth(origin: (0.0, 0.0, 0.0), size: (1.0, 1.0), resolution: (4, 4), pins: [(4, 0)])])".into(), "pins[0].0 (row)"),
        ("Scene(bodies: [Mesh(particles: [(position: (0.0, 0.0, 0.0))], links: [(a: 0, b: 1)])])".into(), "links[0].b"),
        ("Scene(bodies: [Blob()])".into(), "Blob"),
        ("Scene(solver: (substeps: 0))".into(), "solver.substeps"),
        ("Scene(solver: (dt: -0.01))".into(), "solver.dt"),
        ("Scene(solver: (method: Verlet))".into(), "Verlet"),
        ("Scene(colliders: [Sphere(center: (0.0, 0.0, 0.0), radius: 0.0)])".into(), "colliders[0].radius"),
        (format!("Scene(bodies: [{}], drivers: [(body: 1, particle: 0, motion: Sine(axis: (0.0, 1.0, 0.0), amplitude: 0.1, frequency: 1.0))])", &rope("")[15..rope("").len() - 2]), "drivers[0].body"),
        (rope("").replace(")])", ")], drivers: [(body: 0, particle: 40, motion: Sine(axis: (0.0, 1.0, 0.0), amplitude: 0.1, frequency: 1.0))])"), "drivers[0].particle"),
        (rope("").replace(")])", ")], drivers: [(body: 0, particle: 0, motion: Sine(axis: (0.0, 0.0, 0.0), amplitude: 0.1, frequency: 1.0))])"), "drivers[0].motion.axis"),
        ("Scene(bodies: [Rope(start: (0.0, 2.0, 0.0), end: (1.0, 2.0, 0.0), segments: 10)]".into(), "1:"),
        ("".into(), "1:"),
    ];
    for (k, (text, needle)) in cases.iter().enumerate() {
        let path = dir.join(format!("bad{k}.ron"));
        std::fs::write(&path, text).unwrap();
        for args in [
            vec!["check", path.to_str().unwrap()],
            vec!["run", path.to_str().unwrap(), "--frames", "5"],
        ] {
            let out = catenary(&args);
            let stderr = String::from_utf8_lossy(&out.stderr);
            assert_eq!(
                out.status.code(),
                Some(1),
                "case {k} {args:?}: {text}\n{stderr}"
            );
            assert!(
                stderr.contains(needle),
                "case {k}: `{needle}` not in {stderr}"
            );
            assert!(
                stderr.contains(&format!("bad{k}.ron")),
                "case {k}: no file name in {stderr}"
            );
            assert!(!stderr.contains("panicked"), "case {k}: {stderr}");
        }
    }
    // A missing file is an error too, and check reports every file.
    let out = catenary(&[
        "check",
        "/nonexistent.ron",
        dir.join("bad0.ron").to_str().unwrap(),
    ]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1));
    assert!(
        stderr.contains("/nonexistent.ron") && stderr.contains("bad0.ron"),
        "{stderr}"
    );
}

#[test]
fn parse_errors_carry_line_and_column() {
    let text = "Scene(\n    name: \"x\",\n    solver: (substeps: 10, frobnicate: 1),\n)";
    let err = scene::parse(text, Path::new("f.ron"))
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("f.ron:3:"), "{err}");
    assert!(err.contains("frobnicate"), "{err}");
}

#[test]
fn range_errors_carry_the_line_and_column_of_the_field() {
    let text = "Scene(
    solver: (substeps: 10, dt: -0.5),
    bodies: [
        Rope(start: (0.0, 2.0, 0.0), end: (1.0, 2.0, 0.0), segments: 10,
             mass: -1.0, pins: [0, 40]),
        Cloth(origin: (0.0, 0.0, 0.0), size: (1.0, 1.0), resolution: (4, 4)),
    ],
    colliders: [Sphere(center: (0.0, 0.0, 0.0), radius: 0.0)],
)";
    let err = scene::parse(text, Path::new("f.ron"))
        .unwrap_err()
        .to_string();
    for line in [
        "f.ron:2:28: solver.dt: -0.5 is outside",
        "f.ron:5:14: bodies[0].mass: -1 is outside",
        "f.ron:5:36: bodies[0].pins[1]: index 40",
        "f.ron:8:49: colliders[0].radius: 0 is outside",
    ] {
        assert!(err.contains(line), "`{line}` not in\n{err}");
    }
}

#[test]
fn usage_errors_exit_2() {
    for args in [
        vec!["run"],
        vec!["run", "x.ron", "--substeps", "0"],
        vec!["run", "x.ron", "--dt", "-1"],
        vec!["run", "x.ron", "--method", "verlet"],
        vec!["run", "x.ron", "--every", "3"],
        vec!["check"],
        vec!["frobnicate", "x"],
    ] {
        let out = catenary(&args);
        assert_eq!(
            out.status.code(),
            Some(2),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

fn csv(args: &[&str], out: &Path) -> String {
    let mut full = args.to_vec();
    full.extend(["--out", out.to_str().unwrap()]);
    let o = catenary(&full);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read_to_string(out).unwrap()
}

#[test]
fn csv_has_the_documented_frames_and_is_bit_identical_across_runs() {
    let dir = TempDir::new("csv");
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/tearing.ron");
    let args = [
        "run",
        scene.to_str().unwrap(),
        "--frames",
        "25",
        "--every",
        "10",
    ];
    let a = csv(&args, &dir.join("a.csv"));
    let b = csv(&args, &dir.join("b.csv"));
    assert!(a == b, "two runs of the same scene differ");
    let mut lines = a.lines();
    assert_eq!(lines.next(), Some("frame,body,particle,x,y,z"));
    let frames: std::collections::BTreeSet<u64> = lines
        .map(|l| l.split(',').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(frames.into_iter().collect::<Vec<_>>(), vec![0, 10, 20, 25]);
    // Without --every only the last frame; rows numbered as in the scene
    // (40 × 28 cloth), then the copies its tears made, in order.
    let last = csv(
        &["run", scene.to_str().unwrap(), "--frames", "3"],
        &dir.join("c.csv"),
    );
    let rows: Vec<&str> = last.lines().skip(1).collect();
    assert!(rows.len() >= 40 * 28, "{}", rows.len());
    assert!(rows[0].starts_with("3,0,0,-1,2.5,"), "{}", rows[0]);
    assert!(rows[39].starts_with("3,0,39,"), "{}", rows[39]);
    for (k, row) in rows.iter().enumerate() {
        assert!(row.starts_with(&format!("3,0,{k},")), "{row}");
    }
}

#[test]
fn overrides_change_the_method_and_substeps() {
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/hanging_chain.ron");
    let out = catenary(&[
        "run",
        scene.to_str().unwrap(),
        "--frames",
        "10",
        "--method",
        "pbd",
        "--substeps",
        "7",
        "--iterations",
        "3",
        "--dt",
        "0.01",
        "--damping",
        "2",
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success());
    assert!(
        stdout.contains("method: Pbd")
            && stdout.contains("substeps: 7")
            && stdout.contains("iterations: 3")
            && stdout.contains("dt: 0.01"),
        "{stdout}"
    );
}

#[test]
fn save_then_load_gives_the_same_world() {
    let dir = TempDir::new("save");
    for path in scenes() {
        let mut scene = scene::load(&path).unwrap();
        let mut world = scene.build();
        // A run-time edit: pin the middle particle of the first body with
        // particles (a rigid body has none), unpin its first.
        let b = (world.bodies().iter())
            .position(|b| b.count > 0)
            .unwrap_or(0);
        let body = world.bodies()[b].clone();
        if body.count > 0 {
            world.set_pinned(body.first + body.count / 2, true);
            world.set_pinned(body.first, false);
        }
        world.settings.substeps = 13;
        // A soft box (its tetrahedra keep it from passing through itself),
        // a mesh and a rigid body have no self-collision field: the panel
        // offers no switch.
        let has_field = !matches!(
            scene.bodies[b],
            BodyDef::SoftBox(_) | BodyDef::Mesh(_) | BodyDef::Rigid(_)
        );
        let colliding = !world.self_collision(b);
        let switched = has_field && world.set_self_collision(b, colliding);
        scene.capture(&world);
        let out = dir.join(path.file_name().unwrap());
        scene::save(&out, &scene).unwrap();
        let reloaded = scene::load(&out).unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(reloaded, scene, "{}", path.display());
        let rebuilt = reloaded.build();
        assert_eq!(rebuilt.particles.pos(), world.particles.pos());
        assert_eq!(
            rebuilt.particles.inv_mass(),
            world.particles.inv_mass(),
            "{}",
            path.display()
        );
        assert_eq!(rebuilt.settings, world.settings);
        assert_eq!(rebuilt.constraints.len(), world.constraints.len());
        // Ropes, cloths and balloons switch self-collision in the panel, and keep it.
        assert_eq!(rebuilt.self_collision(b), switched, "{}", path.display());
        assert!(
            !out.with_extension("ron.tmp").exists(),
            "temp file left behind"
        );
    }
}

#[test]
fn the_built_in_scenes_are_every_file_of_scenes_and_valid() {
    let s = scene::parse(scene::DEFAULT_SCENE, Path::new("default.ron")).unwrap();
    assert_eq!(s.bodies.len(), 2);
    let names: Vec<String> = scenes()
        .iter()
        .map(|p| p.file_name().unwrap().to_string_lossy().into_owned())
        .collect();
    let built: Vec<&str> = scene::BUILTIN.iter().map(|(n, _)| *n).collect();
    assert_eq!(
        names, built,
        "scene/builtin.rs must list every file of scenes/"
    );
    for (name, text) in scene::BUILTIN {
        let on_disk = std::fs::read_to_string(
            Path::new(env!("CARGO_MANIFEST_DIR"))
                .join("scenes")
                .join(name),
        )
        .unwrap();
        assert_eq!(*text, on_disk);
        scene::parse(text, Path::new(name)).unwrap();
    }
}

#[cfg(feature = "window")]
#[test]
fn without_a_display_the_window_says_so_and_exits_1() {
    let out = catenary(&[]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("no display"));
}

#[cfg(feature = "window")]
#[test]
fn a_display_that_cannot_be_opened_is_an_error_not_a_panic() {
    for display in [":987", "", "nohost.invalid:3"] {
        let out = Command::new(env!("CARGO_BIN_EXE_catenary"))
            .env("DISPLAY", display)
            .env_remove("WAYLAND_DISPLAY")
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "DISPLAY={display}: {err}");
        assert!(err.starts_with("error: "), "{err}");
    }
}

#[test]
fn a_closed_pipe_ends_run_and_check_quietly() {
    use std::process::Stdio;
    let scene = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/pendulum.ron");
    for args in [
        vec!["run", scene.to_str().unwrap()],
        vec!["check", scene.to_str().unwrap()],
    ] {
        let mut child = Command::new(env!("CARGO_BIN_EXE_catenary"))
            .args(&args)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        drop(child.stdout.take()); // the reader goes away at once
        let out = child.wait_with_output().unwrap();
        assert_eq!(
            out.status.code(),
            Some(0),
            "{args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
    }
}

#[test]
fn files_that_are_not_scenes_or_not_writable_fail_cleanly() {
    let dir = TempDir::new("io-edges");
    // A byte-order mark is accepted.
    let bom = dir.join("bom.ron");
    std::fs::write(&bom, "\u{feff}Scene(name: \"bom\")").unwrap();
    assert!(catenary(&["check", bom.to_str().unwrap()]).status.success());
    // A device is not read (it would never end).
    let out = catenary(&["check", "/dev/zero"]);
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stderr).contains("not a regular file"));
    // Output to a directory is refused up front and leaves no temp file.
    let target = format!("{}/", dir.display());
    let out = catenary(&[
        "run",
        bom.to_str().unwrap(),
        "--frames",
        "1",
        "--out",
        &target,
    ]);
    assert_eq!(out.status.code(), Some(1));
    let left: Vec<_> = std::fs::read_dir(&*dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left.len(), 1, "{left:?}");
    // Every line of a multi-error report is an error line.
    let bad = dir.join("bad.ron");
    std::fs::write(&bad, "Scene(solver: (dt: 0.0, substeps: 0))").unwrap();
    let out = catenary(&["run", bad.to_str().unwrap()]);
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(err.lines().count(), 2, "{err}");
    assert!(err.lines().all(|l| l.starts_with("error: ")), "{err}");
    assert!(err.contains("[1e-6, 1] s"), "{err}");
}

#[test]
fn scaling_a_mesh_keeps_its_links_different_and_save_keeps_the_scaled_values() {
    use catenary::solver::LinkKind;
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/rope_bridge.ron");
    let mut s = scene::load(&path).unwrap();
    let mut w = s.build();
    let b = s
        .bodies
        .iter()
        .position(|d| matches!(d, BodyDef::Mesh(_)))
        .unwrap();
    let (lo, hi) = w
        .constraints
        .compliance_range(b, LinkKind::Stretch)
        .unwrap();
    assert!(lo < hi, "the bridge mixes link compliances: {lo} {hi}");
    let before: Vec<f32> = match &s.bodies[b] {
        BodyDef::Mesh(m) => m.links.iter().map(|l| l.compliance).collect(),
        _ => unreachable!(),
    };
    w.constraints.scale_compliance(b, LinkKind::Stretch, 2.0);
    s.capture(&w);
    let BodyDef::Mesh(m) = &s.bodies[b] else {
        unreachable!()
    };
    for (l, old) in m.links.iter().zip(before) {
        assert_eq!(l.compliance, old * 2.0);
    }
}

/// A cloth that tears under a driven rope's pull, for the resume tests.
const TEAR_AND_DRIVE: &str = "Scene(name: \"tear and drive\",
    bodies: [
        Cloth(origin: (-0.5, 2.0, 0.0), size: (1.0, 1.0), resolution: (12, 12), tear_strain: 0.1,
              mass: 5.0, stretch_compliance: 0.01, shear_compliance: 0.01,
              pins: [(0, 0), (0, -1)]),
        Rope(start: (1.0, 2.0, 0.0), end: (1.0, 1.0, 0.0), segments: 8, pins: [0]),
    ],
    colliders: [Ground()],
    drivers: [(body: 1, particle: 0, motion: Sine(axis: (1.0, 0.3, 0.0), amplitude: 0.3, frequency: 1.5))],
)";

/// `scene` with `w`'s state written by Save as into `dir`, loaded back and built.
fn saved_and_resumed(
    scene: &scene::Scene,
    w: &catenary::solver::World,
    dir: &TempDir,
) -> catenary::solver::World {
    let mut saved = scene.clone();
    saved.capture(w);
    saved.capture_state(w);
    let path = dir.join("saved.ron");
    scene::save(&path, &saved).unwrap();
    scene::load(&path).unwrap().build()
}

/// Every particle position's bits.
fn bits(w: &catenary::solver::World) -> Vec<u32> {
    (w.particles.pos().iter())
        .flat_map(|p| p.to_array().map(f32::to_bits))
        .collect()
}

#[test]
fn a_saved_state_resumes_bit_exactly_with_tearing_drivers_and_a_run_time_pin() {
    let scene = scene::parse(TEAR_AND_DRIVE, Path::new("<test>")).unwrap();
    let mut w = scene.build();
    for frame in 0..200 {
        if frame == 50 {
            w.set_pinned(100, true); // a pin the scene file does not have
        }
        if frame == 100 {
            let dir = TempDir::new("resume");
            let mut resumed = saved_and_resumed(&scene, &w, &dir);
            assert!(
                resumed.particles.is_pinned(100),
                "the run-time pin is saved"
            );
            assert_eq!(
                resumed.constraints.len(),
                w.constraints.len(),
                "broken links are saved"
            );
            assert!(
                w.constraints.len() != scene.build().constraints.len(),
                "the cloth must have torn"
            );
            let copies = w.bodies()[0].count - 144;
            assert!(copies > 0, "the cloth must have split particles");
            assert_eq!(resumed.bodies()[0].count, w.bodies()[0].count);
            let mut rest = w.clone();
            for _ in 100..200 {
                rest.step();
                resumed.step();
            }
            assert!(bits(&rest) == bits(&resumed), "resumed world differs");
            assert_eq!(rest.constraints.len(), resumed.constraints.len());
            return;
        }
        w.step();
    }
}

#[test]
fn a_saved_inflated_balloon_resumes_bit_exactly_without_deflating_first() {
    // The gas's target follows the pressure from V₀ at 3 V₀ a second; a
    // saved balloon is resumed inflated, not inflated again from V₀ (its
    // target would first pull the saved skin in).
    let text = "Scene(solver: (substeps: 20),
        bodies: [Balloon(center: (0.0, 0.5, 0.0), sphere_radius: 0.3, subdivisions: 2,
                         mass: 0.1, stretch_compliance: 0.002, pressure: 1.5)],
        colliders: [Ground(friction: 0.6)])";
    let scene = scene::parse(text, Path::new("<test>")).unwrap();
    let mut w = scene.build();
    for _ in 0..60 {
        w.step();
    }
    let dir = TempDir::new("resume-balloon");
    let mut resumed = saved_and_resumed(&scene, &w, &dir);
    for _ in 0..60 {
        w.step();
        resumed.step();
    }
    assert_eq!(resumed.volumes()[0].inflation(), 1.5);
    assert!(bits(&w) == bits(&resumed), "resumed balloon differs");
}

#[test]
fn run_save_then_run_gives_the_same_csv_as_one_long_run() {
    let dir = TempDir::new("run-save");
    let scene = dir.join("tear.ron");
    std::fs::write(&scene, TEAR_AND_DRIVE).unwrap();
    let (long, mid, rest) = (
        dir.join("long.csv"),
        dir.join("mid.ron"),
        dir.join("rest.csv"),
    );
    let s = scene.to_str().unwrap();
    assert!(
        catenary(&["run", s, "--frames", "200", "--out", long.to_str().unwrap()])
            .status
            .success()
    );
    assert!(
        catenary(&["run", s, "--frames", "120", "--save", mid.to_str().unwrap()])
            .status
            .success()
    );
    let out = catenary(&[
        "run",
        mid.to_str().unwrap(),
        "--frames",
        "80",
        "--out",
        rest.to_str().unwrap(),
    ]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // The last frame's rows, without the frame number (200 vs 80).
    let rows = |p: &Path| -> Vec<String> {
        std::fs::read_to_string(p)
            .unwrap()
            .lines()
            .skip(1)
            .map(|l| l.split_once(',').unwrap().1.to_string())
            .collect()
    };
    assert_eq!(rows(&long), rows(&rest));
    assert!(
        std::fs::read_to_string(&mid)
            .unwrap()
            .contains("broken: [("),
        "the cloth must have torn"
    );
}

#[test]
fn sweep_splits_the_budget_and_substeps_beat_iterations_on_a_rigid_chain() {
    let dir = TempDir::new("sweep");
    let out = dir.join("sweep.csv");
    let scene =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/lesson_substeps_vs_iterations.ron");
    let run = catenary(&[
        "sweep",
        scene.to_str().unwrap(),
        "--budget",
        "40",
        "--frames",
        "180",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let text = std::fs::read_to_string(&out).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("method,substeps,iterations,max_strain,max_tension,energy,ms_per_frame")
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    // 40 = 1·40 = 2·20 = 4·10 = 5·8 = 8·5 = 10·4 = 20·2 = 40·1, in both methods.
    assert_eq!(rows.len(), 16);
    for method in ["xpbd", "pbd"] {
        let strain = |s: &str, i: &str| -> f32 {
            let r = rows
                .iter()
                .find(|r| r[0] == method && r[1] == s && r[2] == i)
                .unwrap();
            r[3].parse().unwrap()
        };
        let (substeps, iterations) = (strain("40", "1"), strain("1", "40"));
        println!("{method}: strain 40 × 1 {substeps:e}, 1 × 40 {iterations:e}");
        // Measured 0.061% vs 1.98% (32× less) in both methods: with α = 0
        // they are the same formula.
        assert!(
            substeps < 0.1 * iterations,
            "{method}: {substeps} vs {iterations}"
        );
    }
}

#[test]
fn run_prints_one_line_per_body_with_its_pieces() {
    let dir = TempDir::new("pieces");
    let scene = dir.join("pieces.ron");
    // A mesh of three particles with one link: two pieces. A cloth that
    // tears apart under its own weight: more than one piece at the end.
    std::fs::write(
        &scene,
        "Scene(bodies: [
            Mesh(particles: [(position: (0.0, 1.0, 0.0), pinned: true), (position: (0.5, 1.0, 0.0)),
                             (position: (3.0, 1.0, 0.0), pinned: true)], links: [(a: 0, b: 1)]),
            Cloth(origin: (-1.0, 2.0, 0.0), size: (1.0, 1.0), resolution: (10, 10), mass: 50.0,
                  stretch_compliance: 0.01, shear_compliance: 0.01, tear_strain: 0.05, pins: [(0, 0), (0, -1)]),
        ])",
    )
    .unwrap();
    let out = catenary(&["run", scene.to_str().unwrap(), "--frames", "120"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        text.contains("body 0 (Mesh): particles 3, pieces 2"),
        "{text}"
    );
    // 100 particles and the copies its tears made.
    let cloth = text
        .lines()
        .find(|l| l.starts_with("body 1 (Cloth): particles "))
        .expect("a cloth line");
    let number = |k: usize| -> usize {
        let word = cloth.split(' ').nth(k).unwrap();
        word.trim_end_matches(',').parse().unwrap()
    };
    let (particles, pieces) = (number(4), number(6));
    assert!(particles >= 100, "{cloth}");
    assert!(pieces > 1, "{cloth}");
}

#[test]
fn run_prints_the_volume_of_closed_bodies() {
    let dir = TempDir::new("volume");
    let scene = dir.join("closed.ron");
    // A level-1 balloon (42 particles) and a 2×2×2-cell box 0.2 m wide,
    // resting in place: the box encloses 0.008 m³.
    std::fs::write(
        &scene,
        "Scene(solver: (gravity: (0.0, 0.0, 0.0)), bodies: [
            Balloon(center: (0.0, 1.0, 0.0), sphere_radius: 0.5, subdivisions: 1),
            SoftBox(center: (2.0, 1.0, 0.0), size: (0.2, 0.2, 0.2), resolution: (2, 2, 2)),
        ])",
    )
    .unwrap();
    let out = catenary(&["run", scene.to_str().unwrap(), "--frames", "10"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8_lossy(&out.stdout);
    let balloon = text
        .lines()
        .find(|l| l.starts_with("body 0 (Balloon): particles 42, pieces 1, volume "))
        .unwrap_or_else(|| panic!("{text}"));
    let v: f64 = balloon.split(' ').nth_back(1).unwrap().parse().unwrap();
    // The level-1 icosphere inscribed in a 0.5 m sphere: 0.457339 m³ (the
    // ball's 0.5236 × 0.873), summed independently over its 80 triangles'
    // tetrahedra from the centre; the gas holds it at rest to 1e-4.
    assert!((v - 0.457339).abs() < 1e-4, "{balloon}");
    assert!(
        text.contains("body 1 (SoftBox): particles 27, pieces 1, volume 0.00800 m³"),
        "{text}"
    );
}

#[test]
fn check_reads_a_recording_beside_the_scenes_as_a_recording() {
    // Record writes NAME.rec.ron beside the scene, so `catenary check
    // scenes/*.ron` meets it: it is checked as a recording (its scene and
    // its events), not failed as a scene.
    let dir = TempDir::new("check-recording");
    let scene_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes/pendulum.ron");
    let s = scene::load(&scene_path).unwrap();
    let mut w = s.build();
    let mut rec = catenary::record::Recorder::new(s.clone(), &w);
    for frame in 0..20 {
        if frame == 5 {
            w.set_pinned(0, false);
        }
        rec.before_step(&w);
        w.step();
    }
    let good = dir.join("pendulum.rec.ron");
    std::fs::write(&good, catenary::record::to_text(rec.recording())).unwrap();
    let out = catenary(&[
        "check",
        good.to_str().unwrap(),
        scene_path.to_str().unwrap(),
    ]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        stdout.contains("a recording of") && stdout.contains("20 frames"),
        "{stdout}"
    );
    // A recording whose event names a particle the scene lacks fails,
    // with its place.
    let bad = dir.join("bad.rec.ron");
    let text = catenary::record::to_text(rec.recording()).replacen("Pin(0,", "Pin(999,", 1);
    std::fs::write(&bad, text).unwrap();
    let out = catenary(&["check", bad.to_str().unwrap()]);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains("bad.rec.ron") && stderr.contains("particle 999"),
        "{stderr}"
    );
}

#[test]
fn bench_times_a_users_scene_at_its_own_or_the_given_substeps() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("scenes");
    let pendulum = dir.join("pendulum.ron");
    let text = |o: &Output| String::from_utf8_lossy(&o.stdout).into_owned();
    let bench = |more: &[&str]| {
        let mut args = vec!["bench", "--scene", pendulum.to_str().unwrap()];
        args.extend_from_slice(more);
        catenary(&args)
    };
    let own = bench(&["--frames", "3"]);
    assert!(own.status.success(), "{own:?}");
    let out = text(&own);
    let first = out.lines().next().unwrap_or_default();
    assert!(
        first.contains("pendulum.ron") && first.contains("frames: 3"),
        "{out}"
    );
    let file = scene::load(&pendulum).unwrap();
    let substeps = format!("substeps: {} ", file.solver.substeps);
    assert!(first.contains(&substeps), "{first} lacks {substeps}");
    assert!(
        out.lines().last().unwrap().starts_with("projections/s: "),
        "{out}"
    );
    let seven = bench(&["--frames", "2", "--substeps", "7"]);
    assert!(text(&seven).contains("substeps: 7 "), "{}", text(&seven));
    // A scene that does not load is an error naming it; --size is the cloth's.
    let missing = catenary(&["bench", "--scene", "no_such_scene.ron"]);
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("no_such_scene.ron"));
    let both = bench(&["--size", "8"]);
    assert_eq!(both.status.code(), Some(2));
}

/// With more than one thread each frame runs on the team size measured
/// fastest lately, so a timing of `--threads 2` may hold frames of one:
/// the bench says how many of each it ran.
#[test]
fn bench_says_how_many_frames_ran_on_each_team_size() {
    let ran = |threads: &str| {
        let out = catenary(&[
            "bench",
            "--size",
            "8",
            "--frames",
            "40",
            "--threads",
            threads,
        ]);
        assert!(out.status.success(), "{out:?}");
        let out = String::from_utf8_lossy(&out.stdout).into_owned();
        let line = out
            .lines()
            .find_map(|l| l.strip_prefix("threads per frame: "))
            .unwrap_or_else(|| panic!("no team sizes in {out}"))
            .to_owned();
        // "2 on 35 frames, 1 on 5 frames": sizes falling, frames adding up.
        let counts: Vec<(usize, u32)> = line
            .split(", ")
            .map(|part| {
                let words: Vec<&str> = part.split(' ').collect();
                let [n, "on", k, "frames"] = words[..] else {
                    panic!("{part:?} is not `N on K frames` in {line}");
                };
                (n.parse().unwrap(), k.parse().unwrap())
            })
            .collect();
        assert!(counts.windows(2).all(|w| w[0].0 > w[1].0), "{line}");
        assert_eq!(counts.iter().map(|c| c.1).sum::<u32>(), 40, "{line}");
        counts
    };
    assert_eq!(ran("1"), [(1, 40)]);
    assert!(ran("2").iter().all(|&(n, _)| n == 1 || n == 2));
}
