// Drives rigscope's web page (target/web, built by web/build.sh) in Debian's Chromium through playwright-core,
// with one GPU path: WebGPU (SwiftShader's Vulkan under Chromium's unsafe-WebGPU flags) or WebGL2 (no WebGPU
// flags: Chromium has no WebGPU adapter then, and wgpu falls back to WebGL2). tests/web_page.rs runs it once per
// path and checks what it writes; this script only drives the page and records what it saw.
//
//   node page.mjs --site DIR --corpus DIR --fixtures DIR --out DIR --backend webgpu|webgl [--chromium PATH]
//
// --fixtures holds mrfixit/lsalzman_mrfixit.iqm with its two textures (tests/web_page.rs makes them), served at
// /fixtures/ for the ?open= step: the page must fetch the textures from beside the model; miku.zip, the corpus
// character with its texture and dance in one archive, for a .zip drop; dance/, the same in folders, dropped
// from the disk as a folder; and reload/model.iqe, dropped from the disk and then overwritten there with
// reload/replacement.iqe for the page to reload.
//
// Writes to --out: demo.png (the demo paused at frame 0), dance-a.png and dance-b.png (the corpus PMD with its
// texture and the VMD dropped together, playing by itself, then paused at two frames), iqm.png (an IQM opened through ?open=), and
// vrm.png (a VRM avatar with a VRMA motion dropped together, paused in the motion), and result.json (the app's
// status after each step, the console's errors, timings). The RSM step opens a corpus
// model whose texture lies under data/texture/ beside it, as in Ragnarok's data tree.

import fs from "node:fs";
import path from "node:path";
import { launch, parseArgs, serve, status as statusOf } from "./lib.mjs";

const args = parseArgs(["site", "corpus", "fixtures", "out", "backend"]);
const TIMEOUT_MS = 180_000;
fs.mkdirSync(args.out, { recursive: true });

// The site at /, the corpus at /corpus/, the fixtures at /fixtures/.
const { server, base } = await serve({ "/": args.site, "/corpus/": args.corpus, "/fixtures/": args.fixtures });
const browser = await launch(args.backend, args.chromium);
const result = { backend: args.backend, console_errors: [], steps: {} };
const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
page.on("console", (m) => {
  if (m.type() === "error") result.console_errors.push(m.text());
});
page.on("pageerror", (e) => result.console_errors.push(String(e)));

async function status() {
  return statusOf(page);
}
async function waitFor(what, predicate) {
  const end = Date.now() + TIMEOUT_MS;
  let last = null;
  while (Date.now() < end) {
    last = await status();
    const panicked = await page.evaluate(() => (window.rigscope ? window.rigscope.has_panicked() : false));
    if (panicked) throw new Error(`the app panicked waiting for ${what}: ${await page.evaluate(() => window.rigscope.panic_message())}`);
    if (last && predicate(last)) return last;
    await page.waitForTimeout(100);
  }
  throw new Error(`timed out waiting for ${what}; last status: ${JSON.stringify(last)}`);
}
// A still frame: playback stopped at `frame`, then a few frames drawn so the view shows it.
async function still(frame, file) {
  // Counted before pause_at: the one frame it asks for may be drawn before the status is read.
  const drawn = (await status()).frames_drawn;
  await page.evaluate((f) => window.rigscope.pause_at(f), frame);
  // An idle page draws only when something changes: pause_at asks for one frame.
  const s = await waitFor(`frame ${frame} drawn`, (s) => s.frames_drawn > drawn && !s.playing && Math.abs(s.frame - frame) < 1e-3);
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(args.out, file) });
  return s;
}
// Drops files on the canvas made in the page (a DataTransfer of File objects: no folders, no handles).
async function drop(files) {
  const payload = files.map(([name, bytes]) => ({ name, data: Buffer.from(bytes).toString("base64") }));
  const transfer = await page.evaluateHandle((files) => {
    const dt = new DataTransfer();
    for (const f of files) {
      const bin = atob(f.data);
      const bytes = new Uint8Array(bin.length);
      for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
      dt.items.add(new File([bytes], f.name));
    }
    return dt;
  }, payload);
  for (const type of ["dragenter", "dragover", "drop"]) {
    await page.dispatchEvent("canvas", type, { dataTransfer: transfer });
  }
}

// Drops files and folders from the disk on the view, as a user's drag from the file manager does: Chromium's
// DevTools protocol hands the browser the paths, so the page gets folder entries and File System Access handles.
async function dropFromDisk(paths) {
  const [x, y, w, h] = (await status()).view;
  const cdp = await page.context().newCDPSession(page);
  const data = { items: [], files: paths.map((p) => path.resolve(p)), dragOperationsMask: 1 };
  for (const type of ["dragEnter", "dragOver", "drop"]) {
    await cdp.send("Input.dispatchDragEvent", { type, x: x + w / 2, y: y + h / 2, data });
  }
  await cdp.detach();
}

