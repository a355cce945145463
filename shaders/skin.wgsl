// Skinning, the GPU twin of src/anim/skin.rs: linear blend skinning sums every weighted slot; a vertex with no
// weight, or one naming a joint outside the palette, stays in its bind pose. A vertex the model's blend methods
// mark spherical (PMX SDEF) or dual-quaternion (PMX QDEF) gets that rigid transform instead.

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

// How each vertex blends (src/render/blend.rs), a data texture of R32Uint words: the number of vertices listed,
// then a word per vertex: 0 linear, 1 dual quaternion, 2 + the offset of a spherical vertex's record (nine
// f32 words: the centre and the two corrected midpoints).
@group(3) @binding(1) var blend_data: texture_2d<u32>;

fn blend_word(i: u32) -> u32 {
    let width = textureDimensions(blend_data).x;
    return textureLoad(blend_data, vec2<u32>(i % width, i / width), 0).x;
}

fn blend_point(at: u32) -> vec3<f32> {
    return vec3<f32>(bitcast<f32>(blend_word(at)), bitcast<f32>(blend_word(at + 1u)), bitcast<f32>(blend_word(at + 2u)));
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
    var m = mat4x4<f32>(vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0), vec4<f32>(0.0));
    var total = 0.0;
    for (var k = 0u; k < 4u; k++) {
        let w = weights[k];
        if w != 0.0 {
            let j = joint_matrix(joints[k]);
            if !j.ok {
                return IDENTITY;
            }
            m += j.m * w;
            total += w;
        }
    }
    if total == 0.0 {
        return IDENTITY;
    }
    return m;
}

// Joint j's skinning matrix; `ok` false when j is outside the palette.
struct Joint {
    m: mat4x4<f32>,
    ok: bool,
};

fn joint_matrix(j: u32) -> Joint {
    let size = textureDimensions(palette);
    let n = min(u32(palette_texel(0u).x), (size.x * size.y - 2u) / 4u);
    if j >= n {
        return Joint(IDENTITY, false);
    }
    let at = 2u + 4u * j;
    return Joint(mat4x4<f32>(palette_texel(at), palette_texel(at + 1u), palette_texel(at + 2u), palette_texel(at + 3u)), true);
}

// The rotation of a skinning matrix as a quaternion (x, y, z, w), normalised: the branches of src/anim/skin.rs's
// (glam's Quat::from_mat3).
fn rotation_of(m: mat4x4<f32>) -> vec4<f32> {
    let m00 = m[0].x; let m01 = m[0].y; let m02 = m[0].z;
    let m10 = m[1].x; let m11 = m[1].y; let m12 = m[1].z;
    let m20 = m[2].x; let m21 = m[2].y; let m22 = m[2].z;
    var q: vec4<f32>;
    if m22 <= 0.0 {
        let dif10 = m11 - m00;
        let omm22 = 1.0 - m22;
        if dif10 <= 0.0 {
            let s = omm22 - dif10;
            q = vec4<f32>(s, m01 + m10, m02 + m20, m12 - m21) * (0.5 / sqrt(s));
        } else {
            let s = omm22 + dif10;
            q = vec4<f32>(m01 + m10, s, m12 + m21, m20 - m02) * (0.5 / sqrt(s));
        }
    } else {
        let sum10 = m11 + m00;
        let opm22 = 1.0 + m22;
        if sum10 <= 0.0 {
            let s = opm22 - sum10;
            q = vec4<f32>(m02 + m20, m12 + m21, s, m01 - m10) * (0.5 / sqrt(s));
        } else {
            let s = opm22 + sum10;
            q = vec4<f32>(m12 - m21, m20 - m02, m01 - m10, s) * (0.5 / sqrt(s));
        }
    }
    return normalize(q);
}

// The rotation matrix of a unit quaternion (x, y, z, w).
fn quat_matrix(q: vec4<f32>) -> mat3x3<f32> {
    let x2 = q.x + q.x; let y2 = q.y + q.y; let z2 = q.z + q.z;
    let xx = q.x * x2; let xy = q.x * y2; let xz = q.x * z2;
    let yy = q.y * y2; let yz = q.y * z2; let zz = q.z * z2;
    let wx = q.w * x2; let wy = q.w * y2; let wz = q.w * z2;
    return mat3x3<f32>(
        vec3<f32>(1.0 - (yy + zz), xy + wz, xz - wy),
        vec3<f32>(xy - wz, 1.0 - (xx + zz), yz + wx),
        vec3<f32>(xz + wy, yz - wx, 1.0 - (xx + yy)),
    );
}

