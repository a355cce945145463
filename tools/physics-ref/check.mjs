// Sanity checks of a run.mjs output against the model file (independent reader in mmdfile.mjs).
//
//   node check.mjs MODEL.pmx|pmd OUT.jsonl [--rest]
//
// OUT.jsonl should be written with --bone-rotations (otherwise the tracking checks are skipped).
// --rest: the run had no motion; then the first frame's bones must equal the file's bone positions.
// Prints a short report; exits 1 when a hard check fails (non-finite values, rest mismatch, follow-bone tracking).
import { readFileSync } from "node:fs";

import { readBones, readRigidBodies } from "./mmdfile.mjs";

const [modelPath, outPath, ...flags] = process.argv.slice(2);
if (!modelPath || !outPath) {
    process.stderr.write("usage: node check.mjs MODEL.pmx|pmd OUT.jsonl [--rest]\n");
    process.exit(2);
}
const rest = flags.includes("--rest");
const isPmd = modelPath.toLowerCase().endsWith(".pmd");
const fileBones = readBones(modelPath);
const fileBodies = readRigidBodies(modelPath);
const frames = readFileSync(outPath, "utf8").trim().split("\n").map((l) => JSON.parse(l));
let failed = false;
const fail = (msg) => { failed = true; console.log(`FAIL ${msg}`); };
const sub = (a, b) => a.map((x, i) => x - b[i]);
const norm = (a) => Math.hypot(...a);
// quaternions [x, y, z, w], Hamilton product
const qmul = (a, b) => [
    a[3] * b[0] + a[0] * b[3] + a[1] * b[2] - a[2] * b[1],
    a[3] * b[1] - a[0] * b[2] + a[1] * b[3] + a[2] * b[0],
    a[3] * b[2] + a[0] * b[1] - a[1] * b[0] + a[2] * b[3],
    a[3] * b[3] - a[0] * b[0] - a[1] * b[1] - a[2] * b[2],
];
const qrot = (q, v) => {
    const p = qmul(qmul(q, [v[0], v[1], v[2], 0]), [-q[0], -q[1], -q[2], q[3]]);
    return [p[0], p[1], p[2]];
};
const qangle = (a, b) => {
    const d = qmul([-a[0], -a[1], -a[2], a[3]], b);
    return 2 * Math.atan2(Math.hypot(d[0], d[1], d[2]), Math.abs(d[3]));
};
const axis = (i, t) => { const q = [0, 0, 0, Math.cos(t / 2)]; q[i] = Math.sin(t / 2); return q; };
// MMD rigid-body Euler angles, order YXZ (rotate about Z, then X, then Y), as babylon-mmd and saba use them
const eulerYXZ = (r) => qmul(qmul(axis(1, r[1]), axis(0, r[0])), axis(2, r[2]));

const H = Math.max(...fileBones.map((b) => b.position[1])) - Math.min(...fileBones.map((b) => b.position[1]));
console.log(`${frames.length} frames (${frames[0].frame}..${frames.at(-1).frame}), ${fileBones.length} bones, ` +
    `${fileBodies.length} bodies; model height H ~ ${H.toFixed(2)} (bone extent in y)`);

// 1. finite
let nonFinite = 0;
for (const fr of frames) {
    for (const b of fr.bodies) if (!b.position || !b.rotation || ![...b.position, ...b.rotation].every(Number.isFinite)) nonFinite += 1;
    for (const b of fr.bones) if (![...b.position, ...(b.rotation ?? [])].every(Number.isFinite)) nonFinite += 1;
}
if (nonFinite) fail(`${nonFinite} non-finite/null transforms`); else console.log("ok   no NaN/null");

// 2. order and names
if (frames[0].bones.length !== fileBones.length || frames[0].bones.some((b, i) => b.name !== fileBones[i].name)) fail("bone order/names differ from the file");
else console.log("ok   bones in file order");
if (frames[0].bodies.length !== fileBodies.length || frames[0].bodies.some((b, i) => b.name !== fileBodies[i].name)) fail("body order/names differ from the file");
else console.log("ok   bodies in file order");

// body rest transforms in model space, and the bone each body follows
const bodyRest = fileBodies.map((b) => {
    const bone = b.bone >= 0 && b.bone < fileBones.length ? b.bone : -1;
    // PMD stores the body position relative to its bone; babylon-mmd uses bone 0 for an unset bone (-1)
    const base = isPmd ? fileBones[bone < 0 ? 0 : bone].position : [0, 0, 0];
    return { bone, mode: b.mode, position: b.position.map((x, i) => x + base[i]), rotation: eulerYXZ(b.rotation) };
});

