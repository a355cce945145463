// Skinned, textured meshes (src/render/mesh.rs), their wireframe (src/render/wireframe.rs) and the skinning
// capture used to test GPU skinning against the CPU (src/render/capture.rs). Prepended: view.wgsl, skin.wgsl.

@group(2) @binding(0) var albedo: texture_2d<f32>;
@group(2) @binding(1) var albedo_sampler: sampler;
// The material's sphere map and toon ramp (white 1×1 when it has none; src/render/model.rs).
@group(2) @binding(3) var sphere_map: texture_2d<f32>;
@group(2) @binding(4) var toon_ramp: texture_2d<f32>;
// glTF's surface maps (neutral 1×1 when the material has none): roughness in green and metalness in blue, a
// tangent-space normal, occlusion in red (all three read as data), and the emitted colour (sRGB).
@group(2) @binding(5) var metal_rough_map: texture_2d<f32>;
@group(2) @binding(6) var normal_map: texture_2d<f32>;
@group(2) @binding(7) var occlusion_map: texture_2d<f32>;
@group(2) @binding(8) var emissive_map: texture_2d<f32>;
// The view's self-shadow map (src/render/shadow.rs; 1×1 while no self-shadow has been drawn).
// The self-shadow map: depths packed in RGB (pack_depth), since WebGL2 can't textureLoad a depth texture.
@group(0) @binding(1) var shadow_map: texture_2d<f32>;

// A depth in [0, 1] as 24 bits over red, green and blue (exact in f32), and back.
fn pack_depth(depth: f32) -> vec4<f32> {
    let v = u32(clamp(depth, 0.0, 1.0) * 16777215.0 + 0.5);
    return vec4<f32>(f32(v >> 16u), f32((v >> 8u) & 255u), f32(v & 255u), 255.0) / 255.0;
}

fn unpack_depth(c: vec4<f32>) -> f32 {
    let b = vec3<u32>(round(c.rgb * 255.0));
    return f32((b.x << 16u) | (b.y << 8u) | b.z) / 16777215.0;
}

// Per draw (src/render/model.rs, Draw::params).
struct DrawParams {
    // The UV transform's rows: uv' = (dot(uv_u.xyz, (u, v, 1)), dot(uv_v.xyz, (u, v, 1))).
    uv_u: vec4<f32>,
    uv_v: vec4<f32>,
    // x: 1 lit, 0 the texture colour as it is; y: texels with less alpha are discarded (0: alpha ignored);
    // z: 1 blended with the texture's alpha, 0 opaque; w: the outline's size (0: none).
    flags: vec4<f32>,
    // The material's colour (linear RGBA), multiplied with the texture (white for materials without one).
    color: vec4<f32>,
    // The outline's colour (linear RGBA).
    edge: vec4<f32>,
    // x: the sphere map, 0 none, 1 multiplied, 2 added; y: 1 toon-shaded through the toon ramp with
    // MikuMikuDance's highlight, 2 without one (MToon); z: 1 receives self-shadow; w unused.
    shade: vec4<f32>,
    // glTF's metallic-roughness surface: x metallic, y perceptual roughness, z 1 when the material has one (0:
    // the viewer's own shading); w the occlusion map's strength (0: none).
    surface: vec4<f32>,
    // Light the material gives off itself (linear RGB, times the emissive map), added after lighting; w the
    // normal map's scale (0: none).
    emissive: vec4<f32>,
    // MToon (VRM): rgb the shade colour, mixed with the lit colour by the toon ramp's lit share; w 0 not MToon, 1
    // the shade colour as it is, 2 times the colour texture.
    toon_shade: vec4<f32>,
    // MToon's rim light: rgb its colour, w the fresnel power.
    rim: vec4<f32>,
    // x the rim's lift, y how much the light scales it; zw unused.
    rim_shape: vec4<f32>,
};

@group(2) @binding(2) var<uniform> draw: DrawParams;

struct MeshOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) normal: vec3<f32>,
    @location(1) uv: vec2<f32>,
    @location(2) color: vec4<f32>,
    @location(3) world: vec3<f32>,
    // The weight of the highlighted joint (view.params.w) on this vertex.
    @location(4) highlight: f32,
    // The weight of the weight view's joint (view.modes.z) on this vertex.
    @location(5) weight: f32,
    // The ghost colour of this palette (onion skin).
    @location(6) @interpolate(flat) tint: vec4<f32>,
};

