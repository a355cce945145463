//! Writes a synthetic skinned model (`rigscope::synth`) for the benchmarks (BENCHMARKS.md). Usage:
//! `make_synth [OUT] [VERTICES] [JOINTS] [FRAMES]`; defaults `/tmp/synth_1m.iqm`, 1 000 000 vertices, 100
//! joints, 60 frames. An OUT ending in `.iqe` is written as IQE text (through `rigscope::convert::to_iqe`).

use rigscope::synth::{SynthSpec, iqm_bytes};

fn main() -> std::io::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let out = args.first().cloned().unwrap_or_else(|| "/tmp/synth_1m.iqm".into());
    let number = |i: usize, default: usize| args.get(i).and_then(|s| s.parse().ok()).unwrap_or(default);
    let spec = SynthSpec { vertices: number(1, 1_000_000), joints: number(2, 100), frames: number(3, 60) };
    let mut bytes = iqm_bytes(spec);
    if out.to_ascii_lowercase().ends_with(".iqe") {
        let scene = rigscope::load_bytes("synth.iqm", &bytes).expect("the synthetic model loads");
        bytes = rigscope::convert::to_iqe(&scene).0.into_bytes();
    }
    std::fs::write(&out, &bytes)?;
    println!("wrote {out} ({} bytes, {spec:?})", bytes.len());
    Ok(())
}
