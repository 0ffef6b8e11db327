// A modal question before something that cannot be undone; resolves true when the person confirms.
import { h } from './dom.js';

export function confirmAction(title, text, actionLabel) {
  return new Promise((resolve) => {
    const dialog = h('dialog', { 'aria-label': title },
      h('h2', {}, title), h('p', {}, text),
      h('form', { method: 'dialog' },
        h('button', { value: 'cancel', class: 'secondary' }, 'Cancel'),
        h('button', { value: 'confirm', class: 'danger' }, actionLabel)));
    dialog.addEventListener('close', () => {
      dialog.remove();
      resolve(dialog.returnValue === 'confirm');
    });
    document.body.append(dialog);
    dialog.showModal();
  });
}
