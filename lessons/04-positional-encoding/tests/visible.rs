//! The visible tests of lesson 04: what "done" looks like.
//!
//! Run them with `cargo test -p positional-encoding`. A failure says what was expected,
//! what came back and, when your result is what a common mistake gives, which mistake: the
//! same checks the graded tests use. The checker's graded tests check much more (the table
//! against PyTorch and NumPy values, the rotation property, the backward pass,
//! permutations); `cargo run -p checker -- grade 04-positional-encoding` runs them.
//! Don't edit this file to make it pass: grading never reads it.

use attention::scaled_dot_product_attention;
use course_common::ndarray::{array, s};
use course_common::{Float, Matrix};
use course_harness::relations::or_relation;
use course_harness::{
    Named, Tol, assert_matrix_close, linspace_matrix, named, scalar_cause,
};
#[cfg(feature = "builders")]
use course_mistakes::positional_encoding::{
    add_mistakes, added, embed_with_positions_mistakes, embedded,
    embedding_backward_mistakes, embedding_mistakes, ratio_mistakes, table_mistakes,
};
use positional_encoding::{
    Embedding, add_positional_encoding, embed_with_positions,
    embedding_to_encoding_ratio, sinusoidal_table,
};

/// The named mistakes' wrong answers for this file's inputs, recorded beside it by
/// `cargo xtask named` (see `course_harness::named`).
static NAMED: Named = Named::new(file!(), &[], include_str!("visible.named.json"));

#[test]
fn the_table_for_four_positions_and_d_model_4() {
    // d_model = 4 has two frequencies: ω_0 = 1 and ω_1 = 1/10000^(2/4) = 0.01.
    // Row p is [sin p, cos p, sin 0.01p, cos 0.01p].
    let table = sinusoidal_table(4, 4);
    // Written out from a calculator (Python's math.sin and math.cos), not computed here.
    let expected = array![
        [0.0, 1.0, 0.0, 1.0],
        [
            0.8414709848078965,
            0.5403023058681398,
            0.009999833334166664,
            0.9999500004166653
        ],
        [
            0.9092974268256817,
            -0.4161468365471424,
            0.01999866669333308,
            0.9998000066665778
        ],
        [
            0.1411200080598672,
            -0.9899924966004454,
            0.02999550020249566,
            0.9995500337489875
        ],
    ];
    assert_matrix_close(
        "sinusoidal_table(4, 4)",
        &table,
        &expected,
        Tol::TIGHT,
        &named!(NAMED, table_mistakes(4, 4)),
    );
}

#[test]
fn every_encoding_has_squared_norm_d_model_over_two() {
    // Each (sin, cos) pair contributes sin² + cos² = 1, and there are d_model/2 pairs.
    let table = sinusoidal_table(50, 16);
    for row in table.rows() {
        approx::assert_abs_diff_eq!(row.dot(&row), 8.0, epsilon = 1e-12);
    }
}

#[test]
fn the_embedding_looks_up_rows_and_scales_them_by_sqrt_d_model() {
    // d_model = 4, so every looked-up row is multiplied by √4 = 2.
    let embedding = Embedding::new(array![[1.0, 0.0, 0.5, -1.0], [0.25, 2.0, 0.0, 1.0]]);
    let x = embedding.forward(&[1, 0, 1]);
    let expected = array![
        [0.5, 4.0, 0.0, 2.0],
        [2.0, 0.0, 1.0, -2.0],
        [0.5, 4.0, 0.0, 2.0]
    ];
    assert_matrix_close(
        "Embedding::forward(&[1, 0, 1])",
        &x,
        &expected,
        Tol::TIGHT,
        &named!(NAMED, embedding_mistakes(&embedding.weight, &[1, 0, 1])),
    );
}

#[test]
fn a_repeated_token_collects_the_gradient_of_every_use() {
    // Token 1 is used twice: its gradient is the sum of both rows of d_out, times √4 = 2.
    // Token 2 is not used: its gradient is 0. (The weight's values play no part.)
    let embedding = Embedding::new(Matrix::zeros((3, 4)));
    let d_out = array![
        [1.0, 2.0, 0.0, -1.0],
        [0.5, -1.0, 1.0, 0.0],
        [3.0, 0.0, -2.0, 1.0]
    ];
    let d_weight = embedding.backward(&[1, 0, 1], &d_out);
    let expected = array![
        [1.0, -2.0, 2.0, 0.0],
        [8.0, 4.0, -4.0, 0.0],
        [0.0, 0.0, 0.0, 0.0]
    ];
    assert_matrix_close(
        "Embedding::backward(&[1, 0, 1], d_out)",
        &d_weight,
        &expected,
        Tol::TIGHT,
        &named!(NAMED, embedding_backward_mistakes(3, &[1, 0, 1], &d_out)),
    );
}

