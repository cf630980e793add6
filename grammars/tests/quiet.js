// Preloaded by `npm test`: the Markdown grammar embeds dozens of other
// languages (fenced code blocks) that these tests do not load. Drop the
// "grammar not found" warnings for them so real failures stand out.
'use strict';
const warn = console.warn;
console.warn = (...args) => {
  if (typeof args[0] === 'string' && args[0].startsWith('grammar not found for')) return;
  warn(...args);
};