// The Hamilton product a·b of quaternions (x, y, z, w).
fn quat_mul(a: vec4<f32>, b: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(
        a.w * b.xyz + b.w * a.xyz + cross(a.xyz, b.xyz),
        a.w * b.w - dot(a.xyz, b.xyz),
    );
}

// Slerp along the shorter arc; nearly equal rotations lerp and renormalise (src/anim/skin.rs, slerp_short).
fn slerp_short(a: vec4<f32>, b_in: vec4<f32>, t: f32) -> vec4<f32> {
    var b = b_in;
    var c = dot(a, b);
    if c < 0.0 {
        b = -b;
        c = -c;
    }
    if c > 0.999999 {
        return normalize(a * (1.0 - t) + b * t);
    }
    // One Newton step on cos(theta) = c: some drivers' acos is good to only 1e-4 (lavapipe's), their cos and
    // sin to far better, and the step squares the error.
    let guess = acos(c);
    let theta = guess + (cos(guess) - c) / sin(guess);
    let s = sin(theta);
    return a * (sin((1.0 - t) * theta) / s) + b * (sin(t * theta) / s);
}

fn rigid(rotation: mat3x3<f32>, translation: vec3<f32>) -> mat4x4<f32> {
    return mat4x4<f32>(vec4<f32>(rotation[0], 0.0), vec4<f32>(rotation[1], 0.0), vec4<f32>(rotation[2], 0.0), vec4<f32>(translation, 1.0));
}

// Spherical deformation (PMX SDEF) with the record at `at`; `ok` false to blend linearly instead (a joint
// outside the palette, or a first midpoint with x exactly 0, as src/anim/skin.rs decides).
fn spherical(joints: vec4<u32>, w0: f32, at: u32) -> Joint {
    let j0 = joint_matrix(joints[0]);
    let j1 = joint_matrix(joints[1]);
    let c = blend_point(at);
    let p0 = blend_point(at + 3u);
    let p1 = blend_point(at + 6u);
    if !j0.ok || !j1.ok || p0.x == 0.0 {
        return Joint(IDENTITY, false);
    }
    let w1 = 1.0 - w0;
    let r = quat_matrix(slerp_short(rotation_of(j0.m), rotation_of(j1.m), w1));
    let moved = (j0.m * vec4<f32>(p0, 1.0)).xyz * w0 + (j1.m * vec4<f32>(p1, 1.0)).xyz * w1;
    return Joint(rigid(r, moved - r * c), true);
}

// Dual-quaternion skinning (PMX QDEF) over the four joints, signs agreeing with the first weighted joint.
fn dual_quaternion(joints: vec4<u32>, weights: vec4<f32>) -> mat4x4<f32> {
    var real = vec4<f32>(0.0);
    var dual = vec4<f32>(0.0);
    var first = vec4<f32>(0.0);
    var found = false;
    for (var k = 0u; k < 4u; k++) {
        let w = weights[k];
        if w == 0.0 {
            continue;
        }
        let j = joint_matrix(joints[k]);
        if !j.ok {
            return IDENTITY;
        }
        var q = rotation_of(j.m);
        if found {
            if dot(first, q) < 0.0 {
                q = -q;
            }
        } else {
            first = q;
            found = true;
        }
        let d = quat_mul(vec4<f32>(j.m[3].xyz, 0.0), q) * 0.5;
        real += q * w;
        dual += d * w;
    }
    let len = length(real);
    if !found || len == 0.0 {
        return IDENTITY;
    }
    let r = real / len;
    let d = dual / len;
    let t = quat_mul(d, vec4<f32>(-r.xyz, r.w)) * 2.0;
    return rigid(quat_matrix(r), t.xyz);
}

// Vertex `index`'s skinning matrix by its blend method.
fn vertex_transform(joints: vec4<u32>, weights: vec4<f32>, index: u32) -> mat4x4<f32> {
    let size = textureDimensions(blend_data);
    let len = size.x * size.y;
    if view.modes.w < 0.5 && len > 1u && index < blend_word(0u) && 1u + index < len {
        let word = blend_word(1u + index);
        if word == 1u {
            return dual_quaternion(joints, weights);
        }
        if word >= 2u && word - 2u + 8u < len {
            let s = spherical(joints, weights[0], word - 2u);
            if s.ok {
                return s.m;
            }
        }
    }
    return blend(joints, weights);
}

fn skin(v: VertexIn) -> Skinned {
    let m = vertex_transform(v.joints, v.weights, v.index);
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
