//! The library analogy of chapter 02: a query, book labels as keys, book contents as values.
//!
//! Run it once your attention works: `cargo run -p attention --example library`.

use attention::scaled_dot_product_attention;
use course_common::ndarray::array;
use course_harness::check::show;

/// The library analogy of chapter 02: a query, book labels as keys, book contents as
/// values.
#[derive(clap::Parser)]
struct Args {}

fn main() {
    <Args as clap::Parser>::parse();
    // Three features a label or a request can have: machine learning, cooking, gardening.
    let books = ["Deep Learning", "The Cook's Atlas", "Roses in Winter"];
    let labels = array![[0.9, 0.0, 0.1], [0.0, 1.0, 0.2], [0.1, 0.1, 1.0]]; // keys
    let contents = array![[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]; // values
    let requests = array![
        [4.0, 0.0, 0.0], // "a book about machine learning"
        [0.0, 2.0, 2.0], // "something on cooking and gardening"
        [0.0, 0.0, 0.0], // "anything at all"
    ];
    let attention = scaled_dot_product_attention(&requests, &labels, &contents, None);
    for (request, weights) in ["machine learning", "cooking and gardening", "anything"]
        .iter()
        .zip(attention.weights.rows())
    {
        println!("request: {request}");
        for (book, weight) in books.iter().zip(weights) {
            println!("  {weight:.3}  {book}");
        }
    }
    println!("\nWhat each request takes home (a mix of the contents):");
    println!("{}", show("output", &attention.output));
}
