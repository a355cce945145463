// Minimal, independent reader for the bone and rigid-body tables of PMD/PMX files (file order, names, positions).
// run.mjs uses it to print bones in the file's own order (babylon-mmd's PMD loader may reorder bones and appends
// extra "+" IK bones); check.mjs uses it to verify that frame 0 at rest reproduces the stored bone positions.
import { readFileSync } from "node:fs";

export function readBones(file) {
    const buf = readFileSync(file);
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const magic = buf.subarray(0, 4).toString("latin1");
    if (magic.startsWith("Pmd")) return readPmdBones(buf, dv);
    if (magic === "PMX ") return readPmxBones(buf, dv);
    throw new Error(`${file}: not a PMD/PMX file`);
}

function cstr(bytes, decoder) {
    const end = bytes.indexOf(0);
    return decoder.decode(end === -1 ? bytes : bytes.subarray(0, end));
}

function readPmdBones(buf, dv) {
    const sjis = new TextDecoder("shift_jis");
    let off = 3 + 4 + 20 + 256;
    const vertexCount = dv.getUint32(off, true);
    off += 4 + vertexCount * 38;
    const indexCount = dv.getUint32(off, true);
    off += 4 + indexCount * 2;
    const materialCount = dv.getUint32(off, true);
    off += 4 + materialCount * 70;
    const boneCount = dv.getUint16(off, true);
    off += 2;
    const bones = [];
    for (let i = 0; i < boneCount; ++i, off += 39) {
        const name = cstr(buf.subarray(off, off + 20), sjis);
        const parent = dv.getInt16(off + 20, true);
        // PMD only: the tail bone, the kind (5 rotation influenced, 7 invisible, 9 rotation follow, ...) and the
        // IK field (kind 5: the source bone; kind 9: the share in percent).
        const tail = dv.getInt16(off + 22, true);
        const kind = buf[off + 24];
        const ik = dv.getInt16(off + 25, true);
        const position = [dv.getFloat32(off + 27, true), dv.getFloat32(off + 31, true), dv.getFloat32(off + 35, true)];
        bones.push({ name, parent, position, tail, kind, ik });
    }
    return bones;
}

// Rigid bodies in file order: {name, bone, group, mask, shape, size, position (as stored; PMD: relative to the
// bone's position), rotation (Euler radians as stored), mass, linearDamping, angularDamping, restitution, friction,
// mode}.
export function readRigidBodies(file) {
    const buf = readFileSync(file);
    if (buf.subarray(0, 4).toString("latin1") === "PMX ") {
        return readPmxBones(buf, new DataView(buf.buffer, buf.byteOffset, buf.byteLength), true).bodies;
    }
    return readPmdRigidBodies(file);
}

function readPmdRigidBodies(file) {
    const buf = readFileSync(file);
    const dv = new DataView(buf.buffer, buf.byteOffset, buf.byteLength);
    const sjis = new TextDecoder("shift_jis");
    let off = 3 + 4 + 20 + 256;
    off += 4 + dv.getUint32(off, true) * 38;
    off += 4 + dv.getUint32(off, true) * 2;
    off += 4 + dv.getUint32(off, true) * 70;
    const boneCount = dv.getUint16(off, true);
    off += 2 + boneCount * 39;
    const ikCount = dv.getUint16(off, true);
    off += 2;
    for (let i = 0; i < ikCount; ++i) off += 2 + 2 + 1 + 2 + 4 + 2 * buf[off + 4];
    const morphCount = dv.getUint16(off, true);
    off += 2;
    for (let i = 0; i < morphCount; ++i) off += 20 + 4 + 1 + 16 * dv.getUint32(off + 20, true);
    off += 1 + 2 * buf[off]; // morph display list
    const boneFrameCount = buf[off];
    off += 1 + 50 * boneFrameCount; // bone display frame names
    off += 4 + 3 * dv.getUint32(off, true); // bone display list
    if (off >= buf.length) return [];
    if (buf[off++] !== 0) off += 20 + 256 + 20 * boneCount + 20 * Math.max(0, morphCount - 1) + 50 * boneFrameCount;
    if (off >= buf.length) return [];
    off += 10 * 100; // toon texture names
    if (off >= buf.length) return [];
    const count = dv.getUint32(off, true);
    off += 4;
    const f = (o) => dv.getFloat32(o, true);
    const bodies = [];
    for (let i = 0; i < count; ++i, off += 83) {
        bodies.push({
            name: cstr(buf.subarray(off, off + 20), sjis),
            bone: dv.getInt16(off + 20, true),
            group: buf[off + 22],
            mask: dv.getUint16(off + 23, true),
            shape: buf[off + 25],
            size: [f(off + 26), f(off + 30), f(off + 34)],
            position: [f(off + 38), f(off + 42), f(off + 46)],
            rotation: [f(off + 50), f(off + 54), f(off + 58)],
            mass: f(off + 62), linearDamping: f(off + 66), angularDamping: f(off + 70),
            restitution: f(off + 74), friction: f(off + 78), mode: buf[off + 82],
        });
    }
    return bodies;
}

