// Per-view uniforms shared by every rigscope pipeline (src/render/frame.rs writes them).
struct View {
    // Projection · view, for world space (Y up, the model's front toward +Z).
    view_proj: mat4x4<f32>,
    // Model space → world space: stands the model upright (render::up_basis). A diagonal ±1 or a rotation, so it
    // also transforms normals; it mirrors only for left-handed models, whose pipeline swaps the front face.
    model: mat4x4<f32>,
    // Camera position in world space (w unused).
    eye: vec4<f32>,
    // World up (w unused).
    up: vec4<f32>,
    // Wireframe line colour.
    wire_color: vec4<f32>,
    // x: the fraction of the way to the camera that lines are pulled, so they win over the surface they lie
    //    on; y, z: width and height in pixels of the skinning capture grid (capture.rs); w: the joint whose
    //    vertices are tinted, plus one (0: none).
    params: vec4<f32>,
    // Debug views (src/render/frame.rs): x: 1 the weight view (a heat map of joint z − 1's weights replaces
    // texture and lighting); y: 1 the UV checker replaces the materials' textures; z: the joint the weight
    // view paints, plus one (0: none, every vertex weighs 0); w: 1 blends every vertex linearly (SDEF and QDEF
    // vertices too).
    modes: vec4<f32>,
    // The scene's directional light (src/render/frame.rs FrameInput::light): xyz the direction it travels, in
    // model space; w 1 when set (0: the viewer's own light from the eye).
    light_dir: vec4<f32>,
    // Its colour (sRGB-encoded, as MikuMikuDance keys it; w 1 when set). Material colours are lit on the CPU.
    light_color: vec4<f32>,
    // Self-shadow (src/render/shadow.rs): world space → the shadow map's clip space (orthographic along the
    // light; depth 0..1 over the map's depth range).
    shadow_matrix: mat4x4<f32>,
    // x: 1 when receivers read the shadow map (0: no self-shadow); y: how fast shadow sets in per unit of map
    // depth behind the nearest caster (MikuMikuDance's rate); z: map depth per world unit; w: a map texel's
    // side in world units.
    shadow: vec4<f32>,
};

@group(0) @binding(0) var<uniform> view: View;

// A world-space point moved a little toward the camera (lines drawn over surfaces).
fn toward_eye(world: vec4<f32>) -> vec4<f32> {
    return vec4<f32>(mix(world.xyz, view.eye.xyz, view.params.x), 1.0);
}
