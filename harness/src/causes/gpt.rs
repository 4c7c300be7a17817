//! Lesson 07's causes: the byte-level BPE tokenizer, RMSNorm, RoPE and SwiGLU; the
//! learning-rate schedule, AdamW, sampling and the byte baselines.

use crate::Cause;

/// among pairs with the same count, training took the largest pair (or the last one seen).
pub const TIE_LARGEST: Cause = Cause::harness("bpe-tie-largest");

/// among pairs with the same count, training took the pair seen first in the text.
pub const TIE_FIRST_SEEN: Cause = Cause::harness("bpe-tie-first-seen");

/// pairs were counted without overlaps (after a pair, the count skipped its second id).
pub const COUNT_NON_OVERLAPPING: Cause = Cause::harness("bpe-count-non-overlapping");

/// after merging a pair, the scan went on at the pair's second id instead of after it.
pub const MERGE_STEP_ONE: Cause = Cause::harness("bpe-merge-step-one");

/// encoding merged the leftmost learned pair first instead of the pair with the lowest rank (learned first).
pub const ENCODE_LEFT_FIRST: Cause = Cause::harness("bpe-encode-left-first");

/// encoding applied the merges from the last learned to the first (the highest rank first).
pub const ENCODE_HIGHEST_RANK: Cause = Cause::harness("bpe-encode-highest-rank");

/// encoding merged first the learned pair most frequent in the text being encoded.
pub const ENCODE_MOST_FREQUENT: Cause = Cause::harness("bpe-encode-most-frequent");

/// encoding stopped after one pass over the merges or one merge per pair found.
pub const ENCODE_ONE_PASS: Cause = Cause::harness("bpe-encode-one-pass");

/// the end-of-text token was encoded as the bytes of its text "<|endoftext|>".
pub const EOT_AS_BYTES: Cause = Cause::harness("bpe-eot-as-bytes");

/// the end-of-text token has the wrong id.
pub const EOT_ID: Cause = Cause::harness("bpe-eot-id");

/// the end-of-text token was dropped.
pub const EOT_DROPPED: Cause = Cause::harness("bpe-eot-dropped");

/// the row's mean was subtracted, as LayerNorm does.
pub const RMS_MEAN_SUBTRACTED: Cause = Cause::harness("rms-mean-subtracted");

/// ε was added outside the square root, x / (√mean(x²) + ε).
pub const RMS_EPS_OUTSIDE: Cause = Cause::harness("rms-eps-outside");

/// x was divided by the mean square, not by its square root.
pub const RMS_NO_SQRT: Cause = Cause::harness("rms-no-sqrt");

/// the squares were averaged over d_model − 1.
pub const RMS_UNBIASED: Cause = Cause::harness("rms-unbiased");

/// the backward pass treated 1/rms as a constant (dx = r·(dY ⊙ g)).
pub const RMS_BACKWARD_CONSTANT_R: Cause = Cause::harness("rms-backward-constant-r");

/// the backward pass has LayerNorm's − mean_row(h) term.
pub const RMS_BACKWARD_MEAN_TERM: Cause = Cause::harness("rms-backward-mean-term");

/// the gain's gradient used the input x, not the normalised x̂ = x·r.
pub const RMS_D_GAIN_RAW_X: Cause = Cause::harness("rms-d-gain-raw-x");

/// the gain's gradient is Σ_rows dY, as for a bias.
pub const RMS_D_GAIN_NO_X: Cause = Cause::harness("rms-d-gain-no-x");

/// the pairs were turned the other way (the sine's sign flipped).
pub const ROPE_CLOCKWISE: Cause = Cause::harness("rope-clockwise");

/// feature i was paired with feature i + d_head/2 (the layout of some LLaMA ports).
pub const ROPE_HALF_SPLIT: Cause = Cause::harness("rope-half-split");

/// the positions started at 0 whatever `start` was.
pub const ROPE_IGNORES_START: Cause = Cause::harness("rope-ignores-start");

/// each column got a frequency of its own (ω indexed by the column, not the pair).
pub const ROPE_FREQUENCY_PER_COLUMN: Cause = Cause::harness("rope-frequency-per-column");

/// the backward pass turned the gradient by the same angle as the forward pass.
pub const ROPE_BACKWARD_FORWARD: Cause = Cause::harness("rope-backward-forward");

