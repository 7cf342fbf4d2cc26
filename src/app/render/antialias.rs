//! Anti-aliasing by FXAA: the 3D view is drawn into a screen-sized render
//! target (colour and depth), then copied to the screen through a filter
//! that finds edges by luminance and blends across them (Lottes' FXAA,
//! the short form that needs five samples and four more along the edge).
//! One full-screen pass instead of MSAA's four samples per pixel: under
//! Xvfb/llvmpipe MSAA cost 2.5× the frame time (see docs/guide.md for this
//! pass's cost). GLSL 100, so the browser build runs it too.

use macroquad::prelude::*;

use super::Display;

const VERTEX: &str = "#version 100
attribute vec3 position;
attribute vec2 texcoord;
varying lowp vec2 uv;
uniform mat4 Model;
uniform mat4 Projection;
void main() {
    gl_Position = Projection * Model * vec4(position, 1.0);
    uv = texcoord;
}";

const FRAGMENT: &str = "#version 100
precision mediump float;
varying lowp vec2 uv;
uniform sampler2D Texture;
uniform vec2 texel;
void main() {
    vec3 luma = vec3(0.299, 0.587, 0.114);
    vec3 nw = texture2D(Texture, uv + vec2(-1.0, -1.0) * texel).rgb;
    vec3 ne = texture2D(Texture, uv + vec2(1.0, -1.0) * texel).rgb;
    vec3 sw = texture2D(Texture, uv + vec2(-1.0, 1.0) * texel).rgb;
    vec3 se = texture2D(Texture, uv + vec2(1.0, 1.0) * texel).rgb;
    vec4 m = texture2D(Texture, uv);
    float lnw = dot(nw, luma);
    float lne = dot(ne, luma);
    float lsw = dot(sw, luma);
    float lse = dot(se, luma);
    float lm = dot(m.rgb, luma);
    float lo = min(lm, min(min(lnw, lne), min(lsw, lse)));
    float hi = max(lm, max(max(lnw, lne), max(lsw, lse)));
    vec2 dir = vec2(-((lnw + lne) - (lsw + lse)), (lnw + lsw) - (lne + lse));
    float reduce = max((lnw + lne + lsw + lse) * (0.25 / 8.0), 1.0 / 128.0);
    float scale = 1.0 / (min(abs(dir.x), abs(dir.y)) + reduce);
    dir = clamp(dir * scale, vec2(-8.0), vec2(8.0)) * texel;
    vec3 a = 0.5 * (texture2D(Texture, uv + dir * (1.0 / 3.0 - 0.5)).rgb
                  + texture2D(Texture, uv + dir * (2.0 / 3.0 - 0.5)).rgb);
    vec3 b = a * 0.5 + 0.25 * (texture2D(Texture, uv - dir * 0.5).rgb
                             + texture2D(Texture, uv + dir * 0.5).rgb);
    float lb = dot(b, luma);
    gl_FragColor = vec4((lb < lo || lb > hi) ? a : b, 1.0);
}";

/// The render target and the filter, made on first use (they need the GL
/// context) and remade when the window's size changes.
#[derive(Default)]
pub struct Fxaa {
    target: Option<RenderTarget>,
    material: Option<Material>,
    /// Set when the filter failed to compile: drawing goes straight to the screen.
    broken: bool,
}

impl Fxaa {
    /// The target to draw the 3D view into this frame, cleared to
    /// `background`; None when the filter is unavailable.
    pub fn begin(&mut self, background: Color) -> Option<RenderTarget> {
        if self.broken {
            return None;
        }
        if self.material.is_none() {
            let source = ShaderSource::Glsl {
                vertex: VERTEX,
                fragment: FRAGMENT,
            };
            let params = MaterialParams {
                uniforms: vec![UniformDesc::new("texel", UniformType::Float2)],
                ..Default::default()
            };
            match load_material(source, params) {
                Ok(m) => self.material = Some(m),
                Err(e) => {
                    crate::headless::tell(format_args!(
                        "anti-aliasing is off: its shader did not compile: {e:?}"
                    ));
                    self.broken = true;
                    return None;
                }
            }
        }
        let (w, h) = (
            screen_width().max(1.0) as u32,
            screen_height().max(1.0) as u32,
        );
        let stale = self
            .target
            .as_ref()
            .is_none_or(|t| t.texture.width() as u32 != w || t.texture.height() as u32 != h);
        if stale {
            let target = render_target_ex(
                w,
                h,
                RenderTargetParams {
                    sample_count: 1,
                    depth: true,
                },
            );
            target.texture.set_filter(FilterMode::Linear);
            self.target = Some(target);
        }
        let target = self.target.clone()?;
        set_camera(&Camera2D {
            render_target: Some(target.clone()),
            ..Camera2D::from_display_rect(Rect::new(0.0, 0.0, w as f32, h as f32))
        });
        clear_background(background);
        set_default_camera();
        Some(target)
    }

    /// Copies what was drawn into the target to the screen, filtered.
    pub fn finish(&self) {
        let (Some(target), Some(material)) = (&self.target, &self.material) else {
            return;
        };
        set_default_camera();
        let (w, h) = (target.texture.width(), target.texture.height());
        gl_use_material(material);
        material.set_uniform("texel", vec2(1.0 / w, 1.0 / h));
        draw_texture_ex(
            &target.texture,
            0.0,
            0.0,
            WHITE,
            DrawTextureParams {
                dest_size: Some(vec2(screen_width(), screen_height())),
                flip_y: true,
                ..Default::default()
            },
        );
        gl_use_default_material();
    }
}

