//! `catenary run --export`: an OBJ sequence and a glTF binary that hold
//! what `--out` writes as CSV (same frames, same vertices, same
//! positions), that the Khronos validator accepts, and that are never
//! left half written.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use common::{TempDir, catenary_ok};

/// (frame, body) → positions, in particle order, from `run --out`.
type Frames = BTreeMap<(u64, usize), Vec<[f32; 3]>>;

fn scene(name: &str) -> std::path::PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("scenes")
        .join(name)
}

/// Runs `catenary run SCENE --frames 30 --every 10 --out CSV --export TARGET`
/// and returns the CSV's frames.
fn run_with_export(scene: &Path, dir: &Path, target: &Path) -> Frames {
    let csv = dir.join("positions.csv");
    let mut args: Vec<std::ffi::OsString> = ["run", "--frames", "30", "--every", "10", "--out"]
        .map(Into::into)
        .into();
    args.extend([
        csv.clone().into(),
        "--export".into(),
        target.into(),
        scene.into(),
    ]);
    catenary_ok(&args);
    let mut frames = Frames::new();
    for line in std::fs::read_to_string(&csv).unwrap().lines().skip(1) {
        let f: Vec<&str> = line.split(',').collect();
        let xyz = [f[3], f[4], f[5]].map(|v| v.parse::<f32>().unwrap());
        (frames
            .entry((f[0].parse().unwrap(), f[1].parse().unwrap()))
            .or_default())
        .push(xyz);
    }
    frames
}

/// The bodies of one frame of `frames`, in body order.
fn bodies_at(frames: &Frames, frame: u64) -> Vec<&Vec<[f32; 3]>> {
    frames
        .range((frame, 0)..(frame + 1, 0))
        .map(|(_, v)| v)
        .collect()
}

fn assert_close(a: &[[f32; 3]], b: &[[f32; 3]], what: &str) {
    assert_eq!(a.len(), b.len(), "{what}: vertex count");
    for (k, (p, q)) in a.iter().zip(b).enumerate() {
        let d = (0..3).map(|c| (p[c] - q[c]).abs()).fold(0f32, f32::max);
        assert!(d <= 1e-6, "{what}: vertex {k} at {p:?}, CSV {q:?}");
    }
}

#[test]
fn an_obj_sequence_holds_the_csv_frames_with_faces_normals_and_uvs() {
    // `tearing` splits particles as it tears: later frames have more.
    let dir = TempDir::new("export-obj");
    let frames = run_with_export(&scene("tearing.ron"), &dir, &dir.join("obj"));
    let written: Vec<u64> = frames
        .keys()
        .map(|k| k.0)
        .collect::<std::collections::BTreeSet<_>>()
        .into_iter()
        .collect();
    assert_eq!(written, [0, 10, 20, 30]);
    for (n, &frame) in written.iter().enumerate() {
        let text =
            std::fs::read_to_string(dir.join(format!("obj/frame_{:04}.obj", n + 1))).unwrap();
        let (mut objects, mut v, mut vt, mut vn) = (Vec::new(), 0, 0, 0);
        for line in text.lines() {
            let mut w = line.split_whitespace();
            match w.next() {
                Some("o") => objects.push(Vec::new()),
                Some("v") => {
                    let p: Vec<f32> = w.map(|x| x.parse().unwrap()).collect();
                    objects.last_mut().unwrap().push([p[0], p[1], p[2]]);
                    v += 1;
                }
                Some("vt") => vt += 1,
                Some("vn") => {
                    let n: Vec<f32> = w.map(|x| x.parse().unwrap()).collect();
                    let len = (n[0] * n[0] + n[1] * n[1] + n[2] * n[2]).sqrt();
                    assert!((len - 1.0).abs() < 1e-5, "normal {n:?}");
                    vn += 1;
                }
                Some("f") => {
                    for corner in w {
                        let i: usize = corner.split('/').next().unwrap().parse().unwrap();
                        assert!((1..=v).contains(&i), "face corner {i} of {v} vertices");
                    }
                }
                _ => {}
            }
        }
        assert_eq!((vt, vn), (v, v), "a UV and a normal per vertex");
        let csv = bodies_at(&frames, frame);
        assert_eq!(objects.len(), csv.len(), "an object per body");
        for (b, (obj, csv)) in objects.iter().zip(csv).enumerate() {
            assert_close(obj, csv, &format!("frame {frame}, body {b}"));
        }
        println!("frame {frame}: {v} vertices in {} objects", objects.len());
    }
    assert!(!dir.join("obj/frame_0005.obj").exists());
}

/// The JSON and the binary chunk of a `.glb`.
fn read_glb(path: &Path) -> (gltf_json::Root, Vec<u8>) {
    let bytes = std::fs::read(path).unwrap();
    assert_eq!(&bytes[0..4], b"glTF");
    let word = |at: usize| u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    assert_eq!(
        (word(4), word(8)),
        (2, bytes.len()),
        "version 2, whole length"
    );
    let json_len = word(12);
    assert_eq!(&bytes[16..20], b"JSON");
    let root = gltf_json::Root::from_slice(&bytes[20..20 + json_len]).unwrap();
    let bin_at = 20 + json_len;
    assert_eq!(&bytes[bin_at + 4..bin_at + 8], b"BIN\0");
    (root, bytes[bin_at + 8..bin_at + 8 + word(bin_at)].to_vec())
}

