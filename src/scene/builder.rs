//! Scenes made from Rust instead of RON text: [`Scene::new`] and each
//! body's `new` or `Default` ([`RopeDef::new`](super::RopeDef::new),
//! [`ClothDef::new`](super::ClothDef::new), …), every field left at the
//! default a file would get (the same functions serde uses), then set
//! what differs and [`Scene::validate`] and [`Scene::build`] as for a file.
//!
//! ```
//! use catenary::scene::{BodyDef, RopeDef, Scene};
//!
//! let mut scene = Scene::new("a rope");
//! let mut rope = RopeDef::new([0.0, 2.0, 0.0], [1.0, 2.0, 0.0], 10);
//! rope.pins = vec![0, -1];
//! scene.bodies.push(BodyDef::Rope(rope));
//! scene.validate(std::path::Path::new("<rust>")).unwrap();
//! assert_eq!(scene.build().particles.len(), 11);
//! ```

use std::path::Path;

use super::schema::{CameraDef, Scene, SolverDef};
use super::{SceneErrors, parse};

impl Scene {
    /// A scene named `name` with no bodies and every field at its
    /// default.
    pub fn new(name: &str) -> Self {
        Self {
            name: name.to_owned(),
            caption: None,
            compare_caption: None,
            solver: SolverDef::default(),
            bodies: Vec::new(),
            colliders: Vec::new(),
            joins: Vec::new(),
            joints: Vec::new(),
            attachments: Vec::new(),
            drivers: Vec::new(),
            camera: CameraDef::default(),
            state: None,
        }
    }
}

/// The cloth `catenary bench` and the benchmarks time: an N×N vertical
/// sheet, 2 cm spacing, top corners pinned, rigid structural links, soft
/// shear and bending, at `substeps` substeps of one pass.
pub fn bench_cloth(size: u32, substeps: u32) -> Result<Scene, SceneErrors> {
    let edge = 0.02 * (size.max(2) - 1) as f32;
    let text = format!(
        "Scene(name: \"bench {size}×{size}\", solver: (substeps: {substeps}, iterations: 1),
           bodies: [Cloth(origin: (0.0, {edge}, 0.0), size: ({edge}, {edge}), resolution: ({size}, {size}),
                          stretch_compliance: 0.0, shear_compliance: 0.0001, bend_compliance: 0.01,
                          pins: [(0, 0), (0, -1)])])"
    );
    parse(&text, Path::new("<bench>"))
}
