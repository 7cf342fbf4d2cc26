//! Drawing the world: one mesh per body per frame (cloth as shaded
//! two-sided triangles, ropes and meshes as camera-facing ribbons with
//! particle dots), colliders, and colour modes with a value per particle.

pub mod antialias;
pub mod camera;
mod light;
mod mesh;
pub mod scenery;
mod shadow;
mod shadow_map;
mod solids;
mod surface;
mod tube;

use macroquad::models::Mesh;
use macroquad::prelude::*;

use crate::solver::{LinkKind, Shape, World};
use camera::OrbitCamera;
use light::shade;
use mesh::{CHUNK, fit, flush, rgba, vertex};
use scenery::{draw_cantilever, draw_catenary, draw_colliders, draw_hanging, weave};

/// What the colour of a particle shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColourMode {
    /// Material colours.
    Plain,
    /// Largest strain (|x_a − x_b| − L)/L of the constraints at the particle.
    Strain,
    /// Largest tension |λ|/h² (N) of the constraints at the particle.
    Tension,
}

/// Display toggles.
#[derive(Clone, Debug, PartialEq)]
pub struct Display {
    /// Colour mode.
    pub colour: ColourMode,
    /// Cloth edges drawn over the triangles.
    pub wireframe: bool,
    /// Dots on every rope and mesh particle.
    pub particles: bool,
    /// Spheres, boxes and ground drawn.
    pub colliders: bool,
    /// Bodies and colliders cast shadows on the ground.
    pub shadows: bool,
    /// The analytic catenary drawn over ropes pinned at both ends.
    pub analytic: bool,
    /// Angular momentum and angular velocity arrows on rigid bodies in
    /// free flight.
    pub spin: bool,
    /// FXAA over the 3D view.
    pub antialias: bool,
    /// Ropes drawn as chains of interlocking links instead of tubes.
    pub chain_links: bool,
    /// The scene's caption shown over the view.
    pub caption: bool,
    /// The plots' grid lines and the energy plot's filled layers (lines
    /// and axes only otherwise).
    pub plot_detail: bool,
    /// Upper end of the strain colour scale (fraction); None = the largest
    /// strain of the frame (auto).
    pub strain_scale: Option<f32>,
    /// Upper end of the tension colour scale (N); None = auto.
    pub tension_scale: Option<f32>,
}

impl Default for Display {
    fn default() -> Self {
        Self {
            colour: ColourMode::Plain,
            wireframe: false,
            particles: true,
            colliders: true,
            shadows: true,
            analytic: true,
            spin: true,
            antialias: true,
            chain_links: false,
            caption: true,
            plot_detail: true,
            // A fixed 2%: switching method or substeps changes the colours,
            // not the legend (a grabbed particle's spike no longer turns
            // everything else blue).
            strain_scale: Some(0.02),
            tension_scale: None,
        }
    }
}

const ROPE: [f32; 3] = [0.85, 0.62, 0.35];
const CLOTH_FRONT: [f32; 3] = [0.30, 0.55, 0.85];
const CLOTH_BACK: [f32; 3] = [0.85, 0.45, 0.35];
const PINNED: Color = Color::new(0.9, 0.15, 0.15, 1.0);
const DRIVEN: Color = Color::new(1.0, 0.6, 0.0, 1.0);
const HOVER: Color = Color::new(1.0, 1.0, 0.2, 1.0);
const HELD: Color = Color::new(1.0, 1.0, 1.0, 1.0);
/// Reused buffers, so drawing allocates nothing after the first frames.
#[derive(Default)]
pub struct Renderer {
    mesh: Option<Mesh>,
    /// Per-particle value of the colour mode.
    value: Vec<f32>,
    normals: Vec<Vec3>,
    /// Per particle: its rope ring's tangent and first axis (see
    /// `tube::rope_frames`); zeros off ropes.
    frames: Vec<[Vec3; 2]>,
    /// The largest value of the last frame (strain or N), what `auto` uses.
    pub auto_max: f32,
    /// Upper end of the colour scale (strain or N), for the legend.
    pub scale_max: f32,
    /// The cloth's weave, made on first use (it needs the GL context).
    weave: Option<Texture2D>,
    /// The key light's depth map of the world being drawn: shadows on
    /// bodies and colliders.
    shadow_map: shadow_map::ShadowMap,
    /// Where the 3D view is drawn this frame: the anti-aliasing's render
    /// target, or None for the screen.
    pub target: Option<RenderTarget>,
}

