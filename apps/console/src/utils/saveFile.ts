import dayjs from 'dayjs';

/** Offers `blob` to the browser as a download named `name`. */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.style.display = 'none';
  document.body.appendChild(link);
  link.click();
  link.remove();
  // give the browser time to start the download before the URL goes
  setTimeout(() => URL.revokeObjectURL(url), 1000);
}

/** Today as YYYYMMDD (local), for file names. */
export function fileDate(date: Date = new Date()): string {
  return dayjs(date).format('YYYYMMDD');
}
