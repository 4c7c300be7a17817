//! The three-word walk-through of chapter 02, step by step.
//!
//! Run it once your attention works: `cargo run -p attention --example three_words`.

use attention::scaled_dot_product_attention;
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

    // Step 1: how well each query matches each key, a dot product per pair.
    println!("Step 1, Q Kᵀ\n{}", show("Q Kᵀ", &q.dot(&k.t())));

    // Steps 2 and 3 are your attention's: the weights it computed from those scores
    // (scaled by 1/√d_k, then normalised row by row), and the output, each row the
    // weighted average of the values. The chapter computes both by hand; compare.
    let attention = scaled_dot_product_attention(&q, &k, &v, None);
    println!(
        "Step 2, your scaled_dot_product_attention's weights\n{}",
        show("weights", &attention.weights)
    );
    println!(
        "Step 3, its output = weights V\n{}",
        show("output", &attention.output)
    );
}
