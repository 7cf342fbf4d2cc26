//! The app's one edit stream: every panel change is an [`Edit`] that
//! [`App::edit`] applies to the world and compare mode's twin, gives to
//! the recorder, and keeps in the scene (what Reset rebuilds and Save as
//! writes), so a new control cannot forget one of them.

use crate::app::App;
use crate::edit::Edit;
use crate::scene::{BodyDef, MotorDef, RodSolverDef, resolve_index};

impl App {
    /// Applies `edit` everywhere it belongs (see the module doc).
    pub(in crate::app) fn edit(&mut self, edit: Edit) {
        edit.apply(&mut self.world);
        self.twin_do(|w| edit.apply(w));
        if let Some(rec) = self.tape.recorder.as_mut() {
            rec.edit(edit);
        }
        self.keep(edit);
    }

    /// Fixes or frees rigid body `r` in both lanes (Save as reads it from
    /// the world, the recorder sees it there); the hand lets go of it.
    pub(in crate::app) fn set_fixed(&mut self, r: usize, on: bool) {
        if on && self.world.grabbed_rigid() == Some(r) {
            self.mouse.cancel(&mut self.world); // a fixed body is not held
        }
        self.world.set_rigid_fixed(r, on);
        self.twin_do(|w| w.set_rigid_fixed(r, on));
    }

    /// Keeps `edit` in the scene, kept by Reset and written by Save as.
    fn keep(&mut self, edit: Edit) {
        let scene = &mut self.scene;
        match edit {
            Edit::Compliance(b, ..)
            | Edit::ScaleCompliance(b, ..)
            | Edit::Dihedral(b, _)
            | Edit::Tethers(b, _)
            | Edit::SelfCollision(b, _) => scene.keep_settings(&self.world, b),
            Edit::BodyCollisions(on) => scene.solver.body_collisions = on,
            Edit::Link(a, b, alpha) => {
                let pair = (a.min(b), a.max(b));
                for k in 0..scene.joins.len() {
                    let (p, q) = scene.join_particles(&self.world, k);
                    if (p.min(q), p.max(q)) == pair {
                        scene.joins[k].compliance = alpha;
                    }
                }
            }
            Edit::Mass(i, kg) => {
                let world = &self.world;
                let Some(b) = (world.bodies().iter()).position(|b| b.range().contains(&i)) else {
                    return;
                };
                if let BodyDef::Rope(r) = &mut scene.bodies[b] {
                    r.tip_mass = (kg - r.particle_mass()).max(0.0);
                }
            }
            Edit::RigidMass(r, kg) => {
                let body = &self.world.rigids().bodies[r];
                if let BodyDef::Rigid(def) = &mut scene.bodies[body.body] {
                    def.density = kg / body.shape.volume();
                }
            }
            Edit::RigidSurface(r, mu, e) => {
                let b = self.world.rigids().bodies[r].body;
                if let BodyDef::Rigid(def) = &mut scene.bodies[b] {
                    (def.friction, def.restitution) = (mu, e);
                }
            }
            Edit::Joint(j, alpha, limits, motor) => {
                let def = &mut scene.joints[j];
                def.compliance = alpha;
                def.limits = limits;
                def.motor = motor.map(|(speed, max_torque)| MotorDef { speed, max_torque });
            }
            Edit::Pressure(b, v)
            | Edit::GasCompliance(b, v)
            | Edit::CellCompliance(b, v)
            | Edit::TearStrain(b, v)
            | Edit::TearForce(b, v) => match (&mut scene.bodies[b], edit) {
                (BodyDef::Balloon(bl), Edit::Pressure(..)) => bl.pressure = v,
                (BodyDef::Balloon(bl), Edit::GasCompliance(..)) => bl.volume_compliance = v,
                (BodyDef::SoftBox(s), Edit::CellCompliance(..)) => s.volume_compliance = v,
                (BodyDef::Cloth(c), Edit::TearStrain(..)) => c.tear_strain = Some(v),
                (BodyDef::Cloth(c), Edit::TearForce(..)) => c.tear_force = Some(v),
                _ => {}
            },
            Edit::Material(b, e, nu) => {
                if let BodyDef::SoftBox(s) = &mut scene.bodies[b] {
                    s.young_modulus = Some(e);
                    s.poisson_ratio = nu;
                }
            }
            Edit::Aero(b, drag, lift) => {
                if let BodyDef::Cloth(c) = &mut scene.bodies[b] {
                    (c.aero_drag, c.aero_lift) = (drag, lift);
                }
            }
            Edit::RodModuli(b, e, g) => {
                if let BodyDef::Rod(r) = &mut scene.bodies[b] {
                    (r.young_modulus, r.shear_modulus) = (e, g);
                }
            }
            Edit::RodRadius(b, radius) => {
                if let BodyDef::Rod(r) = &mut scene.bodies[b] {
                    r.radius = radius;
                }
            }
            Edit::RodDirect(b, direct) => {
                if let BodyDef::Rod(r) = &mut scene.bodies[b] {
                    r.solver = if direct {
                        RodSolverDef::Direct
                    } else {
                        RodSolverDef::GaussSeidel
                    };
                }
            }
            // A turn is motion: the state (the end's frame) keeps it, the
            // scene's definition does not change.
            Edit::RodTurn(..) => {}
            Edit::Clamp(b, k, on) => {
                if let BodyDef::Rod(r) = &mut scene.bodies[b] {
                    let n = r.segments as u64 + 1;
                    let names_k = |p: &i64| resolve_index(*p, n) == Some(k);
                    if on {
                        if !r.clamped.iter().any(names_k) {
                            r.clamped.push(k as i64);
                        }
                    } else {
                        // Unclamping unpins too (the world does both).
                        r.clamped.retain(|p| !names_k(p));
                        r.pins.retain(|p| !names_k(p));
                    }
                }
            }
        }
    }
}
