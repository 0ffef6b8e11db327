// An LLM call (inputs with messages, output with choices) read as a conversation.
import { h } from '../shared/dom.js';

export function isChat(call) {
  return Array.isArray(call.inputs?.messages) && Array.isArray(call.output?.choices);
}

/** A message's content as text: a string as it is, content parts by their text, anything else as JSON. */
export const messageText = (content) => (typeof content === 'string' ? content
  : Array.isArray(content) ? content.map((part) => part.text ?? JSON.stringify(part)).join('\n') : JSON.stringify(content));

/** Chat messages as a conversation, one item per message with its role. */
export function messagesView(messages) {
  return h('ol', { class: 'chat' }, messages.map((message) => h('li', { class: `chat-${message.role}` },
    h('span', { class: 'chat-role' }, message.role), h('div', { class: 'chat-text' }, messageText(message.content ?? '')))));
}

export function chatView(call) {
  return messagesView([...call.inputs.messages, ...call.output.choices.map((choice) => choice.message ?? { role: 'assistant', content: choice.text })]);
}
