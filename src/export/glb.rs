//! The frames as one glTF 2.0 binary: a node per frame holding that
//! frame's mesh (a primitive per piece: triangles with normals and UVs,
//! or lines), shown only at its own time by a step animation of the
//! nodes' scale. Bodies that tear change their triangles from frame to
//! frame, which morph targets cannot; a node per frame can.

use anyhow::Result;
use gltf_json as json;
use json::validation::Checked::Valid;
use json::validation::USize64;

use super::Piece;

/// The `.glb` bytes of `frames`, (simulated time in s, pieces) each.
pub(super) fn write(frames: &[(f32, Vec<Piece>)]) -> Result<Vec<u8>> {
    let mut g = Builder::default();
    let mut nodes = Vec::new();
    for (k, (_, pieces)) in frames.iter().enumerate() {
        let primitives: Vec<json::mesh::Primitive> = pieces
            .iter()
            .filter_map(|piece| g.primitive(piece))
            .collect();
        let mesh = (!primitives.is_empty()).then(|| {
            g.root.push(json::Mesh {
                extensions: None,
                extras: Default::default(),
                name: None,
                primitives,
                weights: None,
            })
        });
        nodes.push(g.root.push(json::Node {
            mesh,
            name: Some(format!("frame_{:04}", k + 1)),
            scale: Some(if k == 0 { [1.0; 3] } else { [0.0; 3] }),
            ..Default::default()
        }));
    }
    let scene = g.root.push(json::Scene {
        extensions: None,
        extras: Default::default(),
        name: None,
        nodes: nodes.clone(),
    });
    g.root.scene = Some(scene);
    if frames.len() > 1 {
        g.animate(frames, &nodes);
    }
    g.root.asset.generator = Some(format!("catenary {}", env!("CARGO_PKG_VERSION")));
    g.root.buffers.push(json::Buffer {
        byte_length: USize64::from(g.bin.len()),
        name: None,
        uri: None,
        extensions: None,
        extras: Default::default(),
    });
    let mut text = g.root.to_vec()?;
    Ok(container(&mut text, &mut g.bin))
}

/// The JSON root and the binary chunk it describes, built together.
#[derive(Default)]
struct Builder {
    root: json::Root,
    bin: Vec<u8>,
}