// The weight of joint `j_plus_one - 1` on a vertex (0 for j_plus_one < 0.5: no joint).
fn joint_weight(v: VertexIn, j_plus_one: f32) -> f32 {
    if j_plus_one < 0.5 {
        return 0.0;
    }
    let j = u32(j_plus_one - 0.5);
    return dot(vec4<f32>(v.joints == vec4<u32>(j)), v.weights);
}

@vertex
fn vs_mesh(v: VertexIn) -> MeshOut {
    return mesh_vertex(v);
}

fn mesh_vertex(v: VertexIn) -> MeshOut {
    let s = skin(v);
    let world = view.model * vec4<f32>(s.position, 1.0);
    var out: MeshOut;
    out.clip = view.view_proj * world;
    out.normal = (view.model * vec4<f32>(s.normal, 0.0)).xyz;
    let uv = vec3<f32>(s.uv, 1.0);
    out.uv = vec2<f32>(dot(draw.uv_u.xyz, uv), dot(draw.uv_v.xyz, uv));
    out.color = v.color;
    out.world = world.xyz;
    out.highlight = joint_weight(v, view.params.w);
    out.weight = joint_weight(v, view.modes.z);
    out.tint = palette_tint();
    return out;
}

// The weight view's ramp: 0 dark blue, then cyan, green, yellow, red at 1. The weight is taken to the power
// 0.5 first, so a 5% weight already lands near cyan, far from the colour of 0.
fn heat(weight: f32) -> vec3<f32> {
    let t = sqrt(clamp(weight, 0.0, 1.0)) * 4.0;
    let stops = array<vec3<f32>, 5>(
        vec3<f32>(0.02, 0.03, 0.28),
        vec3<f32>(0.0, 0.75, 0.95),
        vec3<f32>(0.1, 0.85, 0.15),
        vec3<f32>(0.98, 0.9, 0.05),
        vec3<f32>(0.95, 0.05, 0.02),
    );
    let i = min(u32(floor(t)), 3u);
    return mix(stops[i], stops[i + 1u], t - f32(i));
}

// The UV checker: 8 × 8 cells per unit square, light and dark, over a gradient that grows red along u and
// green along v, so a mirrored or rotated island shows its gradient running the wrong way. The cell at the
// UV origin (and every unit square's first cell) is white, marking where each repeat starts.
fn uv_checker(uv: vec2<f32>) -> vec3<f32> {
    let f = fract(uv);
    let cell = vec2<i32>(floor(f * 8.0));
    let dark = ((cell.x + cell.y) & 1) == 1;
    let base = vec3<f32>(0.25 + 0.75 * f.x, 0.25 + 0.75 * f.y, 0.35);
    if cell.x == 0 && cell.y == 0 {
        return vec3<f32>(1.0);
    }
    return select(base, base * 0.45, dark);
}

const HIGHLIGHT = vec3<f32>(0.0, 0.9, 1.0);
const PI = 3.14159265;

// glTF's metallic-roughness BRDF (the specification's appendix B, as the Khronos sample viewer computes it):
// Lambert diffuse, the GGX distribution with Smith's height-correlated visibility and Schlick's Fresnel, for a
// surface of `albedo`, `metallic` and perceptual `roughness` at unit normal `n`, seen along `v`, lit along `l`
// (both toward the surface's outside). Returns the reflected radiance per unit of light radiance, N·L included.
fn brdf(albedo: vec3<f32>, metallic: f32, roughness: f32, n: vec3<f32>, v: vec3<f32>, l: vec3<f32>) -> vec3<f32> {
    let nl = max(dot(n, l), 0.0);
    if nl <= 0.0 {
        return vec3<f32>(0.0);
    }
    let h = normalize(l + v);
    let nv = max(dot(n, v), 1e-4);
    let nh = max(dot(n, h), 0.0);
    let vh = max(dot(v, h), 0.0);
    let a = roughness * roughness;
    let a2 = max(a * a, 1e-6);
    let f0 = mix(vec3<f32>(0.04), albedo, metallic);
    let fresnel = f0 + (vec3<f32>(1.0) - f0) * pow(1.0 - vh, 5.0);
    let d = nh * nh * (a2 - 1.0) + 1.0;
    let distribution = a2 / (PI * d * d);
    let visibility = 0.5 / (nl * sqrt(nv * nv * (1.0 - a2) + a2) + nv * sqrt(nl * nl * (1.0 - a2) + a2));
    let diffuse = (vec3<f32>(1.0) - fresnel) * (1.0 - metallic) * albedo / PI;
    return (diffuse + fresnel * distribution * visibility) * nl;
}

