//! Checkpoints in the safetensors format, the one PyTorch and the Hugging Face libraries
//! load: an 8-byte length, a JSON header (each tensor's name, type, shape and place, and
//! a map of text metadata), then the raw numbers, little-endian. Nothing in it is code, so
//! loading a file runs nothing.
//!
//! This crate moves named `f64` tensors and their metadata to and from such a file; a
//! lesson turns its model into [`Tensor`]s and back (lesson 07's `Gpt::tensors` and
//! `Gpt::from_tensors`). It is a crate of its own, used by the lessons' examples and
//! tests, so that the libraries the checker grades do not depend on it.

use std::collections::{BTreeMap, HashMap};
use std::path::{Path, PathBuf};

use course_common::Float;
use safetensors::tensor::{Dtype, SafeTensors, TensorView};

/// One tensor: its shape and its numbers, row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Tensor {
    /// The size of each axis.
    pub shape: Vec<usize>,
    /// `shape.iter().product()` numbers, the last axis fastest.
    pub values: Vec<Float>,
}

/// The token ids of a probe and the logits the model computed for them, `(n, vocab)`
/// row-major, so that another program that loads the weights can check it computes the
/// same model.
#[derive(Debug, Clone, PartialEq)]
pub struct Probe {
    /// The ids.
    pub tokens: Vec<usize>,
    /// The logits, one row per id.
    pub logits: Tensor,
}

/// What a checkpoint holds.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Checkpoint {
    /// Every parameter, by name.
    pub tensors: BTreeMap<String, Tensor>,
    /// Text metadata (a model's sizes).
    pub metadata: BTreeMap<String, String>,
    /// The probe, if one was saved (`probe.tokens`, int64; `probe.logits`, float64).
    pub probe: Option<Probe>,
}

/// What went wrong with a checkpoint, with what to do about it.
#[derive(Debug)]
pub enum CheckpointError {
    /// The file could not be read or written.
    Io(PathBuf, std::io::Error),
    /// The file is not a safetensors file, or its header is damaged.
    Format(PathBuf, String),
    /// The file is a safetensors file, but does not hold what was asked of it.
    Content(PathBuf, String),
}

impl std::fmt::Display for CheckpointError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Io(path, error) => write!(f, "{}: {error}", path.display()),
            Self::Format(path, error) => write!(
                f,
                "{} is not a readable safetensors file ({error}); write it again",
                path.display()
            ),
            Self::Content(path, error) => write!(
                f,
                "{} is a safetensors file but not a checkpoint of this model: {error}",
                path.display()
            ),
        }
    }
}

impl std::error::Error for CheckpointError {}

fn f64_bytes(values: &[Float]) -> Vec<u8> {
    values.iter().flat_map(|v| v.to_le_bytes()).collect()
}

fn f64_values(bytes: &[u8]) -> Vec<Float> {
    bytes
        .chunks_exact(8)
        .map(|c| Float::from_le_bytes(c.try_into().expect("8 bytes")))
        .collect()
}

/// Writes `checkpoint` to `path`: every tensor as float64 under its name, the metadata
/// in the header, and the probe if there is one.
pub fn save(checkpoint: &Checkpoint, path: &Path) -> Result<(), CheckpointError> {
    let format = |e: safetensors::SafeTensorError| {
        CheckpointError::Format(path.to_path_buf(), e.to_string())
    };
    let mut owned: Vec<(String, Dtype, Vec<usize>, Vec<u8>)> = checkpoint
        .tensors
        .iter()
        .map(|(name, t)| {
            (
                name.clone(),
                Dtype::F64,
                t.shape.clone(),
                f64_bytes(&t.values),
            )
        })
        .collect();
    if let Some(probe) = &checkpoint.probe {
        let ids = probe
            .tokens
            .iter()
            .flat_map(|&id| (id as i64).to_le_bytes())
            .collect();
        owned.push((
            "probe.tokens".into(),
            Dtype::I64,
            vec![probe.tokens.len()],
            ids,
        ));
        owned.push((
            "probe.logits".into(),
            Dtype::F64,
            probe.logits.shape.clone(),
            f64_bytes(&probe.logits.values),
        ));
    }
    let views = owned
        .iter()
        .map(|(name, dtype, shape, bytes)| {
            TensorView::new(*dtype, shape.clone(), bytes).map(|view| (name.clone(), view))
        })
        .collect::<Result<Vec<_>, _>>()
        .map_err(format)?;
    let metadata: HashMap<String, String> =
        checkpoint.metadata.clone().into_iter().collect();
    let bytes = safetensors::serialize(views, Some(metadata)).map_err(format)?;
    std::fs::write(path, bytes).map_err(|e| CheckpointError::Io(path.to_path_buf(), e))
}

