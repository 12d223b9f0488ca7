/**
 * Image requests: a user message with `image_url` parts (data URLs, as the
 * Chat Completions API takes them) is answered with what the bytes say —
 * format and pixel size read from the PNG/JPEG/GIF header — plus the
 * prompt, so a test sees that the real image arrived, not just a request.
 */
import type { ChatMessage } from './types.js';

/** The description for the last user message's images, or undefined when it has none. */
export function describeImages(message: ChatMessage | undefined): string | undefined {
  if (!message || !Array.isArray(message.content)) return undefined;
  const parts = message.content as readonly { type?: string; text?: string; image_url?: { url?: string } }[];
  const images = parts.filter((part) => part.type === 'image_url').map((part) => part.image_url?.url ?? '');
  if (!images.length) return undefined;
  const prompt = parts.flatMap((part) => (part.type === 'text' && part.text ? [part.text] : [])).join(' ');
  const seen = images.map((url, index) => `image ${index + 1}: ${describe(url)}`);
  return `Mock vision: ${seen.join('; ')}. Prompt: ${prompt || '(none)'}`;
}

function describe(url: string): string {
  const match = /^data:([^;,]+);base64,(.*)$/s.exec(url);
  if (!match) return 'not a data URL';
  const bytes = Buffer.from(match[2]!, 'base64');
  const size = pixelSize(bytes);
  return `${match[1]} ${bytes.length} bytes${size ? `, ${size.width}x${size.height} pixels` : ', unreadable header'}`;
}

function pixelSize(b: Buffer): { width: number; height: number } | undefined {
  if (b.length >= 24 && b.readUInt32BE(0) === 0x89504e47)
    return { width: b.readUInt32BE(16), height: b.readUInt32BE(20) };
  if (b.length >= 10 && b.toString('latin1', 0, 3) === 'GIF')
    return { width: b.readUInt16LE(6), height: b.readUInt16LE(8) };
  if (b.length >= 4 && b[0] === 0xff && b[1] === 0xd8) {
    for (let i = 2; i + 9 < b.length; ) {
      if (b[i] !== 0xff) return undefined;
      const marker = b[i + 1]!;
      if (marker >= 0xc0 && marker <= 0xc3) return { height: b.readUInt16BE(i + 5), width: b.readUInt16BE(i + 7) };
      i += 2 + b.readUInt16BE(i + 2);
    }
  }
  return undefined;
}
