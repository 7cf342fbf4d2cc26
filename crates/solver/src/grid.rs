//! The spatial hash both kinds of contacts use (particle–particle in
//! `contacts`, particle–triangle in `sheets`): items placed in cubic cells,
//! sorted by hashed cell with a counting sort, so the items of a cell are
//! one slice. Storage is allocated when the item count is set; sorting
//! allocates nothing.

use glam::Vec3;

/// The largest cell index per axis (a clamp that keeps `c ± 2` in i32).
/// With cells of at least [`MIN_CELL`] it reaches 1e5 m — every accepted
/// coordinate — so bodies anywhere in a scene hash into distinct cells
/// (a clamp at 1e6 cells put a 2 cm-radius cloth at 5e4 m into one cell:
/// every particle compared with every other, 100× slower).
pub(crate) const MAX_CELL_INDEX: f32 = 1e9;

/// The smallest cell edge (m): with radius 0 or 2e-5 the cell came out
/// at 0 or 4e-5 m, a 100 m rope spanned more cells than the clamp and
/// collapsed into one. 1e-4 m keeps 1e5 m within [`MAX_CELL_INDEX`].
pub(crate) const MIN_CELL: f32 = 1e-4;

/// Items sorted by hashed cell.
#[derive(Clone, Debug, Default)]
pub(crate) struct Grid {
    /// Cell edge (m).
    pub cell: f32,
    /// Per item: its cell.
    cell_of: Vec<[i32; 3]>,
    /// Per hashed cell: first index into `sorted` (table length + 1).
    start: Vec<u32>,
    /// Items ordered by hashed cell.
    sorted: Vec<u32>,
    /// The smallest and largest cell of the sorted items, per axis: a
    /// walk is clipped to them, so a query far from every item visits no
    /// cell (a particle far from a body's sheet costs nothing).
    occupied: [[i32; 3]; 2],
}

impl Grid {
    /// Storage for `items` items (a table of about twice as many cells).
    pub fn new(items: usize) -> Self {
        Self {
            cell: 1.0,
            cell_of: vec![[0; 3]; items],
            start: vec![0; (2 * items).next_power_of_two() + 1],
            sorted: vec![0; items],
            occupied: [[0; 3], [-1; 3]],
        }
    }

    /// The cell of point `x`. Points more than [`MAX_CELL_INDEX`] cells
    /// out, or not finite, land in one clamped cell (NaN in cell 0): they
    /// are then only compared, never lost. (Floor without the libm call,
    /// which was a fifth of the contacts' time: truncate, then step down
    /// below zero.)
    #[inline(always)]
    pub fn cell_at(&self, x: Vec3) -> [i32; 3] {
        let c = x / self.cell;
        let floor = |v: f32| {
            let v = v.clamp(-MAX_CELL_INDEX, MAX_CELL_INDEX);
            let t = v as i32;
            t - i32::from((t as f32) > v)
        };
        [floor(c.x), floor(c.y), floor(c.z)]
    }

    /// Puts item `k` at point `x` (sorted by the next [`Grid::sort`]).
    pub fn place(&mut self, k: usize, x: Vec3) {
        self.cell_of[k] = self.cell_at(x);
    }

    /// The cell item `k` was placed in.
    pub fn cell_of(&self, k: usize) -> [i32; 3] {
        self.cell_of[k]
    }

    fn hash(&self, c: [i32; 3]) -> usize {
        let h = (c[0].wrapping_mul(92_837_111))
            ^ (c[1].wrapping_mul(689_287_499))
            ^ (c[2].wrapping_mul(283_923_481));
        (h as u32 as usize) & (self.start.len() - 2)
    }

    /// Sorts the placed items by hashed cell (one thread).
    pub fn sort(&mut self) {
        self.start.fill(0);
        let mut occupied = [[i32::MAX; 3], [i32::MIN; 3]];
        for k in 0..self.cell_of.len() {
            let c = self.cell_of[k];
            for a in 0..3 {
                occupied[0][a] = occupied[0][a].min(c[a]);
                occupied[1][a] = occupied[1][a].max(c[a]);
            }
            let h = self.hash(c);
            self.start[h] += 1;
        }
        self.occupied = occupied;
        let mut sum = 0;
        for s in self.start.iter_mut() {
            sum += *s;
            *s = sum;
        }
        for k in (0..self.cell_of.len()).rev() {
            let h = self.hash(self.cell_of[k]);
            self.start[h] -= 1;
            self.sorted[self.start[h] as usize] = k as u32;
        }
    }

