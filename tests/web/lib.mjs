// What page.mjs (the page tests) and frame_time.mjs (the page's frame-time benchmark) share: their arguments,
// a static server on 127.0.0.1 and Debian's Chromium launched for one GPU path.

import http from "node:http";
import fs from "node:fs";
import path from "node:path";
import { chromium } from "playwright-core";

/// `--name value` pairs of the command line; those in `required` must be there.
export function parseArgs(required) {
  const args = Object.fromEntries(
    process.argv.slice(2).reduce((acc, a, i, all) => (a.startsWith("--") ? [...acc, [a.slice(2), all[i + 1]]] : acc), []),
  );
  for (const need of required) {
    if (!args[need]) throw new Error(`--${need} is required`);
  }
  return args;
}

/// Serves `roots` (URL prefix such as "/corpus/" to a folder; "/" is the site) on 127.0.0.1; returns the server
/// and its base URL.
export async function serve(roots) {
  const TYPES = { ".html": "text/html", ".js": "text/javascript", ".wasm": "application/wasm", ".ttf": "font/ttf" };
  const prefixes = Object.keys(roots).sort((a, b) => b.length - a.length);
  const server = http.createServer((req, res) => {
    const rel = decodeURIComponent(new URL(req.url, "http://127.0.0.1").pathname);
    const prefix = prefixes.find((p) => rel.startsWith(p));
    const root = roots[prefix];
    const inside = rel.slice(prefix.length) || (prefix === "/" ? "index.html" : "");
    const file = path.resolve(root, inside);
    if (!file.startsWith(path.resolve(root)) || !fs.existsSync(file) || !fs.statSync(file).isFile()) {
      res.writeHead(404);
      return res.end();
    }
    res.writeHead(200, { "Content-Type": TYPES[path.extname(file)] ?? "application/octet-stream" });
    fs.createReadStream(file).pipe(res);
  });
  await new Promise((ok) => server.listen(0, "127.0.0.1", ok));
  return { server, base: `http://127.0.0.1:${server.address().port}` };
}

/// Chromium for one GPU path:
/// - "webgpu": WebGPU on SwiftShader's Vulkan (without the last three flags a WebGPU canvas screenshots blank,
///   ../shared/notes/web.md section 6);
/// - "webgl": no WebGPU adapter, so wgpu falls back to WebGL2 (ANGLE on SwiftShader);
/// - "webgl-llvmpipe": WebGL2 through ANGLE on Mesa's llvmpipe OpenGL, the software renderer the desktop window
///   uses with WGPU_BACKEND=gl (needs an X display: DISPLAY, e.g. Xvfb).
export async function launch(backend, executablePath = "/usr/bin/chromium") {
  const flags = ["--no-sandbox", "--disable-quic", "--no-first-run", "--disable-background-networking",
    "--disable-component-update", "--disable-sync"];
  if (backend === "webgpu") {
    flags.push("--enable-unsafe-webgpu", "--enable-features=Vulkan", "--use-vulkan=swiftshader", "--use-angle=swiftshader");
  } else if (backend === "webgl-llvmpipe") {
    if (!process.env.DISPLAY) throw new Error("webgl-llvmpipe needs an X display (DISPLAY)");
    flags.push("--use-angle=gl", "--ignore-gpu-blocklist");
  } else if (backend !== "webgl") {
    throw new Error(`unknown backend ${backend}`);
  }
  return chromium.launch({ executablePath, args: flags, headless: true });
}

/// The app's status() on `page` (null before it started).
export async function status(page) {
  return JSON.parse(await page.evaluate(() => (window.rigscope ? window.rigscope.status() : "null")));
}
