// Headless MMD physics reference: babylon-mmd 1.3.0 + @babylonjs/core 9.35.0 under NullEngine (no GPU).
//
//   node run.mjs MODEL.pmx|pmd [MOTION.vmd] --frames A..B [--step 1/60] [--gravity -98] [--engine bullet|ammo]
//                [--bone-rotations] [--keep-toggles]
//
// Prints one JSON line per frame f in A..=B (30 fps frames):
//   {"frame": f, "bodies": [{"name", "position": [x,y,z], "rotation": [x,y,z,w]}...],
//    "bones": [{"name", "position": [x,y,z]}...]}
// Coordinates are the model file's own (MMD units, left-handed, Y up); babylon is left-handed too, so nothing is
// converted. Bodies are in the file's rigid-body order, bones in the file's bone order. See README.md for the
// settings and the reset/warm-up semantics at frame A. Diagnostics go to stderr.
import { readFileSync } from "node:fs";
import { createRequire, register } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

import { readBones } from "./mmdfile.mjs";

const here = path.dirname(fileURLToPath(import.meta.url));
register("./hooks.mjs", import.meta.url);

// ---------------------------------------------------------------- arguments
function usage(msg) {
    if (msg) process.stderr.write(`run.mjs: ${msg}\n`);
    process.stderr.write("usage: node run.mjs MODEL.pmx|pmd [MOTION.vmd] --frames A..B [--step 1/60] [--gravity -98] " +
        "[--engine bullet|ammo] [--bone-rotations] [--keep-toggles] [--joints] [--no-physics [--every K] [--offset D]] [--pmd-as-mmd]\n");
    process.exit(2);
}
function parseNumber(s, what) {
    const m = /^\s*(-?[\d.eE+-]+)\s*(?:\/\s*([\d.eE+-]+))?\s*$/.exec(s ?? "");
    const v = m ? (m[2] !== undefined ? Number(m[1]) / Number(m[2]) : Number(m[1])) : NaN;
    if (!Number.isFinite(v)) usage(`bad ${what}: ${s}`);
    return v;
}
const opts = { files: [], frames: null, step: 1 / 60, gravity: -98, engine: "bullet", boneRotations: false, keepToggles: false, joints: false, noPhysics: false, pmdAsMmd: false, every: 1, offset: 0 };
{
    const argv = process.argv.slice(2);
    for (let i = 0; i < argv.length; ++i) {
        const a = argv[i];
        const val = () => (i + 1 < argv.length ? argv[++i] : usage(`${a} needs a value`));
        if (a === "--frames") {
            const m = /^(\d+)\.\.(\d+)$/.exec(val());
            if (!m || Number(m[2]) < Number(m[1])) usage("--frames wants A..B with A <= B");
            opts.frames = [Number(m[1]), Number(m[2])];
        } else if (a === "--step") opts.step = parseNumber(val(), "--step");
        else if (a === "--gravity") opts.gravity = parseNumber(val(), "--gravity");
        else if (a === "--engine") opts.engine = val();
        else if (a === "--bone-rotations") opts.boneRotations = true;
        else if (a === "--keep-toggles") opts.keepToggles = true;
        else if (a === "--joints") opts.joints = true;
        else if (a === "--no-physics") opts.noPhysics = true;
        else if (a === "--every") opts.every = parseNumber(val(), "--every");
        else if (a === "--offset") opts.offset = parseNumber(val(), "--offset");
        else if (a === "--pmd-as-mmd") opts.pmdAsMmd = true;
        else if (a === "-h" || a === "--help") usage();
        else if (a.startsWith("--")) usage(`unknown option ${a}`);
        else opts.files.push(a);
    }
    if (opts.files.length < 1 || opts.files.length > 2) usage("need MODEL and optionally MOTION");
    if (opts.frames === null) usage("--frames A..B is required");
    if (opts.engine !== "bullet" && opts.engine !== "ammo") usage("--engine is bullet or ammo");
    if (!(opts.step > 0)) usage("--step must be > 0");
    if (!(Number.isInteger(opts.every) && opts.every >= 1)) usage("--every wants a whole number from 1");
    if (opts.every > 1 && !opts.noPhysics) usage("--every needs --no-physics (physics steps through every frame)");
    if (opts.offset !== 0 && !opts.noPhysics) usage("--offset needs --no-physics");
}
const [modelPath, motionPath] = opts.files;
const modelExt = path.extname(modelPath).toLowerCase();
if (modelExt !== ".pmx" && modelExt !== ".pmd") usage("MODEL must be .pmx or .pmd");
const log = (s) => process.stderr.write(`[physics-ref] ${s}\n`);
const r9 = (x) => Number(x.toPrecision(9)); // float32 round-trip precision

