// three-vrm 3.5.5's spring bones and node constraints, headless, as a reference for rigscope
// (tests/vrm_reference.rs).
//
//   node run.mjs FILE.gltf|.glb|.vrm [--steps 120] [--dt 1/60]
//   node run.mjs AVATAR.vrm --vrma MOTION.vrma [--steps 90] [--dt 1/30]
//   node run.mjs AVATAR.vrm --expressions '[{"happy": 0.5}, ...]'
//   node run.mjs AVATAR.vrm --look-at '[[x, y, z], ...]'
//
// Loads FILE with three.js's GLTFLoader and three-vrm's VRMNodeConstraintLoaderPlugin (VRMC_node_constraint 1.0)
// and VRMSpringBoneLoaderPlugin (VRMC_springBone 1.0 with extended colliders, or VRM 0.x secondaryAnimation),
// plays the file's animations with an AnimationMixer, and for step k = 1..steps sets the mixer to k·dt, updates
// the constraints, then the springs once with dt (VRM's order), and refreshes every world matrix, as an app
// that renders each frame does. Each step is one line of JSON on stdout:
//
//   {"step": k, "time": k·dt, "nodes": [[x, y, z] | null, ...], "rotations": [[x, y, z, w] | null, ...]}
//
// the world position and rotation of every glTF node by its index (null for one three.js made no object for).
//
// With --vrma, AVATAR is loaded with three-vrm's VRMLoaderPlugin and MOTION with VRMAnimationLoaderPlugin;
// createVRMAnimationClip carries the motion onto the avatar's normalized humanoid, and each step sets the mixer to
// k·dt (k = 0..steps−1) and runs `vrm.update(dt)` (the humanoid written to the raw bones, expressions applied).
// Each line then also has "expressions": {name: weight} and "morphs": {"node index": [influences]}; the look-at
// track turns the eyes or weights the look expressions through the avatar's look-at.
//
// With --expressions, AVATAR is loaded with VRMLoaderPlugin (MToon and the v0 compatibility plugins included) and
// for each set of weights in the JSON list the expressions are given those weights (the rest 0) and
// `vrm.update(0)` applies them. Each line is
//
//   {"expressions": {name: weight}, "morphs": {...}, "materials": [{"color": [r, g, b, opacity],
//    "emissive": [r, g, b] (times the emissive intensity), "shade", "rim", "matcap", "outline": [r, g, b]} | null]}
//
// each glTF material's values by its index, as the expressions' material colour binds leave them (MToon's only
// where the material is MToon; null for a material no mesh draws).
//
// With --look-at, AVATAR (VRMLoaderPlugin) looks at each point in turn (`vrm.lookAt.lookAt(point)`, then
// `vrm.update(0)` twice: the first applies the look, the second carries the normalized eyes to the raw ones).
// Each line is {"yaw": degrees, "pitch": degrees, "rotations": [...], "expressions": {name: weight}}.
//
// Nothing is drawn and no texture is read. Diagnostics go to stderr.
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMLoaderPlugin, VRMNodeConstraintLoaderPlugin, VRMSpringBoneLoaderPlugin } from '@pixiv/three-vrm';
import { VRMAnimationLoaderPlugin, createVRMAnimationClip } from '@pixiv/three-vrm-animation';

const args = process.argv.slice(2);
const file = args.find((a, i) => !a.startsWith('--') && !/^[0-9/.]+$/.test(a) && args[i - 1] !== '--vrma');
const option = (name, fallback) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : fallback;
};
const fraction = (s) => (s.includes('/') ? Number(s.split('/')[0]) / Number(s.split('/')[1]) : Number(s));
const steps = Number(option('--steps', '120'));
const dt = fraction(option('--dt', '1/60'));
if (!file) {
  console.error('usage: node run.mjs FILE.gltf|.glb|.vrm [--steps N] [--dt S]');
  process.exit(2);
}

// A .gltf's buffers are read here and inlined as data URIs (the loader would fetch them).
globalThis.ProgressEvent ??= class ProgressEvent {};
const read = (name) => {
  const input = fs.readFileSync(name);
  if (!name.endsWith('.gltf')) {
    return input.buffer.slice(input.byteOffset, input.byteOffset + input.byteLength);
  }
  const json = JSON.parse(input.toString('utf8'));
  for (const b of json.buffers ?? []) {
    if (b.uri && !b.uri.startsWith('data:')) {
      const bytes = fs.readFileSync(path.join(path.dirname(name), decodeURIComponent(b.uri)));
      b.uri = 'data:application/octet-stream;base64,' + bytes.toString('base64');
    }
  }
  return JSON.stringify(json);
};
const input = read(file);
const noTextures = () => ({ name: 'rigscope_no_textures', loadTexture: () => Promise.resolve(new THREE.Texture()) });
// FILE as a VRM avatar (VRMLoaderPlugin: the MToon and v0 compatibility plugins included): the glTF and its vrm.
const loadAvatar = async () => {
  const loader = new GLTFLoader();
  loader.register(noTextures);
  loader.register((parser) => new VRMLoaderPlugin(parser));
  const avatar = await loader.parseAsync(input, '');
  return { avatar, vrm: avatar.userData.vrm };
};
const expressionWeights = (vrm) =>
  Object.fromEntries((vrm.expressionManager?.expressions ?? []).map((e) => [e.expressionName, e.weight]));