// The normal `n` bent by a tangent-space normal map texel `mapped` (glTF's convention: X along +u, Y up the
// image, that is along −v) with its X and Y scaled by `scale`, in a tangent frame made from the screen
// derivatives of the position (`dp1`, `dp2`) and the texture coordinate (`duv1`, `duv2`), as the Khronos sample
// viewer makes one for meshes without tangents; mirrored UVs turn the frame with them.
fn perturbed(
    n: vec3<f32>,
    mapped: vec3<f32>,
    scale: f32,
    dp1: vec3<f32>,
    dp2: vec3<f32>,
    duv1: vec2<f32>,
    duv2: vec2<f32>,
) -> vec3<f32> {
    let det = duv1.x * duv2.y - duv2.x * duv1.y;
    if abs(det) < 1e-12 {
        return n;
    }
    let along_u = (dp1 * duv2.y - dp2 * duv1.y) / det;
    let along_v = (dp2 * duv1.x - dp1 * duv2.x) / det;
    let t = along_u - n * dot(n, along_u);
    let b = -along_v + n * dot(n, along_v);
    if dot(t, t) < 1e-20 || dot(b, b) < 1e-20 {
        return n;
    }
    let m = (mapped * 2.0 - vec3<f32>(1.0)) * vec3<f32>(scale, scale, 1.0);
    let bent = normalize(t) * m.x + normalize(b) * m.y + n * m.z;
    if dot(bent, bent) < 1e-12 {
        return n;
    }
    return normalize(bent);
}

// The light a glTF surface reflects from the viewer's surroundings (there is no environment map): its diffuse
// part lit by the hemisphere ambient, and its reflection of the same sky-to-ground gradient along the mirror
// direction, as rough surfaces blur it toward the gradient's mean.
fn surface_ambient(albedo: vec3<f32>, metallic: f32, roughness: f32, n: vec3<f32>, v: vec3<f32>) -> vec3<f32> {
    let ground = vec3<f32>(0.16, 0.14, 0.13);
    let sky = vec3<f32>(0.42, 0.45, 0.52);
    let diffuse = mix(ground, sky, 0.5 + 0.5 * dot(n, view.up.xyz)) * albedo * (1.0 - metallic);
    let r = reflect(-v, n);
    let mirrored = mix(ground, sky, 0.5 + 0.5 * dot(r, view.up.xyz));
    let reflected = mix(mirrored, 0.5 * (ground + sky), roughness);
    let f0 = mix(vec3<f32>(0.04), albedo, metallic);
    let nv = max(dot(n, v), 0.0);
    let fresnel = f0 + (max(vec3<f32>(1.0 - roughness), f0) - f0) * pow(1.0 - nv, 5.0);
    return diffuse + reflected * fresnel;
}

// Where a sphere map (a matcap) is read: the normal as the camera sees it, right and up across the map, so the
// map's centre faces the eye.
fn sphere_uv(n: vec3<f32>, to_eye: vec3<f32>) -> vec2<f32> {
    var right = cross(view.up.xyz, to_eye);
    if dot(right, right) < 1e-8 {
        right = vec3<f32>(1.0, 0.0, 0.0);
    }
    right = normalize(right);
    let up = cross(to_eye, right);
    return vec2<f32>(0.5 + 0.5 * dot(n, right), 0.5 - 0.5 * dot(n, up));
}