impl Builder {
    /// A buffer view of `bytes`, 4-byte aligned in the binary chunk.
    fn view(
        &mut self,
        bytes: &[u8],
        target: Option<json::buffer::Target>,
    ) -> json::Index<json::buffer::View> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytes);
        self.root.push(json::buffer::View {
            buffer: json::Index::new(0),
            byte_length: USize64::from(bytes.len()),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: None,
            name: None,
            target: target.map(Valid),
            extensions: None,
            extras: Default::default(),
        })
    }

    /// An accessor of `count` `type_` elements of f32 (or u32 indices)
    /// over `bytes`, for vertices, indices or (`target` None) animation,
    /// with their bounds when given.
    fn accessor(
        &mut self,
        bytes: &[u8],
        count: usize,
        (component, type_): (json::accessor::ComponentType, json::accessor::Type),
        target: Option<json::buffer::Target>,
        bounds: Option<(Vec<f32>, Vec<f32>)>,
    ) -> json::Index<json::Accessor> {
        let view = self.view(bytes, target);
        let (min, max) = bounds.map_or((None, None), |(lo, hi)| (Some(lo.into()), Some(hi.into())));
        self.root.push(json::Accessor {
            buffer_view: Some(view),
            byte_offset: None,
            count: USize64::from(count),
            component_type: Valid(json::accessor::GenericComponentType(component)),
            extensions: None,
            extras: Default::default(),
            type_: Valid(type_),
            min,
            max,
            name: None,
            normalized: false,
            sparse: None,
        })
    }

    /// A piece's primitive: its triangles, else its lines; None if it has neither.
    fn primitive(&mut self, piece: &Piece) -> Option<json::mesh::Primitive> {
        use json::accessor::{ComponentType::*, Type::*};
        use json::buffer::Target::{ArrayBuffer, ElementArrayBuffer};
        use json::mesh::{Mode, Semantic};
        let (mode, indices): (Mode, Vec<u32>) = if !piece.triangles.is_empty() {
            (Mode::Triangles, piece.triangles.concat())
        } else if !piece.lines.is_empty() {
            (Mode::Lines, piece.lines.concat())
        } else {
            return None;
        };
        let n = piece.positions.len();
        let (mut lo, mut hi) = (vec![f32::INFINITY; 3], vec![f32::NEG_INFINITY; 3]);
        for p in &piece.positions {
            for c in 0..3 {
                lo[c] = lo[c].min(p[c]);
                hi[c] = hi[c].max(p[c]);
            }
        }
        let mut attributes = std::collections::BTreeMap::new();
        let positions = self.accessor(
            &floats(&piece.positions),
            n,
            (F32, Vec3),
            Some(ArrayBuffer),
            Some((lo, hi)),
        );
        attributes.insert(Valid(Semantic::Positions), positions);
        if mode == Mode::Triangles {
            let normals = self.accessor(
                &floats(&piece.normals),
                n,
                (F32, Vec3),
                Some(ArrayBuffer),
                None,
            );
            attributes.insert(Valid(Semantic::Normals), normals);
            let uvs = self.accessor(&floats(&piece.uvs), n, (F32, Vec2), Some(ArrayBuffer), None);
            attributes.insert(Valid(Semantic::TexCoords(0)), uvs);
        }
        let bytes: Vec<u8> = indices.iter().flat_map(|i| i.to_le_bytes()).collect();
        let indices = self.accessor(
            &bytes,
            indices.len(),
            (U32, Scalar),
            Some(ElementArrayBuffer),
            None,
        );
        Some(json::mesh::Primitive {
            attributes,
            extensions: None,
            extras: Default::default(),
            indices: Some(indices),
            material: None,
            mode: Valid(mode),
            targets: None,
        })
    }

    /// One animation: node k has scale 1 from frame k's time to the next
    /// frame's, 0 otherwise (step interpolation).
    fn animate(&mut self, frames: &[(f32, Vec<Piece>)], nodes: &[json::Index<json::Node>]) {
        use json::accessor::{ComponentType::F32, Type::*};
        use json::animation::{Channel, Interpolation, Property, Sampler, Target};
        let times: Vec<f32> = frames.iter().map(|(t, _)| *t).collect();
        let (first, last) = (times[0], times[times.len() - 1]);
        let times: Vec<[f32; 1]> = times.iter().map(|&t| [t]).collect();
        let input = self.accessor(
            &floats(&times),
            times.len(),
            (F32, Scalar),
            None,
            Some((vec![first], vec![last])),
        );
        let (mut samplers, mut channels) = (Vec::new(), Vec::new());
        for (k, &node) in nodes.iter().enumerate() {
            let scales: Vec<[f32; 3]> = (0..times.len())
                .map(|j| if j == k { [1.0; 3] } else { [0.0; 3] })
                .collect();
            let output = self.accessor(&floats(&scales), scales.len(), (F32, Vec3), None, None);
            channels.push(Channel {
                sampler: json::Index::new(samplers.len() as u32),
                target: Target {
                    extensions: None,
                    extras: Default::default(),
                    node,
                    path: Valid(Property::Scale),
                },
                extensions: None,
                extras: Default::default(),
            });
            samplers.push(Sampler {
                extensions: None,
                extras: Default::default(),
                input,
                interpolation: Valid(Interpolation::Step),
                output,
            });
        }
        self.root.push(json::Animation {
            extensions: None,
            extras: Default::default(),
            channels,
            name: Some("frames".into()),
            samplers,
        });
    }
}

/// Little-endian bytes of the f32s of `values` (arrays of them).
fn floats<T: AsRef<[f32]>>(values: &[T]) -> Vec<u8> {
    (values.iter())
        .flat_map(|v| v.as_ref().iter().flat_map(|x| x.to_le_bytes()))
        .collect()
}

/// The GLB container: header, JSON chunk (padded with spaces), binary
/// chunk (padded with zeros).
fn container(text: &mut Vec<u8>, bin: &mut Vec<u8>) -> Vec<u8> {
    while !text.len().is_multiple_of(4) {
        text.push(b' ');
    }
    while !bin.len().is_multiple_of(4) {
        bin.push(0);
    }
    let total = 12 + 8 + text.len() + 8 + bin.len();
    let mut out = Vec::with_capacity(total);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(text.len() as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(text);
    out.extend_from_slice(&(bin.len() as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    out.extend_from_slice(bin);
    out
}
