// One load slice for `npm run bench`, in its own process so that the measured server and the bench's
// own clients keep their CPU: autocannon (programmatic) with the options given as JSON in argv[2],
// every answer's latency recorded, so that slices of one target can be merged across rounds.
// Prints {seconds, latencies (ms, 2xx only), non2xx, errors, timeouts} as JSON.
import autocannon from 'autocannon';

const { url, connections, seconds, headers = {}, method = 'GET', body } = JSON.parse(process.argv[2] ?? '{}');
if (new URL(url).hostname !== '127.0.0.1') throw new Error('load only on loopback');
const latencies = [];
let non2xx = 0;
const instance = autocannon(
  { url, connections, duration: seconds, headers, method, ...(body === undefined ? {} : { body }) },
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