// How lit a point is by the self-shadow map: 1 in the light, 0 in full shadow, −1 outside the map. The point is
// compared with the map texels around it (percentage-closer filtering), each comparison MikuMikuDance's:
// shadow sets in 0.3 / rate behind the nearest caster and is full 1 / rate further on. Against acne, the point
// is first moved a texel along its normal, and compared as if 2 × tan θ texels nearer the light (θ between
// normal and light, tan θ at most 3): the kernel reaches about two texels from the point, and a surface at θ to
// the light lies tan θ texels deeper per texel across it. Below N·L = 1/3, where tan θ passes 3, MikuMikuDance's
// toon term darkens the surface anyway. `n` is the triangle's own normal, not the shading normal: MikuMikuDance
// faces often carry normals turned toward the front for flat toon shading, which would hide how steeply the
// surface really slants.
fn self_shadow(world: vec3<f32>, n: vec3<f32>) -> f32 {
    let texel = view.shadow.w;
    let p = view.shadow_matrix * vec4<f32>(world + n * texel, 1.0);
    let ndc = p.xyz / p.w;
    let uv = vec2<f32>(0.5 + 0.5 * ndc.x, 0.5 - 0.5 * ndc.y);
    if any(uv < vec2<f32>(0.0)) || any(uv > vec2<f32>(1.0)) || ndc.z < 0.0 || ndc.z > 1.0 {
        return -1.0;
    }
    // The light's direction is the way the map's depth grows.
    let m = view.shadow_matrix;
    let travel = normalize(vec3<f32>(m[0].z, m[1].z, m[2].z));
    let c = clamp(abs(dot(n, travel)), 0.05, 1.0);
    let slope = min(sqrt(1.0 - c * c) / c, 3.0);
    let z = ndc.z - 2.0 * texel * slope * view.shadow.z;
    // A tent over three texels each way: the 4×4 texels around the point, the outer ones weighted by how near
    // the point lies to them, so the shadow's edge moves smoothly rather than a texel at a time.
    let size = vec2<i32>(textureDimensions(shadow_map));
    let st = uv * vec2<f32>(size) - 0.5;
    let base = vec2<i32>(floor(st)) - 1;
    let f = fract(st);
    let wx = array<f32, 4>(1.0 - f.x, 1.0, 1.0, f.x);
    let wy = array<f32, 4>(1.0 - f.y, 1.0, 1.0, f.y);
    var lit = 0.0;
    for (var j = 0; j < 4; j++) {
        for (var i = 0; i < 4; i++) {
            let at = clamp(base + vec2<i32>(i, j), vec2<i32>(0), size - 1);
            let nearest = unpack_depth(textureLoad(shadow_map, at, 0));
            lit += wx[i] * wy[j] * (1.0 - clamp(max(z - nearest, 0.0) * view.shadow.y - 0.3, 0.0, 1.0));
        }
    }
    return lit / 9.0;
}