/// SiLU was applied to the output of W_up instead of W_gate.
pub const SILU_ON_UP: Cause = Cause::harness("swiglu-silu-on-up");

/// the gate is the sigmoid σ(a), not SiLU(a) = a·σ(a) (that would be GLU's gate).
pub const SIGMOID_GATE: Cause = Cause::harness("swiglu-sigmoid");

/// the backward pass used σ(a) as the slope of SiLU.
pub const SILU_SLOPE_SIGMOID: Cause = Cause::harness("swiglu-slope-sigmoid");

/// dx has only one of its two paths.
pub const SWIGLU_DX_ONE_PATH: Cause = Cause::harness("swiglu-dx-one-path");

/// the warm-up starts at 0 (max_lr · step / warmup).
pub const WARMUP_FROM_ZERO: Cause = Cause::harness("lr-warmup-from-zero");

/// the cosine's progress is counted over all the steps.
pub const COSINE_PROGRESS_TOTAL: Cause = Cause::harness("lr-cosine-progress-total");

/// the cosine lacks its (1 + cos)/2.
pub const COSINE_NO_HALF: Cause = Cause::harness("lr-cosine-no-half");

/// the cosine decays to 0 instead of min_lr.
pub const COSINE_TO_ZERO: Cause = Cause::harness("lr-cosine-to-zero");

/// the weight decay was added to the gradient (g + λθ), which is Adam with an L2 penalty.
pub const ADAMW_L2: Cause = Cause::harness("adamw-l2");

/// the decay was applied after Adam's step, to the updated weight.
pub const ADAMW_DECAY_AFTER: Cause = Cause::harness("adamw-decay-after");

/// every tensor was decayed.
pub const ADAMW_DECAY_ALL: Cause = Cause::harness("adamw-decay-all");

/// the decay is missing the learning rate.
pub const ADAMW_DECAY_NO_LR: Cause = Cause::harness("adamw-decay-no-lr");

/// the logits were multiplied by the temperature.
pub const TEMPERATURE_MULTIPLIED: Cause = Cause::harness("temperature-multiplied");

/// the temperature changed nothing: the result is softmax(logits) (T divided the exponentials,
/// and the normalisation cancelled it).
pub const TEMPERATURE_IGNORED: Cause = Cause::harness("temperature-ignored");

/// the kept probabilities were not renormalised.
pub const TOP_K_NOT_RENORMALISED: Cause = Cause::harness("top-k-not-renormalised");

/// among equal probabilities the higher id was kept.
pub const TOP_K_TIES_HIGH: Cause = Cause::harness("top-k-ties-high");

/// the token at which the cumulative probability reaches p was left out.
pub const TOP_P_EXCLUDES_CROSSING: Cause = Cause::harness("top-p-excludes-crossing");

/// the nucleus was not renormalised.
pub const TOP_P_NOT_RENORMALISED: Cause = Cause::harness("top-p-not-renormalised");

/// the result is in nats (natural logarithm).
pub const BITS_IN_NATS: Cause = Cause::harness("bits-in-nats");

/// the counts were not smoothed.
pub const BASELINE_NO_SMOOTHING: Cause = Cause::harness("baseline-no-smoothing");

/// the first byte of the text was left out (the mean over the pairs only).
pub const BIGRAM_SKIPS_FIRST: Cause = Cause::harness("bigram-skips-first");

/// the values were turned by RoPE too.
pub const ROPE_ON_VALUES: Cause = Cause::harness("rope-on-values");

/// RoPE was applied to the input before the projections.
pub const ROPE_BEFORE_PROJECTION: Cause = Cause::harness("rope-before-projection");

/// RoPE was applied to the whole width d_model before the heads were split, with frequencies of d_model.
pub const ROPE_WHOLE_WIDTH: Cause = Cause::harness("rope-whole-width");

/// the attention has no causal mask.
pub const SELF_ATTENTION_NOT_CAUSAL: Cause = Cause::harness("self-attention-not-causal");

/// the gradients of the queries and keys were not turned back by rope_backward before the projections' gradients.
pub const ROPE_NOT_TURNED_BACK: Cause = Cause::harness("rope-not-turned-back");

/// dx lacks one of its three paths.
pub const ATTENTION_DX_PATH: Cause = Cause::harness("attention-dx-path");

