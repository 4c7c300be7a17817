# The held-out suite of lesson 02, attention: what its failing tests say (in the
# instructor's edition only). Arguments are already formatted. Keep the English byte for
# byte what it is.

## Softmax and attention

label-weights = weights
label-output = output
fully-masked-gradient-hint = a fully masked query has zero weights and zero gradient
backward-hint = recheck the backward formulas of chapter 02 with n_q ≠ n_k

## A single position

causal-mask-one = causal_mask(1) should be [[true]], got { $got }
single-position-label-weights = weights of a single position
single-position-label-output = output of a single position