/// Reads the checkpoint in `path`: every float64 tensor but the probe's, the metadata, and
/// the probe if it has one. A tensor of another type is refused.
pub fn load(path: &Path) -> Result<Checkpoint, CheckpointError> {
    let bytes =
        std::fs::read(path).map_err(|e| CheckpointError::Io(path.to_path_buf(), e))?;
    let format = |e: safetensors::SafeTensorError| {
        CheckpointError::Format(path.to_path_buf(), e.to_string())
    };
    let content = |message: String| CheckpointError::Content(path.to_path_buf(), message);
    let (_, header) = SafeTensors::read_metadata(&bytes).map_err(format)?;
    let metadata = header
        .metadata()
        .clone()
        .unwrap_or_default()
        .into_iter()
        .collect();
    let file = SafeTensors::deserialize(&bytes).map_err(format)?;
    let mut tensors = BTreeMap::new();
    for (name, view) in file.tensors() {
        if name.starts_with("probe.") {
            continue;
        }
        if view.dtype() != Dtype::F64 {
            return Err(content(format!(
                "`{name}` is {:?}; this course saves every parameter as F64",
                view.dtype()
            )));
        }
        let tensor = Tensor {
            shape: view.shape().to_vec(),
            values: f64_values(view.data()),
        };
        tensors.insert(name, tensor);
    }
    let probe = match (file.tensor("probe.tokens"), file.tensor("probe.logits")) {
        (Ok(ids), Ok(logits))
            if ids.dtype() == Dtype::I64 && logits.dtype() == Dtype::F64 =>
        {
            Some(Probe {
                tokens: ids
                    .data()
                    .chunks_exact(8)
                    .map(|c| i64::from_le_bytes(c.try_into().expect("8 bytes")) as usize)
                    .collect(),
                logits: Tensor {
                    shape: logits.shape().to_vec(),
                    values: f64_values(logits.data()),
                },
            })
        }
        (Err(_), Err(_)) => None,
        _ => {
            return Err(content(
                "its probe is incomplete or of the wrong types".into(),
            ));
        }
    };
    Ok(Checkpoint {
        tensors,
        metadata,
        probe,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_comes_back_as_saved() {
        let mut checkpoint = Checkpoint::default();
        checkpoint.tensors.insert(
            "w".into(),
            Tensor {
                shape: vec![2, 3],
                values: vec![1.0, -2.5, 3.25, 0.1, 1e-300, -0.0],
            },
        );
        checkpoint.metadata.insert("d_model".into(), "3".into());
        checkpoint.probe = Some(Probe {
            tokens: vec![4, 0],
            logits: Tensor {
                shape: vec![2, 1],
                values: vec![0.5, -0.5],
            },
        });
        let path = std::env::temp_dir()
            .join(format!("checkpoint-{}.safetensors", std::process::id()));
        save(&checkpoint, &path).expect("written");
        assert_eq!(load(&path).expect("read"), checkpoint);
        std::fs::write(&path, b"\x10\0\0\0\0\0\0\0{not json").expect("a damaged file");
        let error = load(&path).expect_err("refused");
        assert!(
            error
                .to_string()
                .contains("not a readable safetensors file"),
            "{error}"
        );
        std::fs::remove_file(&path).ok();
    }
}
