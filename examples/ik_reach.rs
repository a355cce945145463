//! How near each IK effector lands to its IK bone over a whole motion, against what its chain can reach
//! (`rigscope::anim::ik_misses`): `cargo run --release --example ik_reach -- MODEL MOTION`. Prints, per chain,
//! the distribution of the miss over the frames where the IK bone is within reach, and of the excess over the
//! least possible miss where it is not, in model units and in thousandths of the model's height.

use rigscope::anim::{Pose, attach, ik_misses};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [model, motion] = &args[..] else { return Err("usage: ik_reach MODEL MOTION".into()) };
    let mut scene = rigscope::load_path(std::path::Path::new(model))?;
    let clip = rigscope::load_path(std::path::Path::new(motion))?;
    attach(&mut scene, &clip, motion)?;
    let clip = scene.clips.first().ok_or("no clip")?;
    let ys = scene.vertices.positions.iter().map(|p| p.y);
    let height = ys.clone().fold(f32::MIN, f32::max) - ys.fold(f32::MAX, f32::min);
    let chains = scene.constraints.ik.len();
    let (mut reachable, mut out_of_reach) = (vec![Vec::new(); chains], vec![Vec::new(); chains]);
    let mut pose = Pose::default();
    for frame in 0..clip.frame_count {
        pose.update_scene(&scene, Some(clip), frame as f32, 30.0, &[]);
        for m in ik_misses(&scene.skeleton, &scene.constraints, &pose) {
            match m.least {
                Some(l) if l > 0.0 => out_of_reach[m.chain].push((m.excess(), frame)),
                Some(_) => reachable[m.chain].push((m.miss, frame)),
                None => {}
            }
        }
    }
    println!(
        "{} frames, model height {height:.3}; per chain: frames, median, 99th percentile, worst (frame)",
        clip.frame_count
    );
    for (c, chain) in scene.constraints.ik.iter().enumerate() {
        let name = &scene.skeleton.joints[chain.joint].name;
        for (what, list) in [("within reach: miss", &mut reachable[c]), ("out of reach: excess", &mut out_of_reach[c])]
        {
            if list.is_empty() {
                continue;
            }
            list.sort_by(|a, b| a.0.total_cmp(&b.0));
            let q = |p: f64| list[((list.len() - 1) as f64 * p).round() as usize].0;
            let (worst, at) = list[list.len() - 1];
            let per = |v: f32| v / height * 1000.0;
            println!(
                "{name:<12} {what:<22} {:>5}  {:.5} ({:.3}‰)  {:.5} ({:.3}‰)  {:.5} ({:.3}‰) @{at}",
                list.len(),
                q(0.5),
                per(q(0.5)),
                q(0.99),
                per(q(0.99)),
                worst,
                per(worst)
            );
        }
    }
    Ok(())
}
