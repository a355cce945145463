//! Property keys: model visibility and, per IK chain named by its IK bone (20-byte cp932 field), whether the
//! chain is on from this frame until the next key.

use super::name;
use crate::error::LoadError;
use crate::formats::binread::Cursor;
use crate::scene::{VmdIkSwitch, VmdPropertyKey};

/// Bytes of a property key without its IK switches.
pub const MIN_SIZE: u64 = 4 + 1 + 4;
/// Bytes per IK switch.
pub const IK_SIZE: u64 = 20 + 1;

pub fn read(c: &mut Cursor) -> Result<(u64, VmdPropertyKey), LoadError> {
    let offset = c.pos();
    let frame = c.u32("property key frame")?;
    let visible = c.u8("property key visibility")? != 0;
    let n = c.count(IK_SIZE, "property key IK switch")?;
    let mut ik = Vec::with_capacity(n);
    for _ in 0..n {
        let bone = name::decode(c.bytes(20, "IK switch bone name (20 bytes)")?);
        let enabled = c.u8("IK switch state")? != 0;
        ik.push(VmdIkSwitch { bone, enabled });
    }
    Ok((offset, VmdPropertyKey { frame, visible, ik }))
}