function readPmxBones(buf, dv, wantBodies = false) {
    let off = 4 + 4;
    const globalsCount = buf[off];
    off += 1;
    const g = buf.subarray(off, off + globalsCount);
    off += globalsCount;
    const decoder = new TextDecoder(g[0] === 0 ? "utf-16le" : "utf-8");
    const extraUv = g[1];
    const [vIdx, tIdx, mIdx, bIdx] = [g[2], g[3], g[4], g[5]];
    const text = () => {
        const len = dv.getInt32(off, true);
        const s = decoder.decode(buf.subarray(off + 4, off + 4 + len));
        off += 4 + len;
        return s;
    };
    const idx = (size) => {
        const v = size === 1 ? dv.getInt8(off) : size === 2 ? dv.getInt16(off, true) : dv.getInt32(off, true);
        off += size;
        return v;
    };
    const u32 = () => { const v = dv.getUint32(off, true); off += 4; return v; };
    const f32 = () => { const v = dv.getFloat32(off, true); off += 4; return v; };
    for (let i = 0; i < 4; ++i) text();
    const vertexCount = u32();
    for (let i = 0; i < vertexCount; ++i) {
        off += 32 + 16 * extraUv;
        const type = buf[off];
        off += 1;
        switch (type) {
            case 0: off += bIdx; break;
            case 1: off += 2 * bIdx + 4; break;
            case 2: case 4: off += 4 * bIdx + 16; break;
            case 3: off += 2 * bIdx + 4 + 36; break;
            default: throw new Error(`PMX: unknown weight type ${type}`);
        }
        off += 4;
    }
    const indexCount = u32();
    off += indexCount * vIdx;
    const textureCount = u32();
    for (let i = 0; i < textureCount; ++i) text();
    const materialCount = u32();
    for (let i = 0; i < materialCount; ++i) {
        text(); text();
        off += 16 + 12 + 4 + 12 + 1 + 16 + 4;
        off += 2 * tIdx + 1;
        const sharedToon = buf[off];
        off += 1;
        off += sharedToon === 0 ? tIdx : 1;
        text();
        off += 4;
    }
    void mIdx;
    const boneCount = u32();
    const bones = [];
    for (let i = 0; i < boneCount; ++i) {
        const name = text();
        text();
        const position = [f32(), f32(), f32()];
        const parent = idx(bIdx);
        off += 4; // layer
        const flags = dv.getUint16(off, true);
        off += 2;
        if (flags & 0x0001) off += bIdx; else off += 12;
        if (flags & 0x0300) off += bIdx + 4;
        if (flags & 0x0400) off += 12;
        if (flags & 0x0800) off += 24;
        if (flags & 0x2000) off += 4;
        if (flags & 0x0020) {
            off += bIdx + 4 + 4;
            const links = u32();
            for (let j = 0; j < links; ++j) {
                off += bIdx;
                const limited = buf[off];
                off += 1;
                if (limited) off += 24;
            }
        }
        bones.push({ name, parent, position });
    }
    if (!wantBodies) return bones;
    const [rIdx] = [g[7]];
    const mIdxMorph = g[6];
    const morphCount = u32();
    for (let i = 0; i < morphCount; ++i) {
        text(); text();
        off += 1;
        const type = buf[off];
        off += 1;
        const n = u32();
        const size = {
            0: mIdxMorph + 4, 1: vIdx + 12, 2: bIdx + 28, 3: vIdx + 16, 4: vIdx + 16, 5: vIdx + 16, 6: vIdx + 16,
            7: vIdx + 16, 8: mIdx + 113, 9: mIdxMorph + 4, 10: rIdx + 25,
        }[type];
        if (size === undefined) throw new Error(`PMX: unknown morph type ${type}`);
        off += n * size;
    }
    const frameCount = u32();
    for (let i = 0; i < frameCount; ++i) {
        text(); text();
        off += 1;
        const n = u32();
        for (let j = 0; j < n; ++j) {
            const t = buf[off];
            off += 1 + (t === 0 ? bIdx : mIdxMorph);
        }
    }
    const bodyCount = u32();
    const bodies = [];
    for (let i = 0; i < bodyCount; ++i) {
        const name = text();
        text();
        const bone = idx(bIdx);
        const group = buf[off];
        const mask = dv.getUint16(off + 1, true);
        const shape = buf[off + 3];
        off += 4;
        const size = [f32(), f32(), f32()];
        const position = [f32(), f32(), f32()];
        const rotation = [f32(), f32(), f32()];
        const mass = f32(), linearDamping = f32(), angularDamping = f32(), restitution = f32(), friction = f32();
        const mode = buf[off];
        off += 1;
        bodies.push({ name, bone, group, mask, shape, size, position, rotation, mass, linearDamping, angularDamping,
            restitution, friction, mode });
    }
    return { bones, bodies };
}