/// The vec3s an accessor of `root` reads from `bin`.
fn vec3s(
    root: &gltf_json::Root,
    bin: &[u8],
    accessor: gltf_json::Index<gltf_json::Accessor>,
) -> Vec<[f32; 3]> {
    let a = &root.accessors[accessor.value()];
    let view = &root.buffer_views[a.buffer_view.unwrap().value()];
    let at = view.byte_offset.map_or(0, |o| o.0 as usize);
    let f = |k: usize| f32::from_le_bytes(bin[at + 4 * k..at + 4 * k + 4].try_into().unwrap());
    (0..a.count.0 as usize)
        .map(|i| [f(3 * i), f(3 * i + 1), f(3 * i + 2)])
        .collect()
}

#[test]
fn a_glb_export_holds_the_csv_frames_and_passes_the_khronos_validator() {
    // The default scene: a rope (lines) and a sheet (triangles).
    let dir = TempDir::new("export-glb");
    let glb = dir.join("default.glb");
    let frames = run_with_export(&scene("default.ron"), &dir, &glb);
    let (root, bin) = read_glb(&glb);
    assert_eq!(root.nodes.len(), 4, "a node per frame written");
    assert_eq!(root.animations.len(), 1);
    for (n, frame) in [0, 10, 20, 30].into_iter().enumerate() {
        let node = &root.nodes[n];
        assert_eq!(
            node.name.as_deref(),
            Some(format!("frame_{:04}", n + 1).as_str())
        );
        let mesh = &root.meshes[node.mesh.unwrap().value()];
        let csv = bodies_at(&frames, frame);
        assert_eq!(mesh.primitives.len(), csv.len(), "a primitive per body");
        for (b, (primitive, csv)) in mesh.primitives.iter().zip(csv).enumerate() {
            let position = primitive.attributes
                [&gltf_json::validation::Checked::Valid(gltf_json::mesh::Semantic::Positions)];
            assert_close(
                &vec3s(&root, &bin, position),
                csv,
                &format!("frame {frame}, body {b}"),
            );
        }
    }
    validate(&glb);
}

/// Runs the Khronos validator on `glb` when it is installed (`.ci/run`
/// puts it in target/npm): no errors, no warnings.
fn validate(glb: &Path) {
    let modules = Path::new(env!("CARGO_MANIFEST_DIR")).join("target/npm/node_modules");
    if !modules.join("gltf-validator").exists() {
        println!(
            "SKIPPED the validator: no {}",
            modules.join("gltf-validator").display()
        );
        return;
    }
    let out = Command::new("node")
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("tools/gltf-validate.js"))
        .arg(glb)
        .env("NODE_PATH", &modules)
        .output()
        .expect("node runs");
    let report = String::from_utf8_lossy(&out.stdout);
    println!("{report}");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(report.starts_with("errors 0 warnings 0 "), "{report}");
}

#[test]
fn a_rigid_box_is_exported_as_its_faces_at_the_pose_the_csv_gives() {
    // The tumbling boxes: each frame's primitive of a box has its 24
    // corners of faces, each at ± its half extents along the box's axes
    // as the CSV's four rows (centre, then one metre along each axis) say.
    let dir = TempDir::new("export-rigid");
    let glb = dir.join("tumbling.glb");
    let frames = run_with_export(&scene("tumbling_box.ron"), &dir, &glb);
    let (root, bin) = read_glb(&glb);
    let half = [0.3f32, 0.1, 0.05];
    for (n, frame) in [0, 10, 20, 30].into_iter().enumerate() {
        let mesh = &root.meshes[root.nodes[n].mesh.unwrap().value()];
        let csv = bodies_at(&frames, frame);
        assert_eq!(mesh.primitives.len(), 2, "a primitive per box");
        for (primitive, pose) in mesh.primitives.iter().zip(csv) {
            let position = primitive.attributes
                [&gltf_json::validation::Checked::Valid(gltf_json::mesh::Semantic::Positions)];
            let corners = vec3s(&root, &bin, position);
            assert_eq!(corners.len(), 24);
            let c = glam::Vec3::from(pose[0]);
            for p in corners {
                for (axis, e) in half.iter().enumerate() {
                    let along = (glam::Vec3::from(p) - c).dot(glam::Vec3::from(pose[axis + 1]) - c);
                    assert!(
                        (along.abs() - e).abs() < 1e-4,
                        "frame {frame}: a corner {along} m along axis {axis}, not ±{e}"
                    );
                }
            }
        }
    }
    validate(&glb);
}

#[test]
fn an_export_that_cannot_be_written_names_its_path_and_leaves_nothing() {
    let dir = TempDir::new("export-fail");
    let file = dir.join("a-file");
    std::fs::write(&file, "not a folder").unwrap();
    for target in [file.join("out.glb"), file.join("frames")] {
        let out = Command::new(env!("CARGO_BIN_EXE_catenary"))
            .args(["run", "--frames", "2", "--export"])
            .arg(&target)
            .arg(scene("pendulum.ron"))
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{stderr}");
        assert!(stderr.contains(&target.display().to_string()), "{stderr}");
    }
    let left: Vec<_> = std::fs::read_dir(&*dir)
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert_eq!(left, ["a-file"], "nothing else was written");
}
