// Pixel bombs (issue #40, item 5): a file of a few KB whose header declares 50,000 × 50,000 pixels (10 GB of RGBA
// once decoded). Before, it went to the provider as any image does; now its declared size is read from the header
// (never decoded here) and it is refused with IMAGE_TOO_LARGE past `maxPixels`, before any request.
import { mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKernel, type ToolCallOutcome } from '@tool-search/kernel';
import { startMockOpenAI, type MockOpenAI } from '@tool-search/mock-openai';
import { ImageErrors, imagePlugin } from '@tool-search/plugin-image';
import { dimensions } from '../src/dimensions.js';

/** A PNG declaring `width` × `height` 8-bit RGB pixels, with one deflated row of data (a valid zlib stream). */
function png(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
    const out = Buffer.alloc(8 + data.length + 4);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(crc32(body) >>> 0, 8 + data.length);
    return out;
  };
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 2, 0, 0, 0], 8);
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(Buffer.alloc(1 + Math.min(width, 4096) * 3))),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

/** SOI, an APP0 segment, then a baseline frame header (SOF0) declaring `width` × `height`. */
function jpeg(width: number, height: number): Buffer {
  const app0 = Buffer.from([0xff, 0xe0, 0x00, 0x10, ...Buffer.from('JFIF\0', 'latin1'), 1, 1, 0, 0, 1, 0, 1, 0, 0]);
  const sof = Buffer.from([0xff, 0xc0, 0x00, 0x11, 8, 0, 0, 0, 0, 3, 1, 0x11, 0, 2, 0x11, 1, 3, 0x11, 1]);
  sof.writeUInt16BE(height, 5);
  sof.writeUInt16BE(width, 7);
  return Buffer.concat([Buffer.from([0xff, 0xd8]), app0, sof, Buffer.from([0xff, 0xd9])]);
}

/** A WebP whose VP8X chunk declares a `width` × `height` canvas. */
function webp(width: number, height: number): Buffer {
  const b = Buffer.alloc(30);
  b.write('RIFF', 0, 'latin1');
  b.writeUInt32LE(22, 4);
  b.write('WEBPVP8X', 8, 'latin1');
  b.writeUInt32LE(10, 16);
  b.writeUIntLE(width - 1, 24, 3);
  b.writeUIntLE(height - 1, 27, 3);
  return b;
}

const gif = (width: number, height: number) => {
  const b = Buffer.from('GIF89a\0\0\0\0\0\0\0;', 'latin1');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  return b;
};

/** A GIF89a header for a `width` × `height` screen with these packed fields. */
function gifHeader(width: number, height: number, packed = 0): Buffer {
  const b = Buffer.from('GIF89a\0\0\0\0\0\0\0', 'latin1');
  b.writeUInt16LE(width, 6);
  b.writeUInt16LE(height, 8);
  b[10] = packed;
  return b;
}

/** An image descriptor at (`left`, `top`), `width` × `height`, no local table, with one tiny LZW sub-block. */
function gifFrame(left: number, top: number, width: number, height: number): Buffer {
  const b = Buffer.alloc(10);
  b[0] = 0x2c;
  b.writeUInt16LE(left, 1);
  b.writeUInt16LE(top, 3);
  b.writeUInt16LE(width, 5);
  b.writeUInt16LE(height, 7);
  return Buffer.concat([b, Buffer.from([2, 2, 0x4c, 0x01, 0])]);
}

let mock: MockOpenAI;
const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'image-pixels-')));
beforeAll(async () => {
  mock = await startMockOpenAI();
  writeFileSync(join(workspace, 'bomb.png'), png(50_000, 50_000));
  writeFileSync(join(workspace, 'bomb.jpg'), jpeg(60_000, 60_000));
  writeFileSync(join(workspace, 'bomb.gif'), gif(65_535, 65_535));
  writeFileSync(join(workspace, 'bomb.webp'), webp(16_384, 16_384));
  writeFileSync(join(workspace, 'small.png'), png(7, 5));
  writeFileSync(
    join(workspace, 'frame.gif'),
    Buffer.concat([gifHeader(1, 1), gifFrame(0, 0, 65_535, 65_535), Buffer.from([0x3b])]),
  );
  writeFileSync(
    join(workspace, 'offset.gif'),
    Buffer.concat([gifHeader(1, 1), gifFrame(65_535, 65_535, 1, 1), Buffer.from([0x3b])]),
  );
  writeFileSync(join(workspace, 'dnl.jpg'), jpeg(65_535, 0));
  writeFileSync(join(workspace, 'zero.png'), png(0, 7));
  writeFileSync(join(workspace, 'headless.jpg'), Buffer.from([0xff, 0xd8, 0xff, 0xda, 0, 2, 0xff, 0xd9]));
});
afterAll(async () => {
  await mock.close();
});

