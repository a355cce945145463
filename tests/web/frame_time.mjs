// The page's frame time playing the corpus dance, for BENCHMARKS.md ("The web page"), to set beside the desktop
// window's (`rigscope MODEL MOTION --report-timing --exit-after-frames N --window-size 1280x720`):
//
//   node frame_time.mjs --site DIR --corpus DIR --backend webgpu|webgl|webgl-llvmpipe [--seconds 10] [--warmup 3]
//
// Opens index.html?open= the corpus PMD and its dance at 1280x720 (the texture fetched from beside the model),
// plays for --warmup seconds, then for --seconds, and prints one JSON line: the backend and adapter, frames
// drawn, the mean time per frame, and the wasm's own work per frame (the app's frame function: update, egui's
// layout, the 3D view's commands; status().work_ms), the rest being egui's painting, the browser and the GPU
// process. "webgl-llvmpipe" draws on Mesa's llvmpipe, as the window does under WGPU_BACKEND=gl.

import { launch, parseArgs, serve, status } from "./lib.mjs";

const args = parseArgs(["site", "corpus", "backend"]);
const seconds = Number(args.seconds ?? 10);
const warmup = Number(args.warmup ?? 3);
const { server, base } = await serve({ "/": args.site, "/corpus/": args.corpus });
const browser = await launch(args.backend, args.chromium);
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  const model = "corpus/mmd/threejs/miku/miku_v2.pmd";
  const motion = "corpus/mmd/threejs/vmds/wavefile_v2.vmd";
  await page.goto(`${base}/index.html?open=${model}&open=${motion}`);
  const end = Date.now() + 180_000;
  let s = null;
  while (Date.now() < end) {
    s = await status(page);
    if (s && s.model === "miku_v2.pmd" && s.clip !== null && s.textures === 1 && s.loading === 0 && s.playing) break;
    await page.waitForTimeout(100);
  }
  if (!s || s.model !== "miku_v2.pmd" || !s.playing) throw new Error(`the dance didn't start: ${JSON.stringify(s)}`);
  await page.waitForTimeout(warmup * 1000);
  const [a, ta] = [await status(page), Date.now()];
  await page.waitForTimeout(seconds * 1000);
  const [b, tb] = [await status(page), Date.now()];
  const frames = b.frames_drawn - a.frames_drawn;
  console.log(JSON.stringify({
    backend: args.backend,
    adapter: `${b.backend}: ${b.adapter}`,
    frames,
    seconds: (tb - ta) / 1000,
    frame_ms: (tb - ta) / frames,
    work_ms_per_frame: (b.work_ms - a.work_ms) / frames,
  }));
} finally {
  await browser.close();
  server.close();
}
