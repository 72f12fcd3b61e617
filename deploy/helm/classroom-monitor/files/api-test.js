// `helm test`: signs in through the gateway Service as a person would and reads the buildings.
// Runs with `node -e` in the gateway image (templates/tests/api-test.yaml), so it uses only Node.
// CM_URL: the gateway; CM_ORIGIN: its public origin (sent as Origin, like a browser);
// CM_USERNAME, CM_PASSWORD: the account it signs in as.
const { CM_URL: base, CM_ORIGIN: origin, CM_USERNAME: username, CM_PASSWORD: password } = process.env;

function fail(message) {
  console.error(`FAILED: ${message}`);
  process.exit(1);
}

async function call(method, path, options = {}) {
  try {
    return await fetch(`${base}${path}`, { method, signal: AbortSignal.timeout(20_000), ...options });
  } catch (error) {
    return fail(`${method} ${base}${path} got no answer: ${error.cause?.message ?? error.message}`);
  }
}

async function main() {
  if (!base || !username || !password) fail('CM_URL, CM_USERNAME and CM_PASSWORD are required');
  const login = await call('POST', '/api/login', {
    headers: { 'content-type': 'application/json', ...(origin ? { origin } : {}) },
    body: JSON.stringify({ username, password }),
  });
  if (login.status !== 200)
    fail(`signing in as "${username}" answered ${login.status}: ${await login.text()}`);
  const session = login.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .find((cookie) => cookie.startsWith('cm.sid='));
  if (!session) fail(`signing in as "${username}" set no session cookie`);

  const res = await call('GET', '/api/buildings', { headers: { cookie: session } });
  const body = await res.text();
  if (res.status !== 200) fail(`GET /api/buildings answered ${res.status}: ${body}`);
  const buildings = JSON.parse(body);
  if (!Array.isArray(buildings)) fail(`GET /api/buildings answered no list: ${body.slice(0, 200)}`);
  console.log(`OK: signed in as "${username}" and read ${buildings.length} building(s) through ${base}`);
}

main().catch((error) => fail(error.message));
