/** CopyObject's own limit: a larger object would need a multipart copy (the configuration keeps files under it). */
export const S3_COPY_MAX_BYTES = 5 * 1024 ** 3;
