// The upstream of the side-by-side benchmark: an OpenAI-compatible server that answers at once with a fixed
// completion, or with stream: true 16 content chunks, a finish chunk and a usage chunk, so what is timed is
// the gateway in between. Its own process, one event loop.
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

http.createServer((req, res) => {
  const parts = [];
  req.on('data', (part) => parts.push(part));
  req.on('end', () => {
    if (req.url.endsWith('/models')) {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"object":"list","data":[{"id":"m","object":"model","created":1,"owned_by":"x"}]}');
    }
    if (/"stream"\s*:\s*true/.test(Buffer.concat(parts).toString())) {
      // each chunk its own write, as a server that decodes token by token sends them
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
      for (const event of stream) res.write(event);
      return res.end();
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(completion) });
    res.end(completion);
  });
}).listen(port, '127.0.0.1', () => console.log('upstream on', port));
