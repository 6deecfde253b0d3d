export const nodes = {};
export default { nodes };
