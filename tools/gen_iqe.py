#!/usr/bin/env python3
"""Write a large skinned, animated IQE the way third-party exporters do, for timing `rigscope convert`.

rigscope's own `make_synth` example goes through rigscope's IQE writer, so its number formats and line
layout are the ones rigscope's parser was tuned on. This script is independent of rigscope: it writes the
text itself, in one of two styles seen in the wild:

  blender  lsalzman/iqm's Blender exporter (blender-*/iqm_export.py): tab-indented vertex attributes,
           every float as `%.8f` (so `-0.00000000` and eight decimals), `vb` with up to four
           `index weight` pairs, `fm` faces relative to the mesh, `pq` of 7 values (10 where a joint
           scales), `framerate %.8f`, a `frame` line before each frame.
  unv      the Unvanquished weapon sources (UnvanquishedAssets/res-weapons_src.dpkdir,
           models/weapons/*/*.iqe): `vertexarray` declarations, `vp vn vx vt vb` lines with floats as
           `%.9g` (shortest float32-ish digits, exponents such as `9.10037197e-05`, `-0`), tangents `vx`
           of 4 values, `frame N` lines.

The output is deterministic (a fixed random seed, no time or environment input): the same arguments give
the same bytes. The geometry is a set of bumpy, subdivided tubes, one per mesh, with shared vertices (so
faces reference each vertex about six times, as in a real export), weights on up to four joints of a
chain, and an animation that bends the chain.

usage: tools/gen_iqe.py OUT.iqe [--mb 50] [--style blender|unv] [--meshes 12] [--joints 64] [--frames 120]
example (the 50 MB input of BENCHMARKS.md): tools/gen_iqe.py /tmp/gen50.iqe --mb 50 --style blender
"""

import argparse
import math
import random


def fmt_blender(x):
    return '%.8f' % x


def fmt_unv(x):
    return '%.9g' % x


def quat_axis_angle(ax, ay, az, angle):
    n = math.sqrt(ax * ax + ay * ay + az * az) or 1.0
    s = math.sin(angle / 2) / n
    q = (ax * s, ay * s, az * s, math.cos(angle / 2))
    # Blender's exporter negates quaternions with a positive w.
    if q[3] > 0:
        q = tuple(-c for c in q)
    return q


def joint_lines(joints, f):
    out = []
    for j in range(joints):
        parent = -1 if j == 0 else (0 if j % 16 == 1 else j - 1)
        out.append('joint "bone_%03d" %d\n' % (j, parent))
        pos = (0.0, 0.0, 0.0) if j == 0 else (0.0, 0.0, 1.0 + 0.01 * (j % 7))
        q = quat_axis_angle(1.0, 0.2, 0.0, 0.05 * ((j % 5) - 2))
        out.append('\tpq %s\n' % ' '.join(f(c) for c in pos + q))
    return out


