//! Vertex-cache statistics of IQM files, to compare `rigscope convert` with other converters (BENCHMARKS.md).
//! Usage: `cache_stats FILE.iqm...`. Prints ACMR (vertices transformed per triangle; lower is better, 0.5 is
//! ideal) and ATVR (vertices transformed per vertex; 1.0 is ideal) for a 32-entry FIFO cache, as meshopt
//! models it.

fn main() {
    for path in std::env::args().skip(1) {
        let bytes = std::fs::read(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let scene = rigscope::load_bytes(&path, &bytes).unwrap_or_else(|e| panic!("{e}"));
        let indices: Vec<u32> = scene.triangles.iter().flatten().copied().collect();
        let s = meshopt::analyze_vertex_cache(&indices, scene.vertices.len(), 32, 0, 0);
        println!(
            "{path}: {} vertices, {} triangles, ACMR {:.3}, ATVR {:.3}",
            scene.vertices.len(),
            scene.triangles.len(),
            s.acmr,
            s.atvr
        );
    }
}
