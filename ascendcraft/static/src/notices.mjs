// Write ../THIRD_PARTY_NOTICES.txt: the licence of every npm package that ends up in ../editor.js.
// The list of packages comes from esbuild's metafile (written by `npm run build`).
import { readFileSync, readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const meta = JSON.parse(readFileSync("meta.json", "utf8"));
const packages = new Set();
for (const input of Object.keys(meta.inputs)) {
  const match = input.match(/node_modules\/((?:@[^/]+\/)?[^/]+)\//);
  if (match) packages.add(match[1]);
}
const sections = [];
for (const name of [...packages].sort()) {
  const folder = join("node_modules", name);
  const { version, license } = JSON.parse(readFileSync(join(folder, "package.json"), "utf8"));
  const file = readdirSync(folder).find((f) => /^(licen[cs]e|copying)/i.test(f));
  const text = file ? readFileSync(join(folder, file), "utf8").trim() : `(no licence file; package.json says ${license})`;
  sections.push(`${name} ${version} (${license})\n${"-".repeat(60)}\n${text}\n`);
}
const header = "The editor bundle (editor.js) contains the following npm packages, under these licences.\n\n";
writeFileSync("../THIRD_PARTY_NOTICES.txt", header + sections.join("\n"));
console.log(`${packages.size} packages: ${[...packages].sort().join(", ")}`);
