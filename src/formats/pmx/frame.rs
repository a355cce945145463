//! PMX display frames: the groups of bones and morphs MMD's panels list.

use super::reader::{Ix, Reader};
use crate::error::LoadError;
use crate::scene::{DisplayFrame, DisplayItem};

/// Display frames; an entry whose index is none is dropped with `dropped` counting it.
pub fn frames(r: &mut Reader, dropped: &mut usize) -> Result<Vec<DisplayFrame>, LoadError> {
    let n = r.count(8 + 1 + 4, "display frame")?;
    let mut out = Vec::with_capacity(n);
    for i in 0..n {
        let name = r.text(&format!("display frame {i} name"))?;
        let name_en = r.text(&format!("display frame {i} English name"))?;
        let special = r.u8(&format!("display frame {i} special flag"))? != 0;
        let min = 1 + r.index_size(Ix::Bone).min(r.index_size(Ix::Morph));
        let m = r.count(min, &format!("display frame {i} item"))?;
        let mut items = Vec::with_capacity(m);
        for k in 0..m {
            let at = r.pos();
            let item = match r.u8(&format!("display frame {i} item {k} kind"))? {
                0 => r.index(Ix::Bone, &format!("display frame {i} item {k} bone index"))?.map(DisplayItem::Bone),
                1 => r.index(Ix::Morph, &format!("display frame {i} item {k} morph index"))?.map(DisplayItem::Morph),
                t => {
                    return Err(LoadError::at(
                        at,
                        format!("display frame {i} item {k} kind {t}: expected 0 (bone) or 1 (morph)"),
                    ));
                }
            };
            match item {
                Some(item) => items.push(item),
                None => *dropped += 1,
            }
        }
        out.push(DisplayFrame { name, name_en, special, items });
    }
    Ok(out)
}
