// Copies a linear-reading (sRGB-format) texture into a plain 8-bit target with the sRGB curve applied in the
// shader, so a consumer that reads bytes as they are (egui, which blends in gamma space) sees the same colours
// an sRGB surface shows. One triangle covers the target; texels are read 1:1.

@group(0) @binding(0) var source: texture_2d<f32>;

struct Out {
    @builtin(position) position: vec4<f32>,
};

@vertex
fn vs_full(@builtin(vertex_index) i: u32) -> Out {
    let uv = vec2<f32>(f32((i << 1u) & 2u), f32(i & 2u));
    var out: Out;
    out.position = vec4<f32>(uv.x * 2.0 - 1.0, 1.0 - uv.y * 2.0, 0.0, 1.0);
    return out;
}

fn encode(c: f32) -> f32 {
    if c <= 0.0031308 {
        return c * 12.92;
    }
    return 1.055 * pow(c, 1.0 / 2.4) - 0.055;
}

@fragment
fn fs_encode(in: Out) -> @location(0) vec4<f32> {
    let c = textureLoad(source, vec2<i32>(in.position.xy), 0);
    let rgb = clamp(c.rgb, vec3<f32>(0.0), vec3<f32>(1.0));
    return vec4<f32>(encode(rgb.r), encode(rgb.g), encode(rgb.b), c.a);
}
