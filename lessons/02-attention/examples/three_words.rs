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

    // Step 1: how well each query matches each key, scaled by 1/√d_k.
    let d_k = q.ncols() as Float;
    let scaled = q.dot(&k.t()) / d_k.sqrt();
    println!(
        "Step 1, scores = Q Kᵀ / √{d_k}\n{}",
        show("scores", &scaled)
    );

    // Step 2: your softmax_rows normalises each row of those scores into weights.
    println!(
        "Step 2, your softmax_rows(scores)\n{}",
        show("weights", &softmax_rows(&scaled))
    );

    // Steps 2 and 3 inside your attention: the weights it used, and the output, each
    // row the weighted average of the values (weights · V). The chapter computes both by
    // hand; compare.
    let attention = scaled_dot_product_attention(&q, &k, &v, None);
    println!(
        "Your scaled_dot_product_attention's weights\n{}",
        show("weights", &attention.weights)
    );
    println!(
        "Step 3, its output = weights V\n{}",
        show("output", &attention.output)
    );
}
