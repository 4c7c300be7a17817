// The layer's weights as the builders of wrong answers
// (`course_mistakes::multi_head_attention`) take them: one adapter, which the graded
// suite and the visible tests both include.
//
// Only the maintainers' builds compile it (the `builders` feature): everywhere else the
// builders' calls, and so this adapter, are compiled out, and their results are read
// from the records (see `course_harness::named`).

use course_mistakes::multi_head_attention::{Layer, LinearWeights};
use multi_head_attention::{Linear, MultiHeadAttention};

pub fn params(mha: &MultiHeadAttention) -> Layer<'_> {
    fn projection(layer: &Linear) -> LinearWeights<'_> {
        LinearWeights {
            weight: &layer.weight,
            bias: &layer.bias,
        }
    }
    Layer {
        n_heads: mha.n_heads,
        w_q: projection(&mha.w_q),
        w_k: projection(&mha.w_k),
        w_v: projection(&mha.w_v),
        w_o: projection(&mha.w_o),
    }
}
