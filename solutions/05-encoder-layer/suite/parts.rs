// The lesson's layers taken apart into what the builders of wrong answers take
// (`course_mistakes::encoder_layer`, which computes every layer itself): one file, which
// the graded suite and the visible tests both include.
//
// Only the maintainers' builds compile it (the `builders` feature): everywhere else the
// builders' calls, and so these adapters, are compiled out, and their results are read
// from the records (see `course_harness::named`).

use course_mistakes::encoder_layer::{Decoder, Encoder, Ffn, Norm, Position};
use course_mistakes::multi_head_attention::{Layer, LinearWeights};
use encoder_layer::{
    DecoderLayer, EncoderLayer, FeedForward, LayerNorm, Linear, MultiHeadAttention,
    NormPosition,
};

pub fn linear_parts(layer: &Linear) -> LinearWeights<'_> {
    LinearWeights {
        weight: &layer.weight,
        bias: &layer.bias,
    }
}

pub fn attention_parts(attention: &MultiHeadAttention) -> Layer<'_> {
    Layer {
        n_heads: attention.n_heads,
        w_q: linear_parts(&attention.w_q),
        w_k: linear_parts(&attention.w_k),
        w_v: linear_parts(&attention.w_v),
        w_o: linear_parts(&attention.w_o),
    }
}

pub fn norm_parts(norm: &LayerNorm) -> Norm<'_> {
    Norm {
        gamma: &norm.gamma,
        beta: &norm.beta,
        eps: norm.eps,
    }
}

pub fn ffn_parts(ffn: &FeedForward) -> Ffn<'_> {
    Ffn {
        w_1: linear_parts(&ffn.w_1),
        w_2: linear_parts(&ffn.w_2),
    }
}

pub fn position_of(position: NormPosition) -> Position {
    match position {
        NormPosition::Post => Position::Post,
        NormPosition::Pre => Position::Pre,
    }
}

pub fn encoder_parts(layer: &EncoderLayer) -> Encoder<'_> {
    Encoder {
        self_attention: attention_parts(&layer.self_attention),
        ffn: ffn_parts(&layer.ffn),
        norm_1: norm_parts(&layer.norm_1),
        norm_2: norm_parts(&layer.norm_2),
        position: position_of(layer.norm_position),
    }
}

pub fn decoder_parts(layer: &DecoderLayer) -> Decoder<'_> {
    Decoder {
        self_attention: attention_parts(&layer.self_attention),
        cross_attention: attention_parts(&layer.cross_attention),
        ffn: ffn_parts(&layer.ffn),
        norm_1: norm_parts(&layer.norm_1),
        norm_2: norm_parts(&layer.norm_2),
        norm_3: norm_parts(&layer.norm_3),
        position: position_of(layer.norm_position),
    }
}
