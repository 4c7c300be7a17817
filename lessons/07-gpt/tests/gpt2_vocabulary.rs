//! Your encoder with GPT-2's vocabulary: the same token ids as GPT-2's own tokenizer.
//!
//! GPT-2 is a byte-level BPE like yours, trained on 40 GB of web text: 50,000 merges, then
//! `<|endoftext|>`, 50,257 ids. This test takes GPT-2's vocabulary from the `tiktoken-rs`
//! crate (its `r50k_base` encoding, the one GPT-2 and GPT-3 use), turns it into a list of
//! merges your `Bpe::from_merges` accepts, and checks that your `encode_piece` gives, piece
//! by piece, the ids GPT-2's tokenizer gives. Run it with
//! `cargo test -p gpt --test gpt2_vocabulary` (it needs `Bpe::encode_piece` and
//! `Bpe::decode_bytes`). Book: chapter 07, "GPT-2's vocabulary".
//!
//! Two things differ between GPT-2's files and your tokenizer, and the test bridges both:
//!
//! - **Pieces.** GPT-2 first cuts text with a regular expression (a word with the space
//!   before it, a run of digits, a run of punctuation, whitespace), and merges only inside
//!   a piece: no token holds the end of one word and the start of the next. Your `encode`
//!   cuts only at `<|endoftext|>`; here the test cuts with GPT-2's pattern and calls your
//!   `encode_piece` on each piece.
//! - **Numbering.** GPT-2 stores ranks, one per token, not merges; its 256 single bytes have
//!   ranks 0 to 255 in another order than their values (the printable ones first). The test
//!   recovers each merge from the ranks (the two tokens that BPE, run with the earlier ranks
//!   only, leaves of the token's bytes), and maps ids: a byte is its value in yours and its
//!   rank in GPT-2's; merge r is 256 + r in both.

use std::collections::HashMap;

use course_harness::assert_ids_eq;
use fancy_regex::Regex;
use gpt::{Bpe, END_OF_TEXT};
use tiktoken_rs::CoreBPE;

/// GPT-2's pre-tokenising pattern as `tiktoken` writes it for `r50k_base`: GPT-2's
/// `encoder.py` pattern (contractions, ` ?` letters, ` ?` digits, ` ?` other symbols,
/// whitespace not followed by a non-space, whitespace) with possessive quantifiers.
const GPT2_PATTERN: &str =
    r"'(?:[sdmt]|ll|ve|re)| ?\p{L}++| ?\p{N}++| ?[^\s\p{L}\p{N}]++|\s++$|\s+(?!\S)|\s";

/// GPT-2's vocabulary: the ranks of its bytes, GPT-2's own tokenizer, and the `Bpe` built from
/// the merges recovered from the ranks.
struct Gpt2 {
    /// The rank of each single byte: `byte_rank[b]`.
    byte_rank: [u32; 256],
    reference: CoreBPE,
    yours: Bpe,
}

impl Gpt2 {
    fn load() -> Self {
        let reference =
            tiktoken_rs::r50k_base().expect("tiktoken-rs ships GPT-2's ranks");
        // A fact about GPT-2's vocabulary, independent of this test's code: "Hello world"
        // is the two tokens 15496 and 995 (the second with its space).
        assert_eq!(
            reference.encode_ordinary("Hello world"),
            [15496, 995],
            "tiktoken-rs's r50k_base is not GPT-2's vocabulary"
        );
        let token_bytes: Vec<Vec<u8>> = (0..50_256)
            .map(|rank| reference.decode_bytes(&[rank]).expect("every rank decodes"))
            .collect();
        let rank_of: HashMap<&[u8], u32> = token_bytes
            .iter()
            .enumerate()
            .map(|(rank, bytes)| (bytes.as_slice(), rank as u32))
            .collect();
        let mut byte_rank = [0u32; 256];
        for (rank, bytes) in token_bytes[..256].iter().enumerate() {
            assert_eq!(bytes.len(), 1, "GPT-2's first 256 ranks are single bytes");
            byte_rank[usize::from(bytes[0])] = rank as u32;
        }
        // Your ids: a byte is its value; the token of rank r >= 256 is merge r - 256, id r.
        let your_id = |rank: u32| match token_bytes[rank as usize].as_slice() {
            [byte] => usize::from(*byte),
            _ => rank as usize,
        };
        let merges = (256..50_256u32)
            .map(|rank| {
                let (left, right) =
                    split_in_two(&token_bytes[rank as usize], rank, &rank_of);
                (your_id(left), your_id(right))
            })
            .collect();
        Self {
            yours: Bpe::from_merges(merges),
            byte_rank,
            reference,
        }
    }

