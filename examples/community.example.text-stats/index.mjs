// Executor for community.example.text-stats.word-count.
export const nodes = {
  'community.example.text-stats.word-count': async ({ input, config }) => ({
    words: input.text.split(/\s+/).filter((w) => w.length >= (config.minLength ?? 1)).length,
  }),
};