// A headlight (light from the camera) over a hemisphere ambient (sky above, ground below, along the model's
// up axis): every visible surface is lit, and shape reads from the falloff toward silhouettes. A back face
// (two-sided meshes, or culling off) is lit with its normal turned toward the camera.
@fragment
fn fs_mesh(in: MeshOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    var n = in.normal;
    if dot(n, n) < 1e-12 {
        n = normalize(view.eye.xyz - in.world);
    }
    n = normalize(n);
    if !front {
        n = -n;
    }
    // glTF's normal map, in the frame the screen derivatives give (taken while control flow is uniform).
    let mapped = textureSample(normal_map, albedo_sampler, in.uv).xyz;
    let dp1 = dpdx(in.world);
    let dp2 = dpdy(in.world);
    let duv1 = dpdx(in.uv);
    let duv2 = dpdy(in.uv);
    if draw.emissive.w != 0.0 {
        n = perturbed(n, mapped, draw.emissive.w, dp1, dp2, duv1, duv2);
    }
    let metal_rough = textureSample(metal_rough_map, albedo_sampler, in.uv);
    let occlusion = textureSample(occlusion_map, albedo_sampler, in.uv).r;
    let emitted = textureSample(emissive_map, albedo_sampler, in.uv).rgb;
    let to_eye = normalize(view.eye.xyz - in.world);
    // The triangle's own normal (from the position's screen derivatives, on the shading normal's side), for the
    // self-shadow's bias; taken while control flow is uniform.
    let across = cross(dpdx(in.world), dpdy(in.world));
    var flat_normal = n;
    if dot(across, across) > 1e-24 {
        flat_normal = normalize(across) * select(-1.0, 1.0, dot(across, n) >= 0.0);
    }
    // Sampled before anything is discarded, where control flow is still uniform.
    let sampled = textureSample(albedo, albedo_sampler, in.uv);
    var texel = sampled * draw.color;
    let sphere = textureSample(sphere_map, albedo_sampler, sphere_uv(n, to_eye)).rgb;
    // The toon key light: the scene's light where it has one (MikuMikuDance reads the ramp at 0.5 − 0.5·N·L
    // toward the light), else from the eye and above it, so shadow bands fall along silhouettes.
    var key = dot(n, normalize(to_eye + 0.8 * view.up.xyz));
    if view.light_dir.w > 0.5 {
        let travel = (view.model * vec4<f32>(view.light_dir.xyz, 0.0)).xyz;
        if dot(travel, travel) > 1e-12 {
            key = dot(n, -normalize(travel));
        }
    }
    let toon = textureSample(toon_ramp, albedo_sampler, vec2<f32>(0.5, clamp(0.5 - 0.5 * key, 0.03, 0.97))).rgb;
    // The ramp's shadow colour, its bottom row (MikuMikuDance's TOONCOLOR).
    let toon_shadow = textureSample(toon_ramp, albedo_sampler, vec2<f32>(0.5, 0.97)).rgb;
    if view.modes.y > 0.5 {
        texel = vec4<f32>(uv_checker(in.uv), 1.0);
    }
    // A material faded out by its colour (a material morph hides it) is not drawn, blended or not.
    if texel.a < draw.flags.y || draw.color.a <= 0.0 {
        discard;
    }
    var albedo = texel.rgb * in.color.rgb;
    if draw.shade.x > 1.5 && view.modes.y < 0.5 {
        albedo += sphere;
    } else if draw.shade.x > 0.5 && view.modes.y < 0.5 {
        albedo *= sphere;
    }
    let facing = max(dot(n, to_eye), 0.0);
    let hemi = 0.5 + 0.5 * dot(n, view.up.xyz);
    let ambient = mix(vec3<f32>(0.16, 0.14, 0.13), vec3<f32>(0.42, 0.45, 0.52), hemi);
    let specular = 0.12 * pow(facing, 24.0);
    // Self-shadow: −1 where this draw doesn't receive it or the point lies outside the map.
    var shadow = -1.0;
    if view.shadow.x > 0.5 && draw.shade.z > 0.5 {
        shadow = self_shadow(in.world, flat_normal);
    }
    // The viewer's shading keeps its ambient in shadow and loses the key light and highlight.
    let lit_by_map = select(1.0, shadow, shadow >= 0.0);
    var color = albedo * (ambient + 0.72 * facing * lit_by_map) + vec3<f32>(specular * lit_by_map);
    if draw.shade.y > 0.5 {
        // MikuMikuDance's look: the colour as it is, darkened only by the ramp's shadow rows.
        let highlight = select(0.5 * specular, 0.0, draw.shade.y > 1.5);
        color = albedo * toon + vec3<f32>(highlight);
        if view.shadow.x > 0.5 && draw.shade.z > 0.5 {
            // MikuMikuDance's self-shadow shading of a receiver: the toon term becomes saturate(3·N·L), the
            // shadow map's light is the lesser of it and that, and the colour runs from the colour times the
            // ramp's shadow colour to the colour itself. Outside the map MikuMikuDance draws the colour unshaded.
            var lit = 1.0;
            if shadow >= 0.0 {
                lit = min(clamp(3.0 * key, 0.0, 1.0), shadow);
            }
            color = mix(albedo * toon_shadow, albedo + vec3<f32>(highlight), lit);
        }
        if draw.toon_shade.w > 0.5 {
            // MToon: the ramp holds the lit share (shadowed by the self-shadow map where it has one, as MToon
            // multiplies its shading by the shadow); the shade colour, by the colour texture where MToon has a shade
            // texture (exporters write the colour texture into it), takes the unlit side. Then the rim light, whose
            // light the viewer holds at 1 (MToon's rim lighting mix then changes nothing).
            var shade = draw.toon_shade.rgb * in.color.rgb;
            if draw.toon_shade.w > 1.5 && view.modes.y < 0.5 {
                shade *= sampled.rgb;
            }
            let share = toon.r * select(1.0, shadow, shadow >= 0.0);
            color = mix(shade, albedo, share);
            let rim_key = clamp(1.0 - dot(to_eye, n) + draw.rim_shape.x, 0.0, 1.0);
            color += draw.rim.rgb * pow(rim_key, max(draw.rim.w, 1e-4));
        }
    }
    if draw.surface.z > 0.5 && draw.shade.y < 0.5 {
        // glTF's metallic-roughness surface under the viewer's key light (from the eye and above it, as the toon
        // key; radiance 0.72π, so a rough white dielectric facing it is as bright as the viewer's own shading)
        // and its surroundings.
        let metallic = clamp(draw.surface.x * metal_rough.b, 0.0, 1.0);
        let roughness = clamp(draw.surface.y * metal_rough.g, 0.0, 1.0);
        let l = normalize(to_eye + 0.8 * view.up.xyz);
        let occluded = 1.0 + draw.surface.w * (occlusion - 1.0);
        color = brdf(albedo, metallic, roughness, n, to_eye, l) * (0.72 * PI * lit_by_map)
            + surface_ambient(albedo, metallic, roughness, n, to_eye) * occluded;
    }
    if draw.flags.x < 0.5 {
        color = albedo;
    }
    color += draw.emissive.rgb * emitted;
    color = mix(color, HIGHLIGHT, 0.55 * clamp(in.highlight, 0.0, 1.0));
    var alpha = select(1.0, texel.a * in.color.a, draw.flags.z > 0.5);
    if view.modes.x > 0.5 {
        // A little headlight keeps the shape readable; the hue alone carries the weight.
        color = heat(in.weight) * (0.55 + 0.45 * facing);
        alpha = 1.0;
    }
    return vec4<f32>(color, alpha);
}