// ---------------------------------------------------------------- VMD physics toggles
// babylon-mmd 1.3.0 reads bytes 2..3 of each bone key's 64-byte interpolation block as the MMD 9.x physics toggle
// (0x0000 = ON, 0x630F = OFF) and leaves the toggle at 0 = OFF for any other pair (pre-9.x files store curve bytes
// there), which silently turns physics off for every keyed bone. We rewrite unknown pairs to 0x0000 (ON) in a copy
// of the file; those two bytes are not read as interpolation by babylon-mmd (it reads 0/4/8/12 + 16k).
function forceUnknownTogglesOn(bytes) {
    const buf = new Uint8Array(bytes); // copy
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const sig = new TextDecoder("latin1").decode(buf.subarray(0, 30));
    const nameLen = sig.startsWith("Vocaloid Motion Data 0002") ? 20 : 10;
    let off = 30 + nameLen;
    const count = dv.getUint32(off, true);
    off += 4;
    const stats = { keys: count, on: 0, off: 0, forced: 0 };
    for (let i = 0; i < count; ++i, off += 111) {
        const p = off + 15 + 4 + 12 + 16; // name, frame, position, rotation, then interpolation[64]
        const b2 = buf[p + 2], b3 = buf[p + 3];
        if (b2 === 0 && b3 === 0) stats.on += 1;
        else if (b2 === 0x63 && b3 === 0x0f) stats.off += 1;
        else {
            stats.forced += 1;
            buf[p + 2] = 0;
            buf[p + 3] = 0;
        }
    }
    return { buf, stats };
}

// --pmd-as-mmd, 2 and 3: where babylon-mmd 1.3.0's PMD conversion (Loader/Parser/pmdReader.js) reads a PMD
// otherwise than MikuMikuDance, its bone metadata is mended before the runtime model is built from it:
// - kind 5 ("rotation influenced", the eyes under 両目) takes its source from the IK field at a share of 1; babylon
//   takes it from the tail field at a share of the IK field / 100 (the eyes follow their own tips at 0.75);
//   kind 9 ("rotation follow", 腕捩1-3) takes its tail's rotation at the IK field's percent; babylon drops it.
// - babylon gives IK bones transform order 1 and leaves their children (the "IK先" tips) at 0, so a tip is posed
//   before its parent; a PMD has no transform order, and the tips follow their IK bones.
function pmdAsMikuMikuDance(metadata, fileBones) {
    const index = new Map();
    metadata.forEach((b, i) => { if (!index.has(b.name)) index.set(b.name, i); });
    const HAS_APPEND_ROTATE = 256;
    let appends = 0, tips = 0;
    for (const fb of fileBones) {
        const i = index.get(fb.name);
        const source = fb.kind === 5 ? fileBones[fb.ik] : fb.kind === 9 ? fileBones[fb.tail] : undefined;
        if (i === undefined) continue;
        if (source !== undefined && index.has(source.name)) {
            metadata[i].flag |= HAS_APPEND_ROTATE;
            metadata[i].appendTransform = { parentIndex: index.get(source.name), ratio: fb.kind === 5 ? 1 : fb.ik / 100 };
            appends += 1;
        }
        const parent = metadata[i].parentBoneIndex;
        if (parent >= 0 && metadata[parent].transformOrder > metadata[i].transformOrder) {
            metadata[i].transformOrder = metadata[parent].transformOrder;
            tips += 1;
        }
    }
    log(`--pmd-as-mmd: knee limits in radians, ${appends} PMD appends as MikuMikuDance reads them, ${tips} bones ` +
        `posed after their parents`);
}

