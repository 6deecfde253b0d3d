function history(c, key) {
  return c.db.kv.get(key);
}
function toMessages(input) {
  if (Array.isArray(input.messages)) return input.messages;
  return [{ role: 'user', content: JSON.stringify(input) }];
}
export const nodes = {
  'community.acme.tools.summarize': {
    async execute(ctx) { return { text: String(await history(ctx, 'last')) }; },
  },
  'community.acme.tools.chat': {
    async execute(ctx) { return { text: (await ctx.callAI({ messages: toMessages(ctx.inputs) })).content }; },
  },
  'community.acme.tools.push': {
    async execute(ctx) { return { messageId: ctx.inputs.deviceToken }; },
  },
};