/// Blue → cyan → green → yellow → red for t ∈ [0, 1].
pub fn colormap(t: f32) -> [f32; 3] {
    let t = t.clamp(0.0, 1.0) * 4.0;
    let stops = [
        [0.15, 0.25, 0.9],
        [0.0, 0.8, 0.9],
        [0.1, 0.85, 0.2],
        [0.95, 0.9, 0.1],
        [0.95, 0.15, 0.1],
    ];
    let i = (t.floor() as usize).min(3);
    let f = t - i as f32;
    let (a, b) = (stops[i], stops[i + 1]);
    [0, 1, 2].map(|k| a[k] + (b[k] - a[k]) * f)
}

/// Highlights: the particle under the cursor and the one held.
#[derive(Clone, Copy, Debug, Default)]
pub struct Highlight {
    /// Particle under the cursor.
    pub hovered: Option<usize>,
    /// Particle held by the mouse.
    pub held: Option<usize>,
}

/// `Renderer::links` of the joins between bodies rather than of one body.
const JOINS: usize = usize::MAX;

impl Renderer {
    /// Draws everything in 3D with `camera`.
    pub fn draw(&mut self, world: &World, camera: &OrbitCamera, display: &Display, hl: Highlight) {
        set_camera(&camera.camera3d_into(self.target.clone()));
        if display.shadows {
            self.shadow_map.build(world);
            if let Some(h) = shadow::ground(world) {
                shadow::draw(world, h);
            }
        } else {
            self.shadow_map.clear();
        }
        if display.colliders {
            let mut mesh = self.take_mesh();
            draw_colliders(&world.colliders, camera.target, &self.shadow_map, &mut mesh);
            self.mesh = Some(mesh);
        }
        if !world.rigids().is_empty() {
            let mut mesh = self.take_mesh();
            solids::draw_rigids(&world.rigids().bodies, &self.shadow_map, &mut mesh);
            self.mesh = Some(mesh);
            solids::draw_joints(world);
            if display.spin {
                solids::draw_spin(world);
            }
        }
        self.compute_values(world, display);
        let eye = camera.eye();
        let forward = camera.forward();
        let right = forward.cross(Vec3::Y).normalize_or(Vec3::X);
        let up = right.cross(forward);
        let ropes = (world.bodies().iter())
            .filter(|b| b.shape == Shape::Rope)
            .map(|b| b.range());
        tube::rope_frames(world.particles.pos(), ropes, &mut self.frames);
        for (b, body) in world.bodies().iter().enumerate() {
            match body.shape {
                Shape::Cloth { .. } if body.faces.is_some() => {
                    self.torn_cloth(world, b, eye, display);
                    if display.wireframe {
                        self.links(world, b, eye, 0.3, None);
                    }
                }
                Shape::Cloth { columns, rows } => {
                    self.cloth(world, b, columns, rows, eye, display);
                    if display.wireframe {
                        self.links(world, b, eye, 0.3, None);
                    }
                }
                Shape::Rope if display.chain_links => self.chain(world, b, eye, display.colour),
                Shape::Rope | Shape::Mesh => self.links(world, b, eye, 1.0, Some(display.colour)),
                Shape::Rigid => {}
                Shape::Closed { ref triangles } => {
                    self.closed(world, b, triangles, eye, display);
                    if display.wireframe {
                        self.links(world, b, eye, 0.3, None);
                    }
                }
            }
            if display.analytic && body.shape == Shape::Rope {
                draw_catenary(world, b, body, eye);
                draw_cantilever(world, b, body, eye);
                draw_hanging(world, b, body, eye);
            }
            // Dots: every rope/mesh particle when asked; pinned, driven and highlighted always.
            // (A rod is not dotted: its tube and stripe show its frames.)
            let rod = !world.rods().segments_of(b).is_empty();
            let all = display.particles
                && (body.shape == Shape::Mesh
                    || (body.shape == Shape::Rope && !display.chain_links && !rod));
            self.dots(world, body.range(), all, (right, up), hl, display.colour);
        }
        self.links(world, JOINS, eye, 0.6, Some(display.colour));
        self.tip_masses(world);
        draw_stripes(world);
        // The hand's pull: a thin line from a lagging particle to the cursor.
        if let (Some(held), Some(target)) = (world.hand_point(), world.hand_target()) {
            draw_line_3d(held, target, Color::new(1.0, 1.0, 1.0, 0.6));
        }
        set_default_camera();
    }