try {
  // 1. The demo, from navigation to its first frame.
  const started = Date.now();
  await page.goto(`${base}/index.html`);
  result.steps.demo = await waitFor("the demo's first frames", (s) => s.frames_drawn >= 3 && s.model === "demo.iqm");
  result.navigation_to_first_frame_ms = result.steps.demo.first_frame_ms;
  result.wall_to_third_frame_ms = Date.now() - started;
  result.steps.demo_still = await still(0, "demo.png");

  // 2. A click on the model fills the Picked section.
  const [x, y, w, h] = result.steps.demo_still.view;
  await page.mouse.click(x + w / 2, y + h * 0.45);
  result.steps.picked = await waitFor("a pick", (s) => s.picked);

  // 3. A malformed file shows its error, and the model stays.
  await drop([["broken.pmx", Buffer.from("PMX \u0000\u0000 this is not a model")]]);
  result.steps.malformed = await waitFor("the malformed file's error", (s) => s.notices.some((n) => n.includes("broken.pmx")));

  // 4. The corpus PMD with its texture and the dance, dropped together; the dance played, then two stills.
  const mmd = path.join(args.corpus, "mmd/threejs");
  await drop([
    ["miku_v2.pmd", fs.readFileSync(path.join(mmd, "miku/miku_v2.pmd"))],
    ["eyeM2.bmp", fs.readFileSync(path.join(mmd, "miku/eyeM2.bmp"))],
    ["wavefile_v2.vmd", fs.readFileSync(path.join(mmd, "vmds/wavefile_v2.vmd"))],
  ]);
  result.steps.dance = await waitFor("the dance", (s) => s.model === "miku_v2.pmd" && s.clip !== null && s.loading === 0);
  // A drop with a motion previews it moving (issue 39): nothing here asks it to play. Two pictures and two
  // statuses a second apart.
  const playing = await status();
  const shotA = await page.screenshot({ path: path.join(args.out, "drop-a.png") });
  await page.waitForTimeout(1000);
  const played = await status();
  const shotB = await page.screenshot({ path: path.join(args.out, "drop-b.png") });
  result.steps.drop_playing = playing;
  result.steps.drop_played = played;
  result.drop_pictures_differ = !shotA.equals(shotB);
  result.dance_frames_per_second = played.frames_drawn - playing.frames_drawn;
  result.steps.dance_a = await still(120, "dance-a.png");
  result.steps.dance_b = await still(400, "dance-b.png");

  // 4b. The same character, texture and dance as one .zip (made by tests/web_page.rs, in folders as shared).
  await drop([["miku.zip", fs.readFileSync(path.join(args.fixtures, "miku.zip"))]]);
  result.steps.zip = await waitFor(
    "the zip's model",
    (s) => s.documents === 2 && s.model === "ミク/miku_v2.pmd" && s.clip !== null && s.loading === 0 && s.textures === 1,
  );

  // 4c. A folder dropped from the disk: the character in one folder, its dance in another, all walked.
  await dropFromDisk([path.join(args.fixtures, "dance")]);
  result.steps.folder = await waitFor(
    "the dropped folder's model",
    (s) => s.documents === 3 && s.model === "dance/miku/miku_v2.pmd" && s.clip !== null && s.loading === 0 && s.textures === 1,
  );

  // 4d. A file dropped from the disk comes with its handle: written again on the disk, the page reloads it.
  const reloadFile = path.join(args.fixtures, "reload/model.iqe");
  await dropFromDisk([reloadFile]);
  result.steps.reload_before = await waitFor("the file to reload", (s) => s.model === "model.iqe" && s.loading === 0);
  await page.waitForTimeout(1000);
  fs.writeFileSync(reloadFile, fs.readFileSync(path.join(args.fixtures, "reload/replacement.iqe")));
  const reloadStarted = Date.now();
  result.steps.reload_after = await waitFor(
    "the rewritten file reloaded",
    (s) => s.vertices !== result.steps.reload_before.vertices && s.notices.some((n) => n === "Reloaded model.iqe"),
  );
  result.reload_ms = Date.now() - reloadStarted;

  // 5. An IQM opened through ?open=, its textures fetched from beside it.
  await page.goto(`${base}/index.html?open=fixtures/mrfixit/lsalzman_mrfixit.iqm`);
  result.steps.open_url = await waitFor(
    "the ?open= model and its textures",
    (s) => s.model === "lsalzman_mrfixit.iqm" && s.textures === 2 && s.loading === 0 && s.frames_drawn >= 3,
  );
  result.steps.open_url_still = await still(0, "iqm.png");

  // 5b. An RSM opened through ?open=: its texture fetched from the game data tree (data/texture/) beside it.
  await page.goto(`${base}/index.html?open=corpus/rsm/box_error_01.rsm`);
  result.steps.open_rsm = await waitFor(
    "the ?open= RSM and its data-tree texture",
    (s) => s.model === "box_error_01.rsm" && s.textures === 1 && s.loading === 0 && s.frames_drawn >= 3,
  );

  // 6. A VRM avatar and a VRMA motion dropped together: the motion attached through the humanoid, its
  // expression and spring-less avatar drawn with MToon; a still in the middle of the motion.
  await drop([
    ["avatar.vrm", fs.readFileSync(path.join(args.corpus, "vrm/VRMC_materials_mtoon_UV_Animation_Test.vrm"))],
    ["test.vrma", fs.readFileSync(path.join(args.corpus, "vrm/test.vrma"))],
  ]);
  result.steps.vrm = await waitFor("the VRM and its VRMA", (s) => s.model === "avatar.vrm" && s.clip !== null && s.loading === 0);
  result.steps.vrm_still = await still(45, "vrm.png");
} catch (e) {
  result.error = String(e && e.stack ? e.stack : e);
  await page.screenshot({ path: path.join(args.out, "failure.png") }).catch(() => {});
} finally {
  fs.writeFileSync(path.join(args.out, "result.json"), JSON.stringify(result, null, 2));
  await browser.close();
  server.close();
}
process.exit(result.error ? 1 : 0);