    /// Calls `f` with every item placed in the cells from `lo` to `hi`
    /// (inclusive, a box), cell by cell (x outermost, z innermost), each
    /// cell's in item order. Only the cells between the sorted items'
    /// smallest and largest are visited; the others hold none, so the
    /// items and their order are the same. (Plain loops: chained
    /// `flat_map`s made the particle contacts half again slower.)
    pub fn each_in_cells(&self, lo: [i32; 3], hi: [i32; 3], mut f: impl FnMut(usize)) {
        let [min, max] = self.occupied;
        let lo = [0, 1, 2].map(|a| lo[a].max(min[a]));
        let hi = [0, 1, 2].map(|a| hi[a].min(max[a]));
        for x in lo[0]..=hi[0] {
            for y in lo[1]..=hi[1] {
                for z in lo[2]..=hi[2] {
                    self.in_cell([x, y, z]).for_each(&mut f);
                }
            }
        }
    }

    /// The items placed in cell `c`, in item order.
    pub fn in_cell(&self, c: [i32; 3]) -> impl Iterator<Item = usize> + '_ {
        let h = self.hash(c);
        // Other cells may share this bucket.
        self.sorted[self.start[h] as usize..self.start[h + 1] as usize]
            .iter()
            .map(|&k| k as usize)
            .filter(move |&k| self.cell_of[k] == c)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_floor_like_the_library_and_every_item_is_found_in_its_cell() {
        let mut g = Grid::new(200);
        g.cell = 0.3;
        let mut rng = crate::lcg::Lcg(7);
        let mut any = || rng.next_f32() * 10.0 - 5.0;
        let points: Vec<Vec3> = (0..200).map(|_| Vec3::new(any(), any(), any())).collect();
        for (k, &p) in points.iter().enumerate() {
            g.place(k, p);
            let f = (p / g.cell).floor();
            assert_eq!(g.cell_of(k), [f.x as i32, f.y as i32, f.z as i32], "{p}");
        }
        assert_eq!(g.cell_at(Vec3::NAN), [0; 3]);
        g.sort();
        for k in 0..points.len() {
            let found: Vec<usize> = g.in_cell(g.cell_of(k)).collect();
            assert!(found.contains(&k));
            assert!(found.windows(2).all(|w| w[0] < w[1]), "in item order");
            assert!(found.iter().all(|&j| g.cell_of(j) == g.cell_of(k)));
        }
    }

    /// A 2 cm-cell grid of a sheet far from the origin or a long thin
    /// rope: every cell holds a few items, not all of them.
    #[test]
    fn items_far_from_the_origin_or_over_many_cells_do_not_share_one_cell() {
        for (origin, spacing, cell) in
            [(5e4, 0.02, 0.02), (0.0, 0.05, MIN_CELL), (-9e4, 0.05, 0.04)]
        {
            let n = 4000;
            let mut g = Grid::new(n);
            g.cell = cell;
            for k in 0..n {
                g.place(k, Vec3::splat(origin) + Vec3::X * (k as f32 * spacing));
            }
            g.sort();
            let crowd = (0..n)
                .map(|k| g.in_cell(g.cell_of(k)).count())
                .max()
                .unwrap();
            assert!(crowd <= 2, "{crowd} items share a cell at {origin} m");
        }
    }

    #[test]
    fn a_walk_over_a_box_finds_exactly_the_items_in_it_in_cell_order() {
        let mut g = Grid::new(300);
        g.cell = 0.5;
        let mut rng = crate::lcg::Lcg(11);
        let mut any = |scale: f32| (rng.next_f32() - 0.5) * scale;
        for k in 0..300 {
            g.place(k, Vec3::new(any(6.0), any(6.0), any(6.0)));
        }
        g.sort();
        for _ in 0..200 {
            // Boxes inside, across and far outside the occupied cells.
            let at = [any(40.0), any(40.0), any(40.0)].map(|v| v as i32);
            let size = [any(8.0), any(8.0), any(8.0)].map(|v| v.abs() as i32);
            let hi = [0, 1, 2].map(|a| at[a] + size[a]);
            let mut walked = Vec::new();
            g.each_in_cells(at, hi, |k| walked.push(k));
            let mut inside: Vec<usize> = (0..300)
                .filter(|&k| (0..3).all(|a| (at[a]..=hi[a]).contains(&g.cell_of(k)[a])))
                .collect();
            // Cell by cell (x, y, z), each cell's in item order.
            inside.sort_by_key(|&k| (g.cell_of(k), k));
            assert_eq!(walked, inside, "box {at:?}..={hi:?}");
        }
    }
}