/// Whether FXAA is cheap here: with a GPU it costs well under a
/// millisecond, with a software rasteriser (llvmpipe under Xvfb:
/// 17 → 70 ms per frame; SwiftShader in a browser) it costs more than
/// everything else together. So the window decides by measuring: after
/// a settling time it draws [`TRIAL`] frames without the filter, then up
/// to as many with it, and keeps it only if it added less than
/// [`AFFORDABLE`] of the frame time. The cheap half comes first and the
/// dear half stops as soon as it has cost more than the filter may, so a
/// newcomer's first seconds run at the window's full speed (drawn with
/// the filter first, the trial made the first two seconds the slowest of
/// all: 5 fps under llvmpipe).
#[derive(Debug, Default)]
pub struct Trial {
    frames: usize,
    with: f64,
    without: f64,
    /// Frames drawn with the filter so far.
    with_frames: usize,
    /// The outcome: (kept, ms per frame with, without).
    pub verdict: Option<(bool, f64, f64)>,
    /// What the trial last set the switch to.
    pub set: Option<bool>,
}

/// Frames before the trial (loading, first meshes) and of each half.
const SETTLE: usize = 10;
const TRIAL: usize = 12;
/// The largest share of the frame time the filter may add.
const AFFORDABLE: f64 = 0.25;

impl Trial {
    /// Whether this frame is drawn with the filter, while the trial runs;
    /// None once it has decided.
    pub fn wants(&self) -> Option<bool> {
        self.verdict
            .is_none()
            .then_some(self.frames >= SETTLE + TRIAL)
    }

    /// Counts the last frame, which took `seconds` and was drawn as
    /// [`Self::wants`] said before it.
    pub fn record(&mut self, seconds: f64) {
        if self.verdict.is_some() {
            return;
        }
        match self.frames {
            f if f < SETTLE => {}
            f if f < SETTLE + TRIAL => self.without += seconds,
            _ => {
                self.with += seconds;
                self.with_frames += 1;
            }
        }
        self.frames += 1;
        let budget = self.without * (1.0 + AFFORDABLE); // for TRIAL frames with it
        let over = self.with_frames > 0 && self.with > budget;
        if over || self.frames == SETTLE + 2 * TRIAL {
            let (with, without) = (
                self.with * 1e3 / self.with_frames.max(1) as f64,
                self.without * 1e3 / TRIAL as f64,
            );
            self.verdict = Some((!over && with <= without * (1.0 + AFFORDABLE), with, without));
        }
    }
}

/// The filter, and the trial that decides whether it stays.
pub struct Smoothing {
    pub fxaa: Fxaa,
    /// Measures whether the filter is affordable here; None once the
    /// user or the command line chose.
    trial: Option<Trial>,
    /// What the trial measured: ms per frame with and without.
    pub measured: Option<(f64, f64)>,
}

impl Default for Smoothing {
    fn default() -> Self {
        Self {
            fxaa: Fxaa::default(),
            trial: Some(Trial::default()),
            measured: None,
        }
    }
}

impl Smoothing {
    /// The switch is the user's (or the command line's): no trial.
    pub fn chosen(&mut self) {
        self.trial = None;
    }

    /// Runs the trial: the previous frame took `frame_dt`. Sets the
    /// switch in `display`; when the filter proves too dear, says so.
    pub fn trial(&mut self, frame_dt: f32, display: &mut Display) -> Option<String> {
        let trial = self.trial.as_mut()?;
        if trial.set.is_some_and(|on| on != display.antialias) {
            self.trial = None; // the user flipped the switch: theirs
            return None;
        }
        trial.record(frame_dt as f64);
        if let Some(on) = trial.wants() {
            display.antialias = on;
            trial.set = Some(on);
            return None;
        }
        let (kept, with, without) = trial.verdict.expect("decided");
        display.antialias = kept;
        self.measured = Some((with, without));
        self.trial = None;
        // A renderer that slow (software) also pays much for the plots'
        // grid lines and overlapping fills.
        (!kept).then(|| {
            display.plot_detail = false;
            format!(
                "smooth edges, plot grids and fills off: {with:.0} ms per frame with smooth \
                 edges, {without:.0} ms without (software rendering?)"
            )
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Runs a trial whose frames take `without` and `with` seconds; the
    /// verdict and how many frames were drawn with the filter.
    fn trial(without: f64, with: f64) -> ((bool, f64, f64), usize) {
        let mut t = Trial::default();
        let mut drawn_with = 0;
        while let Some(on) = t.wants() {
            drawn_with += on as usize;
            t.record(if on { with } else { without });
        }
        (t.verdict.unwrap(), drawn_with)
    }

    #[test]
    fn a_dear_filter_is_dropped_after_a_few_frames_and_a_cheap_one_kept() {
        // llvmpipe: 20 ms without, 82 ms with: over the budget of 12
        // frames at 25 ms after 4 frames, so 4 slow frames, not 22.
        let ((kept, with, without), slow) = trial(0.020, 0.082);
        assert!(
            !kept && slow == 4,
            "kept {kept} after {slow} frames with it"
        );
        assert!((with - 82.0).abs() < 1e-9 && (without - 20.0).abs() < 1e-9);
        // A GPU: 0.1 ms more is kept, after its full half.
        let ((kept, ..), with_frames) = trial(0.010, 0.0101);
        assert!(kept && with_frames == TRIAL);
        // The first frames are drawn without it.
        let t = Trial::default();
        assert_eq!(t.wants(), Some(false));
    }
}
