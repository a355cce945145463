# Imports a glTF file with Blender's own importer and prints where some bones' heads are at a time, in
# Blender's world (Z up): a manual check that exports open in Blender with their animations. Not run by CI
# (it needs Blender's Python module: `python3.11 -m venv /tmp/bpy && /tmp/bpy/bin/pip install bpy`).
#
#   /tmp/bpy/bin/python tools/blender/pose_at.py -- FILE.glb SECONDS BONE...
#
# Compare with `rigscope pose MODEL --attach MOTION --time SECONDS`: a joint's world translation (x, y, z) in a
# Y-up model's axes is (x, -z, y) in Blender's, and (x, z, y) for MMD's left-handed axes.
import sys

import bpy

args = sys.argv[sys.argv.index("--") + 1:]
path, seconds, bones = args[0], float(args[1]), args[2:]
bpy.ops.wm.read_factory_settings(use_empty=True)
bpy.ops.import_scene.gltf(filepath=path)
armature = next(o for o in bpy.data.objects if o.type == "ARMATURE")
scene = bpy.context.scene
fps = scene.render.fps / scene.render.fps_base
action = armature.animation_data.action if armature.animation_data else None
print("action", action.name if action else None, "frames", tuple(action.frame_range) if action else None, "fps", fps)
scene.frame_set(int(round(seconds * fps)))
for name in bones:
    bone = armature.pose.bones.get(name)
    if bone is None:
        print(name, "not found")
        continue
    head = armature.matrix_world @ bone.head
    print(name, round(head.x, 4), round(head.y, 4), round(head.z, 4))
