//! Writes the physics fixtures (`rigscope::physics::fixtures`) into a folder, for the reference harness in
//! `tools/physics-ref` and for trying them in the window: `cargo run --example physics_fixtures -- DIR`.

fn main() -> std::io::Result<()> {
    use rigscope::physics::fixtures as fx;
    let dir = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "physics-fixtures".into()));
    std::fs::create_dir_all(&dir)?;
    let models = [
        ("pendulum", fx::pendulum()),
        ("spring", fx::spring()),
        ("chain3", fx::chain3()),
        ("mode2", fx::mode2_chain()),
    ];
    for (name, doc) in models {
        std::fs::write(dir.join(format!("{name}.pmx")), doc.to_bytes())?;
    }
    std::fs::write(dir.join("chains110.pmx"), fx::many_chains(10, 10).to_bytes())?;
    std::fs::write(dir.join("switch.vmd"), fx::switch_motion(30).to_bytes())?;
    // The middle link of the three switched off under a simulated first link: steered, not teleported.
    std::fs::write(dir.join("chain3_switch.vmd"), fx::switch_bone("chain3", "link2", 30).to_bytes())?;
    println!("{}", dir.display());
    Ok(())
}