    /// A rope's tip mass as a bob on its last particle, sized by its mass
    /// (a ball of stone, 2,500 kg/m³: 3 kg is 6.6 cm in radius), never
    /// thinner than the rope.
    fn tip_masses(&mut self, world: &World) {
        const STONE: [f32; 3] = [0.5, 0.52, 0.56];
        let mass = world.particles.mass();
        for body in (world.bodies().iter()).filter(|b| b.shape == Shape::Rope && b.count > 1) {
            let last = body.first + body.count - 1;
            let tip = mass[last] - mass[body.first];
            if tip <= 1e-6 {
                continue;
            }
            let size = (3.0 * tip / (4.0 * std::f32::consts::PI * 2500.0)).cbrt();
            let radius = size.max(1.5 * world.particles.radius()[last]);
            let mut mesh = self.take_mesh();
            let at = world.particles.pos()[last];
            solids::draw_ball(at, radius, STONE, &self.shadow_map, &mut mesh);
            self.mesh = Some(mesh);
        }
    }

    /// How much of the key light reaches the top of a tube of `radius`
    /// around `centre` (its side facing the light).
    fn top_light(&self, centre: Vec3, radius: f32) -> f32 {
        let light = light::LIGHT.normalize();
        self.shadow_map.light_at(centre + light * radius, light)
    }

    /// The cloth's weave texture (made on first use).
    fn weave_texture(&mut self) -> Texture2D {
        self.weave.get_or_insert_with(weave).clone()
    }

    fn take_mesh(&mut self) -> Mesh {
        self.mesh.take().unwrap_or(Mesh {
            vertices: Vec::new(),
            indices: Vec::new(),
            texture: None,
        })
    }

    fn compute_values(&mut self, world: &World, display: &Display) {
        let mode = display.colour;
        let n = world.particles.len();
        self.value.clear();
        self.value.resize(n, 0.0);
        if mode == ColourMode::Plain {
            return;
        }
        let pos = world.particles.pos();
        let mut max = 0f32;
        for l in world.constraints.iter() {
            let v = match mode {
                ColourMode::Plain => 0.0,
                ColourMode::Strain => l.strain(pos),
                ColourMode::Tension => world.tension(l.lambda),
            };
            self.value[l.a] = self.value[l.a].max(v);
            self.value[l.b] = self.value[l.b].max(v);
            max = max.max(v);
        }
        let fixed = match mode {
            ColourMode::Plain => None,
            ColourMode::Strain => display.strain_scale,
            ColourMode::Tension => display.tension_scale,
        };
        self.auto_max = max;
        self.scale_max = fixed.unwrap_or(max).max(1e-6);
    }