#[test]
fn the_encoding_is_added_from_position_start_after_the_scale() {
    // Any table will do here: row t of x gets row start + t of the table.
    let table = linspace_matrix(6, 4, 0.5, -2.0);
    let x = linspace_matrix(3, 4, -1.0, 1.2);
    let expected = named!(NAMED, added(&x, &table, 2) => Matrix);
    assert_matrix_close(
        "add_positional_encoding(x, table, 2) (rows 2, 3, 4 of the table)",
        &add_positional_encoding(&x, &table, 2),
        &expected,
        Tol::TIGHT,
        &named!(NAMED, add_mistakes(&x, &table, 2)),
    );
    // Start 3 takes the table's last three rows: exactly start + n = 6 rows is enough.
    let expected = named!(NAMED, added(&x, &table, 3) => Matrix);
    assert_matrix_close(
        "add_positional_encoding(x, table, 3) (rows 3, 4, 5: the table's last)",
        &add_positional_encoding(&x, &table, 3),
        &expected,
        Tol::TIGHT,
        &named!(NAMED, add_mistakes(&x, &table, 3)),
    );
    // √d_model · weight[tokens] + table[0..n]: the scale is the embedding's alone.
    let embedding = Embedding::new(array![[1.0, 0.0, 0.5, -1.0], [0.25, 2.0, 0.0, 1.0]]);
    // The scaled rows are [0.5, 4, 0, 2], [2, 0, 1, −2] and [0.5, 4, 0, 2] (√4 = 2 times
    // rows 1, 0 and 1); the recorded value adds rows 0 to 2 of the table.
    let expected =
        named!(NAMED, embedded(&embedding.weight, &[1, 0, 1], &table) => Matrix);
    assert_matrix_close(
        "embed_with_positions(embedding, &[1, 0, 1], table)",
        &embed_with_positions(&embedding, &[1, 0, 1], &table),
        &expected,
        Tol::TIGHT,
        &named!(
            NAMED,
            embed_with_positions_mistakes(&embedding.weight, &[1, 0, 1], &table)
        ),
    );
}

#[test]
fn without_positions_cat_chases_dog_and_dog_chases_cat_look_the_same() {
    // Needs your lesson 02's `scaled_dot_product_attention`. Vocabulary: 猫 0, 追 1, 狗 2.
    let embedding = Embedding::new(array![
        [0.6, -0.2, 0.5, 0.1],
        [-0.4, 0.7, 0.0, -0.5],
        [0.3, 0.4, -0.6, 0.2]
    ]);
    let attend = |tokens: &[usize]| {
        let x = embedding.forward(tokens);
        scaled_dot_product_attention(&x, &x, &x, None).output
    };
    let cat_chases_dog = attend(&[0, 1, 2]);
    let dog_chases_cat = attend(&[2, 1, 0]);
    // The same three rows, in reverse order: 猫 gets the same vector in both sentences,
    // and so does 追 in the middle, which cannot tell who chases whom.
    let reversed = cat_chases_dog.slice(s![..;-1, ..]);
    approx::assert_abs_diff_eq!(dog_chases_cat, reversed, epsilon = 1e-12);
}

#[test]
fn embeddings_of_size_one_over_sqrt_d_model_sit_next_to_the_encoding() {
    // Entries ±1/√d_model, times √d_model: rows of norm √d_model, against the
    // encoding's √(d_model / 2). The ratio is √2 for every d_model.
    let d_model = 32;
    let entry = 1.0 / (d_model as Float).sqrt();
    let weight = Matrix::from_shape_fn((10, d_model), |(v, c)| {
        if (v + c) % 3 == 0 { -entry } else { entry }
    });
    let table = sinusoidal_table(64, d_model);
    let ratio = embedding_to_encoding_ratio(&Embedding::new(weight.clone()), &table);
    let wrong_ratios = named!(
        NAMED,
        ratio_mistakes(
            &weight,
            &course_mistakes::positional_encoding::reference_table(64, d_model)
        )
    );
    let expected = (2.0 as Float).sqrt();
    assert!(
        (ratio - expected).abs() <= 1e-12,
        "embedding_to_encoding_ratio: expected √2 = {expected}, got {ratio}. Likely cause: {}.",
        scalar_cause(ratio, expected, &wrong_ratios)
            .map(|cause| cause.text().to_owned())
            .unwrap_or_else(|| or_relation(
                ratio,
                expected,
                "ratio = sqrt(mean over the vocabulary of ‖scale · weight[v]‖²) / \
                 sqrt(mean over positions of ‖table[pos]‖²)"
            ))
    );
}

#[test]
fn an_odd_d_model_is_refused_with_a_message_that_says_so() {
    // Sines and cosines come in pairs: a table of 7 columns has no place for the last
    // cosine. The contract: panic, saying that d_model must be even. An even width is
    // built (a `todo!()` is not the panic asked for, and fails as not started).
    assert_eq!(
        sinusoidal_table(4, 8).dim(),
        (4, 8),
        "sinusoidal_table(4, 8)"
    );
    let message = course_harness::panics::expected_panic(|| {
        sinusoidal_table(4, 7);
    });
    let Some(message) = message else {
        panic!(
            "sinusoidal_table(4, 7) returned a table; it must panic: d_model must be even"
        );
    };
    assert!(
        message.to_lowercase().contains("even"),
        "sinusoidal_table(4, 7) panicked with {message:?}, which does not say what is \
         wrong: assert! that d_model is even, with a message that says so"
    );
}
