// Message bytes to text. JSON-RPC messages MUST be UTF-8 encoded
// (basic/transports); Buffer#toString puts U+FFFD in place of what is not, so
// two different ids or arguments could read the same and a handler would see
// text the client never sent. What is not UTF-8 is refused instead, at the
// offset of its first bad byte.

/**
 * The text of `bytes[start, end)`, or, when they are not UTF-8, the offset
 * (from `start`) of the first byte that does not begin a valid character.
 */
export function utf8Text(bytes: Buffer, start = 0, end = bytes.length): string | number {
  const text = bytes.toString("utf8", start, end);
  // Text without U+FFFD was valid UTF-8; with it, it is a decoding error unless the bytes spelled
  // it out (EF BF BD), which the scan decides (no node:buffer import: the fetch handler runs here too).
  if (text.indexOf("\uFFFD") === -1) return text;
  const invalid = firstInvalidUtf8(bytes, start, end);
  return invalid === end ? text : invalid - start;
}

/** The offset of the first byte in `bytes[start, end)` that does not begin a valid UTF-8 character (RFC 3629 §4), or `end`. */
export function firstInvalidUtf8(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let i = start;
  while (i < end) {
    const lead = bytes[i]!;
    if (lead < 0x80) {
      i++;
      continue;
    }
    // The length of the sequence, and the range of its second byte (which excludes overlong
    // forms, the UTF-16 surrogates and code points past U+10FFFF); later bytes are 80..BF.
    let length: number;
    let low = 0x80;
    let high = 0xbf;
    if (lead >= 0xc2 && lead <= 0xdf) length = 2;
    else if (lead >= 0xe0 && lead <= 0xef) {
      length = 3;
      if (lead === 0xe0) low = 0xa0;
      else if (lead === 0xed) high = 0x9f;
    } else if (lead >= 0xf0 && lead <= 0xf4) {
      length = 4;
      if (lead === 0xf0) low = 0x90;
      else if (lead === 0xf4) high = 0x8f;
    } else return i;
    if (i + length > end) return i;
    const second = bytes[i + 1]!;
    if (second < low || second > high) return i;
    for (let k = 2; k < length; k++) {
      const next = bytes[i + k]!;
      if (next < 0x80 || next > 0xbf) return i;
    }
    i += length;
  }
  return end;
}

const decoder = new TextDecoder("utf-8", { ignoreBOM: true });

/** As utf8Text, for bytes that are not a Buffer (a web Request's body). */
export function utf8TextOfBytes(bytes: Uint8Array): string | number {
  const text = decoder.decode(bytes);
  if (text.indexOf("\uFFFD") === -1) return text;
  const invalid = firstInvalidUtf8(bytes);
  return invalid === bytes.length ? text : invalid;
}
