// Encryption keys that a system on one machine makes for itself, so that webhook channels and
// two-factor sign-in work from the first `npm start` instead of being refused until someone sets them.
const crypto = require('node:crypto');
const fs = require('node:fs');
const path = require('node:path');

/** Each key, with the file of the data folder it is kept in. */
const LOCAL_KEYS = [
  { variable: 'ALERTS_SECRET_KEY', file: 'alerts-secret-key' },
  { variable: 'AUTH_TOTP_KEY', file: 'auth-totp-key' },
];

/** What the services accept: 32 bytes as base64 (see encryptionKey in libs/platform). */
const isKey = (text) => /^[A-Za-z0-9+/]{43}=?$/.test(text) && Buffer.from(text, 'base64').length === 32;

/**
 * The key kept in `file`, made once. A file that holds something else is refused rather than
 * replaced: the secrets sealed with the old key would be lost without a word.
 */
function keptKey(file) {
  const made = crypto.randomBytes(32).toString('base64');
  try {
    fs.writeFileSync(file, `${made}\n`, { mode: 0o600, flag: 'wx' });
    return made;
  } catch (error) {
    // Kept from an earlier start (or made a moment ago by a start beside this one).
    if (error.code !== 'EEXIST') throw error;
  }
  const kept = fs.readFileSync(file, 'utf8').trim();
  if (!isKey(kept))
    throw new Error(
      `${file} does not hold a key (32 random bytes in base64): restore it, or delete it to have a new one ` +
        'made (what was encrypted with the old one can then no longer be read)',
    );
  return kept;
}

/**
 * Sets each key that is not given (by value or `<NAME>_FILE`) to the one kept in `dataDir`. Not
 * with NODE_ENV=production: there the keys are the operator's to set and back up, and a feature
 * without its key stays refused, as the services' configuration says.
 * @param {Record<string,string|undefined>} env changed in place
 * @param {string} dataDir
 */
function applyLocalKeys(env, dataDir) {
  if (env.NODE_ENV === 'production') return;
  for (const { variable, file } of LOCAL_KEYS) {
    if (env[variable] || env[`${variable}_FILE`]) continue;
    fs.mkdirSync(dataDir, { recursive: true });
    env[variable] = keptKey(path.join(dataDir, file));
  }
}

module.exports = { applyLocalKeys, LOCAL_KEYS };
