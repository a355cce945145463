// Runs the Khronos glTF-Validator over the .glb/.gltf files named on the command line and prints one JSON
// report per line: {"file", "errors", "warnings", "infos", "messages": [{"code", "severity", "message",
// "pointer"}]} (severity 0 error, 1 warning, 2 info, 3 hint). Used by tests/gltf_export.rs.
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import validator from 'gltf-validator';

for (const file of process.argv.slice(2)) {
  const bytes = new Uint8Array(await readFile(file));
  const dir = path.dirname(file);
  const report = await validator.validateBytes(bytes, {
    uri: path.basename(file),
    maxIssues: 0,
    externalResourceFunction: (uri) =>
      readFile(path.join(dir, decodeURIComponent(uri))).then((b) => new Uint8Array(b)),
  });
  const issues = report.issues;
  console.log(JSON.stringify({
    file,
    errors: issues.numErrors,
    warnings: issues.numWarnings,
    infos: issues.numInfos,
    messages: issues.messages.map((m) => ({ code: m.code, severity: m.severity, message: m.message, pointer: m.pointer })),
  }));
}
