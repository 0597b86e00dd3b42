/** The zip format's signatures, limits and flags that both our reader and our writer use (APPNOTE 6.3). */
export const LOCAL_HEADER = 0x04034b50;
export const CENTRAL_HEADER = 0x02014b50;
export const END = 0x06054b50;
export const END64 = 0x06064b50;
export const END64_LOCATOR = 0x07064b50;
export const MAX32 = 0xffffffff;
export const MAX16 = 0xffff;
export const UTF8_NAMES = 0x0800;
export const ZIP64_EXTRA = 0x0001;
export const EXTENDED_TIME = 0x5455;
