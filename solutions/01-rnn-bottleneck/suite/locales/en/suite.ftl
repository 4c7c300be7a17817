# The messages of lesson 01's graded suite (graded.rs). Arguments are already formatted
# (numbers, vectors). Keep the English byte for byte what the tests expect:
# `cargo xtask mistakes 01` looks for the named mistakes' words in them.

## Gradient checks

# A gradient that matches a known mistake: { $cause } is the mistake, { $hint } what the
# gradient is in general.
gradient-known-mistake = your gradient matches a known mistake: { $cause }. (In general: { $hint })

## One step

label-step-cs231n = step on CS231n's fixture
neither-weight-transposed = neither weight was transposed (x W_xh + h W_hh): the course's weights are (d_out, d_in), one row per hidden unit, so the step is x W_xhᵀ + h W_hhᵀ + b
w-xh-not-transposed = W_xh was not transposed (x W_xh): it is (d_hidden, d_in), one row per hidden unit, so the step uses x W_xhᵀ
# The gradients of step_backward: { $name } is d_x, d_h, d_w_xh, d_w_hh or d_b.
label-step-gradient = step { $name }
hint-step-d-x = dx = dz W_xh with dz = dh' ⊙ (1 − h'²)
hint-step-d-w-xh = dW_xh = dzᵀ x, shape (d_hidden, d_in) like W_xh
hint-step-d-w-hh = dW_hh = dzᵀ h, with h the previous state
hint-step-d-b = the bias is added to every row, so db sums dz over the rows

## A whole sequence

label-forward-states = forward's states
label-forward-states-shape = forward's states (T = { $len }, d_hidden = { $hidden })
label-state-against-step = state { $t } against step(x_{ $t }, the state before it)
label-forward-empty = forward of an empty sequence
encode-empty-not-h0 = encode of an empty sequence should be h0 = { $h0 }, got { $context }. Likely cause: with no tokens there is no last state; the context is the state before the first token, h0
# { $name } is d_xs, d_h0, d_w_xh, d_w_hh or d_b.
label-gradient-of-empty = { $name } of an empty sequence
label-forward-one-token = forward of one token
label-encode-one-token = encode of one token
label-backward-one-token = backward of one token: { $name } (should equal the gradient of one step)
hint-backward-one-token = a sequence of one token is one step: its BPTT must give the step's gradients, with h0 as the state before it
label-encode-first-tokens = encode of the first { $len } tokens

## Backpropagation through time

hint-check-every-step = check every step's gradient
hint-bptt-d-xs = walk from the last step to the first, calling step_backward with the gradient that reaches each state; row t of d_xs is that step's d_x
hint-bptt-d-h0 = d_h0 is the d_h that the first step (t = 0) sends back
hint-bptt-d-w-xh = add up every step's dW_xh = dzᵀ x_t
hint-bptt-d-w-hh = add up every step's dW_hh = dzᵀ h_(t-1); at step 0 the previous state is h0
hint-bptt-d-b = add up every step's db

## Why gradients vanish or explode

d-h0-length = d_h0 must have d_hidden entries
label-origin-jacobian = ∂h_6/∂h_0 at the origin (should be W_hh⁶)
origin-singular-value = the largest singular value of ∂h_6/∂h_0 at the origin should be σ_max(W_hh)⁶ = 0.5⁶ = { $bound }, got { $norm }. Likely cause: the recurrent gradient is dh = dz W_hh with dz = dh' ⊙ (1 − h'²), and 1 − 0² = 1 here
label-jacobian-rows = ∂h_{ $len }/∂h_{ $t }, row k = d_h0 with upstream e_k on the last state
hint-jacobian = backpropagate through every remaining step; each step multiplies the gradient by diag(1 − h'²) and then by W_hh
jacobian-exceeds-bound = ‖∂h_{ $len }/∂h_{ $t }‖ = { $norm } exceeds σ_max(W_hh)^{ $power } = { $bound }; |tanh'| ≤ 1 makes that impossible for a correct backward pass
last-token-gradient-zero = the gradient of Σ h_20 for the last token should be clearly nonzero, got { $last }. Likely cause: backward must start from d_states's last row
first-token-gradient-too-large = the gradient of Σ h_20 for the first token should be at most 0.5¹⁹ · σ_max(W_xh) · √6 = { $bound }, got { $first } (the last token's is { $last }). Likely cause: every step back must multiply by diag(1 − h'²) and by W_hh, whose largest singular value is 0.5
first-states-too-close = the first states should differ clearly (the first tokens differ), but they are { $start } apart. Likely cause: the step must read its token, x W_xhᵀ
states-not-converging = after { $tokens } tokens the two states are { $distance } apart, more than the bound 0.5^{ $t } × { $start } = { $bound }. Likely cause: each state must be tanh of W_hh times the previous one (plus the input), and tanh never increases distances
contexts-differ = the two context vectors should be nearly equal, but differ by { $difference }