// 3. rest pose
if (rest) {
    const f0 = frames[0];
    let worst = 0, worstName = "";
    const artefacts = [];
    f0.bones.forEach((b, i) => {
        const d = norm(sub(b.position, fileBones[i].position));
        if (d > 1e-4 * H) artefacts.push(`${b.name} (${d.toFixed(3)})`);
        else if (d > worst) { worst = d; worstName = b.name; }
    });
    console.log(`${artefacts.length ? "note" : "ok  "} frame ${f0.frame} bone positions = file positions: max ${worst.toExponential(2)} (${worstName})` +
        (artefacts.length ? `; differing: ${artefacts.join(", ")}` : ""));
    let bw = 0, bwr = 0;
    const unmapped = [];
    f0.bodies.forEach((b, i) => {
        if (bodyRest[i].bone < 0 && bodyRest[i].mode !== 0) {
            // no bone: babylon-mmd never resets it to a pose; it is dynamic from the first step
            unmapped.push(`${b.name} (${norm(sub(b.position, bodyRest[i].position)).toFixed(4)})`);
            return;
        }
        bw = Math.max(bw, norm(sub(b.position, bodyRest[i].position)));
        bwr = Math.max(bwr, qangle(b.rotation, bodyRest[i].rotation));
    });
    if (bw > 1e-4 * H || bwr > 1e-4) fail(`frame ${f0.frame} bodies != file rest: ${bw} units, ${bwr} rad`);
    else console.log(`ok   frame ${f0.frame} body transforms = file rest (Euler YXZ): max ${bw.toExponential(2)} units, ${bwr.toExponential(2)} rad`);
    if (unmapped.length) console.log(`info bodies without a bone (dynamic from the first step, moved from rest): ${unmapped.join(", ")}`);
}

// 4. tracking: body = boneWorld * offset, offset = inverse(boneBind) * bodyRest
const haveRot = frames[0].bones[0].rotation !== undefined;
if (!haveRot) {
    console.log("skip tracking checks (run with --bone-rotations)");
} else {
    const expect = (fr, i) => {
        const r = bodyRest[i];
        const bone = fr.bones[r.bone];
        const local = sub(r.position, fileBones[r.bone].position);
        const p = qrot(bone.rotation, local).map((x, k) => x + bone.position[k]);
        return { position: p, rotation: qmul(bone.rotation, r.rotation) };
    };
    const stats = { 0: [0, 0], 1: [0, 0], 2: [0, 0] };
    let initErr = 0;
    for (const [fi, fr] of frames.entries()) {
        fr.bodies.forEach((b, i) => {
            const r = bodyRest[i];
            if (r.bone < 0) return;
            const e = expect(fr, i);
            const dp = norm(sub(b.position, e.position));
            const da = qangle(b.rotation, e.rotation);
            if (fi === 0 && r.mode !== 2) initErr = Math.max(initErr, dp);
            const s = stats[r.mode];
            if (r.mode !== 2) s[0] = Math.max(s[0], dp);
            s[1] = Math.max(s[1], da);
        });
    }
    const tol = 1e-4 * H;
    (stats[0][0] > tol || stats[0][1] > 5e-3 ? fail : (m) => console.log(`ok   ${m}`))(
        `mode 0 (follow bone) bodies = boneWorld*offset at every frame: max ${stats[0][0].toExponential(2)} units, ${stats[0][1].toExponential(2)} rad`);
    console.log(`info mode 1 bodies vs their bones (bone = body*offset^-1): max ${stats[1][0].toExponential(2)} units, ${stats[1][1].toExponential(2)} rad`);
    console.log(`info mode 2 bodies vs their bones (rotation only; bone keeps its animated position): max ${stats[2][1].toExponential(2)} rad`);
    console.log(`info first frame: mapped mode 0/1 bodies at boneWorld*offset: max ${initErr.toExponential(2)} units`);
}

// 5. motion of dynamic bodies
{
    const f0 = frames[0];
    const rows = [];
    fileBodies.forEach((b, i) => {
        if (b.mode === 0) return;
        let maxDisp = 0, path = 0;
        for (let k = 1; k < frames.length; ++k) {
            maxDisp = Math.max(maxDisp, norm(sub(frames[k].bodies[i].position, f0.bodies[i].position)));
            path += norm(sub(frames[k].bodies[i].position, frames[k - 1].bodies[i].position));
        }
        rows.push({ name: b.name, mode: b.mode, maxDisp, path });
    });
    const moving = rows.filter((r) => r.maxDisp > 1e-3 * H).length;
    console.log(`info dynamic bodies (mode 1/2): ${moving}/${rows.length} move more than 0.1% H from the first frame; ` +
        `max displacement ${Math.max(...rows.map((r) => r.maxDisp)).toFixed(3)}, mean path length ${(rows.reduce((a, r) => a + r.path, 0) / rows.length).toFixed(3)} units`);
    if (rows.length && moving === 0 && frames.length > 10) fail("no dynamic body moves");
    const followMoves = fileBodies.map((b, i) => (b.mode === 0 ? norm(sub(frames.at(-1).bodies[i].position, f0.bodies[i].position)) : 0));
    console.log(`info follow-bone bodies: max displacement first->last frame ${Math.max(...followMoves).toFixed(3)} units`);
}
process.exit(failed ? 1 : 0);