/// both sublayers' outputs were added to their normalised inputs, not to the stream.
pub const BLOCK_RESIDUAL_ON_NORMED: Cause = Cause::harness("block-residual-on-normed");

/// the attention's output was added to its normalised input, h = a + Attention(a).
pub const BLOCK_RESIDUAL_1_ON_NORMED: Cause =
    Cause::harness("block-residual-1-on-normed");

/// the feed-forward's output was added to its normalised input, y = b + SwiGLU(b).
pub const BLOCK_RESIDUAL_2_ON_NORMED: Cause =
    Cause::harness("block-residual-2-on-normed");

/// the feed-forward read RMSNorm_2(x), not RMSNorm_2(h): the sublayers ran side by side.
pub const BLOCK_PARALLEL: Cause = Cause::harness("block-parallel");

/// the block normalised after each residual (post-norm), not before each sublayer.
pub const BLOCK_POST_NORM: Cause = Cause::harness("block-post-norm");

/// the attention's backward got d_y, not d_h.
pub const BLOCK_ATTENTION_GETS_DY: Cause = Cause::harness("block-attention-gets-dy");

/// the first residual passed d_y to x, not d_h.
pub const BLOCK_SKIP_CARRIES_DY: Cause = Cause::harness("block-skip-carries-dy");

/// an RMSNorm's backward was taken at its output, not at its input.
pub const BLOCK_NORM_BACKWARD_AT_OUTPUT: Cause =
    Cause::harness("block-norm-backward-at-output");

/// a residual's straight path was dropped from the gradient.
pub const BLOCK_NO_SKIP_GRADIENT: Cause = Cause::harness("block-no-skip-gradient");

/// the logits came from x_L, not from RMSNorm_f(x_L).
pub const GPT_HEAD_UNNORMED: Cause = Cause::harness("gpt-head-unnormed");

/// dE lacks the head's share.
pub const GPT_EMBEDDING_NO_HEAD_SHARE: Cause =
    Cause::harness("gpt-embedding-no-head-share");

/// dE lacks the lookup's share.
pub const GPT_EMBEDDING_NO_LOOKUP_SHARE: Cause =
    Cause::harness("gpt-embedding-no-lookup-share");

/// the lookup's rows were written over dE, not added.
pub const GPT_EMBEDDING_LOOKUP_ASSIGNED: Cause =
    Cause::harness("gpt-embedding-lookup-assigned");

/// the head's share of dE used x_L, not RMSNorm_f(x_L).
pub const GPT_EMBEDDING_HEAD_UNNORMED: Cause =
    Cause::harness("gpt-embedding-head-unnormed");

/// the blocks' gradients were left in the order they were computed, last block first.
pub const GPT_BLOCK_GRADS_REVERSED: Cause = Cause::harness("gpt-block-grads-reversed");

/// the loss's gradient lacks the 1/n of the mean.
pub const LOSS_GRADIENT_NOT_MEAN: Cause = Cause::harness("loss-gradient-not-mean");

/// the loss is the sum over rows, not the mean.
pub const LOSS_VALUE_SUM: Cause = Cause::harness("loss-value-sum");

/// the loss is in bits, not nats.
pub const LOSS_IN_BITS: Cause = Cause::harness("loss-in-bits");

/// only the target's entry got a gradient.
pub const LOSS_GRADIENT_TARGET_ONLY: Cause = Cause::harness("loss-gradient-target-only");

/// the cached step turned the new key at position 0.
pub const STEP_KEY_AT_ZERO: Cause = Cause::harness("step-key-at-zero");

/// the cached step turned the new query at position 0.
pub const STEP_QUERY_AT_ZERO: Cause = Cause::harness("step-query-at-zero");

/// the cached step turned the new query at p + 1 (the cache's length read after the push).
pub const STEP_QUERY_AFTER_PUSH: Cause = Cause::harness("step-query-after-push");

/// the cached step turned the new key at p + 1 (the cache's length read after the push).
pub const STEP_KEY_AFTER_PUSH: Cause = Cause::harness("step-key-after-push");

/// the cached step attended before pushing the new key and value.
pub const STEP_ATTEND_BEFORE_PUSH: Cause = Cause::harness("step-attend-before-push");

/// this tensor's gradient is the right gradient of another tensor of the same shape.
pub const GRADIENT_OF_ANOTHER_TENSOR: Cause =
    Cause::harness("gradient-of-another-tensor");
