//! A byte-level BPE tokenizer (byte-pair encoding, as GPT-2's): text as its UTF-8 bytes,
//! ids 0 to 255; each merge learned from a corpus makes one new id, 256 + its rank; the
//! end-of-text token comes after the merges. Book: chapter 07, "Tokens: byte-level BPE".

use std::collections::{BTreeMap, HashMap};

/// The text of the end-of-text token, which separates documents. It is never split into
/// bytes and never merged: it is one token, the last id of the vocabulary.
pub const END_OF_TEXT: &str = "<|endoftext|>";

// ANCHOR: count_pairs
/// How often each pair of adjacent ids occurs in `ids`, counting every position: in
/// `[1, 1, 1]` the pair `(1, 1)` occurs twice.
///
/// A `BTreeMap`, so that walking it visits the pairs in order, smallest first (the
/// training's tie-break). Book: chapter 07, "Tokens: byte-level BPE".
pub fn count_pairs(ids: &[usize]) -> BTreeMap<(usize, usize), usize> {
    // TODO: for each window of two ids, add one to the count of that pair.
    // BEGIN SOLUTION: todo!("count_pairs")
    let mut counts = BTreeMap::new();
    for window in ids.windows(2) {
        *counts.entry((window[0], window[1])).or_insert(0) += 1;
    }
    counts
    // END SOLUTION
}
// ANCHOR_END: count_pairs

// ANCHOR: merge_pair
/// `ids` with every occurrence of `pair` replaced by `new_id`, scanning left to right:
/// where occurrences overlap (`(1, 1)` in `[1, 1, 1]`), the left one is merged and the
/// scan goes on after it, giving `[new_id, 1]`.
///
/// Book: chapter 07, "Tokens: byte-level BPE".
pub fn merge_pair(ids: &[usize], pair: (usize, usize), new_id: usize) -> Vec<usize> {
    // TODO: walk with an index i; where ids[i], ids[i + 1] is the pair, push new_id and
    //       step by two; otherwise push ids[i] and step by one.
    // BEGIN SOLUTION: todo!("merge_pair")
    let mut merged = Vec::with_capacity(ids.len());
    let mut i = 0;
    while i < ids.len() {
        if i + 1 < ids.len() && (ids[i], ids[i + 1]) == pair {
            merged.push(new_id);
            i += 2;
        } else {
            merged.push(ids[i]);
            i += 1;
        }
    }
    merged
    // END SOLUTION
}
// ANCHOR_END: merge_pair

// ANCHOR: bpe
/// A trained byte-level BPE tokenizer: its merges, in the order they were learned.
///
/// Ids 0 to 255 are the bytes; merge `r` (from 0) joins the pair `merges[r]` into id
/// `256 + r`; the end-of-text token is id `256 + merges.len()`, the last.
#[derive(Debug, Clone, PartialEq)]
pub struct Bpe {
    merges: Vec<(usize, usize)>,
    /// Each merged pair's rank, for encoding.
    ranks: HashMap<(usize, usize), usize>,
    /// Each id's bytes (the end-of-text token's are its text).
    vocab: Vec<Vec<u8>>,
}
// ANCHOR_END: bpe

impl Bpe {
    /// The tokenizer with these merges. Panics if a merge names an id that does not
    /// exist yet (above 255 + its own rank), or if a pair is merged twice.
    pub fn from_merges(merges: Vec<(usize, usize)>) -> Self {
        let mut vocab: Vec<Vec<u8>> = (0..=255u8).map(|b| vec![b]).collect();
        let mut ranks = HashMap::new();
        for (rank, &(a, b)) in merges.iter().enumerate() {
            let next = 256 + rank;
            assert!(
                a < next && b < next,
                "merge {rank} joins ({a}, {b}), but only ids below {next} exist before it"
            );
            assert!(
                ranks.insert((a, b), rank).is_none(),
                "the pair ({a}, {b}) is merged twice"
            );
            let bytes = [vocab[a].as_slice(), vocab[b].as_slice()].concat();
            vocab.push(bytes);
        }
        vocab.push(END_OF_TEXT.as_bytes().to_vec());
        Self {
            merges,
            ranks,
            vocab,
        }
    }

    /// The merges, in the order they were learned.
    pub fn merges(&self) -> &[(usize, usize)] {
        &self.merges
    }

    /// The rank of `pair` (merge number, from 0) if it was learned.
    pub fn rank(&self, pair: (usize, usize)) -> Option<usize> {
        self.ranks.get(&pair).copied()
    }

    /// The number of ids: 256 bytes, one per merge, and the end-of-text token.
    pub fn vocab_size(&self) -> usize {
        self.vocab.len()
    }

    /// The id of the end-of-text token: `256 + merges.len()`.
    pub fn end_of_text(&self) -> usize {
        self.vocab.len() - 1
    }

    /// The bytes of token `id`. Panics if `id` is not below `vocab_size()`.
    pub fn token_bytes(&self, id: usize) -> &[u8] {
        assert!(
            id < self.vocab.len(),
            "token {id} is not in the vocabulary of {} ids",
            self.vocab.len()
        );
        &self.vocab[id]
    }

