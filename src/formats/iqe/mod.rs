//! IQE (Inter-Quake Export), the text twin of IQM.
//!
//! One pass over the lines collects vertex attributes, faces, joints and poses exactly as written; a second
//! step checks what can only be checked at the end (array lengths, forward face indices, blend joints) and
//! builds the [`Scene`]. Where the reference converter (`iqm.cpp`) deviates from the spec, the spec wins:
//! smoothing angles are real angles, `vs` is honoured, a repeated mesh/material pair keeps its triangles,
//! and a file without faces makes triangles from vertex triples.
//!
//! Errors name the 1-based line and say what was expected; problems a file survives become warnings with
//! `iqe.*` rule ids.

mod build;
mod lex;
mod pose;
mod smooth;
mod vertex;

use std::collections::HashMap;

use glam::{Vec2, Vec3, Vec4};

use crate::error::{LoadError, Location, Warning};
use crate::scene::{Scene, SourceArray, Transform};
use lex::{Lines, Tokens, is_space, parse_int, show};
use smooth::SmoothState;
use vertex::{ArrayType, BlendAccumulator};

/// The header line every IQE file starts with.
pub const HEADER: &str = "# Inter-Quake Export";

/// True when the first non-blank text is the IQE header (blank lines and leading spaces are tolerated, as the
/// reference converter does, and so is a UTF-8 byte-order mark).
pub fn sniff(bytes: &[u8]) -> bool {
    let b = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = b.iter().position(|&c| !is_space(c)).unwrap_or(b.len());
    b[start..].starts_with(HEADER.as_bytes())
}

/// Reads an IQE file. `name` is used in error messages.
pub fn read(name: &str, data: &[u8]) -> Result<Scene, LoadError> {
    read_inner(data).map_err(|e| e.in_file(name))
}

fn read_inner(data: &[u8]) -> Result<Scene, LoadError> {
    if !sniff(data) {
        return Err(err(1, format!("not an IQE file: the first line must be \"{HEADER}\"")));
    }
    let mut p = Parser::new();
    p.parse(data)?;
    build::build(p, data.len())
}

/// An error at a 1-based line.
fn err(line: u64, message: impl Into<String>) -> LoadError {
    LoadError { file: String::new(), location: Location::Line(line), message: message.into() }
}

/// Per rule, this many warnings are kept individually; the rest are counted into one summary, so a file with a
/// million odd lines doesn't produce a million warnings.
const WARN_CAP: usize = 20;

#[derive(Default)]
struct Warnings {
    list: Vec<Warning>,
    counts: HashMap<&'static str, usize>,
}

impl Warnings {
    fn push(&mut self, rule: &'static str, location: Location, message: impl FnOnce() -> String) {
        let n = self.counts.entry(rule).or_insert(0);
        *n += 1;
        if *n <= WARN_CAP {
            self.list.push(Warning { rule, location, message: message() });
        }
    }

    fn line(&mut self, rule: &'static str, line: u64, message: impl FnOnce() -> String) {
        self.push(rule, Location::Line(line), message);
    }

    fn finish(mut self) -> Vec<Warning> {
        let mut extra: Vec<_> = self.counts.iter().filter(|(_, n)| **n > WARN_CAP).map(|(r, n)| (*r, *n)).collect();
        extra.sort_unstable();
        for (rule, n) in extra {
            self.list.push(Warning {
                rule,
                location: Location::File,
                message: format!("{} more warnings like the above", n - WARN_CAP),
            });
        }
        self.list
    }
}

/// Which per-vertex arrays exist, for the length check.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Attr {
    Vt,
    Vn,
    Vx,
    Vb,
    Vc,
    Vs,
    Custom(u8),
}

impl Attr {
    fn label(self) -> String {
        match self {
            Attr::Vt => "vt".into(),
            Attr::Vn => "vn".into(),
            Attr::Vx => "vx".into(),
            Attr::Vb => "vb".into(),
            Attr::Vc => "vc".into(),
            Attr::Vs => "vs".into(),
            Attr::Custom(n) => format!("v{n}"),
        }
    }
}