    fn base_colour(&self, i: usize, plain: [f32; 3], mode: ColourMode) -> [f32; 3] {
        match mode {
            ColourMode::Plain => plain,
            _ => colormap(self.value[i] / self.scale_max),
        }
    }

    fn cloth(
        &mut self,
        world: &World,
        b: usize,
        cols: usize,
        rows: usize,
        eye: Vec3,
        display: &Display,
    ) {
        let first = world.bodies()[b].first;
        let pos = &world.particles.pos()[first..first + cols * rows];
        self.normals.clear();
        for r in 0..rows {
            for c in 0..cols {
                let at = |r: usize, c: usize| pos[r * cols + c];
                let dx = at(r, (c + 1).min(cols - 1)) - at(r, c.saturating_sub(1));
                let dy = at((r + 1).min(rows - 1), c) - at(r.saturating_sub(1), c);
                // Front = +z for a vertical cloth, +y for a horizontal one.
                self.normals.push(dy.cross(dx).normalize_or_zero());
            }
        }
        let weave = self.weave_texture();
        let mut mesh = self.take_mesh();
        mesh.texture = Some(weave);
        // Tiles of rows × columns go into the mesh one at a time so a big
        // cloth — even one with a row longer than the u16 indices reach —
        // splits into draw calls of at most CHUNK vertices.
        let tile_cols = cols.min(CHUNK / 2);
        let mut col_start = 0;
        while col_start + 1 < cols {
            let width = tile_cols.min(cols - col_start);
            let mut band_start = 0;
            while band_start + 1 < rows {
                let band_rows = (CHUNK / width).max(2).min(rows - band_start);
                let base = mesh.vertices.len();
                for r in band_start..band_start + band_rows {
                    for c in col_start..col_start + width {
                        let i = r * cols + c;
                        let n = self.normals[i];
                        let front = n.dot(eye - pos[i]) >= 0.0;
                        let (n, tint) = if front {
                            (n, CLOTH_FRONT)
                        } else {
                            (-n, CLOTH_BACK)
                        };
                        let shade = shade(n, self.shadow_map.light_at(pos[i], n));
                        let colour = self.base_colour(first + i, tint, display.colour);
                        let mut v = vertex(pos[i], rgba(colour, shade));
                        v.uv = vec2(c as f32 / (cols - 1) as f32, r as f32 / (rows - 1) as f32);
                        mesh.vertices.push(v);
                    }
                }
                // A cloth drawn by its grid never tears (a tearable one
                // has faces, see `torn_cloth`): every cell is whole.
                for r in 0..band_rows - 1 {
                    for dc in 0..width - 1 {
                        let v = |dr: usize, dc2: usize| (base + (r + dr) * width + dc + dc2) as u16;
                        mesh.indices.extend([v(0, 0), v(0, 1), v(1, 1)]);
                        mesh.indices.extend([v(0, 0), v(1, 1), v(1, 0)]);
                    }
                }
                flush(&mut mesh);
                band_start += band_rows - 1;
            }
            col_start += width - 1;
        }
        mesh.texture = None;
        self.mesh = Some(mesh);
    }

    /// Rope `b` as a chain: one link per remaining stretch link, each
    /// turned 90° about the rope from the one before (the rope's ring
    /// frames give the turn, so the links follow the rope without twist).
    fn chain(&mut self, world: &World, b: usize, eye: Vec3, mode: ColourMode) {
        let pos = world.particles.pos();
        let mut mesh = self.take_mesh();
        for l in world.constraints.iter() {
            if l.tag.body as usize != b || l.tag.kind != LinkKind::Stretch {
                continue;
            }
            fit(&mut mesh, tube::LINK_VERTICES);
            let first = l.a.min(l.b);
            let [t, u] = self.frames[first];
            let turned = if (first - world.bodies()[b].first) % 2 == 1 {
                t.cross(u)
            } else {
                u
            };
            let axis = (pos[l.b] - pos[l.a]).normalize_or_zero();
            // Across the link, in the ring's plane as near as the bend allows.
            let across = (turned - axis * axis.dot(turned))
                .try_normalize()
                .unwrap_or_else(|| axis.any_orthonormal_vector());
            let colour = self.base_colour(first, ROPE, mode);
            let lit = self.top_light(
                (pos[l.a] + pos[l.b]) * 0.5,
                0.3 * pos[l.a].distance(pos[l.b]),
            );
            tube::add_link(&mut mesh, pos[l.a], pos[l.b], across, (colour, lit), eye);
        }
        flush(&mut mesh);
        self.mesh = Some(mesh);
    }

