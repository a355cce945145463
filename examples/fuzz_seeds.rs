//! Writes seed inputs for the fuzz targets (`fuzz/`) into `fuzz/corpus/<target>/`, all made by rigscope's own
//! writers: a skinned, animated quad as IQE and IQM, RSM files of every version with keys (`formats::rsm::write::sample_document`), and MVD files in
//! both encodings with every section kind, VMD, VPD, PMX and PMD samples, and glTF as GLB and as .gltf: the test
//! writer's skinned, morphed, textured strip, and the exporter's own files with sparse morph targets and
//! `KHR_animation_pointer` channels (`synth::exports`). The real sample files in ../shared/corpus can be passed to
//! `cargo fuzz run` as a second, read-only corpus folder; they are never copied here.
//! Usage: `cargo run --example fuzz_seeds [OUT_DIR]` (default `fuzz/corpus`).

use std::path::Path;

use rigscope::formats::mvd::write::sample_document as mvd_sample;
use rigscope::formats::rsm::write::sample_document;
use rigscope::scene::MvdEncoding;

const IQE: &str = "# Inter-Quake Export
joint root -1
joint tip 0
pq 0 0 0 0 0 0 -1
pq 0 0 1 0 0 0 -1
vertexarray position float 3
vertexarray texcoord float 2
mesh quad
material skin.png
vp 0 0 0
vt 0 0
vb 0 1
vp 1 0 0
vt 1 0
vb 0 0.5 1 0.5
vp 1 0 1
vt 1 1
vb 1 1
vp 0 0 1
vt 0 1
vb 1 0.75 0 0.25
smoothangle 60
fm 0 2 1
fm 0 3 2
animation bend
framerate 10
loop
frame
pq 0 0 0 0 0 0 -1
pq 0 0 1 0 0 0 -1
frame
pq 0 0 0 0 0 0 -1
pq 0 0 1 0.2 0 0 -0.98
comment made by rigscope's fuzz_seeds
";

fn main() -> std::io::Result<()> {
    let out = std::env::args().nth(1).unwrap_or_else(|| "fuzz/corpus".into());
    let write = |target: &str, name: &str, bytes: &[u8]| -> std::io::Result<()> {
        let dir = Path::new(&out).join(target);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join(name), bytes)
    };
    write("iqe", "quad.iqe", IQE.as_bytes())?;
    let scene = rigscope::load_bytes("quad.iqe", IQE.as_bytes()).expect("the seed IQE loads");
    let iqm = rigscope::convert::to_iqm(&scene).expect("the seed converts").bytes;
    write("iqm", "quad.iqm", &iqm)?;
    for (major, minor) in [(1, 1), (1, 2), (1, 4), (1, 5), (1, 6), (2, 2), (2, 3)] {
        write("rsm", &format!("v{major}{minor}.rsm"), &sample_document(major, minor).to_bytes())?;
    }
    write("mvd", "utf16.mvd", &mvd_sample(MvdEncoding::Utf16Le).to_bytes())?;
    write("mvd", "utf8.mvd", &mvd_sample(MvdEncoding::Utf8).to_bytes())?;
    write("vmd", "sample.vmd", &rigscope::formats::vmd::write::sample_document().to_bytes())?;
    let vpd = rigscope::formats::vpd::write::sample_document();
    write("vpd", "sample.vpd", &vpd.to_bytes())?;
    write("vpd", "utf8.vpd", &rigscope::formats::vpd::write::VpdDocument { utf8: true, ..vpd }.to_bytes())?;
    for enc in [rigscope::scene::MmdEncoding::Utf16Le, rigscope::scene::MmdEncoding::Utf8] {
        for size in [1, 2, 4] {
            let doc = rigscope::formats::pmx::write::sample_document(enc, size);
            write("pmx", &format!("{enc:?}-{size}.pmx"), &doc.to_bytes())?;
        }
    }
    write("pmd", "sample.pmd", &rigscope::formats::pmd::write::sample_document().to_bytes())?;
    let gltf = rigscope::formats::gltf::write::sample_document();
    write("gltf", "sample.glb", &gltf.to_glb())?;
    write("gltf", "sample.gltf", &gltf.to_gltf_embedded())?;
    for (name, bytes) in rigscope::synth::exports::gltf_exports() {
        write("gltf", &name, &bytes)?;
    }
    println!("seeds written under {out}");
    Ok(())
}