/// A run of vertices after a `mesh` command, for files without faces.
struct Segment {
    first_vp: u32,
    mesh: String,
    material: String,
    state: SmoothState,
}

struct AnimRec {
    name: Option<String>,
    frame_rate: Option<f32>,
    looping: bool,
    line: u64,
}

/// A frame: its animation, where its poses start in `anim_poses`, and its line.
struct FrameRec {
    anim: usize,
    start: usize,
    line: u64,
}

/// Everything the lines say, as written.
struct Parser {
    w: Warnings,
    positions: Vec<Vec3>,
    /// Line of each `vp`, for errors about a vertex that lacks an attribute.
    vp_lines: Vec<u64>,
    texcoords: Vec<Vec2>,
    normals: Vec<Vec3>,
    /// `vx` tangent with the sign form's `w` (±1); bitangent-form entries are also in `bitangents`.
    tangents: Vec<Vec4>,
    bitangents: Vec<(u32, Vec3)>,
    blend_joints: Vec<[u32; 4]>,
    blend_weights: Vec<[f32; 4]>,
    /// Largest joint index with a weight, and its line.
    max_blend_joint: Option<(u32, u64)>,
    /// First `vb` line that kept no influence, and how many did.
    empty_blends: (usize, u64),
    colors: Vec<Vec4>,
    custom: [Vec<[f32; 4]>; 10],
    smooth_index: Vec<i64>,
    /// Last line of each attribute command, for surplus errors.
    attr_lines: Vec<(Attr, u64)>,
    // Vertex array declarations.
    source_arrays: Vec<SourceArray>,
    declared: Vec<ArrayType>,
    custom_names: [Option<String>; 10],
    custom_sizes: [Option<u32>; 10],
    // Meshes and faces.
    mesh_name: String,
    material_name: String,
    key_dirty: bool,
    group: u32,
    groups: Vec<(String, String)>,
    group_index: HashMap<(String, String), u32>,
    fm_base: u64,
    any_faces: bool,
    /// Triangles in file order, as `vp` indices, with their mesh group and smoothing state.
    tris: Vec<[u32; 3]>,
    tri_group: Vec<u32>,
    tri_state: Vec<u32>,
    /// Face indices not yet defined when read, checked against the final count: (line, index).
    forward: Vec<(u64, u64)>,
    fs_flags: Vec<u8>,
    fs_used: bool,
    state: SmoothState,
    states: Vec<SmoothState>,
    segments: Vec<Segment>,
    segment_pending: bool,
    // Skeleton and animation.
    joints: Vec<(String, Option<usize>, u64)>,
    base_poses: Vec<(Transform, u64)>,
    anims: Vec<AnimRec>,
    frames: Vec<FrameRec>,
    anim_poses: Vec<Transform>,
    comment: Option<String>,
}

/// Reads up to `out.len()` numbers; returns how many the line had. Missing numbers keep `out`'s defaults.
fn floats(t: &mut Tokens, out: &mut [f32], line: u64, cmd: &str) -> Result<usize, LoadError> {
    let mut n = 0;
    while n < out.len() {
        let mut before = t.clone();
        let Some(v) = t.float() else { break };
        let v = v.map_err(|tok| err(line, format!("{cmd}: expected a number, found \"{}\"", show(tok))))?;
        if !v.is_finite() {
            let tok = before.word().unwrap_or_default();
            return Err(err(line, format!("{cmd}: expected a finite number, found \"{}\"", show(tok))));
        }
        out[n] = v;
        n += 1;
    }
    Ok(n)
}

/// The next integer argument, `None` when the line has no more.
fn int(t: &mut Tokens, line: u64, cmd: &str, what: &str) -> Result<Option<i64>, LoadError> {
    match t.word() {
        None => Ok(None),
        Some(tok) => parse_int(tok)
            .map(Some)
            .ok_or_else(|| err(line, format!("{cmd}: expected an integer {what}, found \"{}\"", show(tok)))),
    }
}

