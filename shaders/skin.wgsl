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

struct VertexIn {
    @location(0) position: vec3<f32>,
    @location(1) normal: vec3<f32>,
    @location(2) tangent: vec4<f32>,
    @location(3) uv: vec2<f32>,
    @location(4) color: vec4<f32>,
    @location(5) joints: vec4<u32>,
    @location(6) weights: vec4<f32>,
};

struct Skinned {
    position: vec3<f32>,
    normal: vec3<f32>,
    tangent: vec4<f32>,
};

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
    var out: Skinned;
    out.position = (m * vec4<f32>(v.position, 1.0)).xyz;
    out.normal = select(vec3<f32>(0.0), normalize(n), dot(n, n) > 1e-30);
    out.tangent = vec4<f32>(select(vec3<f32>(0.0), normalize(t), dot(t, t) > 1e-30), v.tangent.w);
    return out;
}
