/**
 * Each conversation message is serialized once per turn: the request bodies of
 * later steps and the ledger reuse the text (a 1.5 MB user message is not
 * re-serialized on every provider request).
 */
const texts = new WeakMap<object, string>();

export function messageJson(message: object): string {
  let text = texts.get(message);
  if (text === undefined) texts.set(message, (text = JSON.stringify(message)));
  return text;
}

/** `[a,b,…]` from messages, each serialized at most once. */
export function messagesJson(messages: readonly object[]): string {
  return `[${messages.map(messageJson).join(',')}]`;
}
