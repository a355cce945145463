//! IQM joints, poses, animations, frames and per-frame bounds.

use glam::{Quat, Vec3};

use super::header::Header;
use super::layout::{
    ANIM_LOOP, ANIM_SIZE, BOUNDS_SIZE, FRAME_VALUE_SIZE, JOINT_SIZE, POSE_CHANNEL_MASK, POSE_CHANNELS, POSE_SIZE,
};
use super::{Text, warn};
use crate::error::{LoadError, Location, Warning};
use crate::formats::binread::{Bytes, Record};
use crate::scene::{Clip, ClipData, FrameBounds, Joint, Skeleton, Transform};

/// Decoded frames may be larger than the bytes that encode them (a constant pose costs 0 bytes per frame in
/// the file and 48 in memory). Past this multiple of the file size, the file is refused rather than letting a
/// small file claim gigabytes.
const MAX_DECODE_RATIO: u64 = 32;

pub struct Animation {
    pub skeleton: Skeleton,
    pub clips: Vec<Clip>,
}

/// A pose's channel layout: Tx Ty Tz Qx Qy Qz Qw Sx Sy Sz.
struct PoseChannels {
    parent: i32,
    mask: u32,
    offset: [f32; POSE_CHANNELS],
    scale: [f32; POSE_CHANNELS],
}

/// A quaternion from stored components, normalised; a zero or non-finite one becomes identity.
fn quat(v: [f32; 4]) -> (Quat, bool) {
    let q = Quat::from_array(v);
    let len = q.length();
    if len.is_finite() && len > 1e-6 { (q / len, true) } else { (Quat::IDENTITY, false) }
}

pub fn read(h: &Header, bytes: &Bytes, text: &Text, w: &mut Vec<Warning>) -> Result<Animation, LoadError> {
    let joints = read_joints(h, bytes, text, w)?;
    let poses = read_poses(h, bytes, &joints, w)?;
    let num_frames = u64::from(h.get("num_frames"));
    let num_channels = u64::from(h.get("num_framechannels"));
    let frame_data = h.section(bytes, "frames", "ofs_frames", num_frames * num_channels, FRAME_VALUE_SIZE, w)?;
    let bounds_data = if h.get("ofs_bounds") != 0 {
        h.section(bytes, "bounds", "ofs_bounds", num_frames, BOUNDS_SIZE, w)?
    } else {
        &[]
    };
    let ranges = read_anims(h, bytes, text, poses.len(), w)?;
    check_decoded_size(&ranges, num_channels, poses.len(), bytes)?;
    let frames = Frames { data: frame_data, num_channels, poses: &poses };
    let clips: Vec<Clip> = ranges.into_iter().map(|range| frames.clip(range, bounds_data)).collect();
    let skeleton = skeleton(h, joints, &frames, &clips, w)?;
    Ok(Animation { skeleton, clips })
}

/// Joints (check 14): parents precede children, transforms are finite.
fn read_joints(h: &Header, bytes: &Bytes, text: &Text, w: &mut Vec<Warning>) -> Result<Vec<Joint>, LoadError> {
    let num_joints = h.get("num_joints") as usize;
    let ofs_joints = u64::from(h.get("ofs_joints"));
    let joint_data = h.section(bytes, "joints", "ofs_joints", num_joints as u64, JOINT_SIZE, w)?;
    let mut joints = Vec::with_capacity(num_joints);
    for (i, rec) in joint_data.chunks_exact(JOINT_SIZE).enumerate() {
        let at = ofs_joints + (JOINT_SIZE * i) as u64;
        let mut r = Record::new(rec);
        let name = text.get(r.u32(), at, &format!("joint {i} name"))?;
        let parent = r.i32();
        let (t, q, s) = (r.f32s::<3>(), r.f32s::<4>(), r.f32s::<3>());
        if parent >= i as i32 {
            return Err(LoadError::at(at + 4, format!("joint {i} \"{name}\": parent {parent} does not precede it")));
        }
        if !t.iter().chain(&q).chain(&s).all(|x| x.is_finite()) {
            return Err(LoadError::at(at + 8, format!("joint {i} \"{name}\": transform is not finite")));
        }
        let (rotation, ok) = quat(q);
        if !ok {
            warn(
                w,
                "iqm.joint.quat_zero",
                Location::Offset(at + 20),
                format!("joint {i} \"{name}\": zero rotation quaternion, identity used"),
            );
        }
        if s.contains(&0.0) {
            warn(
                w,
                "iqm.joint.scale_zero",
                Location::Offset(at + 36),
                format!("joint {i} \"{name}\": zero scale {s:?}"),
            );
        }
        joints.push(Joint {
            name,
            parent: (parent >= 0).then_some(parent as usize),
            bind: Transform { translation: Vec3::from_array(t), rotation, scale: Vec3::from_array(s) },
        });
    }
    Ok(joints)
}

