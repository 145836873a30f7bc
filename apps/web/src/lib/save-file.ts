/** Hands a file to the browser's downloads through a short-lived Blob URL. */
export function saveFile(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // The browser has taken the file once the click's task is over; give it a moment anyway.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