// ---------------------------------------------------------------- babylon imports
const bjs = (p) => import(path.join(here, "node_modules/@babylonjs/core", p));
const mmd = (p) => import(path.join(here, "node_modules/babylon-mmd/esm", p));
const { NullEngine } = await bjs("Engines/nullEngine.js");
const { Scene } = await bjs("scene.js");
const { Vector3, Matrix, Quaternion } = await bjs("Maths/math.vector.js");
const { ImportMeshAsync } = await bjs("Loading/sceneLoader.js");
const { Logger } = await bjs("Misc/logger.js");
await mmd("Loader/pmdLoader.js");
await mmd("Loader/pmxLoader.js");
const { VmdLoader } = await mmd("Loader/vmdLoader.js");
const { MmdRuntime } = await mmd("Runtime/mmdRuntime.js");
await mmd("Runtime/Animation/mmdRuntimeModelAnimation.js"); // binds MmdAnimation -> runtime animation (side effect)

// --pmd-as-mmd, 1 of 3: babylon-mmd 1.3.0's PMD reader gives the knees MikuMikuDance's fixed limit (-180..-0.5
// about X) in degrees, where its solver reads radians, so PMD knees bend without limit; this writes the table in
// radians before any model is read. (2 and 3 follow the model's loading.)
if (opts.pmdAsMmd) {
    const { PmdReader } = await mmd("Loader/Parser/pmdReader.js");
    const d = Math.PI / 180;
    for (const knee of ["左ひざ", "右ひざ"]) PmdReader._IkAngleLimitTable.set(knee, [-180 * d, -0.5 * d, 0, 0, 0, 0]);
}

Logger.LogLevels = Logger.WarningLogLevel | Logger.ErrorLogLevel;
Logger.OnNewCacheEntry = () => {};
// babylon's Logger writes through console.*; keep stdout clean for JSON Lines.
console.log = console.info = (...a) => process.stderr.write(a.join(" ") + "\n");
console.warn = (...a) => process.stderr.write("warn: " + a.join(" ") + "\n");

const engine = new NullEngine();
const scene = new Scene(engine);
const substeps = (1 / 30) / opts.step;
if (Math.abs(substeps - Math.round(substeps)) > 1e-9) {
    log(`warning: 1/30 is not a multiple of the step; Bullet will interpolate motion states between substeps`);
}

let physicsImpl;
let stepWorld; // advances the physics world by one 30-fps frame
let readBody; // (fileBodyIndex, outPos:Vector3, outRot:Quaternion) -> bool (false when the body was not created)
let attachModel; // (mmdModel) -> void, sets up readBody
let effectiveMode; // (fileBodyIndex) -> physics mode after babylon-mmd's mode-2 demotion, or null (not created)