    // ANCHOR: encode_piece
    /// The ids of `text`, a piece without the end-of-text token: its UTF-8 bytes, then,
    /// again and again, the adjacent pair with the lowest rank among those present merged
    /// everywhere (with [`merge_pair`]), until no adjacent pair has been learned.
    ///
    /// Applying the merges in rank order reproduces training's segmentation; merging the
    /// most frequent pair of `text` instead would not. Book: chapter 07, "Encoding".
    pub fn encode_piece(&self, text: &str) -> Vec<usize> {
        // TODO: start from the bytes as ids; loop: among the adjacent pairs, take the one
        //       with the smallest `self.rank(pair)`; none learned: stop; else merge it into
        //       256 + rank.
        // BEGIN SOLUTION: todo!("Bpe::encode_piece")
        let mut ids: Vec<usize> = text.bytes().map(usize::from).collect();
        loop {
            let best = ids.windows(2).filter_map(|w| self.rank((w[0], w[1]))).min();
            let Some(rank) = best else {
                return ids;
            };
            ids = merge_pair(&ids, self.merges[rank], 256 + rank);
        }
        // END SOLUTION
    }
    // ANCHOR_END: encode_piece

    // ANCHOR: encode
    /// The ids of `text`: the pieces between occurrences of [`END_OF_TEXT`] encoded with
    /// [`Bpe::encode_piece`], each occurrence the single id `end_of_text()`.
    ///
    /// Book: chapter 07, "Special tokens".
    pub fn encode(&self, text: &str) -> Vec<usize> {
        // TODO: `text.split(END_OF_TEXT)`; between two pieces, push `self.end_of_text()`.
        // BEGIN SOLUTION: todo!("Bpe::encode")
        let mut ids: Vec<usize> = Vec::with_capacity(text.len());
        for (i, piece) in text.split(END_OF_TEXT).enumerate() {
            if i > 0 {
                ids.push(self.end_of_text());
            }
            ids.extend(self.encode_piece(piece));
        }
        ids
        // END SOLUTION
    }
    // ANCHOR_END: encode

    // ANCHOR: decode_bytes
    /// The bytes of `ids`, one token's bytes after another (the end-of-text token's are
    /// the text of [`END_OF_TEXT`]). For any text, `decode_bytes(&encode(text))` is its
    /// UTF-8 bytes exactly. Panics on an id not below `vocab_size()`.
    ///
    /// Book: chapter 07, "Decoding".
    pub fn decode_bytes(&self, ids: &[usize]) -> Vec<u8> {
        // TODO: concatenate `self.token_bytes(id)` for every id.
        // BEGIN SOLUTION: todo!("Bpe::decode_bytes")
        ids.iter()
            .flat_map(|&id| self.token_bytes(id).iter().copied())
            .collect()
        // END SOLUTION
    }
    // ANCHOR_END: decode_bytes

    /// The text of `ids`. A sequence cut inside a character (a sampled one can be) is not
    /// valid UTF-8: its broken bytes show as U+FFFD, '�'.
    pub fn decode(&self, ids: &[usize]) -> String {
        String::from_utf8_lossy(&self.decode_bytes(ids)).into_owned()
    }
}

// ANCHOR: train_bpe
/// Learns up to `n_merges` merges from `text`.
///
/// The text is split at [`END_OF_TEXT`] into documents, each turned into its UTF-8 bytes;
/// pairs are never counted across documents. Each round counts the adjacent pairs of all
/// documents ([`count_pairs`]), takes the most frequent, **the smallest pair among equal
/// counts** (by first id, then second), and merges it everywhere into id `256 + round`
/// ([`merge_pair`]). Training stops early when no adjacent pair is left.
///
/// Book: chapter 07, "Training the merges".
pub fn train_bpe(text: &str, n_merges: usize) -> Bpe {
    // TODO: documents = text.split(END_OF_TEXT) as Vec<Vec<usize>> of bytes; for each
    //       round: add up count_pairs over the documents; the best pair has the highest
    //       count, the smallest pair on ties; merge it in every document; record it.
    // BEGIN SOLUTION: todo!("train_bpe")
    let mut documents: Vec<Vec<usize>> = text
        .split(END_OF_TEXT)
        .map(|d| d.bytes().map(usize::from).collect())
        .collect();
    let mut merges = Vec::with_capacity(n_merges);
    for round in 0..n_merges {
        let mut counts: BTreeMap<(usize, usize), usize> = BTreeMap::new();
        for document in &documents {
            for (pair, count) in count_pairs(document) {
                *counts.entry(pair).or_insert(0) += count;
            }
        }
        // The highest count; on a tie the smallest pair, which the BTreeMap visits first
        // (max_by_key would keep the last of equal counts, so compare explicitly).
        let mut best: Option<((usize, usize), usize)> = None;
        for (&pair, &count) in &counts {
            if best.is_none_or(|(_, c)| count > c) {
                best = Some((pair, count));
            }
        }
        let Some((pair, _)) = best else {
            break;
        };
        for document in &mut documents {
            *document = merge_pair(document, pair, 256 + round);
        }
        merges.push(pair);
    }
    Bpe::from_merges(merges)
    // END SOLUTION
}
// ANCHOR_END: train_bpe
