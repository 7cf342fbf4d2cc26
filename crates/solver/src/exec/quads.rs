//! The four-particle kind — dihedral bending, tetrahedron volume and the
//! neo-Hookean pair — in the step: views of a colour's quads and their
//! verbs. The store and the physics are `solver::quads`.

use std::ops::Range;

use glam::{Vec3, Vec3A};

use super::kinds::{Coloured, Ctx};
use super::shared::Shared;
use crate::particles::kinetic_drop;
use crate::particles::losses;
use crate::quads::{QuadKind, Quads, damp, project};

/// One colour of four-particle constraints; their particles are disjoint,
/// λ is written by the thread owning the constraint. Every column has
/// `len` entries.
#[derive(Clone, Copy, Debug)]
pub(crate) struct RawQuads {
    pub idx: Shared<[u32; 4]>,
    pub kind: Shared<QuadKind>,
    pub rest: Shared<f32>,
    pub size: Shared<f32>,
    pub shape: Shared<[f32; 9]>,
    pub compliance: Shared<f32>,
    pub lambda: Shared<f32>,
    pub material: Shared<[f32; 2]>,
    pub len: usize,
    /// Project hinges in SIMD lanes where the CPU has them (eight with
    /// AVX, four with wasm SIMD; `World::set_simd`; the same bits).
    pub simd: bool,
}

impl RawQuads {
    /// Views of every colour of `quads`, into `out` (reused).
    pub fn of(quads: &mut Quads, out: &mut Vec<RawQuads>) {
        out.clear();
        for c in 0..quads.idx.len() {
            out.push(RawQuads {
                len: quads.idx[c].len(),
                idx: Shared::new(&mut quads.idx[c]),
                kind: Shared::new(&mut quads.kind[c]),
                rest: Shared::new(&mut quads.rest[c]),
                size: Shared::new(&mut quads.size[c]),
                shape: Shared::new(&mut quads.shape[c]),
                compliance: Shared::new(&mut quads.compliance[c]),
                lambda: Shared::new(&mut quads.lambda[c]),
                material: Shared::new(&mut quads.material[c]),
                simd: true,
            });
        }
    }
}

impl RawQuads {
    /// What constraint `c` keeps of its rest shape.
    ///
    /// # Safety
    /// `c` is in the colour; no other thread writes it.
    #[inline(always)]
    unsafe fn rest_of(&self, c: usize) -> crate::quads::Rest<'_> {
        // SAFETY: the caller's contract.
        unsafe {
            let shape = self.shape.get_ref(c);
            (
                self.rest.get(c),
                self.size.get(c),
                shape,
                self.material.get(c),
            )
        }
    }

    /// Projects quad `c` alone (λ reset first when `first`).
    ///
    /// # Safety
    /// `c` is in the colour; no other thread touches it or its particles.
    #[inline(always)]
    pub(crate) unsafe fn project_one(&self, c: usize, ctx: &Ctx, first: bool) {
        let (p, h) = (ctx.p, ctx.h);
        // SAFETY: constraint `c` and its four particles are this thread's.
        unsafe {
            let lambda = self.lambda.at(c);
            if first {
                *lambda = 0.0;
            }
            let idx = self.idx.get(c).map(|i| i as usize);
            let (prev, delta) = (idx.map(|i| p.prev.get(i)), idx.map(|i| p.delta.get(i)));
            let x = std::array::from_fn(|k| Vec3A::from(prev[k] + delta[k]));
            let w = prev.map(|p| p.w);
            let alpha_t = if ctx.xpbd {
                self.compliance.get(c) / (h * h)
            } else {
                0.0
            };
            let moves = project(
                self.kind.get(c),
                x,
                w,
                self.rest_of(c),
                alpha_t,
                ctx.k,
                lambda,
            );
            for (i, m) in idx.into_iter().zip(moves) {
                *p.delta.at(i) += m.extend(0.0);
            }
        }
    }
}

/// Every colour's quads: the kind's verbs for the step.
pub(crate) struct QuadColours<'a>(pub &'a [RawQuads]);

impl Coloured for QuadColours<'_> {
    fn colours(&self) -> usize {
        self.0.len()
    }

    fn len(&self, colour: usize) -> usize {
        self.0.get(colour).map_or(0, |d| d.len)
    }

    /// Projects quads `range` of the colour (λ reset first on the
    /// substep's first pass): runs of eight hinges in AVX lanes where the
    /// CPU has it (four in wasm SIMD in the browser), every other one
    /// alone, with the same bits either way
    /// (the hinge's kernel is written once, see `solver::real`).
    #[inline(never)]
    unsafe fn project(&self, colour: usize, range: Range<usize>, ctx: &Ctx, first: bool) {
        let d = &self.0[colour];
        #[cfg(target_arch = "x86_64")]
        if d.simd && std::is_x86_feature_detected!("avx") {
            // SAFETY: the caller's contract: `range` is this thread's, and
            // a colour's constraints share no particle; the CPU has AVX.
            unsafe { super::simd::project_hinges8(d, range, ctx, first) };
            return;
        }
        #[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
        if d.simd {
            // SAFETY: the caller's contract: `range` is this thread's, and
            // a colour's constraints share no particle.
            unsafe { super::simd128::project_hinges4(d, range, ctx, first) };
            return;
        }
        for c in range {
            // SAFETY: the caller's contract, one constraint at a time.
            unsafe { d.project_one(c, ctx, first) };
        }
    }

    /// The dashpot along quads `range` of the colour.
    unsafe fn damp(&self, colour: usize, range: Range<usize>, ctx: &Ctx) {
        let (p, d) = (ctx.p, &self.0[colour]);
        let beta_h = ctx.damping * ctx.h;
        for c in range {
            // SAFETY: constraint `c` and its four particles are this thread's.
            unsafe {
                let idx = d.idx.get(c).map(|i| i as usize);
                let x = idx.map(|i| Vec3A::from(p.pos.get(i)));
                let v = idx.map(|i| Vec3A::from(p.vel.get(i)));
                let w = idx.map(|i| p.inv_mass.get(i));
                let Some(dv) = damp(d.kind.get(c), x, v, w, d.rest_of(c), beta_h) else {
                    continue;
                };
                for k in 0..4 {
                    if w[k] > 0.0 {
                        let (before, after) = (Vec3::from(v[k]), Vec3::from(v[k] + dv[k]));
                        p.vel.set(idx[k], after);
                        p.lost.at(idx[k])[losses::DAMPING] += kinetic_drop(w[k], before, after);
                    }
                }
            }
        }
    }
}