    /// Your ids in GPT-2's numbering.
    fn to_gpt2(&self, ids: &[usize]) -> Vec<usize> {
        ids.iter()
            .map(|&id| match id {
                0..=255 => self.byte_rank[id] as usize,
                _ => id,
            })
            .collect()
    }

    /// GPT-2's ids of `text` (no end-of-text token in it).
    fn reference_ids(&self, text: &str) -> Vec<usize> {
        self.reference
            .encode_ordinary(text)
            .into_iter()
            .map(|rank| rank as usize)
            .collect()
    }
}

/// The two tokens that the token of rank `rank` was merged from: BPE on its bytes with the
/// ranks below `rank` only, merging the lowest-ranked adjacent pair each time, stops at
/// exactly two parts (the merge that made this token is the next one).
fn split_in_two(bytes: &[u8], rank: u32, rank_of: &HashMap<&[u8], u32>) -> (u32, u32) {
    // Each part is the range of `bytes` it covers; at first, one byte each.
    let mut parts: Vec<(usize, usize)> = (0..bytes.len()).map(|i| (i, i + 1)).collect();
    loop {
        let best = parts
            .windows(2)
            .enumerate()
            .filter_map(|(i, pair)| {
                let joined = &bytes[pair[0].0..pair[1].1];
                rank_of.get(joined).filter(|&&r| r < rank).map(|&r| (r, i))
            })
            .min();
        let Some((_, i)) = best else { break };
        parts[i].1 = parts[i + 1].1;
        parts.remove(i + 1);
    }
    assert_eq!(
        parts.len(),
        2,
        "GPT-2's token {rank} ({bytes:?}) is not one merge of two earlier tokens"
    );
    let rank_of_part = |(start, end): (usize, usize)| rank_of[&bytes[start..end]];
    (rank_of_part(parts[0]), rank_of_part(parts[1]))
}

/// Texts with what GPT-2's pieces are made of: words with their spaces, contractions,
/// digits, punctuation, runs of spaces, newlines, Chinese, emoji.
const TEXTS: [&str; 5] = [
    "Attention Is All You Need: the Transformer drops recurrence, and they're 8 heads of 64.",
    "x = softmax(Q @ K.T / sqrt(d_k))  # 1/√64 = 0.125\n\n    return weights",
    "注意力机制让每个词直接看到句子里的所有词。Self-attention, 自注意力!",
    "Don't panic 🙂\n\n  two  spaces\tand a tab   ",
    "GPT-2's vocabulary has 50257 ids; yours, trained on the book, has 769.",
];

#[test]
fn your_encoder_with_gpt2s_merges_gives_gpt2s_token_ids() {
    let gpt2 = Gpt2::load();
    assert_eq!(gpt2.yours.vocab_size(), 50_257);
    let pieces = Regex::new(GPT2_PATTERN).expect("GPT-2's pattern compiles");
    for text in TEXTS {
        let mut yours = Vec::new();
        for piece in pieces.find_iter(text) {
            let piece = piece.expect("GPT-2's pattern matches").as_str();
            yours.extend(gpt2.yours.encode_piece(piece));
        }
        assert_ids_eq(
            &format!("GPT-2's token ids of {text:?}, from your encode_piece"),
            &gpt2.to_gpt2(&yours),
            &gpt2.reference_ids(text),
            &[],
        );
        assert_eq!(
            gpt2.yours.decode_bytes(&yours),
            text.as_bytes(),
            "your decode_bytes of your ids of {text:?} is not its bytes"
        );
    }
}

#[test]
fn the_end_of_text_token_is_gpt2s_last_id() {
    let gpt2 = Gpt2::load();
    // 256 bytes + 50,000 merges: yours puts the token right after them, as GPT-2 does.
    assert_eq!(gpt2.yours.end_of_text(), 50_256);
    // Each side of the token is one GPT-2 piece, so your `encode`, which cuts only at the
    // token, meets GPT-2's here: "Hello" 15496, the token 50256, " world" 995.
    let text = format!("Hello{END_OF_TEXT} world");
    let expected: Vec<usize> = gpt2
        .reference
        .encode_with_special_tokens(&text)
        .into_iter()
        .map(|rank| rank as usize)
        .collect();
    assert_eq!(expected, [15496, 50_256, 995]);
    assert_ids_eq(
        &format!("GPT-2's token ids of {text:?}, from your encode"),
        &gpt2.to_gpt2(&gpt2.yours.encode(&text)),
        &expected,
        &[],
    );
}
