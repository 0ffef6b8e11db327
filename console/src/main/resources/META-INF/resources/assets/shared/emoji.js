// Emoji where the machine has a colour emoji font, their names where it has none (a missing glyph draws an empty
// box). The check draws one emoji on a canvas and looks for colour: emoji fonts draw in colour, missing-glyph boxes
// and text fallbacks in one ink. The answer goes on <html data-emoji="glyphs|text">, which the stylesheet reads.
import { h } from './dom.js';

export function detectEmojiSupport(root = document.documentElement) {
  const canvas = document.createElement('canvas');
  canvas.width = 32;
  canvas.height = 32;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  let coloured = false;
  if (context) {
    context.textBaseline = 'top';
    context.font = '24px sans-serif';
    context.fillText('👍', 0, 0);
    const pixels = context.getImageData(0, 0, 32, 32).data;
    for (let at = 0; at < pixels.length && !coloured; at += 4) {
      const [red, green, blue, alpha] = pixels.slice(at, at + 4);
      coloured = alpha > 0 && (Math.abs(red - green) > 24 || Math.abs(green - blue) > 24);
    }
  }
  root.dataset.emoji = coloured ? 'glyphs' : 'text';
  return coloured;
}

/** The emoji with its name: the glyph shows where emoji draw, the name where they do not; the name is its title. */
export function emoji(glyph, name) {
  return h('span', { class: 'emoji', title: name },
    h('span', { class: 'emoji-glyph', 'aria-hidden': 'true' }, glyph), h('span', { class: 'emoji-name' }, name));
}
