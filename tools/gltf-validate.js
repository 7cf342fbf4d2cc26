// Validates a glTF file with the Khronos glTF-Validator (npm package
// gltf-validator; .ci/run installs it under target/npm) and prints
// `errors E warnings W infos I`, then the first errors and warnings.
// Usage: NODE_PATH=target/npm/node_modules node tools/gltf-validate.js FILE.glb
const fs = require('fs');
const validator = require('gltf-validator');
const bytes = new Uint8Array(fs.readFileSync(process.argv[2]));
validator.validateBytes(bytes).then((report) => {
  const i = report.issues;
  console.log(`errors ${i.numErrors} warnings ${i.numWarnings} infos ${i.numInfos}`);
  for (const m of i.messages.filter((m) => m.severity < 2).slice(0, 10)) {
    console.log(`${m.code} ${m.pointer || ''}: ${m.message}`);
  }
}).catch((e) => { console.error(String(e)); process.exit(2); });
