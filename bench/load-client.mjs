// One load slice for `npm run bench`, in its own process so that the measured server and the bench's
// own clients keep their CPU: autocannon (programmatic) with the options given as JSON in argv[2],
// every answer's latency recorded, so that slices of one target can be merged across rounds.
// Prints {seconds, latencies (ms, 2xx only), non2xx, errors, timeouts} as JSON.
import autocannon from 'autocannon';

const {
  url,
  connections,
  seconds,
  headers = {},
  method = 'GET',
  body,
  randomPath,
} = JSON.parse(process.argv[2] ?? '{}');
if (new URL(url).hostname !== '127.0.0.1') throw new Error('load only on loopback');
const latencies = [];
let non2xx = 0;
// randomPath {template, count, width}: each request's path is the template with `{n}` a random number in
// 1..count, zero-padded to width (e.g. documents read by random ids across a seeded set).
const requests = randomPath
  ? [
      {
        setupRequest: (request) => ({
          ...request,
          path: randomPath.template.replace(
            '{n}',
            String(1 + Math.floor(Math.random() * randomPath.count)).padStart(randomPath.width, '0'),
          ),
        }),
      },
    ]
  : undefined;
const instance = autocannon(
  {
    url,
    connections,
    duration: seconds,
    headers,
    method,
    ...(body === undefined ? {} : { body }),
    ...(requests ? { requests } : {}),
  },
  (error, result) => {
    if (error) throw error;
    process.stdout.write(
      JSON.stringify({ seconds: result.duration, latencies, non2xx, errors: result.errors, timeouts: result.timeouts }),
    );
  },
);
instance.on('response', (_client, statusCode, _bytes, responseTime) => {
  if (statusCode >= 200 && statusCode < 300) latencies.push(responseTime);
  else non2xx++;
});