    /// Body `b`'s links, or with `b` = [`JOINS`] the joins between bodies:
    /// lit tubes `width` × the particle radius thick, or with `colour`
    /// None thin dark ribbons (the cloth wireframe).
    fn links(
        &mut self,
        world: &World,
        b: usize,
        eye: Vec3,
        width: f32,
        colour: Option<ColourMode>,
    ) {
        let pos = world.particles.pos();
        let radius = world.particles.radius();
        let mut mesh = self.take_mesh();
        // The links drawn: the body's stretch links (the joins' for
        // JOINS) and, a Cosserat rod having none, its segments.
        let links = (world.constraints.iter())
            .filter(|l| match b {
                JOINS => l.tag.kind == LinkKind::Join,
                b => l.tag.body as usize == b && l.tag.kind == LinkKind::Stretch,
            })
            .map(|l| (l.a, l.b));
        let rod = match b {
            JOINS => 0..0,
            b => world.rods().segments_of(b),
        };
        let first = world.bodies().get(b).map_or(0, |body| body.first);
        let segments = (0..rod.len()).map(|k| (first + k, first + k + 1));
        for (a, b_end) in links.chain(segments) {
            let l = Ends { a, b: b_end };
            let (pa, pb) = (pos[l.a], pos[l.b]);
            if let Some(mode) = colour {
                // Ropes, meshes and joins: lit tubes.
                fit(&mut mesh, 2 * tube::SIDES);
                let (ca, cb) = (
                    self.base_colour(l.a, ROPE, mode),
                    self.base_colour(l.b, ROPE, mode),
                );
                // A rope's neighbours share their rings; anything else is
                // a tube of its own, its rings across its own axis.
                let axis = (pb - pa).normalize_or_zero();
                let own = [axis, axis.any_orthonormal_vector()];
                let shared = b != JOINS && l.a.abs_diff(l.b) == 1;
                let frame = |i: usize| match self.frames.get(i) {
                    Some(&f) if shared && f[0] != Vec3::ZERO => f,
                    _ => own,
                };
                let end = |i: usize, centre: Vec3, colour: [f32; 3]| tube::End {
                    centre,
                    radius: radius[i] * width,
                    colour,
                    tangent: frame(i)[0],
                    u: frame(i)[1],
                    lit: self.top_light(centre, radius[i] * width),
                };
                tube::add(&mut mesh, [end(l.a, pa, ca), end(l.b, pb, cb)], eye);
                continue;
            }
            // The cloth wireframe: flat dark ribbons facing the eye.
            fit(&mut mesh, 4);
            let side = (pb - pa).cross(eye - (pa + pb) * 0.5).normalize_or_zero();
            let (wa, wb) = (side * radius[l.a] * width, side * radius[l.b] * width);
            let (ca, cb) = ([40, 40, 60, 255], [40, 40, 60, 255]);
            let base = mesh.vertices.len() as u16;
            mesh.vertices.extend([
                vertex(pa - wa, ca),
                vertex(pa + wa, ca),
                vertex(pb + wb, cb),
                vertex(pb - wb, cb),
            ]);
            mesh.indices
                .extend([base, base + 1, base + 2, base, base + 2, base + 3]);
        }
        flush(&mut mesh);
        self.mesh = Some(mesh);
    }
}

/// The two particles of a link drawn.
struct Ends {
    a: usize,
    b: usize,
}

