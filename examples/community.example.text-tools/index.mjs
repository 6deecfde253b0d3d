// Executor for community.example.text-tools.uppercase.
export const nodes = {
  'community.example.text-tools.uppercase': async ({ input, config }) => ({
    text: input.text.toLocaleUpperCase(config.locale ?? 'en'),
  }),
};
