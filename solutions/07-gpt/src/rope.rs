//! Rotary position embeddings (RoPE): position enters attention by rotating each pair of
//! features of a query or key, not by adding a table to the embeddings. Book: chapter 07,
//! "RoPE".

use course_common::Matrix;
use positional_encoding::frequencies;

// BEGIN SOLUTION
/// Each pair of row `t` turned by `direction · (start + t)·ω_i`.
fn rotate(x: &Matrix, start: usize, direction: f64) -> Matrix {
    let omega = frequencies(x.ncols()); // (d_head/2,); panics on an odd d_head
    let mut y = x.clone(); // (n, d_head)
    for (t, mut row) in y.rows_mut().into_iter().enumerate() {
        let position = (start + t) as f64;
        for (i, &w) in omega.iter().enumerate() {
            let (sin, cos) = (direction * position * w).sin_cos();
            let (a, b) = (x[[t, 2 * i]], x[[t, 2 * i + 1]]);
            row[2 * i] = a * cos - b * sin;
            row[2 * i + 1] = a * sin + b * cos;
        }
    }
    y
}
// END SOLUTION
// ANCHOR: apply_rope
/// Rotates each row of `x` by its position: row `t` is at position `p = start + t`, and
/// its features `(2i, 2i + 1)` are turned by the angle `p·ω_i`,
///
/// ```text
/// y[2i]     = x[2i] · cos(p·ω_i) − x[2i+1] · sin(p·ω_i)
/// y[2i + 1] = x[2i] · sin(p·ω_i) + x[2i+1] · cos(p·ω_i)
/// ```
///
/// with lesson 04's frequencies `ω_i = 10000^(−2i/d_head)`
/// (`positional_encoding::frequencies(d_head)`). Pairs are adjacent columns, as in
/// lesson 04's table and the RoFormer paper. `(n, d_head)` → `(n, d_head)`; panics if
/// `d_head` is odd. `start` is the position of the first row: 0 for a whole sequence,
/// the number of cached tokens when generating one token at a time.
pub fn apply_rope(x: &Matrix, start: usize) -> Matrix {
    // TODO: omega = frequencies(x.ncols()); for each row t and pair i, rotate
    //       (x[t, 2i], x[t, 2i+1]) by the angle (start + t)·omega[i].
    // BEGIN SOLUTION: todo!("apply_rope")
    rotate(x, start, 1.0)
    // END SOLUTION
}
// ANCHOR_END: apply_rope

// ANCHOR: rope_backward
/// The gradient through [`apply_rope`]: a rotation is linear and its inverse is its
/// transpose, the rotation by the opposite angle. So `∂L/∂x` is `d_y` with each pair
/// of row `t` turned by `−(start + t)·ω_i`. `(n, d_head)` → `(n, d_head)`.
pub fn rope_backward(d_y: &Matrix, start: usize) -> Matrix {
    // TODO: the same rotation as apply_rope, with the sine's sign flipped.
    // BEGIN SOLUTION: todo!("rope_backward")
    rotate(d_y, start, -1.0)
    // END SOLUTION
}
// ANCHOR_END: rope_backward