/// Poses (checks 15, 16): one per joint, parents first, masks within the channels, and as many channels per
/// frame as the header says.
fn read_poses(
    h: &Header,
    bytes: &Bytes,
    joints: &[Joint],
    w: &mut Vec<Warning>,
) -> Result<Vec<PoseChannels>, LoadError> {
    let num_joints = h.get("num_joints") as usize;
    let num_poses = h.get("num_poses") as usize;
    let ofs_poses = u64::from(h.get("ofs_poses"));
    let pose_data = h.section(bytes, "poses", "ofs_poses", num_poses as u64, POSE_SIZE, w)?;
    if num_joints > 0 && num_poses > 0 && num_joints != num_poses {
        return Err(LoadError::at(
            Header::offset_of("num_poses"),
            format!("{num_poses} poses but {num_joints} joints"),
        ));
    }
    let mut poses = Vec::with_capacity(num_poses);
    let mut channels = 0u64;
    for (i, rec) in pose_data.chunks_exact(POSE_SIZE).enumerate() {
        let at = ofs_poses + (POSE_SIZE * i) as u64;
        let mut r = Record::new(rec);
        let p = PoseChannels { parent: r.i32(), mask: r.u32(), offset: r.f32s(), scale: r.f32s() };
        if p.parent >= i as i32 {
            return Err(LoadError::at(at, format!("pose {i}: parent {} does not precede it", p.parent)));
        }
        if p.mask & !POSE_CHANNEL_MASK != 0 {
            return Err(LoadError::at(
                at + 4,
                format!("pose {i}: channel mask {:#x} has bits above the 10 channels", p.mask),
            ));
        }
        if !p.offset.iter().chain(&p.scale).all(|x| x.is_finite()) {
            return Err(LoadError::at(at + 8, format!("pose {i}: channel offset or scale is not finite")));
        }
        if let Some(j) = joints.get(i)
            && j.parent.map_or(-1, |x| x as i32) != p.parent
        {
            warn(
                w,
                "iqm.pose.parent",
                Location::Offset(at),
                format!("pose {i} parent {} differs from joint \"{}\" parent; the joint's is used", p.parent, j.name),
            );
        }
        channels += u64::from(p.mask.count_ones());
        poses.push(p);
    }
    let num_channels = u64::from(h.get("num_framechannels"));
    if channels != num_channels && (num_poses > 0 || num_channels > 0) {
        return Err(LoadError::at(
            Header::offset_of("num_framechannels"),
            format!("poses need {channels} channels per frame, header says {num_channels}"),
        ));
    }
    Ok(poses)
}

/// One anim record: its frames in the file and how it plays.
struct AnimRange {
    name: String,
    first: u32,
    count: u32,
    rate: f32,
    looping: bool,
}

/// Anims (checks 17, 18). Frames with no anims become one clip "frames", so they can still be seen.
fn read_anims(
    h: &Header,
    bytes: &Bytes,
    text: &Text,
    num_poses: usize,
    w: &mut Vec<Warning>,
) -> Result<Vec<AnimRange>, LoadError> {
    let num_frames = u64::from(h.get("num_frames"));
    let ofs_anims = u64::from(h.get("ofs_anims"));
    let anim_data = h.section(bytes, "anims", "ofs_anims", h.get("num_anims").into(), ANIM_SIZE, w)?;
    let mut ranges = Vec::new();
    for (i, rec) in anim_data.chunks_exact(ANIM_SIZE).enumerate() {
        let at = ofs_anims + (ANIM_SIZE * i) as u64;
        let mut r = Record::new(rec);
        let name = text.get(r.u32(), at, &format!("anim {i} name"))?;
        let (first, count, rate, flags) = (r.u32(), r.u32(), r.f32(), r.u32());
        if u64::from(first) + u64::from(count) > num_frames {
            return Err(LoadError::at(
                at + 4,
                format!("anim \"{name}\" frames [{first},{}) exceed {num_frames}", u64::from(first) + u64::from(count)),
            ));
        }
        if !(rate.is_finite() && rate > 0.0) {
            warn(
                w,
                "iqm.framerate.zero",
                Location::Offset(at + 12),
                format!("anim \"{name}\": framerate {rate}, playing at the default rate"),
            );
        }
        ranges.push(AnimRange { name, first, count, rate, looping: flags & ANIM_LOOP != 0 });
    }
    if ranges.is_empty() && num_frames > 0 && num_poses > 0 {
        warn(
            w,
            "iqm.frames.no_anims",
            Location::Offset(Header::offset_of("num_anims")),
            format!("{num_frames} frames but no anims; shown as one clip \"frames\""),
        );
        ranges.push(AnimRange {
            name: "frames".to_string(),
            first: 0,
            count: num_frames as u32,
            rate: 0.0,
            looping: false,
        });
    }
    Ok(ranges)
}