impl Renderer {
    /// Camera-facing squares on particles.
    /// `all`: every particle of the range, else only pinned, driven and
    /// highlighted ones; `(right, up)`: the camera's screen axes.
    fn dots(
        &mut self,
        world: &World,
        range: std::ops::Range<usize>,
        all: bool,
        (right, up): (Vec3, Vec3),
        hl: Highlight,
        mode: ColourMode,
    ) {
        let p = &world.particles;
        let mut mesh = self.take_mesh();
        let toward_eye = right.cross(up);
        for i in range {
            let own = if p.is_driven(i) {
                Some(DRIVEN)
            } else if p.is_pinned(i) {
                Some(PINNED)
            } else {
                None
            };
            // The hovered particle gets a yellow ring around its own colour,
            // so pinning it shows at once under the cursor.
            let (under, colour, scale) = if hl.held == Some(i) {
                (None, HELD, 1.8)
            } else if hl.hovered == Some(i) {
                (Some(HOVER), own.unwrap_or(HOVER), 1.8)
            } else if let Some(c) = own {
                (None, c, 1.8)
            } else if all {
                // Joints: the ribbon's colour, a little darker.
                let [r, g, b, a] = rgba(self.base_colour(i, ROPE, mode), 0.75);
                (None, Color::from_rgba(r, g, b, a), 1.0)
            } else {
                continue;
            };
            let size = p.radius()[i].max(0.01) * scale;
            // Lifted toward the camera so it is not hidden in the ribbon.
            let centre = p.pos()[i] + toward_eye * (size * 1.5);
            if let Some(ring) = under.filter(|_| own.is_some()) {
                octagon(&mut mesh, centre, size * 1.5, (right, up), ring);
            }
            octagon(
                &mut mesh,
                centre + toward_eye * (size * 0.1),
                size,
                (right, up),
                colour,
            );
        }
        flush(&mut mesh);
        self.mesh = Some(mesh);
    }
}

/// A filled octagon of radius `size` at `centre`, facing the camera.
fn octagon(mesh: &mut Mesh, centre: Vec3, size: f32, (right, up): (Vec3, Vec3), colour: Color) {
    fit(mesh, 9);
    let c: [u8; 4] = colour.into();
    let base = mesh.vertices.len() as u16;
    mesh.vertices.push(vertex(centre, c));
    for k in 0..8u16 {
        let a = k as f32 * std::f32::consts::FRAC_PI_4;
        let rim = centre + (right * a.cos() + up * a.sin()) * size;
        mesh.vertices.push(vertex(rim, c));
        mesh.indices
            .extend([base, base + 1 + k, base + 1 + (k + 1) % 8]);
    }
}

/// A stripe along each Cosserat rod's material frame: a line on the tube
/// at d₁ (the frame's first axis), so its twist shows as the stripe
/// winding round the rod. At each particle the stripe takes the mean of
/// its two segments' d₁, so it runs on without steps.
fn draw_stripes(world: &World) {
    let stripe = Color::new(1.0, 0.95, 0.75, 1.0);
    let pos = world.particles.pos();
    for (b, body) in world.bodies().iter().enumerate() {
        let segments = world.rods().segments_of(b);
        if segments.is_empty() {
            continue;
        }
        let radius = world.particles.radius()[body.first] * 1.08;
        let d1 = |s: usize| world.rods().orientation(s) * Vec3::X;
        let n = segments.len();
        // d₁ at particle k of the rod (0 ..= n).
        let at = |k: usize| {
            let s = segments.start;
            let d = match k {
                0 => d1(s),
                k if k == n => d1(s + n - 1),
                k => (d1(s + k - 1) + d1(s + k)).normalize_or(d1(s + k)),
            };
            pos[body.first + k] + d * radius
        };
        for k in 0..n {
            draw_line_3d(at(k), at(k + 1), stripe);
        }
    }
}
