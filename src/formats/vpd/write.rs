//! A VPD writer for tests: cp932 (or UTF-8 with a byte-order mark), CRLF lines and comments as
//! MikuMikuDance writes them, numbers written to read back exactly, and an optional wrong bone count.

/// A whole pose file.
#[derive(Debug, Clone, PartialEq)]
pub struct VpdDocument {
    pub model_file: String,
    /// (name, translation, quaternion x y z w).
    pub bones: Vec<(String, [f32; 3], [f32; 4])>,
    pub morphs: Vec<(String, f32)>,
    /// The bone count to declare; `None` declares the true one.
    pub declared_bones: Option<usize>,
    /// UTF-8 with a byte-order mark instead of cp932.
    pub utf8: bool,
}

impl VpdDocument {
    pub fn new(model_file: &str) -> VpdDocument {
        VpdDocument {
            model_file: model_file.into(),
            bones: Vec::new(),
            morphs: Vec::new(),
            declared_bones: None,
            utf8: false,
        }
    }

    pub fn to_text(&self) -> String {
        let list = |v: &[f32]| v.iter().map(|x| format!("{x:?}")).collect::<Vec<_>>().join(",");
        let mut o = String::from("Vocaloid Pose Data file\r\n\r\n");
        o += &format!("{};\t\t// 親ファイル名\r\n", self.model_file);
        o += &format!("{};\t\t\t\t// 総ポーズボーン数\r\n\r\n", self.declared_bones.unwrap_or(self.bones.len()));
        for (i, (name, t, q)) in self.bones.iter().enumerate() {
            o += &format!("Bone{i}{{{name}\r\n  {};\t\t\t\t// trans x,y,z\r\n", list(t));
            o += &format!("  {};\t\t// Quaternion x,y,z,w\r\n}}\r\n\r\n", list(q));
        }
        for (i, (name, w)) in self.morphs.iter().enumerate() {
            o += &format!("Morph{i}{{{name}\r\n  {w:?};\t\t\t\t// weight\r\n}}\r\n\r\n",);
        }
        o
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        let text = self.to_text();
        if self.utf8 {
            let mut out = b"\xEF\xBB\xBF".to_vec();
            out.extend(text.as_bytes());
            out
        } else {
            crate::formats::vmd::name::encode(&text)
        }
    }
}

/// A pose with bones (one with non-ASCII name, one with an unnormalised quaternion) and two morphs.
pub fn sample_document() -> VpdDocument {
    let mut d = VpdDocument::new("miku.osm");
    d.bones.push(("センター".into(), [0.0, 1.5, -0.25], [0.0, 0.0, 0.0, 1.0]));
    d.bones.push(("右腕".into(), [0.0, 0.0, 0.0], [0.1, -0.2, 0.3, 0.927_361_8]));
    d.bones.push(("左ひじ".into(), [0.0, 0.0, 0.0], [0.0, 0.0, 0.5, 0.5]));
    d.morphs.push(("まばたき".into(), 1.0));
    d.morphs.push(("あ".into(), 0.25));
    d
}
