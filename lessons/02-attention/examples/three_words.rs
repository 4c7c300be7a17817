//! The three-word walk-through of chapter 02, step by step.
//!
//! Run it once your attention works: `cargo run -p attention --example three_words`.

use attention::{scaled_dot_product_attention, softmax_rows};
use course_common::Float;
use course_common::ndarray::array;
use course_harness::check::show;

/// The three-word walk-through of chapter 02, step by step.
#[derive(clap::Parser)]
struct Args {}

fn main() {
    <Args as clap::Parser>::parse();
    // Each word asks a question (its query), offers a label (its key) and carries
    // information (its value). Here the queries and keys are the same vectors.
    let q = array![[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]];
    let k = q.clone();
    let v = array![[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]];
    println!("{}{}{}", show("Q", &q), show("K", &k), show("V", &v));

    // Step 1: how well each query matches each key.
    let scores = q.dot(&k.t());
    println!("Step 1, scores = Q Kᵀ\n{}", show("scores", &scores));

    // Step 2: scale by 1/√d_k and normalise each row into weights.
    let d_k = q.ncols() as Float;
    let weights = softmax_rows(&(&scores / d_k.sqrt()));
    println!(
        "Step 2, weights = softmax(scores / √{d_k})\n{}",
        show("weights", &weights)
    );

    // Step 3: each output row is the weighted average of the values.
    let output = weights.dot(&v);
    println!("Step 3, output = weights V\n{}", show("output", &output));

    let attention = scaled_dot_product_attention(&q, &k, &v, None);
    println!(
        "Your scaled_dot_product_attention gives\n{}",
        show("output", &attention.output)
    );
}