def mesh_lines(out, style, f, mesh, rings, segs, joints, rng):
    """One bumpy tube of rings x segs shared vertices, faces as quads split in two."""
    out.append('\nmesh "part_%02d"\n\tmaterial "textures/part_%02d.png"\n\n' % (mesh, mesh % 5))
    ox = (mesh % 4) * 3.0
    oy = (mesh // 4) * 3.0
    chain = max(1, joints - 1)
    for r in range(rings):
        t = r / (rings - 1)
        z = t * 16.0
        bone = 1 + min(chain - 1, int(t * chain))
        for s in range(segs):
            a = 2 * math.pi * s / segs
            bump = 1.0 + 0.08 * math.sin(7 * a + 3 * t) + 0.01 * rng.random()
            nx, ny = math.cos(a), math.sin(a)
            px, py = ox + nx * bump, oy + ny * bump
            u, v = s / segs, 1.0 - t
            influences = rng.choice((1, 2, 2, 3, 4, 4))
            ws = [rng.random() + 0.05 for _ in range(influences)]
            total = sum(ws)
            pairs = [(min(joints - 1, bone + k), w / total) for k, w in enumerate(ws)]
            if style == 'blender':
                out.append('vp %s %s %s\n\tvt %s %s\n\tvn %s %s %s\n' % (
                    f(px), f(py), f(z), f(u), f(v), f(nx), f(ny), f(0.0)))
                out.append('\tvb' + ''.join(' %d %s' % (b, f(w)) for b, w in pairs) + '\n')
            else:
                out.append('vp %s %s %s\nvn %s %s %s\nvx %s %s %s 1\nvt %s %s\n' % (
                    f(px), f(py), f(z), f(nx), f(ny), f(-0.0),
                    f(-ny), f(nx), f(0.0), f(u), f(-v)))
                out.append('vb' + ''.join(' %d %s' % (b, f(w)) for b, w in pairs) + '\n')
    out.append('\n')
    for r in range(rings - 1):
        for s in range(segs):
            a = r * segs + s
            b = r * segs + (s + 1) % segs
            c = a + segs
            d = b + segs
            out.append('fm %d %d %d\nfm %d %d %d\n' % (a, c, b, b, c, d))


def anim_lines(style, f, joints, frames):
    out = ['\nanimation "bend"\n\tframerate %s\n\tloop\n' % f(30.0)]
    for fr in range(frames):
        out.append('\nframe\n' if style == 'blender' else '\nframe %d\n' % fr)
        phase = 2 * math.pi * fr / frames
        for j in range(joints):
            pos = (0.0, 0.0, 0.0) if j == 0 else (0.0, 0.0, 1.0 + 0.01 * (j % 7))
            q = quat_axis_angle(1.0, 0.2, 0.0, 0.05 * ((j % 5) - 2) + 0.2 * math.sin(phase + j * 0.3))
            vals = pos + q
            if j % 8 == 7:  # a scaling joint: pq of 10 values
                sc = 1.0 + 0.1 * math.sin(phase)
                vals = vals + (sc, sc, sc)
            out.append('pq %s\n' % ' '.join(f(c) for c in vals))
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    ap.add_argument('out')
    ap.add_argument('--mb', type=float, default=50.0, help='approximate output size in MB (10^6 bytes)')
    ap.add_argument('--style', choices=('blender', 'unv'), default='blender')
    ap.add_argument('--meshes', type=int, default=12)
    ap.add_argument('--joints', type=int, default=64)
    ap.add_argument('--frames', type=int, default=120)
    args = ap.parse_args()
    f = fmt_blender if args.style == 'blender' else fmt_unv
    rng = random.Random(20261127)

    head = ['# Inter-Quake Export\n\n']
    if args.style == 'unv':
        head += ['vertexarray position float 3\n', 'vertexarray texcoord float 2\n',
                 'vertexarray normal float 3\n', 'vertexarray tangent float 4\n',
                 'vertexarray blendindexes ubyte 4\n', 'vertexarray blendweights ubyte 4\n\n']
    head += joint_lines(args.joints, f)
    anim = anim_lines(args.style, f, args.joints, args.frames)
    fixed = sum(len(s) for s in head) + sum(len(s) for s in anim)
    # Bytes per ring of 64 vertices, measured on a sample mesh, to size the meshes.
    segs = 64
    sample = []
    mesh_lines(sample, args.style, f, 0, 10, segs, args.joints, random.Random(1))
    per_ring = sum(len(s) for s in sample) / 10
    rings = max(2, int((args.mb * 1e6 - fixed) / per_ring / args.meshes))
    # Face indices grow with the ring count: size one whole mesh at that count and correct once.
    sample = []
    mesh_lines(sample, args.style, f, 0, rings, segs, args.joints, random.Random(1))
    rings = max(2, int(rings * (args.mb * 1e6 - fixed) / args.meshes / sum(len(s) for s in sample)))

    with open(args.out, 'w', newline='\n') as fh:
        fh.writelines(head)
        for m in range(args.meshes):
            body = []
            mesh_lines(body, args.style, f, m, rings, segs, args.joints, rng)
            fh.writelines(body)
        fh.writelines(anim)


if __name__ == '__main__':
    main()
