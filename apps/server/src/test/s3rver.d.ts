/** The part of s3rver (an S3-compatible test server, no types of its own) the tests use. */
declare module 's3rver' {
  export interface S3rverOptions {
    address: string;
    port: number;
    directory: string;
    silent: boolean;
    configureBuckets: Array<{ name: string }>;
  }
  export interface ListOptions {
    prefix?: string;
    delimiter?: string;
    startAfter?: string;
    maxKeys?: number;
  }
  export interface Listing {
    objects: Array<{ key: string }>;
    commonPrefixes: string[];
    isTruncated: boolean;
  }
  export default class S3rver {
    constructor(options: S3rverOptions);
    store: { listObjects(bucket: string, options: ListOptions): Promise<Listing> };
    run(): Promise<{ address: string; port: number }>;
    close(): Promise<void>;
  }
}