// Exit once everything written has reached the pipe (an exit drops what is still buffered).
const finish = async () => {
  await new Promise((done) => process.stdout.write('', done));
  process.exit(0);
};

const weightSets = option('--expressions', null);
if (weightSets) {
  const { avatar, vrm } = await loadAvatar();
  const manager = vrm.expressionManager;
  const byIndex = [];
  vrm.scene.traverse((o) => {
    for (const m of [o.material ?? []].flat()) {
      const index = avatar.parser.associations.get(m)?.materials;
      if (index != null && !m.isOutline && !byIndex[index]) {
        byIndex[index] = m;
      }
    }
  });
  const rgb = (c) => (c ? [c.r, c.g, c.b] : undefined);
  for (const weights of JSON.parse(weightSets)) {
    for (const e of manager.expressions) {
      manager.setValue(e.expressionName, weights[e.expressionName] ?? 0);
    }
    vrm.update(0);
    const materials = [];
    for (let i = 0; i < (avatar.parser.json.materials ?? []).length; i++) {
      const m = byIndex[i];
      materials.push(
        m
          ? {
              color: [...rgb(m.color), m.opacity],
              emissive: rgb(m.emissive)?.map((x) => x * (m.emissiveIntensity ?? 1)),
              shade: rgb(m.shadeColorFactor),
              rim: rgb(m.parametricRimColorFactor),
              matcap: rgb(m.matcapFactor),
              outline: rgb(m.outlineColorFactor),
            }
          : null,
      );
    }
    process.stdout.write(JSON.stringify({ expressions: expressionWeights(vrm), materials }) + '\n');
  }
  await finish();
}

const lookTargets = option('--look-at', null);
if (lookTargets) {
  const { avatar, vrm } = await loadAvatar();
  const nodes = await avatar.parser.getDependencies('node');
  const rotation = new THREE.Quaternion();
  vrm.scene.updateMatrixWorld(true);
  for (const p of JSON.parse(lookTargets)) {
    vrm.lookAt.lookAt(new THREE.Vector3(...p));
    vrm.update(0);
    vrm.update(0);
    vrm.scene.updateMatrixWorld(true);
    const rotations = nodes.map((n) => (n ? n.getWorldQuaternion(rotation).toArray() : null));
    const line = { yaw: vrm.lookAt.yaw, pitch: vrm.lookAt.pitch, rotations, expressions: expressionWeights(vrm) };
    process.stdout.write(JSON.stringify(line) + '\n');
  }
  await finish();
}

const vrmaFile = option('--vrma', null);
if (vrmaFile) {
  const { avatar, vrm } = await loadAvatar();
  const motionLoader = new GLTFLoader();
  motionLoader.register((parser) => new VRMAnimationLoaderPlugin(parser));
  const motion = await motionLoader.parseAsync(read(vrmaFile), '');
  const clip = createVRMAnimationClip(motion.userData.vrmAnimations[0], vrm);
  const mixer = new THREE.AnimationMixer(vrm.scene);
  mixer.clipAction(clip).play();
  const nodes = await avatar.parser.getDependencies('node');
  const position = new THREE.Vector3();
  const rotation = new THREE.Quaternion();
  for (let k = 0; k < steps; k++) {
    mixer.setTime(k * dt);
    vrm.update(dt);
    vrm.scene.updateMatrixWorld(true);
    const at = nodes.map((n) => (n ? n.getWorldPosition(position).toArray() : null));
    const turned = nodes.map((n) => (n ? n.getWorldQuaternion(rotation).toArray() : null));
    const expressions = expressionWeights(vrm);
    const morphs = {};
    nodes.forEach((n, i) => {
      n?.traverse((o) => {
        if (o.morphTargetInfluences && o.morphTargetInfluences.some((w) => w !== 0)) {
          morphs[i] = Array.from(o.morphTargetInfluences);
        }
      });
    });
    const line = { step: k, time: k * dt, nodes: at, rotations: turned, expressions, morphs };
    process.stdout.write(JSON.stringify(line) + '\n');
  }
  await finish();
}

const loader = new GLTFLoader();
loader.register(noTextures);
loader.register((parser) => new VRMNodeConstraintLoaderPlugin(parser));
loader.register((parser) => new VRMSpringBoneLoaderPlugin(parser));
const gltf = await loader.parseAsync(input, '');
const springs = gltf.userData.vrmSpringBoneManager;
const constraints = gltf.userData.vrmNodeConstraintManager;
if (!springs && !constraints) {
  console.error(`${file}: no spring bones and no node constraints`);
  process.exit(1);
}
const nodes = await gltf.parser.getDependencies('node');
const mixer = new THREE.AnimationMixer(gltf.scene);
for (const clip of gltf.animations) {
  mixer.clipAction(clip).play();
}
gltf.scene.updateMatrixWorld(true);
const position = new THREE.Vector3();
const rotation = new THREE.Quaternion();
for (let k = 1; k <= steps; k++) {
  mixer.setTime(k * dt);
  constraints?.update();
  springs?.update(dt);
  gltf.scene.updateMatrixWorld(true);
  const at = nodes.map((n) => (n ? n.getWorldPosition(position).toArray() : null));
  const turned = nodes.map((n) => (n ? n.getWorldQuaternion(rotation).toArray() : null));
  process.stdout.write(JSON.stringify({ step: k, time: k * dt, nodes: at, rotations: turned }) + '\n');
}
