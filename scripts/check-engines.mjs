// npm run check:engines (run by npm run lint, so by npm test too): every installed package's
// `engines.node` must accept the Node versions this project supports (root package.json `engines.node`):
// its lowest version (20.19.0 for ">=20.19") and the Node running the check. Prints the offenders and
// exits 1 when there are any; fix them by pinning a version that supports Node 20 (root `overrides`).
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import semver from 'semver';

const ROOT = path.resolve(import.meta.dirname, '..');
const readJson = (file) => JSON.parse(readFileSync(file, 'utf8'));

/** The versions checked: the project's lowest supported one, and the running one when it is supported. */
export function supportedVersions(projectRange, running = process.version) {
  const lowest = semver.minVersion(projectRange);
  if (!lowest) throw new Error(`root package.json engines.node "${projectRange}" admits no version`);
  const versions = [lowest.version];
  if (semver.satisfies(running, projectRange)) versions.push(semver.clean(running));
  return [...new Set(versions)];
}

/** Every package directory under a node_modules folder, nested ones included. */
function* packagesUnder(nodeModules) {
  if (!existsSync(nodeModules)) return;
  for (const entry of readdirSync(nodeModules, { withFileTypes: true })) {
    if (!entry.isDirectory() || entry.name.startsWith('.')) continue;
    const dir = path.join(nodeModules, entry.name);
    if (entry.name.startsWith('@')) {
      for (const scoped of readdirSync(dir, { withFileTypes: true })) {
        if (scoped.isDirectory()) yield* packageAt(path.join(dir, scoped.name));
      }
    } else {
      yield* packageAt(dir);
    }
  }
}

function* packageAt(dir) {
  const manifest = path.join(dir, 'package.json');
  if (existsSync(manifest)) yield { dir, manifest: readJson(manifest) };
  yield* packagesUnder(path.join(dir, 'node_modules'));
}

export function checkEngines(root = ROOT) {
  const rootManifest = readJson(path.join(root, 'package.json'));
  const projectRange = rootManifest.engines?.node;
  if (!projectRange) throw new Error('root package.json has no engines.node');
  const versions = supportedVersions(projectRange);
  // The root node_modules and the workspaces' own (npm puts a conflicting version there).
  const folders = [path.join(root, 'node_modules')];
  for (const pattern of rootManifest.workspaces ?? []) {
    const parent = path.join(root, pattern.replace(/\/\*$/, ''));
    if (!existsSync(parent)) continue;
    for (const entry of readdirSync(parent, { withFileTypes: true })) {
      if (entry.isDirectory()) folders.push(path.join(parent, entry.name, 'node_modules'));
    }
  }
  const offenders = [];
  let checked = 0;
  const seen = new Set();
  for (const folder of folders) {
    for (const { dir, manifest } of packagesUnder(folder)) {
      if (seen.has(dir)) continue;
      seen.add(dir);
      const range = manifest.engines?.node;
      if (typeof range !== 'string') continue;
      checked++;
      const refused = versions.filter((v) => !semver.satisfies(v, range, { includePrerelease: true }));
      if (refused.length) {
        offenders.push({
          name: manifest.name,
          version: manifest.version,
          range,
          refused,
          dir: path.relative(root, dir),
        });
      }
    }
  }
  return { projectRange, versions, checked, offenders };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const { projectRange, versions, checked, offenders } = checkEngines();
  if (offenders.length) {
    console.error(`Packages whose engines.node refuses a Node version the project supports (${projectRange}):`);
    for (const o of offenders) {
      console.error(`  ${o.name}@${o.version} (${o.dir}) wants "${o.range}": refuses ${o.refused.join(', ')}`);
    }
    process.exit(1);
  }
  console.log(`engines: ${checked} packages accept Node ${versions.join(', ')} (${projectRange})`);
}
