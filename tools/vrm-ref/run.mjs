// three-vrm 3.5.5's spring bones and node constraints, headless, as a reference for rigscope
// (tests/vrm_reference.rs).
//
//   node run.mjs FILE.gltf|.glb|.vrm [--steps 120] [--dt 1/60]
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
// Nothing is drawn and no texture is read. Diagnostics go to stderr.
import fs from 'node:fs';
import path from 'node:path';
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { VRMNodeConstraintLoaderPlugin, VRMSpringBoneLoaderPlugin } from '@pixiv/three-vrm';

const args = process.argv.slice(2);
const file = args.find((a) => !a.startsWith('--') && !/^[0-9/.]+$/.test(a));
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
let input = fs.readFileSync(file);
if (file.endsWith('.gltf')) {
  const json = JSON.parse(input.toString('utf8'));
  for (const b of json.buffers ?? []) {
    if (b.uri && !b.uri.startsWith('data:')) {
      const bytes = fs.readFileSync(path.join(path.dirname(file), decodeURIComponent(b.uri)));
      b.uri = 'data:application/octet-stream;base64,' + bytes.toString('base64');
    }
  }
  input = JSON.stringify(json);
} else {
  input = input.buffer.slice(input.byteOffset, input.byteOffset + input.byteLength);
}

const loader = new GLTFLoader();
loader.register((parser) => ({ name: 'rigscope_no_textures', loadTexture: () => Promise.resolve(new THREE.Texture()) }));
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
