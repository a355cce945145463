// Linear blend skinning, the GPU twin of src/anim/skin.rs: sum every weighted slot; a vertex with no weight, or
// one naming a joint outside the palette, stays in its bind pose.

// The palette, a data texture (src/render/data_texture.rs: texel i at (i % width, i / width)) of RGBA32Float:
// texel 0 holds the number of matrices in x (a float), texel 1 the colour an onion-skin ghost is drawn in
// (fs_ghost, linear RGBA; unused by the pose's own palette), then four texels per matrix of Pose::palette
// (world · inverse bind), its columns. Textures rather than storage buffers, which WebGL2 lacks.
@group(1) @binding(0) var palette: texture_2d<f32>;

fn palette_texel(i: u32) -> vec4<f32> {
    let width = textureDimensions(palette).x;
    return textureLoad(palette, vec2<u32>(i % width, i / width), 0);
}

fn palette_tint() -> vec4<f32> {
    return palette_texel(1u);
}

// Vertex and texture-coordinate morphs (src/render/morph.rs), a data texture of R32Uint words: a header
// [vertices, slots, ranges, entries] of word offsets, a weight per slot, (first, count) per vertex, then six
// words per offset: dx, dy, dz, du, dv, slot.
@group(3) @binding(0) var morph_data: texture_2d<u32>;

fn morph_word(i: u32) -> u32 {
    let width = textureDimensions(morph_data).x;
    return textureLoad(morph_data, vec2<u32>(i % width, i / width), 0).x;
}

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
    let size = textureDimensions(morph_data);
    let len = size.x * size.y;
    if len < 4u || index >= morph_word(0u) {
        return out;
    }
    let slots = morph_word(1u);
    let r = morph_word(2u) + 2u * index;
    if r + 1u >= len {
        return out;
    }
    let first = morph_word(r);
    let count = morph_word(r + 1u);
    let entries = morph_word(3u);
    for (var k = 0u; k < count; k++) {
        let e = entries + 6u * (first + k);
        if e + 5u >= len {
            break;
        }
        let slot = morph_word(e + 5u);
        if slot >= slots {
            continue;
        }
        let w = bitcast<f32>(morph_word(4u + slot));
        if w != 0.0 {
            out.position += w * vec3<f32>(
                bitcast<f32>(morph_word(e)),
                bitcast<f32>(morph_word(e + 1u)),
                bitcast<f32>(morph_word(e + 2u)),
            );
            out.uv += w * vec2<f32>(bitcast<f32>(morph_word(e + 3u)), bitcast<f32>(morph_word(e + 4u)));
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
    let size = textureDimensions(palette);
    let n = min(u32(palette_texel(0u).x), (size.x * size.y - 2u) / 4u);
    var m = mat4x4<f32>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    var total = 0.0;
    for (var k = 0u; k < 4u; k++) {
        let w = weights[k];
        if w != 0.0 {
            let j = joints[k];
            if j >= n {
                return IDENTITY;
            }
            let at = 2u + 4u * j;
            let matrix = mat4x4<f32>(palette_texel(at), palette_texel(at + 1u), palette_texel(at + 2u), palette_texel(at + 3u));
            m += matrix * w;
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