if (opts.noPhysics) {
    // --no-physics: the runtime without a physics engine (the motion, IK and appends alone); no bodies printed.
    physicsImpl = null;
    stepWorld = () => {};
    readBody = () => false;
    effectiveMode = () => null;
    attachModel = () => {};
} else if (opts.engine === "bullet") {
    const wasmBindgen = await mmd("Runtime/Optimized/wasm/spr/index.js");
    // wasm-bindgen would fetch() a file: URL; Node cannot, so instantiate synchronously from the bytes.
    wasmBindgen.initSync({ module: readFileSync(path.join(here, "node_modules/babylon-mmd/esm/Runtime/Optimized/wasm/spr/index_bg.wasm")) });
    const { MmdWasmInstanceTypeSPR } = await mmd("Runtime/Optimized/InstanceType/singlePhysicsRelease.js");
    const { GetMmdWasmInstance } = await mmd("Runtime/Optimized/mmdWasmInstance.js");
    const { MultiPhysicsRuntime } = await mmd("Runtime/Optimized/Physics/Bind/Impl/multiPhysicsRuntime.js");
    const { MmdBulletPhysics } = await mmd("Runtime/Optimized/Physics/mmdBulletPhysics.js");
    const wasmInstance = await GetMmdWasmInstance(new MmdWasmInstanceTypeSPR(), 1); // 1: Node 20 has no navigator
    const physicsRuntime = new MultiPhysicsRuntime(wasmInstance);
    physicsRuntime.setGravity(new Vector3(0, opts.gravity, 0));
    physicsRuntime.useDeltaForWorldStep = false;
    physicsRuntime.timeStep = 1 / 30; // one call = one 30-fps frame
    physicsRuntime.fixedTimeStep = opts.step;
    physicsRuntime.maxSubSteps = Math.max(10, Math.ceil(substeps) + 1);
    physicsImpl = new MmdBulletPhysics(physicsRuntime);
    stepWorld = () => physicsRuntime.afterAnimations(1000 / 30);
    const m = new Matrix();
    attachModel = (model) => {
        const pm = model._physicsModel;
        const indexMap = pm._rigidBodyIndexMap; // file index -> bundle index (-1: not created)
        effectiveMode = (i) => (indexMap[i] === -1 ? null : pm._bundle.rigidBodyData[indexMap[i]].physicsMode);
        readBody = (i, pos, rot) => {
            const idx = indexMap[i];
            if (idx === -1 || idx === undefined) return false;
            pm._bundle.getTransformMatrixToRef(idx, m);
            m.decompose(undefined, rot, pos);
            return true;
        };
    };
} else {
    // ammo.js (Emscripten build of Bullet 3.25 shipped in babylon-mmd)
    globalThis.require = createRequire(import.meta.url);
    globalThis.__dirname = path.join(here, "node_modules/babylon-mmd/esm/Runtime/Physics/External");
    const { default: ammoFactory } = await mmd("Runtime/Physics/External/ammo.wasm.js");
    const ammoWasm = readFileSync(path.join(here, "node_modules/babylon-mmd/esm/Runtime/Physics/External/ammo.wasm.wasm"));
    const Ammo = await ammoFactory({
        instantiateWasm(imports, onSuccess) {
            WebAssembly.instantiate(ammoWasm, imports).then((r) => onSuccess(r.instance, r.module));
            return {};
        },
    });
    await bjs("Physics/joinedPhysicsEngineComponent.js");
    const { MmdAmmoJSPlugin } = await mmd("Runtime/Physics/mmdAmmoJSPlugin.js");
    const { MmdAmmoPhysics } = await mmd("Runtime/Physics/mmdAmmoPhysics.js");
    const plugin = new MmdAmmoJSPlugin(false, Ammo); // false: step by the plugin's time step, not the frame delta
    scene.enablePhysics(new Vector3(0, opts.gravity, 0), plugin);
    // the PhysicsEngine constructor resets the plugin's time step to 1/60; set it afterwards
    scene.getPhysicsEngine().setTimeStep(1 / 30);
    plugin.setFixedTimeStep(opts.step);
    plugin.setMaxSteps(Math.max(10, Math.ceil(substeps) + 1));
    plugin.forceDisableOffsetForConstraintFrame = false;
    physicsImpl = new MmdAmmoPhysics(scene);
    stepWorld = () => scene._advancePhysicsEngineStep(1000 / 30);
    attachModel = (model) => {
        const nodes = model._physicsModel._nodes; // file order, null when not created
        effectiveMode = (i) => nodes[i]?.physicsMode ?? null;
        readBody = (i, pos, rot) => {
            const node = nodes[i];
            if (!node) return false;
            pos.copyFrom(node.position);
            rot.copyFrom(node.rotationQuaternion);
            return true;
        };
    };
}

