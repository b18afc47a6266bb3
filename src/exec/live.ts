// Output as it arrives, as text: one decoder per stream, so a character cut between two chunks is decoded whole
// rather than as two replacement characters. NUL becomes U+FFFD, as in the tail (decodeOutput). The text is still
// untrusted: whoever draws it passes it through visible().
import { StringDecoder } from 'node:string_decoder';

export type OutputStream = 'stdout' | 'stderr';

/** Turns byte chunks of both streams into text pieces for `onText`, in arrival order. */
export function liveText(onText: (stream: OutputStream, text: string) => void): (stream: OutputStream, chunk: Buffer) => void {
  const decoders: Record<OutputStream, StringDecoder> = { stdout: new StringDecoder('utf8'), stderr: new StringDecoder('utf8') };
  return (stream, chunk) => {
    const text = decoders[stream].write(chunk).replaceAll('\0', '\uFFFD');
    if (text !== '') onText(stream, text);
  };
}
