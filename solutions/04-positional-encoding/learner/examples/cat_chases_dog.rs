//! 猫追狗 ("the cat chases the dog") and 狗追猫 ("the dog chases the cat") through one
//! self-attention head, without and with positional encoding.
//!
//! ```text
//! cargo run -p positional-encoding --example cat_chases_dog
//! ```
//!
//! Needs your `Embedding::forward`, `sinusoidal_table` and `embed_with_positions`, and your
//! lesson 02's `SelfAttentionHead`. The head's three projections are the identity, so
//! Q = K = V = X: every output row is a weighted average of the input rows. Chapter 04
//! prints what a correct solution gives.

use attention::{Linear, SelfAttentionHead};
use course_common::ndarray::array;
use course_common::{Matrix, Vector};
use positional_encoding::{Embedding, embed_with_positions, sinusoidal_table};

/// 猫追狗 ("the cat chases the dog") and 狗追猫 ("the dog chases the cat") through one
/// self-attention head, without and with positional encoding.
#[derive(clap::Parser)]
struct Args {}

fn main() {
    <Args as clap::Parser>::parse();
    // 猫 0, 追 1, 狗 2; d_model = 4, so forward multiplies every row by √4 = 2.
    let embedding = Embedding::new(array![
        [0.6, -0.2, 0.5, 0.1],
        [-0.4, 0.7, 0.0, -0.5],
        [0.3, 0.4, -0.6, 0.2]
    ]);
    let identity = || Linear::new(Matrix::eye(4), Vector::zeros(4));
    let head = SelfAttentionHead {
        w_q: identity(),
        w_k: identity(),
        w_v: identity(),
    };
    let table = sinusoidal_table(3, 4);

    for with_positions in [false, true] {
        println!(
            "Attention weights {} positional encoding (rows: queries, columns: keys):\n",
            if with_positions { "with" } else { "without" }
        );
        for (text, tokens) in [("猫追狗", [0, 1, 2]), ("狗追猫", [2, 1, 0])] {
            let x = if with_positions {
                embed_with_positions(&embedding, &tokens, &table)
            } else {
                embedding.forward(&tokens)
            };
            let weights = head.forward(&x, None).attention.weights;
            let chars: Vec<char> = text.chars().collect();
            println!(
                "{text}      {}      {}      {}",
                chars[0], chars[1], chars[2]
            );
            for (row, c) in weights.rows().into_iter().zip(&chars) {
                println!("  {c}   {:>6.3} {:>6.3} {:>6.3}", row[0], row[1], row[2]);
            }
        }
        println!();
    }
}
