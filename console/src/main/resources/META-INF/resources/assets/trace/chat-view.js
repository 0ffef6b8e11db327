// An LLM call (inputs with messages, output with choices) read as a conversation.
import { h } from '../shared/dom.js';

export function isChat(call) {
  return Array.isArray(call.inputs?.messages) && Array.isArray(call.output?.choices);
}

const text = (content) => (typeof content === 'string' ? content
  : Array.isArray(content) ? content.map((part) => part.text ?? JSON.stringify(part)).join('\n') : JSON.stringify(content));

export function chatView(call) {
  const messages = [...call.inputs.messages, ...call.output.choices.map((choice) => choice.message ?? { role: 'assistant', content: choice.text })];
  return h('ol', { class: 'chat' }, messages.map((message) => h('li', { class: `chat-${message.role}` },
    h('span', { class: 'chat-role' }, message.role), h('div', { class: 'chat-text' }, text(message.content ?? '')))));
}
