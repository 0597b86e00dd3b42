/**
 * The private S3-compatible server of the object-storage tests, as a process of its own (started by
 * test/s3-server.ts): s3rver on 127.0.0.1, a free port (or the one given), objects in the directory given; prints
 * `{"port":N}` once listening and runs until killed.
 *
 * Run with --openssl-legacy-provider: s3rver 3.7 (the latest for Node 20) seals its listings'
 * continuation tokens with DES, which OpenSSL 3 has only in its legacy provider.
 */
import S3rver, { type ListOptions } from 's3rver';

const [directory, bucket, wanted = '0'] = process.argv.slice(2);
if (!directory || !bucket) throw new Error('usage: s3rver-main DIRECTORY BUCKET [PORT]');

const server = new S3rver({
  address: '127.0.0.1',
  port: Number(wanted),
  directory,
  silent: process.env.GANTRY_TEST_S3_LOG !== '1',
  configureBuckets: [{ name: bucket }],
});

/**
 * s3rver prunes its folder walk below the first delimiter, so a listing with a delimiter misses the
 * common prefix of a folder holding only folders (`a/` when all there is is `a/b/c`). Its listing
 * without a delimiter is right: the delimited one is folded from it here, as S3 does it. Enough for
 * test folders (pages of a thousand keys; a prefix may repeat across pages).
 */
const store = server.store;
const list = store.listObjects.bind(store);
store.listObjects = async (name: string, options: ListOptions) => {
  const { delimiter, prefix = '', maxKeys = Number.POSITIVE_INFINITY } = options;
  if (!delimiter) return list(name, options);
  const all = await list(name, { ...options, delimiter: '', maxKeys: Number.POSITIVE_INFINITY });
  const prefixes = new Set<string>();
  const objects: typeof all.objects = [];
  for (const object of all.objects) {
    const at = object.key.indexOf(delimiter, prefix.length);
    if (at !== -1) prefixes.add(object.key.slice(0, at + delimiter.length));
    else if (objects.length < maxKeys) objects.push(object);
    else return { objects, commonPrefixes: [...prefixes].sort(), isTruncated: true };
  }
  return { objects, commonPrefixes: [...prefixes].sort(), isTruncated: false };
};

const { port } = await server.run();
process.stdout.write(`${JSON.stringify({ port })}\n`);