fn lossy(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

impl Parser {
    fn new() -> Self {
        Parser {
            w: Warnings::default(),
            positions: Vec::new(),
            vp_lines: Vec::new(),
            texcoords: Vec::new(),
            normals: Vec::new(),
            tangents: Vec::new(),
            bitangents: Vec::new(),
            blend_joints: Vec::new(),
            blend_weights: Vec::new(),
            max_blend_joint: None,
            empty_blends: (0, 0),
            colors: Vec::new(),
            custom: Default::default(),
            smooth_index: Vec::new(),
            attr_lines: Vec::new(),
            source_arrays: Vec::new(),
            declared: Vec::new(),
            custom_names: Default::default(),
            custom_sizes: [None; 10],
            mesh_name: String::new(),
            material_name: String::new(),
            key_dirty: true,
            group: 0,
            groups: Vec::new(),
            group_index: HashMap::new(),
            fm_base: 0,
            any_faces: false,
            tris: Vec::new(),
            tri_group: Vec::new(),
            tri_state: Vec::new(),
            forward: Vec::new(),
            fs_flags: Vec::new(),
            fs_used: false,
            state: SmoothState::DEFAULT,
            states: Vec::new(),
            segments: Vec::new(),
            segment_pending: true,
            joints: Vec::new(),
            base_poses: Vec::new(),
            anims: Vec::new(),
            frames: Vec::new(),
            anim_poses: Vec::new(),
            comment: None,
        }
    }

    fn touch(&mut self, attr: Attr, line: u64) {
        match self.attr_lines.iter_mut().find(|(a, _)| *a == attr) {
            Some(e) => e.1 = line,
            None => self.attr_lines.push((attr, line)),
        }
    }

    fn parse(&mut self, data: &[u8]) -> Result<(), LoadError> {
        let mut lines = Lines::new(data);
        while let Some((line, text)) = lines.next() {
            let mut t = Tokens::new(text);
            let Some(cmd) = t.word() else { continue };
            match cmd {
                b"vp" => {
                    let mut v = [0.0, 0.0, 0.0, 1.0];
                    floats(&mut t, &mut v, line, "vp")?;
                    if self.segment_pending {
                        self.segments.push(Segment {
                            first_vp: self.positions.len() as u32,
                            mesh: self.mesh_name.clone(),
                            material: self.material_name.clone(),
                            state: self.state,
                        });
                        self.segment_pending = false;
                    }
                    self.positions.push(Vec3::new(v[0], v[1], v[2]));
                    self.vp_lines.push(line);
                }
                b"vt" => {
                    let mut v = [0.0; 2];
                    floats(&mut t, &mut v, line, "vt")?;
                    self.texcoords.push(Vec2::from_array(v));
                    self.touch(Attr::Vt, line);
                }
                b"vn" => {
                    let mut v = [0.0; 3];
                    floats(&mut t, &mut v, line, "vn")?;
                    self.normals.push(Vec3::from_array(v));
                    self.touch(Attr::Vn, line);
                }
                b"vx" => self.vx(&mut t, line)?,
                b"vb" => self.vb(&mut t, line)?,
                b"vc" => {
                    let mut v = [0.0, 0.0, 0.0, 1.0];
                    floats(&mut t, &mut v, line, "vc")?;
                    self.colors.push(Vec4::from_array(v));
                    self.touch(Attr::Vc, line);
                }
                [b'v', d @ b'0'..=b'9'] => {
                    let n = d - b'0';
                    let mut v = [0.0; 4];
                    floats(&mut t, &mut v, line, &format!("v{n}"))?;
                    self.custom[n as usize].push(v);
                    self.touch(Attr::Custom(n), line);
                }
                b"vs" => {
                    let v = int(&mut t, line, "vs", "smoothing index")?.unwrap_or(0);
                    self.smooth_index.push(v);
                    self.touch(Attr::Vs, line);
                }
                b"vertexarray" => self.vertexarray(&mut t, line)?,
                b"mesh" => {
                    self.mesh_name = t.name().map(lossy).unwrap_or_default();
                    self.key_dirty = true;
                    self.segment_pending = true;
                    self.fm_base = self.positions.len() as u64;
                }
                b"material" => {
                    self.material_name = t.name().map(lossy).unwrap_or_default();
                    self.key_dirty = true;
                }
                b"fa" => self.face(&mut t, line, false)?,
                b"fm" => self.face(&mut t, line, true)?,
                b"fs" => self.fs(&mut t, line)?,
                b"smoothuv" => {
                    self.state.uv = int(&mut t, line, "smoothuv", "flag")?.is_none_or(|v| v > 0);
                }
                b"smoothgroup" => {
                    self.state.group = int(&mut t, line, "smoothgroup", "key")?.unwrap_or(-1);
                }
                b"smoothangle" => {
                    let mut v = [180.0];
                    floats(&mut t, &mut v, line, "smoothangle")?;
                    self.state.angle = v[0].abs().min(180.0);
                }
                b"joint" => self.joint(&mut t, line)?,
                b"pq" | b"pm" | b"pa" => self.pose(cmd, &mut t, line)?,
                b"animation" => {
                    let name = t.name().map(lossy).filter(|n| !n.is_empty());
                    self.anims.push(AnimRec { name, frame_rate: None, looping: false, line });
                    self.frames.push(FrameRec { anim: self.anims.len() - 1, start: self.anim_poses.len(), line });
                }
                b"frame" => match self.frames.last_mut() {
                    None => self.w.line("iqe.frame.outside", line, || "frame before any animation; ignored".into()),
                    // The current frame has no poses yet: it simply starts here.
                    Some(f) if f.start == self.anim_poses.len() => f.line = line,
                    Some(f) => {
                        let anim = f.anim;
                        self.frames.push(FrameRec { anim, start: self.anim_poses.len(), line });
                    }
                },
                b"framerate" => {
                    let mut v = [0.0];
                    floats(&mut t, &mut v, line, "framerate")?;
                    match self.anims.last_mut() {
                        Some(a) => a.frame_rate = Some(v[0].max(0.0)),
                        None => self
                            .w
                            .line("iqe.framerate.outside", line, || "framerate before any animation; ignored".into()),
                    }
                }
                b"loop" => match self.anims.last_mut() {
                    Some(a) => a.looping = true,
                    None => self.w.line("iqe.loop.outside", line, || "loop before any animation; ignored".into()),
                },
                b"comment" => {
                    // The rest of the file, verbatim, is the comment.
                    self.comment = Some(lossy(lines.remaining()));
                    break;
                }
                _ => self.w.line("iqe.command.unknown", line, || format!("unknown command \"{}\" ignored", show(cmd))),
            }
        }
        Ok(())
    }

    /// `vx X Y Z [W]` (tangent and handedness sign) or `vx X Y Z A B C` (tangent and bitangent: the sign is
    /// worked out once normals are known).
    fn vx(&mut self, t: &mut Tokens, line: u64) -> Result<(), LoadError> {
        let mut v = [0.0; 6];
        let n = floats(t, &mut v, line, "vx")?;
        let tangent = Vec3::new(v[0], v[1], v[2]);
        if n > 4 {
            self.bitangents.push((self.tangents.len() as u32, Vec3::new(v[3], v[4], v[5])));
            self.tangents.push(tangent.extend(1.0));
        } else {
            // A missing or zero sign means right-handed (the converter would store 0 and lose the bitangent).
            self.tangents.push(tangent.extend(if v[3] < 0.0 { -1.0 } else { 1.0 }));
        }
        self.touch(Attr::Vx, line);
        Ok(())
    }

    /// `vb J W J W …`: any number of pairs; the largest four are kept and renormalised.
    fn vb(&mut self, t: &mut Tokens, line: u64) -> Result<(), LoadError> {
        let mut acc = BlendAccumulator::default();
        let mut pairs = 0usize;
        while let Some(j) = int(t, line, "vb", "joint index")? {
            let Ok(joint) = u32::try_from(j) else {
                return Err(err(line, format!("vb: joint index {j} (expected 0 or more)")));
            };
            let mut w = [0.0];
            floats(t, &mut w, line, "vb")?;
            acc.push(joint, w[0]);
            pairs += 1;
        }
        if pairs > 4 {
            self.w.line("iqe.vb.many", line, || {
                format!("vb has {pairs} influences; the largest 4 are kept and renormalised, as IQM stores 4")
            });
        }
        let (joints, weights) = acc.finish();
        if weights[0] == 0.0 {
            if self.empty_blends.0 == 0 {
                self.empty_blends.1 = line;
            }
            self.empty_blends.0 += 1;
        }
        for (&j, &w) in joints.iter().zip(&weights) {
            if w > 0.0 && self.max_blend_joint.is_none_or(|(m, _)| j > m) {
                self.max_blend_joint = Some((j, line));
            }
        }
        self.blend_joints.push(joints);
        self.blend_weights.push(weights);
        self.touch(Attr::Vb, line);
        Ok(())
    }

    /// `vertexarray TYPE FORMAT SIZE [NAME]`. Anything unrecognised is reported and ignored, never fatal.
    fn vertexarray(&mut self, t: &mut Tokens, line: u64) -> Result<(), LoadError> {
        let ty_tok = t.name().unwrap_or_default();
        let fmt_tok = t.name().unwrap_or_default();
        let size_tok = t.word().unwrap_or_default();
        let name = t.name().map(lossy).filter(|n| !n.is_empty());
        let ty = ArrayType::parse(ty_tok);
        let format = vertex::parse_format(fmt_tok);
        let size = parse_int(size_tok).filter(|s| (1..=4).contains(s)).map(|s| s as u32);
        let (Some(ty), Some(format), Some(size)) = (ty, format, size) else {
            let what = match (ty, format, size) {
                (None, _, _) => format!(
                    "type \"{}\" (expected position, texcoord, normal, tangent, blendindexes, blendweights, color or custom0 to custom9)",
                    show(ty_tok)
                ),
                (_, None, _) => format!("format \"{}\" (expected {})", show(fmt_tok), vertex::FORMATS.join(", ")),
                _ => format!("size \"{}\" (expected 1 to 4)", show(size_tok)),
            };
            self.w.line("iqe.vertexarray.unknown", line, || format!("vertexarray: unknown {what}; ignored"));
            self.source_arrays.push(SourceArray {
                kind: lossy(ty_tok),
                format: lossy(fmt_tok),
                size: parse_int(size_tok).and_then(|s| u32::try_from(s).ok()).unwrap_or(0),
                ignored: true,
            });
            return Ok(());
        };
        let duplicate = self.declared.contains(&ty);
        if duplicate {
            self.w.line("iqe.vertexarray.duplicate", line, || {
                format!("vertexarray: second {} declaration ignored (the first is used)", ty.name())
            });
        } else {
            self.declared.push(ty);
            if let ArrayType::Custom(n) = ty {
                self.custom_names[n as usize] = Some(name.clone().unwrap_or_else(|| ty.name()));
                self.custom_sizes[n as usize] = Some(size);
            }
        }
        let kind = match ty {
            ArrayType::Custom(_) => name.unwrap_or_else(|| ty.name()),
            _ => ty.name(),
        };
        self.source_arrays.push(SourceArray { kind, format: format.into(), size, ignored: duplicate });
        Ok(())
    }

    /// Resolves one face index: negative counts back from the last `vp` so far, `fm` adds the mesh's base.
    fn index(&mut self, tok: &[u8], line: u64, relative: bool) -> Result<u32, LoadError> {
        let raw = parse_int(tok)
            .ok_or_else(|| err(line, format!("expected an integer face index, found \"{}\"", show(tok))))?;
        let count = self.positions.len() as u64;
        let abs: u64 = if raw < 0 {
            count.checked_sub(raw.unsigned_abs()).ok_or_else(|| {
                err(line, format!("face index {raw} reaches before the first vertex (only {count} vertices so far)"))
            })?
        } else {
            let base = if relative { self.fm_base } else { 0 };
            base.saturating_add(raw as u64)
        };
        if abs >= count {
            // Defined later, perhaps: attributes and faces may come in any order. Checked at the end.
            if abs >= u64::from(u32::MAX) {
                return Err(err(line, format!("face index {abs}, only {count} vertices")));
            }
            self.forward.push((line, abs));
        }
        Ok(abs as u32)
    }

    /// `fa`/`fm`: a triangle, or a convex polygon triangulated as a fan from its first corner.
    fn face(&mut self, t: &mut Tokens, line: u64, relative: bool) -> Result<(), LoadError> {
        self.any_faces = true;
        let mut first = None;
        let mut prev = None;
        let mut count = 0usize;
        while let Some(tok) = t.word() {
            let i = self.index(tok, line, relative)?;
            count += 1;
            match (first, prev) {
                (None, _) => first = Some(i),
                (Some(_), None) => prev = Some(i),
                (Some(a), Some(b)) => {
                    self.push_triangle([a, b, i]);
                    prev = Some(i);
                }
            }
        }
        if count < 3 {
            let cmd = if relative { "fm" } else { "fa" };
            self.w.line("iqe.face.short", line, || format!("{cmd} with {count} indices (need 3 or more); skipped"));
        }
        Ok(())
    }

    fn push_triangle(&mut self, tri: [u32; 3]) {
        if self.key_dirty {
            let key = (self.mesh_name.clone(), self.material_name.clone());
            let next = self.groups.len() as u32;
            self.group = *self.group_index.entry(key.clone()).or_insert_with(|| next);
            if self.group == next {
                self.groups.push(key);
            }
            self.key_dirty = false;
        }
        if self.states.last() != Some(&self.state) {
            self.states.push(self.state);
        }
        self.tris.push(tri);
        self.tri_group.push(self.group);
        self.tri_state.push(self.states.len() as u32 - 1);
    }

    /// `fs a b c …`: edge smoothing flags for the matching face line, fanned the same way. Inner fan edges
    /// always smooth.
    fn fs(&mut self, t: &mut Tokens, line: u64) -> Result<(), LoadError> {
        let flag = |t: &mut Tokens| -> Result<Option<u8>, LoadError> {
            Ok(int(t, line, "fs", "edge flag")?.map(|v| u8::from(v > 0)))
        };
        let (Some(a), Some(b), Some(c)) = (flag(t)?, flag(t)?, flag(t)?) else {
            self.w.line("iqe.fs.short", line, || "fs with fewer than 3 flags; skipped".into());
            return Ok(());
        };
        self.fs_used = true;
        let mut flags = a | b << 1 | c << 2;
        while let Some(d) = flag(t)? {
            self.fs_flags.push(flags | 4);
            flags = 1 | (flags & 4) >> 1 | d << 2;
        }
        self.fs_flags.push(flags);
        Ok(())
    }

    fn joint(&mut self, t: &mut Tokens, line: u64) -> Result<(), LoadError> {
        let name = t.name().map(lossy).unwrap_or_default();
        let parent = int(t, line, "joint", "parent")?.unwrap_or(-1);
        let i = self.joints.len();
        let parent = if parent < 0 {
            None
        } else if (parent as u64) < i as u64 {
            Some(parent as usize)
        } else {
            return Err(err(
                line,
                format!(
                    "joint {i} \"{name}\": parent {parent} does not precede it (expected -1 or 0 to {})",
                    i as i64 - 1
                ),
            ));
        };
        self.joints.push((name, parent, line));
        Ok(())
    }

    fn pose(&mut self, cmd: &[u8], t: &mut Tokens, line: u64) -> Result<(), LoadError> {
        let mut v = [0.0f32; 15];
        let (posed, name) = match cmd {
            b"pq" => {
                let n = floats(t, &mut v[..10], line, "pq")?;
                (pose::pq(&v[..n]), "pq")
            }
            b"pm" => {
                let n = floats(t, &mut v[..15], line, "pm")?;
                (pose::pm(&v[..n]), "pm")
            }
            _ => {
                let n = floats(t, &mut v[..9], line, "pa")?;
                (pose::pa(&v[..n]), "pa")
            }
        };
        let (transform, ok) = posed;
        if !ok {
            self.w.line("iqe.pose.rotation", line, || format!("{name}: rotation has no usable length; identity used"));
        }
        if self.anims.is_empty() {
            self.base_poses.push((transform, line));
        } else {
            self.anim_poses.push(transform);
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests;