// ---------------------------------------------------------------- model and motion
const modelBytes = new Uint8Array(readFileSync(modelPath));
const result = await ImportMeshAsync(modelBytes, scene, {
    pluginExtension: modelExt,
    pluginOptions: { mmdmodel: { materialBuilder: null, loggingEnabled: false, useSdef: false, buildMorph: true } },
});
const mesh = result.meshes.find((m) => m.metadata?.isMmdModel) ?? result.meshes[0];
if (opts.pmdAsMmd && modelExt === ".pmd") pmdAsMikuMikuDance(mesh.metadata.bones, readBones(modelPath));
// createMmdModel trims the metadata; read what we need first.
const bodyNames = mesh.metadata.rigidBodies.map((b) => b.name);
const bodyModes = mesh.metadata.rigidBodies.map((b) => b.physicsMode);
const bodyBoneIndices = mesh.metadata.rigidBodies.map((b) => b.boneIndex);
const jointCount = mesh.metadata.joints.length;
// --joints: each joint's frames in its two bodies at setup, as babylon-mmd's MmdBulletPhysics builds them for
// Bullet (mmdBulletPhysics.js, buildPhysics: joint transform from its position and Euler angles, times the
// inverse of each body's rest transform from its shape position and rotation), from the model as babylon-mmd
// loaded it. Printed as the first stdout line; matrices as babylon stores them (16 numbers, translation last
// row), which is the column-major array of the column-vector matrix.
if (opts.joints) {
    const bodies = mesh.metadata.rigidBodies;
    const compose = (rotation, position) => Matrix.Compose(Vector3.One(),
        Quaternion.FromEulerAngles(rotation[0], rotation[1], rotation[2]), Vector3.FromArray(position));
    const frames = mesh.metadata.joints.map((j) => {
        const a = bodies[j.rigidbodyIndexA];
        const b = bodies[j.rigidbodyIndexB];
        if (!a || !b) return { name: j.name, frameA: null, frameB: null };
        const joint = compose(j.rotation, j.position);
        const inA = joint.multiply(compose(a.shapeRotation, a.shapePosition).invert());
        const inB = joint.multiply(compose(b.shapeRotation, b.shapePosition).invert());
        return { name: j.name, frameA: Array.from(inA.m, r9), frameB: Array.from(inB.m, r9) };
    });
    process.stdout.write(JSON.stringify({ joints: frames }) + "\n");
}

const runtime = new MmdRuntime(scene, physicsImpl);
runtime.loggingEnabled = true;
const model = runtime.createMmdModel(mesh, {
    materialProxyConstructor: null,
    buildPhysics: { disableOffsetForConstraintFrame: false },
});
attachModel(model);
// Bones in the file's order. babylon-mmd's PMD loader can reorder bones (IK order) and appends "name+" bones for
// bones that carry several IK chains; map the file's bone table onto the runtime bones by name (n-th occurrence).
const fileBones = readBones(modelPath);
const bones = (() => {
    const byName = new Map();
    for (const b of model.runtimeBones) {
        if (!byName.has(b.name)) byName.set(b.name, []);
        byName.get(b.name).push(b);
    }
    const used = new Map();
    return fileBones.map((fb) => {
        const k = used.get(fb.name) ?? 0;
        used.set(fb.name, k + 1);
        const b = byName.get(fb.name)?.[k];
        if (b === undefined) throw new Error(`bone ${fb.name} of the file not found in babylon-mmd's skeleton`);
        return b;
    });
})();
const reordered = bones.some((b, i) => model.runtimeBones[i] !== b) || model.runtimeBones.length !== bones.length;
log(`model ${path.basename(modelPath)}: ${bones.length} bones${reordered ? " (babylon-mmd reordered/added bones; mapped back to file order)" : ""}, ${bodyNames.length} rigid bodies ` +
    `(modes 0/1/2: ${[0, 1, 2].map((k) => bodyModes.filter((x) => x === k).length).join("/")}), ${jointCount} joints; ` +
    (opts.noPhysics ? "no physics" : `engine ${opts.engine}, step ${opts.step}, ${substeps} substeps/frame, gravity ${opts.gravity}`));
{
    const demoted = bodyNames.filter((_, i) => bodyModes[i] === 2 && effectiveMode(i) === 1);
    // same rule as babylon-mmd's resolveRigidBodyBone: bone index in range, else a bone named like the body
    const unlinked = bodyNames.filter((name, i) => !(bodyBoneIndices[i] >= 0 && bodyBoneIndices[i] < model.runtimeBones.length) &&
        !model.runtimeBones.some((b) => b.name === name));
    const missing = opts.noPhysics ? [] : bodyNames.filter((_, i) => effectiveMode(i) === null);
    if (demoted.length) log(`mode 2 -> 1 (babylon-mmd joint rule): ${demoted.join(" ")}`);
    if (unlinked.length) log(`bodies without a bone (never reset to a pose, never drive a bone): ${unlinked.join(" ")}`);
    if (missing.length) log(`bodies not created (printed as null): ${missing.join(" ")}`);
}

