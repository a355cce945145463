//! The glTF document under construction: the JSON root and the one binary buffer every accessor reads.

use gltf::json;
use json::accessor::{ComponentType, GenericComponentType, Type};
use json::validation::{Checked, USize64};
use json::{Accessor, Index};

/// A value an accessor holds: its component type and component count.
pub trait Element: bytemuck::Pod {
    const COMPONENT: ComponentType;
    const TYPE: Type;
}

macro_rules! element {
    ($t:ty, $c:ident, $k:ident) => {
        impl Element for $t {
            const COMPONENT: ComponentType = ComponentType::$c;
            const TYPE: Type = Type::$k;
        }
    };
}
element!(f32, F32, Scalar);
element!([f32; 2], F32, Vec2);
element!([f32; 3], F32, Vec3);
element!([f32; 4], F32, Vec4);
element!([f32; 16], F32, Mat4);
element!(u8, U8, Scalar);
element!(u16, U16, Scalar);
element!(u32, U32, Scalar);
element!([u8; 4], U8, Vec4);
element!([u16; 4], U16, Vec4);

/// The JSON root and the binary buffer (buffer 0) it describes, grown together.
pub struct Builder {
    pub root: json::Root,
    pub bin: Vec<u8>,
}

impl Builder {
    /// A document whose buffer will hold about `bytes`.
    pub fn new(bytes: usize) -> Builder {
        let root = json::Root {
            asset: json::Asset {
                generator: Some(format!("rigscope {}", env!("CARGO_PKG_VERSION"))),
                version: "2.0".into(),
                ..Default::default()
            },
            ..Default::default()
        };
        Builder { root, bin: Vec::with_capacity(bytes) }
    }

    /// Appends `data` as a buffer view (aligned to 4 bytes, as every component type needs), for `target`.
    pub fn view<T: bytemuck::Pod>(
        &mut self,
        data: &[T],
        target: Option<json::buffer::Target>,
    ) -> Index<json::buffer::View> {
        while !self.bin.len().is_multiple_of(4) {
            self.bin.push(0);
        }
        let offset = self.bin.len();
        self.bin.extend_from_slice(bytemuck::cast_slice(data));
        // Vertex views are read by an accessor per mesh: glTF then wants their stride spelled out.
        let vertex = target == Some(json::buffer::Target::ArrayBuffer);
        self.root.push(json::buffer::View {
            buffer: Index::new(0),
            byte_length: USize64::from(self.bin.len() - offset),
            byte_offset: Some(USize64::from(offset)),
            byte_stride: vertex.then_some(json::buffer::Stride(std::mem::size_of::<T>())),
            name: None,
            target: target.map(Checked::Valid),
            extensions: None,
            extras: Default::default(),
        })
    }

    /// A raw byte view (an embedded image).
    pub fn bytes_view(&mut self, bytes: &[u8]) -> Index<json::buffer::View> {
        self.view(bytes, None)
    }

    /// An accessor over `count` elements of `view` from element `first`.
    pub fn accessor<T: Element>(
        &mut self,
        view: Index<json::buffer::View>,
        first: usize,
        count: usize,
        bounds: Option<(serde_json::Value, serde_json::Value)>,
    ) -> Index<Accessor> {
        let normalized = false;
        let (min, max) = bounds.unzip();
        self.root.push(Accessor {
            buffer_view: Some(view),
            byte_offset: Some(USize64::from(first * std::mem::size_of::<T>())),
            count: USize64::from(count),
            component_type: Checked::Valid(GenericComponentType(T::COMPONENT)),
            extensions: None,
            extras: Default::default(),
            type_: Checked::Valid(T::TYPE),
            min,
            max,
            name: None,
            normalized,
            sparse: None,
        })
    }

    /// A view holding `data` and an accessor over all of it.
    pub fn array<T: Element>(
        &mut self,
        data: &[T],
        target: Option<json::buffer::Target>,
        bounds: Option<(serde_json::Value, serde_json::Value)>,
    ) -> Index<Accessor> {
        let view = self.view(data, target);
        self.accessor::<T>(view, 0, data.len(), bounds)
    }

