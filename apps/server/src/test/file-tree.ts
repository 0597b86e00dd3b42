import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';

/** Every folder and file under `root` (none when it is missing), in name order: folders as 'dir', files as their SHA-256. */
export async function fileTree(root: string): Promise<Record<string, string>> {
  const found: Record<string, string> = {};
  const walk = async (folder: string, prefix: string) => {
    const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
    for (const entry of entries.sort((x, y) => x.name.localeCompare(y.name))) {
      const relative = `${prefix}${entry.name}`;
      if (entry.isDirectory()) {
        found[`${relative}/`] = 'dir';
        await walk(path.join(folder, entry.name), `${relative}/`);
      } else {
        found[relative] = createHash('sha256')
          .update(await readFile(path.join(folder, entry.name)))
          .digest('hex');
      }
    }
  };
  await walk(root, '');
  return found;
}