// MikuMikuDance's ground shadow: the skinned mesh flattened onto the floor (the plane through the model's origin
// across world up) along the scene's light (view.light_dir, model space), drawn translucent dark. Without a
// light, or with one that does not travel down, every vertex collapses to one point: nothing is drawn.
@vertex
fn vs_ground_shadow(v: VertexIn) -> MeshOut {
    var out = mesh_vertex(v);
    let travel = (view.model * vec4<f32>(view.light_dir.xyz, 0.0)).xyz;
    let floor = view.model[3].y;
    if view.light_dir.w < 0.5 || travel.y > -1e-3 * length(travel) {
        out.clip = vec4<f32>(0.0, 0.0, 0.0, 1.0);
        return out;
    }
    var p = out.world - travel * ((out.world.y - floor) / travel.y);
    // A hair above the floor, so the grid under the model does not cut through the shadow.
    p.y = floor + 1e-4 * max(abs(floor), 1.0);
    out.world = p;
    out.clip = view.view_proj * vec4<f32>(p, 1.0);
    return out;
}

// MikuMikuDance's ground shadow is one flat, opaque colour: the light's (nanoem, DirectionalLight.cc and
// ModelProgramBundle.cc; a brighter light gives a paler shadow, as in MikuMikuDance), sRGB-encoded in the
// uniforms and written linear here. Every fragment of it writes the same opaque colour, so where the flattened
// triangles overlap the picture is the same as drawing each pixel once.
@fragment
fn fs_ground_shadow(in: MeshOut) -> @location(0) vec4<f32> {
    let c = clamp(view.light_color.rgb, vec3<f32>(0.0), vec3<f32>(1.0));
    let low = c / 12.92;
    let high = pow((c + 0.055) / 1.055, vec3<f32>(2.4));
    return vec4<f32>(select(high, low, c <= vec3<f32>(0.04045)), 1.0);
}

// The self-shadow map: the casting draws, skinned as vs_mesh skins them, seen from the light
// (view.shadow_matrix). Texels transparent enough to be cut out or blended away cast nothing.
struct ShadowOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) uv: vec2<f32>,
};

@vertex
fn vs_shadow(v: VertexIn) -> ShadowOut {
    let m = mesh_vertex(v);
    var out: ShadowOut;
    out.clip = view.shadow_matrix * vec4<f32>(m.world, 1.0);
    out.uv = m.uv;
    return out;
}

