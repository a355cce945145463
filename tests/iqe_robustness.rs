//! No input makes the IQE reader panic: every prefix of the corpus files and thousands of seeded line edits
//! give either a scene or an error with a message and a line.

mod common;

use common::{corpus, read};
use rigscope::Location;

/// Loads and checks the outcome's shape; a panic fails the test by itself.
fn check(data: &[u8], what: &dyn Fn() -> String) {
    if let Err(e) = rigscope::formats::iqe::read("t.iqe", data) {
        assert!(!e.message.is_empty(), "{}: empty error message", what());
        assert!(matches!(e.location, Location::Line(l) if l >= 1), "{}: error without a line: {e}", what());
    }
}

/// A small deterministic generator (xorshift64*), so failures reproduce without a rand dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

#[test]
fn every_prefix_of_the_rocket() {
    let data = read(&corpus("iqm/unv_rocket.iqe"));
    for len in 0..=data.len() {
        check(&data[..len], &|| format!("rocket prefix {len}"));
    }
}

#[test]
fn medistat_prefixes_at_lines_and_random_cuts() {
    let data = read(&corpus("iqm/unv_medistat.iqe"));
    let mut cuts: Vec<usize> =
        data.iter().enumerate().filter(|(_, b)| **b == b'\n').map(|(i, _)| i + 1).step_by(40).collect();
    let mut rng = Rng(0x1c3e_0001);
    cuts.extend((0..300).map(|_| rng.below(data.len() + 1)));
    for len in cuts {
        check(&data[..len], &|| format!("medistat prefix {len}"));
    }
}

/// A file that uses every command, so mutations reach every code path the corpus files don't.
const EVERYTHING: &str = r#"# Inter-Quake Export
vertexarray position float 3
vertexarray custom0 half 2 "wind"
vertexarray color ubyte 4
joint "root" -1
joint child 0
joint leaf 1
pq 0 0 0 0 0 0 1
pm 0 0 1 1 0 0 0 1 0 0 0 1 2 2 2
pa 0 1 0 0.1 0.2 0.3 1 1 1
mesh "a"
material "skin.tga"
smoothgroup 1
smoothangle 45
smoothuv 1
vp 0 0 0 1
vt 0 0
vc 1 0 0 1
v0 0.5 0.5
vs 0
vb 0 0.5 1 0.5
vp 1 0 0
vt 1 0
vc 0 1 0
v0 1 1
vs 1
vb 1 1 2 0.1 0 0.2 2 0.3 1 0.01
vp 1 1 0
vt 1 1
vc 0 0 1
v0 0 0
vs 2
vb 2 1
vp 0 1 1
vt 0 1
vc 1 1 1 0.5
v0 0 1
vs 0
vb
fa 0 1 2 3
fs 1 0 1 1
mesh "b"
material "skin.tga"
vp 2 2 2
vt 0 0
vc 0 0 0
v0 0 0
vs 3
vb 0 1
fm 0 -1 -2
fs 0 0 0
mesh "a"
fa 3 2 1
animation "walk"
framerate 24
loop
frame
pq 0 0 0 0 0 0
pq 0 0 1 0.1 0 0
pa 0 1 0 0 0 0.5
frame 1
pm 0 0 0 1 0 0 0 1 0 0 0 1
pq 0 0 1 0 0 0 1 0.5 0.5 0.5
animation
pq 1 1 1 0 0 0
comment
free text
"#;

/// Replacements for a token: garbage, huge, negative, non-finite, integer overflow.
const GARBAGE: &[&str] = &[
    "x",
    "",
    "\"",
    "1e40",
    "-1e40",
    "nan",
    "inf",
    "-1",
    "-999999",
    "4294967296",
    "99999999999999999999999",
    "0",
    "7",
    "-0",
    "1.5",
    "#",
    "\u{fffd}",
];

const COMMANDS: &[&str] = &[
    "vp",
    "vt",
    "vn",
    "vx",
    "vb",
    "vc",
    "v3",
    "vs",
    "fa",
    "fm",
    "fs",
    "pq",
    "pm",
    "pa",
    "joint",
    "mesh",
    "material",
    "animation",
    "frame",
    "framerate",
    "loop",
    "smoothuv",
    "smoothgroup",
    "smoothangle",
    "vertexarray",
    "comment",
    "bogus",
];

fn mutate(rng: &mut Rng, base: &str) -> String {
    let mut lines: Vec<String> = base.lines().map(str::to_string).collect();
    let n = lines.len();
    let edits = 1 + rng.below(3);
    for _ in 0..edits {
        let i = rng.below(lines.len());
        match rng.below(7) {
            0 if lines.len() > 1 => {
                lines.remove(i);
            }
            1 => {
                let l = lines[i].clone();
                lines.insert(i, l);
            }
            2 => {
                let j = rng.below(lines.len());
                lines.swap(i, j);
            }
            3 | 4 => {
                let mut toks: Vec<String> = lines[i].split_whitespace().map(str::to_string).collect();
                if toks.len() > 1 {
                    let k = 1 + rng.below(toks.len() - 1);
                    toks[k] = GARBAGE[rng.below(GARBAGE.len())].to_string();
                    lines[i] = toks.join(" ");
                }
            }
            5 => {
                let cut = rng.below(lines[i].len() + 1);
                let mut l = lines[i].clone();
                while !l.is_char_boundary(cut.min(l.len())) {
                    l.pop();
                }
                l.truncate(cut.min(l.len()));
                lines[i] = l;
            }
            _ => {
                let mut l = COMMANDS[rng.below(COMMANDS.len())].to_string();
                for _ in 0..rng.below(16) {
                    l.push(' ');
                    if rng.below(4) == 0 {
                        l.push_str(GARBAGE[rng.below(GARBAGE.len())]);
                    } else {
                        l.push_str(&(rng.below(12) as i64 - 4).to_string());
                    }
                }
                lines.insert(i.min(n), l);
            }
        }
    }
    let mut out = lines.join(if rng.below(5) == 0 { "\r\n" } else { "\n" });
    out.push('\n');
    out
}

#[test]
fn seeded_line_edits_never_panic() {
    let rocket = String::from_utf8(read(&corpus("iqm/unv_rocket.iqe"))).unwrap();
    let medistat = String::from_utf8(read(&corpus("iqm/unv_medistat.iqe"))).unwrap();
    let mut rng = Rng(0x5eed_1e0e);
    for (name, base, count) in
        [("everything", EVERYTHING, 3000), ("rocket", rocket.as_str(), 1500), ("medistat", medistat.as_str(), 150)]
    {
        // The unmutated base loads.
        rigscope::formats::iqe::read(name, base.as_bytes()).unwrap_or_else(|e| panic!("{e}"));
        for k in 0..count {
            let seed = rng.0;
            let text = mutate(&mut rng, base);
            check(text.as_bytes(), &|| format!("{name} mutation {k} (rng state {seed:#x})"));
        }
    }
}

#[test]
fn raw_byte_noise_never_panics() {
    let mut rng = Rng(0xb17e_5a1d);
    let data = EVERYTHING.as_bytes();
    for k in 0..2000 {
        let mut d = data.to_vec();
        for _ in 0..1 + rng.below(8) {
            let i = rng.below(d.len());
            d[i] = rng.next() as u8;
        }
        check(&d, &|| format!("byte noise {k}"));
    }
}
