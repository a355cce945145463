//! Reading accessors through the `gltf` crate's metadata (buffer view, byte offset and stride, component type,
//! normalisation, sparse substitution) with every offset and count checked against the bytes that back it.

use gltf::accessor::{Accessor, DataType, Dimensions};

use crate::error::LoadError;

/// The resolved buffers of a file, and how many zero-filled bytes an accessor without a buffer view may ask
/// for (nothing backs those, so they are bounded by the input's size).
pub struct Buffers<'a> {
    /// Each buffer's bytes: the GLB's binary chunk borrowed from the file, data URIs and external files owned.
    pub data: Vec<std::borrow::Cow<'a, [u8]>>,
    pub zero_budget: usize,
}

/// An accessor's elements packed tightly (stride removed, sparse values applied), still in their component
/// type.
pub struct Raw {
    pub component: DataType,
    pub dims: usize,
    pub normalized: bool,
    pub bytes: Vec<u8>,
}

fn err(acc: &Accessor, what: &str, message: String) -> LoadError {
    LoadError::whole(format!("accessor {} ({what}): {message}", acc.index()))
}

impl Buffers<'_> {
    /// The bytes of a buffer view, checked against its buffer.
    pub fn view<'a>(&'a self, view: &gltf::buffer::View) -> Result<&'a [u8], LoadError> {
        let buffer = view.buffer().index();
        let data = self.data.get(buffer).map(|d| &d[..]).unwrap_or(&[]);
        let end = view.offset().checked_add(view.length());
        match end.and_then(|end| data.get(view.offset()..end)) {
            Some(bytes) => Ok(bytes),
            None => Err(LoadError::whole(format!(
                "buffer view {}: bytes {}..{} are past the end of buffer {buffer} ({} bytes)",
                view.index(),
                view.offset(),
                end.map_or_else(|| "overflow".to_string(), |e| e.to_string()),
                data.len()
            ))),
        }
    }

    /// The accessor's elements, tightly packed, with sparse values substituted.
    pub fn raw(&self, acc: &Accessor, what: &str) -> Result<Raw, LoadError> {
        let component = acc.data_type();
        let dims = acc.dimensions().multiplicity();
        let padded = matches!(acc.dimensions(), Dimensions::Mat2 | Dimensions::Mat3) && component.size() < 4;
        if padded {
            return Err(err(acc, what, "matrices with padded columns are not read".into()));
        }
        let elem = component.size() * dims;
        let count = acc.count();
        let mut bytes = match acc.view() {
            Some(view) => {
                let data = self.view(&view)?;
                let stride = view.stride().unwrap_or(elem);
                if stride < elem {
                    let m = format!("byteStride {stride} is shorter than one element ({elem} bytes)");
                    return Err(err(acc, what, m));
                }
                let end = match count {
                    0 => Some(acc.offset()),
                    n => (n - 1).checked_mul(stride).and_then(|s| s.checked_add(acc.offset())?.checked_add(elem)),
                };
                if end.is_none_or(|end| end > data.len()) {
                    let m = format!(
                        "{count} elements of {elem} bytes every {stride} from byte {} run past the end of buffer view \
                         {} ({} bytes)",
                        acc.offset(),
                        view.index(),
                        data.len()
                    );
                    return Err(err(acc, what, m));
                }
                let mut out = Vec::with_capacity(count * elem);
                for i in 0..count {
                    let at = acc.offset() + i * stride;
                    out.extend_from_slice(&data[at..at + elem]);
                }
                out
            }
            None => {
                let size = count.checked_mul(elem).filter(|&s| s <= self.zero_budget);
                let Some(size) = size else {
                    let m = format!("{count} elements without a buffer view: more than the file's bytes can back");
                    return Err(err(acc, what, m));
                };
                vec![0; size]
            }
        };
        if let Some(sparse) = acc.sparse() {
            self.apply_sparse(acc, what, &sparse, elem, &mut bytes)?;
        }
        Ok(Raw { component, dims, normalized: acc.normalized(), bytes })
    }

    fn apply_sparse(
        &self,
        acc: &Accessor,
        what: &str,
        sparse: &gltf::accessor::sparse::Sparse,
        elem: usize,
        bytes: &mut [u8],
    ) -> Result<(), LoadError> {
        let n = sparse.count();
        if n > acc.count() {
            return Err(err(acc, what, format!("{n} sparse values for {} elements", acc.count())));
        }
        let indices = sparse.indices();
        let index_size = match indices.index_type() {
            gltf::accessor::sparse::IndexType::U8 => 1,
            gltf::accessor::sparse::IndexType::U16 => 2,
            gltf::accessor::sparse::IndexType::U32 => 4,
        };
        let index_bytes = self.view(&indices.view())?;
        let index_bytes = index_bytes.get(indices.offset()..).and_then(|b| b.get(..n * index_size));
        let values = sparse.values();
        let value_bytes = self.view(&values.view())?;
        let value_bytes = value_bytes.get(values.offset()..).and_then(|b| b.get(..n * elem));
        let (Some(index_bytes), Some(value_bytes)) = (index_bytes, value_bytes) else {
            return Err(err(acc, what, format!("{n} sparse indices or values run past their buffer views")));
        };
        for (k, (ix, value)) in index_bytes.chunks_exact(index_size).zip(value_bytes.chunks_exact(elem)).enumerate() {
            let i = match *ix {
                [a] => a as usize,
                [a, b] => u16::from_le_bytes([a, b]) as usize,
                [a, b, c, d] => u32::from_le_bytes([a, b, c, d]) as usize,
                _ => usize::MAX,
            };
            let Some(dst) = i.checked_mul(elem).and_then(|at| bytes.get_mut(at..at + elem)) else {
                let m = format!("sparse index {k} is {i}, past the {} elements", acc.count());
                return Err(err(acc, what, m));
            };
            dst.copy_from_slice(value);
        }
        Ok(())
    }

    /// The accessor as floats, `dims` per element (one of `allowed`), normalised integers mapped to 0..1 or
    /// −1..1 as the spec says.
    pub fn floats(&self, acc: &Accessor, what: &str, allowed: &[usize]) -> Result<(usize, Vec<f32>), LoadError> {
        let raw = self.raw(acc, what)?;
        if !allowed.contains(&raw.dims) {
            let m = format!("{} components per element, expected {allowed:?}", raw.dims);
            return Err(err(acc, what, m));
        }
        Ok((raw.dims, raw.to_f32()))
    }

    /// The accessor as unsigned integers (unsigned byte, short or int components).
    pub fn uints(&self, acc: &Accessor, what: &str, dims: usize) -> Result<Vec<u32>, LoadError> {
        let raw = self.raw(acc, what)?;
        if raw.dims != dims {
            return Err(err(acc, what, format!("{} components per element, expected {dims}", raw.dims)));
        }
        let b = &raw.bytes;
        Ok(match raw.component {
            DataType::U8 => b.iter().map(|&v| u32::from(v)).collect(),
            DataType::U16 => b.chunks_exact(2).map(|c| u32::from(u16::from_le_bytes([c[0], c[1]]))).collect(),
            DataType::U32 => b.chunks_exact(4).map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect(),
            t => return Err(err(acc, what, format!("component type {t:?}, expected an unsigned integer"))),
        })
    }
}

impl Raw {
    /// Every component as f32.
    pub fn to_f32(&self) -> Vec<f32> {
        let b = &self.bytes;
        let norm = self.normalized;
        let scale = |v: f32, max: f32| if norm { (v / max).max(-1.0) } else { v };
        match self.component {
            DataType::F32 => b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect(),
            DataType::I8 => b.iter().map(|&v| scale(f32::from(v as i8), 127.0)).collect(),
            DataType::U8 => b.iter().map(|&v| scale(f32::from(v), 255.0)).collect(),
            DataType::I16 => {
                b.chunks_exact(2).map(|c| scale(f32::from(i16::from_le_bytes([c[0], c[1]])), 32767.0)).collect()
            }
            DataType::U16 => {
                b.chunks_exact(2).map(|c| scale(f32::from(u16::from_le_bytes([c[0], c[1]])), 65535.0)).collect()
            }
            DataType::U32 => b
                .chunks_exact(4)
                .map(|c| scale(u32::from_le_bytes([c[0], c[1], c[2], c[3]]) as f32, u32::MAX as f32))
                .collect(),
        }
    }
}
