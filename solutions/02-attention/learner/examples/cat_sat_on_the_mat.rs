//! "The cat sat on the mat": where the seed's illustrative weights for "sat" come from.
//!
//! The weights in the seed (cat 0.6, mat 0.3, The 0.05, ...) are made up for illustration;
//! a trained model's weights depend on its training. This example shows what scores a query
//! would need to produce exactly those weights: softmax only sees differences of scores, so
//! any scores `ln(w) + c` do. Run it: `cargo run -p attention --example cat_sat_on_the_mat`.

use attention::softmax_rows;
use course_common::ndarray::Array2;

/// "The cat sat on the mat": where the seed's illustrative weights for "sat" come from.
#[derive(clap::Parser)]
struct Args {}

fn main() {
    <Args as clap::Parser>::parse();
    let words = ["The", "cat", "sat", "on", "the", "mat"];
    let seed_weights = [0.05, 0.6, 0.02, 0.02, 0.01, 0.3];
    let scores =
        Array2::from_shape_fn((1, words.len()), |(_, j)| f64::ln(seed_weights[j]) + 3.0);
    let weights = softmax_rows(&scores);
    println!("query: \"sat\"");
    for (j, word) in words.iter().enumerate() {
        println!(
            "  {word:>4}: score {:>6.3}  weight {:.3}",
            scores[[0, j]],
            weights[[0, j]]
        );
    }
}