async function call(image: string, maxPixels?: number): Promise<ToolCallOutcome> {
  const plugin = imagePlugin({
    workspace,
    model: 'mock-vision',
    baseURL: mock.url,
    apiKey: 'mock',
    ...(maxPixels ? { maxPixels } : {}),
  });
  const kernel = createKernel({ plugins: [plugin] });
  const run = await kernel.createRun();
  try {
    return await run.call('image', { image });
  } finally {
    await kernel.close();
  }
}

const code = (outcome: ToolCallOutcome) => (outcome.status === 'error' ? outcome.error.code : outcome.status);

describe('image against pixel bombs', () => {
  it.each(['bomb.png', 'bomb.jpg', 'bomb.gif', 'bomb.webp'])(
    'refuses %s, a few bytes declaring gigapixels, before asking the model',
    async (image) => {
      const requests = mock.requests.length;
      expect(code(await call(image))).toBe(ImageErrors.IMAGE_TOO_LARGE);
      expect(mock.requests.length).toBe(requests);
    },
  );

  it('maxPixels sets the limit', async () => {
    expect(code(await call('small.png', 34))).toBe(ImageErrors.IMAGE_TOO_LARGE);
    expect(await call('small.png', 35)).toMatchObject({
      status: 'ok',
      result: { structuredContent: { width: 7, height: 5 } },
    });
  });

  it('refuses an image whose header gives no size', async () => {
    expect(code(await call('headless.jpg'))).toBe(ImageErrors.IMAGE_UNREADABLE);
  });

  it.each([
    // A 1×1 screen whose first frame is 65,535 × 65,535: decoders grow the screen to fit it (Chromium's does).
    ['a GIF frame larger than its screen', 'frame.gif', ImageErrors.IMAGE_TOO_LARGE],
    ['a GIF frame placed far outside its screen', 'offset.gif', ImageErrors.IMAGE_TOO_LARGE],
    // Height 0: the height comes from a DNL marker after the first scan, up to 65,535.
    ['a JPEG of height 0', 'dnl.jpg', ImageErrors.IMAGE_UNREADABLE],
    ['a PNG of width 0', 'zero.png', ImageErrors.IMAGE_UNREADABLE],
  ])('refuses %s (%s) before asking the model', async (_name, image, expected) => {
    const requests = mock.requests.length;
    expect(code(await call(image))).toBe(expected);
    expect(mock.requests.length).toBe(requests);
  });

  it('reads every frame of a GIF with color tables and extensions', () => {
    const animated = Buffer.concat([
      gifHeader(10, 10, 0x81), // a global table of 4 colors
      Buffer.alloc(12),
      Buffer.from([0x21, 0xf9, 4, 0, 0, 0, 0, 0]), // a graphic control extension
      gifFrame(0, 0, 10, 10),
      gifFrame(5, 2, 20, 30),
      Buffer.from([0x3b]),
    ]);
    expect(dimensions(animated, 'image/gif')).toEqual({ width: 25, height: 32 });
  });

  it('reads the size of lossy and lossless WebP too', () => {
    const vp8 = Buffer.alloc(30);
    vp8.write('RIFF\0\0\0\0WEBPVP8 ', 0, 'latin1');
    vp8.writeUInt16LE(640, 26);
    vp8.writeUInt16LE(480, 28);
    expect(dimensions(vp8, 'image/webp')).toEqual({ width: 640, height: 480 });
    const vp8l = Buffer.alloc(30);
    vp8l.write('RIFF\0\0\0\0WEBPVP8L', 0, 'latin1');
    vp8l.writeUInt32LE(639 | (479 << 14), 21);
    expect(dimensions(vp8l, 'image/webp')).toEqual({ width: 640, height: 480 });
  });
});