/// Frames are decoded per clip. With no channels every frame is the same constant pose, so one is decoded.
/// Refuses a file whose clips would decode past [`MAX_DECODE_RATIO`] times its size. Saturating: every factor
/// comes from the file, and a crafted product must not wrap past the check.
fn check_decoded_size(
    ranges: &[AnimRange],
    num_channels: u64,
    num_poses: usize,
    bytes: &Bytes,
) -> Result<(), LoadError> {
    let decoded = ranges
        .iter()
        .map(|r| if num_channels == 0 { 1 } else { u64::from(r.count) })
        .fold(0u64, u64::saturating_add)
        .saturating_mul(num_poses as u64)
        .saturating_mul(48);
    if decoded > MAX_DECODE_RATIO * bytes.len() {
        return Err(LoadError::at(
            Header::offset_of("num_frames"),
            format!("animations would decode to {decoded} bytes from a {}-byte file; refusing", bytes.len()),
        ));
    }
    Ok(())
}

/// The frame data and the poses that say how to read it.
struct Frames<'a> {
    data: &'a [u8],
    num_channels: u64,
    poses: &'a [PoseChannels],
}

impl Frames<'_> {
    /// Appends frame `f`'s transform for every pose; channel values past the data read as 0.
    fn decode(&self, f: u64, out: &mut Vec<Transform>) {
        let start = (f * self.num_channels) as usize * FRAME_VALUE_SIZE;
        let mut cursor = self.data.get(start..).unwrap_or(&[]).chunks_exact(FRAME_VALUE_SIZE);
        for p in self.poses {
            let mut v = [0f32; POSE_CHANNELS];
            for (k, v) in v.iter_mut().enumerate() {
                *v = p.offset[k];
                if p.mask & (1 << k) != 0 {
                    let raw = cursor.next().map_or(0, |c| u16::from_le_bytes([c[0], c[1]]));
                    *v += f32::from(raw) * p.scale[k];
                }
            }
            out.push(Transform {
                translation: Vec3::new(v[0], v[1], v[2]),
                rotation: quat([v[3], v[4], v[5], v[6]]).0,
                scale: Vec3::new(v[7], v[8], v[9]),
            });
        }
    }

    /// A clip with its frames decoded and, where the file has them, its per-frame bounds.
    fn clip(&self, range: AnimRange, bounds_data: &[u8]) -> Clip {
        let AnimRange { name, first, count, rate, looping } = range;
        let num_poses = self.poses.len();
        let stored = if self.num_channels == 0 { count.min(1) } else { count };
        let mut frames = Vec::with_capacity(stored as usize * num_poses);
        for f in 0..stored {
            self.decode(u64::from(first + f), &mut frames);
        }
        let bounds = (!bounds_data.is_empty()).then(|| {
            bounds_data[first as usize * BOUNDS_SIZE..(first as usize + count as usize) * BOUNDS_SIZE]
                .chunks_exact(BOUNDS_SIZE)
                .map(|b| {
                    let mut r = Record::new(b);
                    let (min, max) = (r.f32s::<3>(), r.f32s::<3>());
                    FrameBounds { min: min.into(), max: max.into(), xy_radius: r.f32(), radius: r.f32() }
                })
                .collect()
        });
        Clip {
            name,
            frame_rate: rate,
            looping,
            frame_count: count,
            first_frame: first,
            data: ClipData::Sampled { joints: num_poses, frames },
            bounds,
            source: None,
            morphs: Vec::new(),
            ik_switches: Vec::new(),
            physics_switches: Vec::new(),
            visibility: Vec::new(),
            gravity: Vec::new(),
        }
    }
}

/// Skeleton: from joints, or from pose parents in animation-only files.
fn skeleton(
    h: &Header,
    joints: Vec<Joint>,
    frames: &Frames,
    clips: &[Clip],
    w: &mut Vec<Warning>,
) -> Result<Skeleton, LoadError> {
    let poses = frames.poses;
    let skeleton = if !joints.is_empty() {
        Skeleton::new(joints, true)
    } else if !poses.is_empty() {
        warn(
            w,
            "iqm.poses.unnamed",
            Location::File,
            format!(
                "{} poses and no joints: an animation-only file with unnamed joints; frame 0 stands in for the bind pose",
                poses.len()
            ),
        );
        let mut first = Vec::with_capacity(poses.len());
        frames.decode(clips.first().map_or(0, |c| u64::from(c.first_frame)), &mut first);
        let joints = poses
            .iter()
            .zip(first)
            .map(|(p, bind)| Joint { name: String::new(), parent: (p.parent >= 0).then_some(p.parent as usize), bind })
            .collect();
        Skeleton::new(joints, false)
    } else {
        Ok(Skeleton::default())
    };
    // Parents were checked to precede their children above.
    skeleton
        .map_err(|i| LoadError::at(u64::from(h.get("ofs_joints")), format!("joint {i}: parent does not precede it")))
}