if (motionPath !== undefined) {
    let vmdBytes = new Uint8Array(readFileSync(motionPath));
    if (!opts.keepToggles) {
        const { buf, stats } = forceUnknownTogglesOn(vmdBytes);
        vmdBytes = buf;
        log(`motion ${path.basename(motionPath)}: ${stats.keys} bone keys; toggles ON ${stats.on}, OFF ${stats.off}, ` +
            `unknown->ON ${stats.forced}`);
    }
    const vmdLoader = new VmdLoader(scene);
    vmdLoader.loggingEnabled = false;
    const animation = await vmdLoader.loadFromBufferAsync("motion", vmdBytes.buffer);
    model.setRuntimeAnimation(model.createRuntimeAnimation(animation));
}

// ---------------------------------------------------------------- simulation
const pos = new Vector3();
const rot = new Quaternion();
const bonePos = new Vector3();
const boneRot = new Quaternion();
const boneMat = new Matrix();
const [A, B] = opts.frames;
const t0 = performance.now();
let nonFinite = 0;
const finite = (arr) => arr.every(Number.isFinite);
for (let f = A; f <= B; f += opts.every) {
    // Seek (evaluates the motion at frame f). The first beforePhysics also runs babylon-mmd's physics
    // initialisation (queued when the model was created); see README.md.
    await runtime.seekAnimation(f + opts.offset, true); // --offset: a fraction of a frame later (no physics)
    runtime.beforePhysics(0); // animation paused: re-applies the evaluated pose, bones before physics, sync bodies
    stepWorld(); // 1/30 s = substeps of the fixed step
    runtime.afterPhysics(); // sync bones from bodies, bones after physics

    const bodies = [];
    for (let i = 0; i < (opts.noPhysics ? 0 : bodyNames.length); ++i) {
        if (!readBody(i, pos, rot)) {
            bodies.push({ name: bodyNames[i], position: null, rotation: null });
            continue;
        }
        if (rot.w < 0) rot.set(-rot.x, -rot.y, -rot.z, -rot.w);
        if (!finite([pos.x, pos.y, pos.z, rot.x, rot.y, rot.z, rot.w])) nonFinite += 1;
        bodies.push({ name: bodyNames[i], position: [r9(pos.x), r9(pos.y), r9(pos.z)], rotation: [r9(rot.x), r9(rot.y), r9(rot.z), r9(rot.w)] });
    }
    const boneList = [];
    for (let i = 0; i < bones.length; ++i) {
        const bone = bones[i];
        const entry = { name: bone.name };
        if (opts.boneRotations) {
            bone.getWorldMatrixToRef(boneMat).decompose(undefined, boneRot, bonePos);
            if (boneRot.w < 0) boneRot.set(-boneRot.x, -boneRot.y, -boneRot.z, -boneRot.w);
            entry.position = [r9(bonePos.x), r9(bonePos.y), r9(bonePos.z)];
            entry.rotation = [r9(boneRot.x), r9(boneRot.y), r9(boneRot.z), r9(boneRot.w)];
        } else {
            bone.getWorldTranslationToRef(bonePos);
            entry.position = [r9(bonePos.x), r9(bonePos.y), r9(bonePos.z)];
        }
        boneList.push(entry);
    }
    for (const b of boneList) if (!finite(b.position)) nonFinite += 1;
    process.stdout.write(JSON.stringify({ frame: f, bodies, bones: boneList }) + "\n");
}
const ms = performance.now() - t0;
const printed = Math.floor((B - A) / opts.every) + 1;
log(`${printed} frames in ${(ms / 1000).toFixed(2)} s (${(ms / printed).toFixed(2)} ms/frame incl. JSON)` +
    (nonFinite ? `; WARNING: ${nonFinite} non-finite transforms (printed as null)` : ""));
