// Linear blend skinning, the GPU twin of src/anim/skin.rs: sum every weighted slot; a vertex with no weight, or
// one naming a joint outside the palette, stays in its bind pose.

struct Palette {
    // x: number of matrices (the buffer is padded to at least one).
    count: vec4<u32>,
    // The colour an onion-skin ghost is drawn in (fs_ghost), linear RGBA; unused by the pose's own palette.
    tint: vec4<f32>,
    // Pose::palette: world · inverse bind, one per joint.
    matrices: array<mat4x4<f32>>,
};

@group(1) @binding(0) var<storage, read> palette: Palette;

// Vertex and texture-coordinate morphs (src/render/morph.rs): a header [vertices, slots, ranges, entries] of word
// offsets, a weight per slot, (first, count) per vertex, then six words per offset: dx, dy, dz, du, dv, slot.
@group(3) @binding(0) var<storage, read> morph_data: array<u32>;

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) tangent: vec4<f32>,
    @location(3) uv: vec2<f32>,
    @location(4) color: vec4<f32>,
    @location(5) joints: vec4<u32>,
    @location(6) weights: vec4<f32>,
    // How much of its material's outline the vertex draws (MMD edge scale; 1 for other formats).
    @location(7) outline: f32,
    @builtin(vertex_index) index: u32,
};

struct Skinned {
    position: vec3<f32>,
    normal: vec3<f32>,
    tangent: vec4<f32>,
    // The texture coordinate after UV morphs.
    uv: vec2<f32>,
};

struct Morphed {
    position: vec3<f32>,
    uv: vec2<f32>,
};

// The vertex's position and texture coordinate with its morphs' offsets added, each times its morph's weight.
// Every read is checked against the buffer, so a short or stale buffer leaves the vertex as it is.
fn morph(index: u32, position: vec3<f32>, uv: vec2<f32>) -> Morphed {
    var out = Morphed(position, uv);
    let len = arrayLength(&morph_data);
    if len < 4u || index >= morph_data[0] {
        return out;
    }
    let slots = morph_data[1];
    let r = morph_data[2] + 2u * index;
    if r + 1u >= len {
        return out;
    }
    let first = morph_data[r];
    let count = morph_data[r + 1u];
    let entries = morph_data[3];
    for (var k = 0u; k < count; k++) {
        let e = entries + 6u * (first + k);
        if e + 5u >= len {
            break;
        }
        let slot = morph_data[e + 5u];
        if slot >= slots {
            continue;
        }
        let w = bitcast<f32>(morph_data[4u + slot]);
        if w != 0.0 {
            out.position += w * vec3<f32>(
                bitcast<f32>(morph_data[e]),
                bitcast<f32>(morph_data[e + 1u]),
                bitcast<f32>(morph_data[e + 2u]),
            );
            out.uv += w * vec2<f32>(bitcast<f32>(morph_data[e + 3u]), bitcast<f32>(morph_data[e + 4u]));
        }
    }
    return out;
}

const IDENTITY = mat4x4<f32>(
    vec4<f32>(1.0, 0.0, 0.0, 0.0),
    vec4<f32>(0.0, 1.0, 0.0, 0.0),
    vec4<f32>(0.0, 0.0, 1.0, 0.0),
    vec4<f32>(0.0, 0.0, 0.0, 1.0),
);

fn blend(joints: vec4<u32>, weights: vec4<f32>) -> mat4x4<f32> {
    let n = min(palette.count.x, arrayLength(&palette.matrices));
    var m = mat4x4<f32>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    var total = 0.0;
    for (var k = 0u; k < 4u; k++) {
        let w = weights[k];
        if w != 0.0 {
            let j = joints[k];
            if j >= n {
                return IDENTITY;
            }
            m += palette.matrices[j] * w;
            total += w;
        }
    }
    if total == 0.0 {
        return IDENTITY;
    }
    return m;
}

fn skin(v: VertexIn) -> Skinned {
    let m = blend(v.joints, v.weights);
    let a = m[0].xyz;
    let b = m[1].xyz;
    let c = m[2].xyz;
    // Normals take the inverse transpose of the 3×3: its cofactor matrix over the determinant. Only the sign of
    // the determinant matters once normalised.
    let det = dot(a, cross(b, c));
    let n = (cross(b, c) * v.normal.x + cross(c, a) * v.normal.y + cross(a, b) * v.normal.z) * sign(det);
    let t = a * v.tangent.x + b * v.tangent.y + c * v.tangent.z;
    let morphed = morph(v.index, v.position, v.uv);
    var out: Skinned;
    out.position = (m * vec4<f32>(morphed.position, 1.0)).xyz;
    out.uv = morphed.uv;
    out.normal = select(vec3<f32>(0.0), normalize(n), dot(n, n) > 1e-30);
    out.tangent = vec4<f32>(select(vec3<f32>(0.0), normalize(t), dot(t, t) > 1e-30), v.tangent.w);
    return out;
}
