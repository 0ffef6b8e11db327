// The upstream of the side-by-side benchmark: an OpenAI-compatible server that answers at once with a fixed
// completion, or with stream: true 16 content chunks, a finish chunk and a usage chunk, so what is timed is
// the gateway in between. POST /v1/responses answers the same in the Responses API's terms: a Response, or its
// event sequence (created, in_progress, 16 output_text.delta, completed with the usage), each event its own write
// with its event: line, as OpenAI sends them. Its own process, one event loop.
import http from 'node:http';

const port = Number(process.env.PORT || 9901);
const CHUNKS = 16;
const completion = JSON.stringify({
  id: 'chatcmpl-x', object: 'chat.completion', created: 1, model: 'm',
  choices: [{ index: 0, message: { role: 'assistant', content: 'hello there' }, finish_reason: 'stop' }],
  usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
});
const chunk = (delta, finish, usage) => 'data: ' + JSON.stringify({
  id: 'chatcmpl-x', object: 'chat.completion.chunk', created: 1, model: 'm',
  choices: usage ? [] : [{ index: 0, delta, finish_reason: finish }], ...(usage ? { usage } : {}),
}) + '\n\n';
const stream = [chunk({ role: 'assistant', content: 'w0 ' }, null)]
  .concat(Array.from({ length: CHUNKS - 1 }, (_, i) => chunk({ content: `w${i + 1} ` }, null)))
  .concat([chunk({}, 'stop'), chunk(null, null, { prompt_tokens: 5, completion_tokens: CHUNKS, total_tokens: 5 + CHUNKS }),
    'data: [DONE]\n\n']);

const responseOf = (status, output, usage) => ({
  id: 'resp_x', object: 'response', created_at: 1, status, model: 'm', output, usage,
  error: null, incomplete_details: null, instructions: null, max_output_tokens: 8, parallel_tool_calls: true,
  previous_response_id: null, store: false, temperature: 1, text: { format: { type: 'text' } }, tool_choice: 'auto',
  tools: [], top_p: 1, truncation: 'disabled', metadata: {},
});
const message = (text) => [{ id: 'msg_x', type: 'message', status: 'completed', role: 'assistant',
  content: [{ type: 'output_text', text, annotations: [] }] }];
const response = JSON.stringify(responseOf('completed', message('hello there'),
  { input_tokens: 5, output_tokens: 2, total_tokens: 7 }));
let sequence = 0;
const event = (type, fields) => `event: ${type}\ndata: ${JSON.stringify({ type, sequence_number: sequence++, ...fields })}\n\n`;
const words = Array.from({ length: CHUNKS }, (_, i) => `w${i} `);
const responseStream = [
  event('response.created', { response: responseOf('in_progress', [], null) }),
  event('response.in_progress', { response: responseOf('in_progress', [], null) }),
  ...words.map((delta) => event('response.output_text.delta',
    { item_id: 'msg_x', output_index: 0, content_index: 0, delta, logprobs: [] })),
  event('response.completed', { response: responseOf('completed', message(words.join('')),
    { input_tokens: 5, output_tokens: CHUNKS, total_tokens: 5 + CHUNKS }) }),
];

http.createServer((req, res) => {
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', () => {
    if (req.url.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"object":"list","data":[{"id":"m","object":"model","created":1,"owned_by":"x"}]}');
    }
    const streamed = /"stream"\s*:\s*true/.test(Buffer.concat(parts).toString());
    if (req.url.endsWith('/responses')) {
      if (!streamed) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(response) });
        return res.end(response);
      }
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const part of responseStream) res.write(part);
      return res.end();
    }
    if (streamed) {
      // each chunk its own write, as a server that decodes token by token sends them
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of stream) res.write(event);
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(completion) });
    res.end(completion);
  });
}).listen(port, '127.0.0.1', () => console.log('upstream on', port));