@fragment
fn fs_shadow(in: ShadowOut) -> @location(0) vec4<f32> {
    let texel = textureSample(albedo, albedo_sampler, in.uv) * draw.color;
    if draw.color.a <= 0.0 || (draw.flags.y > 0.0 && texel.a < 0.5) {
        discard;
    }
    return pack_depth(in.clip.z);
}

// Onion-skin ghosts: the mesh under a ghost's palette, pushed 2% of the way further from the eye so that where
// a ghost nearly coincides with the real mesh the mesh wins the depth test and stays clean; the ghosts show
// where the pose moved away from it.
@vertex
fn vs_ghost(v: VertexIn) -> MeshOut {
    var out = mesh_vertex(v);
    out.clip = view.view_proj * vec4<f32>(mix(out.world, view.eye.xyz, -0.02), 1.0);
    return out;
}

// The ghost's colour: its tint, translucent, lightly shaded.
@fragment
fn fs_ghost(in: MeshOut, @builtin(front_facing) front: bool) -> @location(0) vec4<f32> {
    var n = in.normal;
    if dot(n, n) < 1e-12 {
        n = normalize(view.eye.xyz - in.world);
    }
    n = normalize(select(-n, n, front));
    let facing = max(dot(n, normalize(view.eye.xyz - in.world)), 0.0);
    return vec4<f32>(in.tint.rgb * (0.45 + 0.55 * facing), in.tint.a);
}

struct WireOut {
    @builtin(position) clip: vec4<f32>,
};

@vertex
fn vs_wire(v: VertexIn) -> WireOut {
    let s = skin(v);
    var out: WireOut;
    out.clip = view.view_proj * toward_eye(view.model * vec4<f32>(s.position, 1.0));
    return out;
}

@fragment
fn fs_wire() -> @location(0) vec4<f32> {
    return view.wire_color;
}

// Outlines (MMD's edge): the back faces pushed out along their normals by the material's size times the
// vertex's scale, in proportion to the distance from the eye so the line stays about as wide on screen.
const OUTLINE_WIDTH = 0.0008;

@vertex
fn vs_edge(v: VertexIn) -> WireOut {
    let s = skin(v);
    let world = (view.model * vec4<f32>(s.position, 1.0)).xyz;
    let n = (view.model * vec4<f32>(s.normal, 0.0)).xyz;
    let width = draw.flags.w * max(v.outline, 0.0) * OUTLINE_WIDTH * distance(view.eye.xyz, world);
    var out: WireOut;
    out.clip = view.view_proj * vec4<f32>(world + n * width, 1.0);
    return out;
}

@fragment
fn fs_edge() -> @location(0) vec4<f32> {
    if draw.edge.a <= 0.0 {
        discard;
    }
    return vec4<f32>(draw.edge.rgb, 1.0);
}

// Skinning capture: vertex i becomes a point on pixel (i mod width, i div width) carrying its skinned
// position, normal and tangent, exactly as vs_mesh computes them.
struct CaptureOut {
    @builtin(position) clip: vec4<f32>,
    @location(0) @interpolate(flat) position: vec4<f32>,
    @location(1) @interpolate(flat) normal: vec4<f32>,
    @location(2) @interpolate(flat) tangent: vec4<f32>,
};

@vertex
fn vs_capture(v: VertexIn) -> CaptureOut {
    let s = skin(v);
    let index = v.index;
    let width = u32(view.params.y);
    let px = vec2<f32>(f32(index % width) + 0.5, f32(index / width) + 0.5);
    let size = vec2<f32>(view.params.y, view.params.z);
    var out: CaptureOut;
    out.clip = vec4<f32>(px.x / size.x * 2.0 - 1.0, 1.0 - px.y / size.y * 2.0, 0.5, 1.0);
    out.position = vec4<f32>(s.position, 1.0);
    out.normal = vec4<f32>(s.normal, 0.0);
    out.tangent = s.tangent;
    return out;
}

struct PositionNormal {
    @location(0) position: vec4<f32>,
    @location(1) normal: vec4<f32>,
};

@fragment
fn fs_capture_position_normal(in: CaptureOut) -> PositionNormal {
    return PositionNormal(in.position, in.normal);
}

@fragment
fn fs_capture_tangent(in: CaptureOut) -> @location(0) vec4<f32> {
    return in.tangent;
}