    /// A VEC3 float accessor of `count` elements that are zero except `values` at the strictly increasing
    /// `indices` (a sparse accessor with no view of its own; no sparse part when `indices` is empty).
    pub fn sparse_vec3(&mut self, count: usize, indices: &[u32], values: &[[f32; 3]]) -> Index<Accessor> {
        // The elements no sparse index names are zero and count toward min and max; when the indices (distinct,
        // as the callers give them) name every element, min and max come from the values alone.
        let zeros = indices.len() < count || values.is_empty();
        let (mut min, mut max) = if zeros { ([0.0f32; 3], [0.0f32; 3]) } else { ([f32::MAX; 3], [f32::MIN; 3]) };
        for v in values {
            for k in 0..3 {
                min[k] = min[k].min(v[k]);
                max[k] = max[k].max(v[k]);
            }
        }
        let sparse = (!indices.is_empty()).then(|| {
            let index_view = self.view(indices, None);
            let value_view = self.view(values, None);
            json::accessor::sparse::Sparse {
                count: USize64::from(indices.len()),
                indices: json::accessor::sparse::Indices {
                    buffer_view: index_view,
                    byte_offset: USize64(0),
                    component_type: Checked::Valid(json::accessor::IndexComponentType(ComponentType::U32)),
                    extensions: None,
                    extras: Default::default(),
                },
                values: json::accessor::sparse::Values {
                    buffer_view: value_view,
                    byte_offset: USize64(0),
                    extensions: None,
                    extras: Default::default(),
                },
                extensions: None,
                extras: Default::default(),
            }
        });
        self.root.push(Accessor {
            buffer_view: None,
            byte_offset: None,
            count: USize64::from(count),
            component_type: Checked::Valid(GenericComponentType(ComponentType::F32)),
            extensions: None,
            extras: Default::default(),
            type_: Checked::Valid(Type::Vec3),
            min: Some(serde_json::json!(min)),
            max: Some(serde_json::json!(max)),
            name: None,
            normalized: false,
            sparse,
        })
    }
}

/// The componentwise bounds of `values`, as an accessor's `min` and `max`.
pub fn bounds<const N: usize>(
    values: impl IntoIterator<Item = [f32; N]>,
) -> Option<(serde_json::Value, serde_json::Value)> {
    let mut it = values.into_iter();
    let first = it.next()?;
    let (mut min, mut max) = (first, first);
    for v in it {
        for k in 0..N {
            min[k] = min[k].min(v[k]);
            max[k] = max[k].max(v[k]);
        }
    }
    Some((serde_json::json!(min.to_vec()), serde_json::json!(max.to_vec())))
}

/// The GLB container (glTF 2.0 binary) around `json` and `bin`: the header, the JSON chunk and the binary chunk's
/// header, to be followed by `bin` itself and the returned number of padding zeros. `bin` is not copied: a
/// large model's buffer is written straight from where it was built.
pub fn glb_head(json: &[u8], bin: &[u8]) -> (Vec<u8>, usize) {
    let pad = |n: usize| (4 - n % 4) % 4;
    let (json_len, bin_len) = (json.len() + pad(json.len()), bin.len() + pad(bin.len()));
    let total = 12 + 8 + json_len + if bin.is_empty() { 0 } else { 8 + bin_len };
    let mut out = Vec::with_capacity(12 + 8 + json_len + 8);
    out.extend_from_slice(b"glTF");
    out.extend_from_slice(&2u32.to_le_bytes());
    out.extend_from_slice(&(total as u32).to_le_bytes());
    out.extend_from_slice(&(json_len as u32).to_le_bytes());
    out.extend_from_slice(b"JSON");
    out.extend_from_slice(json);
    out.resize(out.len() + pad(json.len()), b' ');
    if bin.is_empty() {
        return (out, 0);
    }
    out.extend_from_slice(&(bin_len as u32).to_le_bytes());
    out.extend_from_slice(b"BIN\0");
    (out, pad(bin.len()))
}
