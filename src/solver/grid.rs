//! The spatial hash both kinds of contacts use (particle–particle in
//! `contacts`, particle–triangle in `sheets`): items placed in cubic cells,
//! sorted by hashed cell with a counting sort, so the items of a cell are
//! one slice. Storage is allocated when the item count is set; sorting
//! allocates nothing.

use glam::Vec3;

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
}

impl Grid {
    /// Storage for `items` items (a table of about twice as many cells).
    pub fn new(items: usize) -> Self {
        Self {
            cell: 1.0,
            cell_of: vec![[0; 3]; items],
            start: vec![0; (2 * items).next_power_of_two() + 1],
            sorted: vec![0; items],
        }
    }

    /// The cell of point `x`. Far-away or non-finite points land in one
    /// clamped cell (NaN in cell 0): they are then only compared, never
    /// lost. (Floor without the libm call, which was a fifth of the
    /// contacts' time: truncate, then step down below zero.)
    pub fn cell_at(&self, x: Vec3) -> [i32; 3] {
        let c = x / self.cell;
        [c.x, c.y, c.z].map(|v| {
            let v = v.clamp(-1e6, 1e6);
            let t = v as i32;
            t - i32::from((t as f32) > v)
        })
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
        for k in 0..self.cell_of.len() {
            let h = self.hash(self.cell_of[k]);
            self.start[h] += 1;
        }
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
    /// cell's in item order. (Plain loops: chained `flat_map`s made the
    /// particle contacts half again slower.)
    pub fn each_in_cells(&self, lo: [i32; 3], hi: [i32; 3], mut f: impl FnMut(usize)) {
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
        let mut rng = crate::solver::lcg::Lcg(7);
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
}
