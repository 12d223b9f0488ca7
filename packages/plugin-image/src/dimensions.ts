/**
 * The pixel size an image declares in its header, read without decoding it: a PNG of a few KB may declare 50,000 ×
 * 50,000 pixels (10 GB once decoded), and whoever decodes it (the provider, a later tool) pays for the declared size.
 * The image is refused before it is sent when the declared size is past `maxPixels`; one whose size cannot be read
 * is not a well-formed image and is refused too.
 */
import { ToolSearchError } from '@tool-search/kernel';
import { ImageErrors } from './errors.js';

export interface Dimensions {
  readonly width: number;
  readonly height: number;
}

/** Checks the declared size of `data` (of type `mime`) against `maxPixels`; returns it. */
export function checkPixels(data: Buffer, mime: string, input: string, maxPixels: number): Dimensions {
  const size = dimensions(data, mime);
  // A zero side is no size: a JPEG of height 0 takes its height from a DNL marker after the first scan.
  if (!size?.width || !size.height)
    throw new ToolSearchError(ImageErrors.IMAGE_UNREADABLE, `${input}: its ${mime} header gives no pixel size`, {
      details: { rule: 'dimensions', path: input },
    });
  const pixels = size.width * size.height;
  if (pixels > maxPixels)
    throw new ToolSearchError(
      ImageErrors.IMAGE_TOO_LARGE,
      `${input} declares ${size.width}×${size.height} pixels (${pixels}); the image tool sends at most ${maxPixels}; the image plugin's maxPixels option raises it`,
      { details: { rule: 'maxPixels', path: input, width: size.width, height: size.height, maxPixels } },
    );
  return size;
}

export function dimensions(b: Buffer, mime: string): Dimensions | undefined {
  switch (mime) {
    case 'image/png':
      // The first chunk is IHDR: width and height, 4 bytes each, after the signature, length and type.
      return b.length >= 24 && b.toString('latin1', 12, 16) === 'IHDR'
        ? { width: b.readUInt32BE(16), height: b.readUInt32BE(20) }
        : undefined;
    case 'image/gif':
      return gif(b);
    case 'image/jpeg':
      return jpeg(b);
    case 'image/webp':
      return webp(b);
    default:
      return undefined;
  }
}

/**
 * The logical screen, grown to hold every frame: decoders enlarge the screen to fit a first frame larger than it
 * (Chromium's does), so a 1×1 screen may carry a 65,535×65,535 frame. Walks the blocks to the trailer or the end.
 */
function gif(b: Buffer): Dimensions | undefined {
  if (b.length < 13) return undefined;
  let width = b.readUInt16LE(6);
  let height = b.readUInt16LE(8);
  let at = 13 + colorTable(b[10]!);
  while (at < b.length && b[at] !== 0x3b) {
    if (b[at] === 0x2c) {
      if (at + 10 > b.length) break;
      width = Math.max(width, b.readUInt16LE(at + 1) + b.readUInt16LE(at + 5));
      height = Math.max(height, b.readUInt16LE(at + 3) + b.readUInt16LE(at + 7));
      at += 10 + colorTable(b[at + 9]!) + 1; // the descriptor, its color table, the LZW code size
    } else if (b[at] === 0x21)
      at += 2; // extension introducer and label
    else break;
    while (at < b.length && b[at] !== 0) at += b[at]! + 1; // data sub-blocks
    at++;
  }
  return { width, height };
}

/** Bytes of the color table a GIF packed-fields byte announces. */
const colorTable = (packed: number) => (packed & 0x80 ? 3 * 2 ** ((packed & 7) + 1) : 0);

/** The frame header (SOF0–SOF15, not DHT, JPG or DAC), found by walking the markers from SOI. */
function jpeg(b: Buffer): Dimensions | undefined {
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return undefined;
    const marker = b[at + 1]!;
    if (marker === 0xff) {
      at++; // fill byte
      continue;
    }
    if (marker === 0x01 || (marker >= 0xd0 && marker <= 0xd7)) {
      at += 2; // markers without a length
      continue;
    }
    if (marker === 0xda || marker === 0xd9) return undefined; // scan data or end before any frame header
    const length = b.readUInt16BE(at + 2);
    const frame = marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc;
    if (frame)
      return at + 9 <= b.length ? { width: b.readUInt16BE(at + 7), height: b.readUInt16BE(at + 5) } : undefined;
    at += 2 + length;
  }
  return undefined;
}

/** The first chunk after `RIFF….WEBP`: VP8X (canvas), VP8L (lossless) or VP8 (lossy). */
function webp(b: Buffer): Dimensions | undefined {
  if (b.length < 30) return undefined;
  switch (b.toString('latin1', 12, 16)) {
    case 'VP8X':
      return { width: b.readUIntLE(24, 3) + 1, height: b.readUIntLE(27, 3) + 1 };
    case 'VP8L': {
      const bits = b.readUInt32LE(21);
      return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
    }
    case 'VP8 ':
      return { width: b.readUInt16LE(26) & 0x3fff, height: b.readUInt16LE(28) & 0x3fff };
    default:
      return undefined;
  }
}
