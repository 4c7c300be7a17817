# The messages of lesson 06's graded tests (graded.rs). Arguments are already formatted
# (numbers, dates, token lists, matrices); the likely causes that name a mistake, from
# course_harness::mistakes::full_model, arrive as `cause` or `hint`. Keep the English byte
# for byte: `cargo xtask mistakes 06` looks for the words of mistakes/06-full-model.toml
# in these messages.

## Shared


## The tiny model

parameter-order = Transformer::parameters_mut lists { $got } tensors, the documented order { $expected }

## The data: the calendar, the examples, the batches

days-thirty = April, June, September and November have 30 days
days-not-divisible-by-4 = { $year } is not divisible by 4: not a leap year
days-divisible-by-4 = { $year } is divisible by 4: a leap year
days-century = { $year } is a century not divisible by 400: not a leap year
days-divisible-by-400 = { $year } is divisible by 400: a leap year
days-july-august = July and August both have 31 days
days-in-month-mismatch = days_in_month({ $year }, { $month }): expected { $expected }, got { $got }. { $why }
months-sum = the months of { $year } add up to { $total } days, not { $days }
weekday-mismatch = day_of_week({ $date }): expected { $expected } ({ $name }), got { $got }. Likely cause: { $cause }
weekday-cause-sunday = counting from Sunday = 0 instead of Monday = 0, or an off-by-one day
weekday-cause-before-2000 = dates before the reference date: count backwards (and mind the sign of the remainder), and apply the century rule of leap years
weekday-cause-leap-day = a leap day counted in the wrong year (the century rule, or February of the current year counted before March)
weekday-not-consecutive = day_of_week({ $date }) is { $weekday }, but the day before was { $previous }: consecutive days must have consecutive weekdays (mod 7)
sample-date-impossible = sample_date gave { $date }, which does not exist. Likely cause: days_in_month
sample-never-31st = 20000 sampled dates never had a 31st: days_in_month is too short
sample-never-feb-29 = 20000 sampled dates never had a 29 February: days_in_month is too short
month-field = { $source }: the month field { $month } is not month { $number }
weekday-format = { $format } of { $date }: expected { $expected }, got { $got }. Likely cause: day_of_week (0 must be Monday)
vocab-size = the date vocabulary has 44 tokens, the special three included
vocab-specials-empty = a vocabulary of the special tokens only is empty
heldout-in-training = a training batch holds the held-out year { $year }: the model would see the years it is evaluated on
heldout-batch-year = a held-out batch holds { $year }, which is not a held-out year (or the batch's tgt_out does not start with the target)
batch-lengths = a batch of 2 pairs whose longest target has 3 tokens: len() 2, target_len() 4
batch-empty = a batch with no pairs is empty
batch-src = Batch::new's src: expected { $expected }, got { $got }. Every source is padded with PAD (token 0) to the longest source.
batch-tgt-in = Batch::new's tgt_in: expected { $expected }, got { $got }. The decoder's input is BOS followed by the target (the target shifted right), padded to the longest target plus one. Starting from PAD instead of BOS is the Annotated Transformer's issue #127.
batch-tgt-out = Batch::new's tgt_out: expected { $expected }, got { $got }. What the decoder must predict is the target followed by EOS, padded: position t predicts the token after tgt_in[..=t].

## Masks

key-padding-mask-mismatch =
    key_padding_mask(2, [5, 3, PAD, 4, PAD]) should be
    { $expected }
    got
    { $got }
    Likely cause: one row per query, one column per key, false exactly where the key is PAD (token 0).
target-mask-mismatch =
    target_mask([BOS, 4, 5, PAD, PAD]) should be
    { $expected }
    got
    { $got }
    Likely cause: { $hint }.
target-mask-only-padding = this is only the padding mask: without the causal part, position i sees the tokens it must predict
target-mask-upper = the mask is upper-triangular or excludes the diagonal: position i must see positions 0..=i, itself included
target-mask-combine = combine lesson 02's causal_mask(T) and key_padding_mask(T, tgt_in) with &

## Initialisation

xavier-range = xavier_uniform(200, 300): an entry is { $largest }, outside (−a, a) with a = √(6 / (fan_in + fan_out)) = √(6/500) = { $a }. Likely cause: a computed from one fan only, or without the 6.
xavier-mean = xavier_uniform: the mean of 60000 entries is { $mean }; it should be near 0 (draw from −a to a, not from 0 to a)
xavier-std = xavier_uniform: the standard deviation is { $std }, expected a/√3 = { $expected } for a uniform distribution on (−a, a)
xavier-rows-equal = xavier_uniform: rows 0 and 1 are equal: draw every entry
embedding-std = embedding_init(500, 64): the standard deviation is { $std }, expected 1/√64 = 0.125.{ $cause }
embedding-std-cause = {" "}Likely cause: N(0, 1), PyTorch's nn.Embedding default; times √d_model the embeddings would be 8 times the positional encoding and drown it (lesson 04)
embedding-mean = embedding_init: the mean is { $mean }, expected 0
embedding-within = embedding_init: { $percent } % of the entries are within one standard deviation; a normal distribution has 68.3 % (a uniform one 57.7 %): use standard_normal

## The forward pass

label-tiny-logits = the tiny model's logits (B·T, vocab)
parameter-count = the tiny model has 883 learned numbers (PyTorch counts the same), parameter_count says { $count }
passes-per-pair = ModelForward keeps one encoder and one decoder pass per pair of the batch
label-pair-alone = rows { $start }..{ $end } of the batch's logits (pair { $pair } alone)
label-future = logits of positions 0 and 1 when the inputs at positions 2 to 4 change
future-own-input = position 2's logits did not change when its own input changed
label-padding = the logits of [5 3] → [6] with and without padding
initial-loss = the loss of a freshly initialised model (seed { $seed }) is { $loss }, but ln V = { $ln_v }: a model that knows nothing spreads its probability over the V tokens, so the loss should be within ±0.7 of ln V. Likely cause: weights initialised too large (xavier_uniform), or a loss that is summed instead of averaged over the tokens

## The loss

tokens-one = one target that is not padding: tokens should be 1
loss-over-every-row = the loss is { $value }, the mean over all 4 rows: divide by the number of targets that are not padding (3), not by the number of rows
label-loss-padding-row = the loss with a padding row
tokens-three = tokens should be 3 (the rows not PAD), got { $tokens }
label-loss-gradient-padding = d loss / d logits with a padding row
loss-gradient-hint = the gradient of cross-entropy over a softmax is (p − q)/N: the predicted probabilities minus the smoothed targets, divided by the number of real tokens, and 0 on padding rows
loss-not-finite = the loss of logits near ±1000 is { $value }: { $cause }
label-huge-loss = the loss of huge logits
label-huge-d-logits = d_logits of huge logits
huge-logits-hint = subtract the row maximum

## The backward pass

label-tensor-gradient = { $what }: the gradient of { $name } (entries { $entries })
label-memory-gradient = decode_backward's gradient of the memory
label-tiny-loss = the tiny model's loss (ε = 0.1)
label-flattened-gradient = the gradient of { $name }{ $note }, flattened
note-no-gradient-rows = {" "}(the rows of PAD, BOS and EOS get no gradient: padding is masked, and BOS and EOS are not in the sources)

## The optimiser

noam-step-1 = step 1
noam-peak = the peak, step = warmup
noam-decay = step 20000, decaying as 1/√step
noam-step-0 = step 0 is treated as step 1
noam-half-warmup = half-way up the warm-up
noam-factor = factor 0.5, warm-up 400
noam-mismatch = noam_rate({ $step }, { $d_model }, { $warmup }, { $factor }) ({ $what }): expected { $expected }, got { $got }. Likely cause: { $cause }
noam-date-peak = noam_rate(100, 32, 100, noam_factor(3e-3, 32, 100)) should be the peak, 3e-3, got { $peak }
learning-rate-mismatch = TrainConfig::dates().learning_rate({ $step }, 32): expected { $expected }, got { $got }
label-clip-norm = the norm returned by clip_global_norm
label-clipped = [3, 4] and [12] clipped to a global norm of 1
label-small-norm = the norm of [0.3, −0.4], [0]
clip-below-max = a gradient whose norm (0.5) is below max_norm (1) must not change, got { $c }, { $d }
label-adam-step = the parameters after Adam step { $step }
adam-step-count = Adam::step should count the updates: 3, got { $step }
label-adam-first-step = the parameters after one Adam step with gradients [1000, −0.001, 5, 0]

## Training

label-step-loss = the step's loss (before the update)
label-grad-norm = the gradient norm before clipping
step-tokens = the batch has 6 target tokens, the report says { $tokens }
step-adam-unclipped = Adam was given the gradient before clipping: its first moment after one step is (1 − β₁) × a gradient of norm { $norm }, the norm before clipping, where the clipped gradient has norm 1. Clip first (step 4 of the contract), then update with the clipped gradient (step 5).
step-adam-moment = after one step Adam's first moment m should be (1 − β₁) × the clipped gradient, of norm (1 − β₁) × 1; yours is (1 − β₁) × { $norm }. Is m updated as β₁ m + (1 − β₁) g, with the clipped g?
label-after-step = { $name } after one training step
train-steps = train should run and report 60 steps
learned-by-heart = after 60 training steps on the same 4 pairs the loss is { $last } (it started at { $first }); a working model learns them by heart, below 0.1. Likely cause: the update goes the wrong way (θ −= lr · m̂/(√v̂ + ε)), a gradient that is assigned instead of added, or a learning rate that is not used

## Decoding

label-cached-attention = cached_attention with keys = w_k(memory), values = w_v(memory)
cache-layers = one LayerCache per decoder layer
cache-position = decoding starts at position 0
cache-memory-mask = the cache's memory_mask should be key_padding_mask(1, src)
label-memory-keys = layer { $layer }'s memory_keys
label-memory-values = layer { $layer }'s memory_values
label-keys-before = layer { $layer }'s keys before any step
step-hint-first = at position 0 the cache holds only the new row: check the embedding (×√d_model, plus PE at position cache.position), the layer's steps in the order of lesson 05's DecoderLayer::forward for this norm position, and the output projection
step-hint-later = position 0 was right, so the step itself is: { $cause }
label-decode-step = { $norm }-LN: decode_step's logits at position { $t } against row { $t } of the full forward pass (likely cause if they differ: { $hint })
decode-step-position = decode_step must advance cache.position: after { $steps } steps it is { $position }
label-cache-keys = the self-attention keys in the cache
greedy-cached-wrong = greedy_decode_cached's tokens are not what the forward pass over [BOS, its tokens] predicts (greedy_decode's are)
greedy-full-wrong = greedy_decode's tokens are not what the forward pass over [BOS, its tokens] predicts (greedy_decode_cached's are)
greedy-neither-right = neither is what the forward pass over [BOS, its tokens] predicts
greedy-disagree-cause = {" "}Likely cause: { $wrong }: decoding must start from BOS, never PAD (issue #127 of the Annotated Transformer: starting from PAD), feed back the token each step picks, keep the keys and values of every earlier position in the cache, and stop at EOS or after max_len tokens.
greedy-disagree = greedy decoding of { $src }: { $full } re-running the decoder, { $cached } with the cache; they must be the same.{ $hint }
greedy-special-tokens = { $name } returned { $tokens }: the result holds generated tokens only, never PAD, BOS or EOS
greedy-forward-disagree = { $name } generated { $tokens }, but the forward pass over [BOS, ...] says token { $t } should be { $expected }. Likely cause: decoding did not start from BOS (issue #127 of the Annotated Transformer: starting from PAD), or the last row of the decoder was not the one used
greedy-stopped-early = { $name } stopped after { $count } tokens, but the next token is { $stop }, not EOS
successor-from-pad = decoding started from PAD instead of BOS (the Annotated Transformer's issue #127): the first input is BOS, as in training
successor-first-row = every step read the logits of the first row instead of the last (the new token's)
successor-no-stop = generation did not stop at EOS
successor-feed-back = each step appends the token picked with next_token from the last row's logits and feeds it back in
successor-mismatch = { $name } of the hand-built successor model: expected [3, 4, 5, 6] (BOS → 3 → 4 → 5 → 6 → EOS), got { $tokens }. Likely cause: { $hint }.
exact-match = exact_match of the successor model on two right targets and one wrong (too short) target: expected 2/3, got { $score }
next-token-tie = next_token([9, 9, 1, 2, 2, 0, −1]) should be 3: never PAD or BOS, and the first of equal scores; got { $tie }
max-len-stop = greedy_decode_cached(.., max_len = 2) should stop after 2 tokens, got { $tokens }
eos-first = { $name }: the first token is EOS, so nothing is generated; got { $tokens }
never-eos = { $name }(.., max_len = 5) never sees EOS, so it must return 5 tokens; got { $tokens }
